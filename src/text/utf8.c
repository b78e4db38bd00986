/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UTF-8 validation for JSON output. */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "text/utf8.h"

bool utf8_is_valid(const char *p, size_t len) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len;
        uint32_t cp;
        size_t n;

        for (;;) {
                /* ASCII runs: sixteen bytes at a time with SSE2 (every x86-64), eight, then one. */
#ifdef __SSE2__
                while ((size_t)(end - s) >= 16) {
                        unsigned high = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)s));

                        if (high) {
                                s += __builtin_ctz(high);
                                goto sequence;
                        }
                        s += 16;
                }
#endif
                while ((size_t)(end - s) >= 8) {
                        uint64_t w;

                        memcpy(&w, s, 8);
                        if (w & UINT64_C(0x8080808080808080))
                                break;
                        s += 8;
                }
                while (s < end && *s < 0x80)
                        s++;
                if (s == end)
                        return true;
#ifdef __SSE2__
        sequence:
#endif
                n = utf8_decode(s, (size_t)(end - s), &cp);
                if (n == 0)
                        return false;
                s += n;
        }
}
