/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One byte-class table for every \xNN escaper, and the display width of text. */
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "text/escape.h"

const char hexdigits[16] = "0123456789abcdef";

#define PRINTABLE(b) ((b) >= 0x20 && (b) < 0x7f)
#define ALNUM(b) (((b) >= 'A' && (b) <= 'Z') || ((b) >= 'a' && (b) <= 'z') || ((b) >= '0' && (b) <= '9'))
#define CLASS(b)                                                                                                      \
        ((PRINTABLE(b) || (b) == '\t' ? ESC_TEXT : 0) | (PRINTABLE(b) ? ESC_CELL : 0) |                            \
         (PRINTABLE(b) && (b) != '\\' ? ESC_KMSG : 0) |                                                             \
         (ALNUM(b) || (b) == '.' || (b) == '_' || (b) == '-' ? ESC_KMSG_KEY : 0) | ((b) < 0x80 ? ESC_ASCII : 0) |   \
         ((b) != '=' && (b) != '\\' ? ESC_EXPORT_KEY : 0) |                                                          \
         ((b) >= 0x20 && (b) < 0x80 && (b) != '"' && (b) != '\\' ? ESC_JSON : 0) |                                \
         ((b) >= 0x20 && (b) < 0x7f && (b) != ',' && (b) != ';' ? ESC_KMSG_HEADER : 0) |                         \
         ((b) >= 0x20 && (b) < 0x7f && (b) != ';' ? ESC_KMSG_FIELDS : 0))
#define C4(b) CLASS(b), CLASS((b) + 1), CLASS((b) + 2), CLASS((b) + 3)
#define C16(b) C4(b), C4((b) + 4), C4((b) + 8), C4((b) + 12)
#define C64(b) C16(b), C16((b) + 16), C16((b) + 32), C16((b) + 48)

const unsigned short byte_class[256] = { C64(0), C64(64), C64(128), C64(192) };

size_t escape_into(char *dst, const char *p, size_t len, unsigned class) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len;
        char *q = dst;

        while (s < end) {
                size_t n;

                if (byte_class[*s] & class)
                        *q++ = (char)*s++;
                else if ((class == ESC_KMSG_HEADER || class == ESC_KMSG_FIELDS) && *s >= 0x80 &&
                         (n = header_keeps(s, (size_t)(end - s))) > 0) {
                        memcpy(q, s, n);
                        q += n;
                        s += n;
                } else
                        q += hex_escape(q, *s++);
        }
        *q = '\0';
        return (size_t)(q - dst);
}

size_t text_width(const char *p, size_t len, size_t max, size_t *ret_cut) {
        mbstate_t st;
        size_t w = 0, i = 0;

        memset(&st, 0, sizeof(st));
        while (i < len) {
                wchar_t wc;
                size_t n, cw;
                int x;

                /* Printable ASCII is one column in every locale kdmesg supports: no mbrtowc(). */
                if (len - i >= 8 && w + 8 <= max) {
                        uint64_t word;

                        /* Eight at a time. */
                        memcpy(&word, p + i, 8);
                        if (!bytes_outside(word, 0x20, 0x7e)) {
                                w += 8;
                                i += 8;
                                continue;
                        }
                }
                if ((unsigned char)p[i] >= 0x20 && (unsigned char)p[i] < 0x7f) {
                        if (w + 1 > max)
                                break;
                        w++;
                        i++;
                        continue;
                }
                n = mbrtowc(&wc, p + i, len - i, &st);
                if (n == (size_t)-1 || n == (size_t)-2) {
                        memset(&st, 0, sizeof(st));
                        n = 1;
                        cw = 4;
                } else if (n == 0) {
                        /* A NUL byte: \x00. */
                        n = 1;
                        cw = 4;
                } else {
                        x = iswprint((wint_t)wc) ? wcwidth(wc) : -1;
                        cw = x >= 0 ? (size_t)x : 4 * n;
                }
                if (w + cw > max)
                        break;
                w += cw;
                i += n;
        }
        if (ret_cut)
                *ret_cut = i;
        return w;
}
