/* SPDX-License-Identifier: GPL-2.0-or-later */
/* klogctl(2): clear the ring, console on/off and level, read via syslog(2). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "input/console.h"
#include "text/util.h"

/* The actions of syslog(2), as in its man page. */
enum {
        ACTION_READ_ALL = 3,
        ACTION_READ_CLEAR = 4,
        ACTION_CLEAR = 5,
        ACTION_CONSOLE_OFF = 6,
        ACTION_CONSOLE_ON = 7,
        ACTION_CONSOLE_LEVEL = 8,
        ACTION_SIZE_BUFFER = 10,
};

static int klog(int action, char *buf, int len) {
        int r = klogctl(action, buf, len);

        return r < 0 ? -errno : r;
}

int console_clear(void) {
        int r = klog(ACTION_CLEAR, NULL, 0);

        return r < 0 ? r : 0;
}

int console_enable(bool on) {
        int r = klog(on ? ACTION_CONSOLE_ON : ACTION_CONSOLE_OFF, NULL, 0);

        return r < 0 ? r : 0;
}

int console_set_level(int level) {
        int r = klog(ACTION_CONSOLE_LEVEL, NULL, level);

        return r < 0 ? r : 0;
}

int console_parse_level(const char *s) {
        uint64_t v;
        int lvl;

        if (parse_u64(s, &v) == 0)
                return v >= 1 && v <= 8 ? (int)v : -ERANGE;
        lvl = kmsg_level_from_name(s);
        return lvl < 0 ? lvl : lvl + 1;
}

int syslog_reader_new(bool clear, unsigned want, struct kmsg_reader **ret, int *ret_fd) {
        char *buf = NULL;
        int size, n, e;

        /* -s SIZE, as util-linux: read that many bytes, without asking the kernel. */
        if (want > 0)
                size = (int)want;
        else {
                size = klog(ACTION_SIZE_BUFFER, NULL, 0);
                if (size < 0)
                        return size;
                if (size < 4096)
                        size = 4096;
        }
        buf = malloc((size_t)size);
        if (!buf)
                return -ENOMEM;
        n = klog(clear ? ACTION_READ_CLEAR : ACTION_READ_ALL, buf, size);
        if (n < 0) {
                free(buf);
                return n;
        }
        /* The reader keeps its own copy of the buffer. */
        e = kmsg_reader_new_buffer(buf, (size_t)n, "syslog(2)", KMSG_FORMAT_SYSLOG, ret);
        free(buf);
        if (e < 0)
                return e;
        *ret_fd = -1;
        return 0;
}
