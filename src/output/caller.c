/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The caller id prefix of the text views ("[  T123] ") and its width. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/caller.h"
#include "text/escape.h"

unsigned caller_width_from_pid_max(const char *path) {
        FILE *f = fopen(path, "re");
        char line[32];
        unsigned n = 0;

        if (!f)
                return CALLER_WIDTH_DEFAULT;
        if (fgets(line, sizeof(line), f))
                while (line[n] >= '0' && line[n] <= '9')
                        n++;
        fclose(f);
        /* pid_max is at most 2^22 on every kernel; allow for more, not for nonsense. */
        return n > 0 && n <= 10 ? n + 1 : CALLER_WIDTH_DEFAULT;
}

/* "[", the text right-aligned in width, "] ", NUL-terminated, into buf; returns the length. */
static size_t bracket(char *buf, unsigned width, const char *text, size_t n) {
        size_t pad = n < width ? width - n : 0;

        buf[0] = '[';
        /* Sixteen spaces at once for the usual widths; the text goes over what is not padding. */
        if (pad <= 16)
                memcpy(buf + 1, "                ", 16);
        else
                memset(buf + 1, ' ', pad);
        memcpy(buf + 1 + pad, text, n);
        memcpy(buf + 1 + pad + n, "] ", 3);
        return pad + n + 3;
}

size_t caller_prefix(const struct kmsg_record *r, unsigned width, char *buf) {
        const char *c = kmsg_record_get_caller_text(r);
        char text[CALLER_TEXT_MAX * 4 + 4];
        size_t len = 0, n;

        buf[0] = '\0';
        if (!c || !*c)
                return 0;
        if (width == 0)
                width = CALLER_WIDTH_DEFAULT;
        /* By hand, not snprintf(): this runs for every record of the classic view. */
        while (len <= CALLER_TEXT_MAX && (byte_class[(unsigned char)c[len]] & ESC_CELL))
                len++;
        if (len <= CALLER_TEXT_MAX && !c[len])
                return bracket(buf, width, c, len);
        len += strlen(c + len);
        n = escape_into(text, c, len > CALLER_TEXT_MAX ? CALLER_TEXT_MAX : len, ESC_CELL);
        if (len > CALLER_TEXT_MAX) {
                memcpy(text + n, "...", 4);
                n += 3;
        }
        return bracket(buf, width, text, n);
}
