/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UTF8_H
#define KDMESG_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The length of the valid UTF-8 sequence of two to four bytes at p[0..len),
 * with its code point in *cp; 0 for ASCII, a stray byte, a truncated
 * sequence, an overlong form, a surrogate or a code point past U+10FFFF.
 */
static inline size_t utf8_decode(const unsigned char *p, size_t len, uint32_t *cp) {
        unsigned c = p[0];
        size_t n, i;
        uint32_t v;

        if (c >= 0xc2 && c <= 0xdf) {
                n = 2;
                v = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
                n = 3;
                v = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
                n = 4;
                v = c & 0x07;
        } else
                return 0;
        if (len < n)
                return 0;
        for (i = 1; i < n; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
                v = v << 6 | (p[i] & 0x3f);
        }
        if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
                return 0;
        *cp = v;
        return n;
}

/*
 * Whether code point cp is a bidirectional embedding, override or isolate
 * (U+202A to U+202E, U+2066 to U+2069): printed raw, it reorders the text
 * after it on the screen, so text output escapes it like a control.
 */
static inline bool utf8_is_bidi_control(uint32_t cp) {
        return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Whether p[0..len) is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
bool utf8_is_valid(const char *p, size_t len);

#endif
