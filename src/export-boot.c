/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What --format=export needs besides the records: the boot time, for
 * __REALTIME_TIMESTAMP, and the boot id.  Both are known for the live log;
 * for a dump the boot time comes from KDMESG_BOOT_TIME.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export-boot.h"

/* "SECONDS[.FRACTION]" or "@SECONDS[.FRACTION]" since the epoch, as µs. */
static int parse_epoch(const char *s, uint64_t *ret) {
        uint64_t sec = 0, frac = 0;
        int digits = 0;

        if (*s == '@')
                s++;
        if (*s < '0' || *s > '9')
                return -EINVAL;
        for (; *s >= '0' && *s <= '9'; s++) {
                if (sec > UINT64_MAX / 10 / 1000000)
                        return -ERANGE;
                sec = sec * 10 + (uint64_t)(*s - '0');
        }
        if (*s == '.') {
                for (s++; *s >= '0' && *s <= '9'; s++)
                        if (digits < 6) {
                                frac = frac * 10 + (uint64_t)(*s - '0');
                                digits++;
                        }
                for (; digits < 6; digits++)
                        frac *= 10;
        }
        if (*s)
                return -EINVAL;
        *ret = sec * 1000000 + frac;
        return 0;
}

static uint64_t ts_usec(const struct timespec *t) {
        return (uint64_t)t->tv_sec * 1000000 + (uint64_t)t->tv_nsec / 1000;
}

int export_boot_prepare(struct export_boot *b, bool live) {
        const char *pinned = getenv("KDMESG_BOOT_TIME");
        struct timespec real, boot;
        FILE *f;

        if (pinned && *pinned) {
                if (parse_epoch(pinned, &b->boot_time_usec) < 0)
                        return -EINVAL;
                b->has_boot_time = true;
        } else if (live && clock_gettime(CLOCK_REALTIME, &real) == 0 && clock_gettime(CLOCK_BOOTTIME, &boot) == 0) {
                b->boot_time_usec = ts_usec(&real) - ts_usec(&boot);
                b->has_boot_time = true;
        }
        if (live && (f = fopen("/proc/sys/kernel/random/boot_id", "re"))) {
                char line[64];
                size_t i, n = 0;

                if (fgets(line, sizeof(line), f))
                        for (i = 0; line[i] && n < 32; i++)
                                if ((line[i] >= '0' && line[i] <= '9') || (line[i] >= 'a' && line[i] <= 'f'))
                                        b->boot_id[n++] = line[i];
                b->boot_id[n] = '\0';
                fclose(f);
                b->has_boot_id = n == 32;
        }
        return b->has_boot_time ? 0 : -ENODATA;
}
