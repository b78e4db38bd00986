/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UTF-8 validation for JSON output. */
#include <stdint.h>
#include <string.h>

#include "utf8.h"

bool utf8_is_valid(const char *p, size_t len) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len;

        while (s < end) {
                unsigned c;
                size_t n;
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
                n = utf8_decode(s, (size_t)(end - s), &cp);
                if (n == 0)
                        return false;
                s += n;
        }
        return true;
}
