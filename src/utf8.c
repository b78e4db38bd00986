/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UTF-8 validation for JSON output. */
#include <stdint.h>
#include <string.h>

#include "utf8.h"

bool utf8_is_valid(const char *p, size_t len) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len;

        while (s < end) {
                unsigned c;
                size_t n, i;
                uint32_t cp;

                /* ASCII runs, eight bytes at a time. */
                while ((size_t)(end - s) >= 8) {
                        uint64_t w;

                        memcpy(&w, s, 8);
                        if (w & UINT64_C(0x8080808080808080))
                                break;
                        s += 8;
                }
                if (s == end)
                        break;
                c = *s;
                if (c < 0x80) {
                        s++;
                        continue;
                }
                if (c >= 0xc2 && c <= 0xdf) {
                        n = 2;
                        cp = c & 0x1f;
                } else if (c >= 0xe0 && c <= 0xef) {
                        n = 3;
                        cp = c & 0x0f;
                } else if (c >= 0xf0 && c <= 0xf4) {
                        n = 4;
                        cp = c & 0x07;
                } else
                        return false;
                if ((size_t)(end - s) < n)
                        return false;
                for (i = 1; i < n; i++) {
                        if ((s[i] & 0xc0) != 0x80)
                                return false;
                        cp = cp << 6 | (s[i] & 0x3f);
                }
                if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
                    (cp >= 0xd800 && cp <= 0xdfff))
                        return false;
                s += n;
        }
        return true;
}
