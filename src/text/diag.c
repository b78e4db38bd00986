/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Warnings and errors on standard error: the only writer of stderr (diag.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/diag.h"
#include "text/writer.h"

const char *program = "kdmesg";

/*
 * The message fmt makes, as one line "PROGRAM: message\n", made safe for
 * the terminal as text on standard output is (out_text()); NULL when out
 * of memory.  Touches no shared state: any thread may call it.
 */
static char *vline(const char *fmt, va_list ap, bool named) {
        char *msg, *safe, *line = NULL;
        int n;

        n = vasprintf(&msg, fmt, ap);
        if (n < 0)
                return NULL;
        safe = text_safe_dup(msg, (size_t)n, false);
        free(msg);
        if (safe && asprintf(&line, "%s%s%s\n", named ? program : "", named ? ": " : "", safe) < 0)
                line = NULL;
        free(safe);
        return line;
}

/* One call writes the line: stdio locks stderr for it, so lines of two threads never mix. */
static void put_line(const char *line) {
        if (line)
                fputs(line, stderr);
        else
                fprintf(stderr, "%s: %s\n", program, strerror(ENOMEM));
}

void vwarnx_(const char *fmt, va_list ap) {
        char *line;

        out_flush();
        line = vline(fmt, ap, true);
        put_line(line);
        free(line);
}

void warnx_(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vwarnx_(fmt, ap);
        va_end(ap);
}

void errx_(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vwarnx_(fmt, ap);
        va_end(ap);
        exit(EXIT_FAILURE);
}

void warnx_thread(const char *fmt, ...) {
        va_list ap;
        char *line;

        va_start(ap, fmt);
        line = vline(fmt, ap, true);
        va_end(ap);
        put_line(line);
        free(line);
}

void warnx_plain(const char *fmt, ...) {
        va_list ap;
        char *line;

        out_flush();
        va_start(ap, fmt);
        line = vline(fmt, ap, false);
        va_end(ap);
        put_line(line);
        free(line);
}
