/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers shared by the program's files (the messages are diag.c's). */
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "text/util.h"

size_t term_width(void) {
        const char *env = getenv("COLUMNS");
        struct winsize ws;
        uint64_t n;

        if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
                return ws.ws_col;
        if (env && parse_u64(env, &n) == 0 && n > 0)
                return n < SIZE_MAX ? (size_t)n : SIZE_MAX;
        return 0;
}

size_t term_layout_width(void) {
        size_t w;

        if (!isatty(STDOUT_FILENO))
                return 0;
        w = term_width();
        return w > 0 && w < 100000 ? w : 80;
}

/* drivers/char/mem.c: /dev/kmsg is the memory device 1:11. */
bool is_kmsg_device(const struct stat *st) {
        return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 11;
}
