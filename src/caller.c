/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The caller id prefix of the text views ("[  T123] ") and its width. */
#include <stdio.h>
#include <string.h>

#include "caller.h"
#include "escape.h"

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

size_t caller_prefix(const struct kmsg_record *r, unsigned width, char *buf) {
        const char *c = kmsg_record_get_caller_text(r);
        char text[CALLER_TEXT_MAX * 4 + 4];
        size_t len, n;
        int k = 0;

        buf[0] = '\0';
        if (!c || !*c)
                return 0;
        if (width == 0)
                width = CALLER_WIDTH_DEFAULT;
        len = strlen(c);
        n = escape_into(text, c, len > CALLER_TEXT_MAX ? CALLER_TEXT_MAX : len, ESC_CELL);
        if (len > CALLER_TEXT_MAX) {
                memcpy(text + n, "...", 4);
                n += 3;
        }
        /* By hand, not snprintf(): this runs for every record of the classic view. */
        buf[k++] = '[';
        for (; (size_t)k <= width - (n < width ? n : width); k++)
                buf[k] = ' ';
        memcpy(buf + k, text, n);
        k += (int)n;
        buf[k++] = ']';
        buf[k++] = ' ';
        buf[k] = '\0';
        return (size_t)k;
}
