/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This machine's clocks (timefmt.h): the boot time and the time slept
 * since boot, pinned for tests by KDMESG_TEST_CLOCKS and KDMESG_BOOT_TIME (or
 * util-linux's DMESG_TEST_BOOTIME).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "time/timefmt.h"

#define USEC_PER_SEC 1000000LL

static int64_t timespec_usec(const struct timespec *ts) {
        return (int64_t)ts->tv_sec * USEC_PER_SEC + ts->tv_nsec / 1000;
}

int boot_time_from_stat(const char *path, int64_t *ret_usec) {
        FILE *f = fopen(path, "re");
        char line[256];
        long long v;
        int e = -ENOENT;

        if (!f)
                return -errno;
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "btime %lld", &v) == 1) {
                        *ret_usec = (int64_t)v * USEC_PER_SEC;
                        e = 0;
                        break;
                }
        fclose(f);
        return e;
}

/* KDMESG_TEST_CLOCKS: three times in seconds; 0 or -EINVAL. */
static int test_clocks(const char *s, int64_t ret[3]) {
        char buf[128], *save = NULL, *w;
        int i;

        if (strlen(s) >= sizeof(buf))
                return -EINVAL;
        memcpy(buf, s, strlen(s) + 1);
        for (i = 0, w = strtok_r(buf, " ", &save); i < 3; i++, w = strtok_r(NULL, " ", &save))
                if (!w || time_parse_seconds(w, &ret[i]) < 0)
                        return -EINVAL;
        return w ? -EINVAL : 0;
}

int clocks_read(int64_t *ret_boot_usec, int64_t *ret_slept_usec) {
        const char *pinned = getenv("KDMESG_TEST_CLOCKS");
        struct timespec real, mono, boot;
        int64_t c[3];

        if (pinned && *pinned) {
                if (test_clocks(pinned, c) < 0 || c[2] < c[1] || c[0] < c[2])
                        return -EINVAL;
        } else {
                if (clock_gettime(CLOCK_REALTIME, &real) < 0 || clock_gettime(CLOCK_MONOTONIC, &mono) < 0 ||
                    clock_gettime(CLOCK_BOOTTIME, &boot) < 0)
                        return -errno;
                c[0] = timespec_usec(&real);
                c[1] = timespec_usec(&mono);
                c[2] = timespec_usec(&boot);
        }
        *ret_boot_usec = c[0] - c[2];
        *ret_slept_usec = c[2] > c[1] ? c[2] - c[1] : 0;
        return 0;
}

int64_t clocks_slept_now(void) {
        int64_t boot, slept;

        return clocks_read(&boot, &slept) == 0 ? slept : 0;
}

const char *boot_time_pinned(char buf[BOOT_TIME_PINNED_MAX]) {
        const char *v = getenv("KDMESG_BOOT_TIME");

        if (v && *v)
                return v;
        /* util-linux's own tests give test_dmesg the boot time so: "SECONDS.USEC". */
        v = getenv("DMESG_TEST_BOOTIME");
        if (!v || !*v || strlen(v) >= BOOT_TIME_PINNED_MAX - 1)
                return NULL;
        snprintf(buf, BOOT_TIME_PINNED_MAX, "@%s", v);
        return buf;
}

int boot_time_find(bool live, int64_t *ret_usec) {
        char buf[BOOT_TIME_PINNED_MAX];
        const char *pinned = boot_time_pinned(buf);
        int64_t slept;
        int e;

        if (pinned && *pinned)
                return time_parse_absolute(pinned, ret_usec);
        if (!live)
                return -ENODATA;
        e = clocks_read(ret_usec, &slept);
        if (e != -EINVAL && e < 0)
                return boot_time_from_stat("/proc/stat", ret_usec);
        return e;
}
