/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Error messages and small parsers shared by the program's files. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"
#include "util.h"

const char *program = "kdmesg";

static void vwarnx(const char *fmt, va_list ap) {
        out_flush();
        fprintf(stderr, "%s: ", program);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
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

int parse_u64(const char *s, uint64_t *ret) {
        uint64_t v = 0;

        if (!s || !*s)
                return -EINVAL;
        for (; *s; s++) {
                if (*s < '0' || *s > '9')
                        return -EINVAL;
                if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
                        return -ERANGE;
                v = v * 10 + (uint64_t)(*s - '0');
        }
        *ret = v;
        return 0;
}
