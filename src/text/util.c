/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Error messages and small parsers shared by the program's files. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "text/writer.h"
#include "text/util.h"

const char *program = "kdmesg";

/*
 * Messages name arguments and file names as given: made safe for the
 * terminal as text on standard output is (out_text()), so that an ESC or a
 * BEL in them is shown as \x1b, \x07, never acted on.
 */
static void vwarnx(const char *fmt, va_list ap) {
        char *msg, *safe = NULL;
        int n;

        out_flush();
        n = vasprintf(&msg, fmt, ap);
        if (n >= 0) {
                safe = text_safe_dup(msg, (size_t)n, false);
                free(msg);
        }
        fprintf(stderr, "%s: %s\n", program, safe ? safe : strerror(ENOMEM));
        free(safe);
}

const char *shown(const char *s) {
        static char *last;
        char *d = text_safe_dup(s, strlen(s), false);

        if (!d)
                return "?";
        free(last);
        last = d;
        return d;
}

void warnx_(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vwarnx(fmt, ap);
        va_end(ap);
}

void errx_(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vwarnx(fmt, ap);
        va_end(ap);
        exit(EXIT_BAD_INPUT);
}

/* drivers/char/mem.c: /dev/kmsg is the memory device 1:11. */
bool is_kmsg_device(const struct stat *st) {
        return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 11;
}
