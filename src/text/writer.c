/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Buffered, error-checked standard output with terminal-safe text. */
#include <errno.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "text/escape.h"
#include "text/writer.h"
#include "text/utf8.h"

struct out_state out_state;

void out_set_ascii(bool ascii) {
        out_state.ascii = ascii;
}

void out_init_locale(void) {
        out_state.ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
}

void out_set_write_hooks(int (*before)(void *userdata), void (*after)(void *userdata), void *userdata) {
        out_state.hook_before = before;
        out_state.hook_after = after;
        out_state.hook_userdata = userdata;
}

void out_set_writer(int (*writer)(void *userdata, const void *p, size_t len), void *userdata) {
        out_state.writer = writer;
        out_state.writer_userdata = userdata;
}

size_t out_pending(void) {
        return out_len;
}

void out_drain(void) {
        size_t done = 0;

        /* Refused (the cursor file could not name what this write holds): nothing more is written. */
        if (out_len > 0 && !out_state.error && out_state.hook_before &&
            out_state.hook_before(out_state.hook_userdata) < 0)
                out_state.error = ECANCELED;

        if (out_state.writer && out_len > 0 && !out_state.error) {
                int e = out_state.writer(out_state.writer_userdata, out_buf, out_len);

                if (e < 0)
                        out_state.error = -e;
                done = out_len;
        }
        while (done < out_len) {
                ssize_t n;

                if (out_state.error) {
                        break;
                }
                n = write(STDOUT_FILENO, out_buf + done, out_len - done);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        out_state.error = errno;
                        break;
                }
                done += (size_t)n;
        }
        if (out_len > 0 && !out_state.error && out_state.hook_after)
                out_state.hook_after(out_state.hook_userdata);
        out_drained += out_len;
        out_len = 0;
}


void out_write_slow(const void *p, size_t len) {
        const char *s = p;

        while (len > 0) {
                size_t n = OUT_BUF_SIZE - out_len;

                if (n == 0) {
                        out_drain();
                        continue;
                }
                if (n > len)
                        n = len;
                memcpy(out_buf + out_len, s, n);
                out_len += n;
                s += n;
                len -= n;
        }
}

void out_puts(const char *s) {
        out_write(s, strlen(s));
}

/* "00" to "99": two digits a step (output.h). */
const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";

const uint64_t decimal_powers[20] = {
        UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000), UINT64_C(100000),
        UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
        UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000), UINT64_C(10000000000000),
        UINT64_C(100000000000000), UINT64_C(1000000000000000), UINT64_C(10000000000000000),
        UINT64_C(100000000000000000), UINT64_C(1000000000000000000), UINT64_C(10000000000000000000),
};

/*
 * The eight decimal digits of v (below 10^8, leading zeros kept) as the
 * bytes of a word, each 0 to 9, the first digit in the least significant
 * byte: the halves of four digits, then their pairs, then their digits
 * are split in every lane at once, by multiplications that stay within
 * their lane (x * 10486 >> 20 is x / 100 below 10^4; x * 103 >> 10 is
 * x / 10 below 100).
 */
static inline uint64_t digits8(uint32_t v) {
        uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32, q;

        q = x * 10486 >> 20 & UINT64_C(0x0000007f0000007f);
        x = q | (x - q * 100) << 16;
        q = x * 103 >> 10 & UINT64_C(0x000f000f000f000f);
        return q | (x - q * 10) << 8;
}

size_t put_decimal(char *buf, uint64_t v) {
        unsigned n;

        if (v < 10) {
                /* A level, a priority. */
                buf[0] = (char)('0' + v);
                return 1;
        }
        if (v < 100000000) {
                /*
                 * A sequence number, a time stamp: all digits at once, the
                 * leading zeros shifted out, stored as a word.
                 */
                uint64_t d = digits8((uint32_t)v);
                unsigned zeros = (unsigned)__builtin_ctzll(d) / 8;

                d = (d + UINT64_C(0x3030303030303030)) >> 8 * zeros;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                d = __builtin_bswap64(d);
#endif
                memcpy(buf, &d, 8);
                return 8 - zeros;
        }
        n = digits10(v);
        put_digits(buf + n, v);
        return n;
}

void out_u64_digits(uint64_t v) {
        char tmp[24];

        if (OUT_BUF_SIZE - out_len >= sizeof(tmp))
                out_len += put_decimal(out_buf + out_len, v);
        else
                out_write(tmp, put_decimal(tmp, v));
}

void out_u64_padded(uint64_t v, unsigned width) {
        char tmp[24];
        int i = (int)sizeof(tmp);

        do {
                tmp[--i] = (char)('0' + v % 10);
                v /= 10;
        } while (v);
        while (sizeof(tmp) - (size_t)i < width && i > 0)
                tmp[--i] = ' ';
        out_write(tmp + i, sizeof(tmp) - (size_t)i);
}

size_t put_seconds(char *buf, uint64_t usec, unsigned width) {
        unsigned n = digits10(usec / 1000000);
        size_t pad = n < width ? width - n : 0, len = pad + n + 7;

        /* Spaces first, for the padding (eight at once: len is at least 8); the digits go over them. */
        if (pad <= 8)
                memcpy(buf, "        ", 8);
        else
                memset(buf, ' ', pad);
        buf[len] = '\0';
        put_seconds_at(buf + len, usec);
        return len;
}

void out_usec(uint64_t usec, unsigned width) {
        char tmp[28];

        if (OUT_BUF_SIZE - out_len >= sizeof(tmp))
                out_len += put_seconds(out_buf + out_len, usec, width);
        else
                out_write(tmp, put_seconds(tmp, usec, width));
}

/* Length of the valid UTF-8 sequence at p that may reach a terminal (not a C1 or bidi control), or 0. */
static size_t utf8_valid(const unsigned char *p, size_t len) {
        uint32_t cp;
        size_t n = utf8_decode(p, len, &cp);

        return n && !(cp >= 0x80 && cp <= 0x9f) && !utf8_is_bidi_control(cp) ? n : 0;
}

static bool hex_digit(unsigned char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* What a run of text is written as (run_into()). */
enum run_kind {
        RUN_TEXT,   /* out_text(): class ESC_TEXT, valid UTF-8 kept */
        RUN_LINE,   /* the same, up to the first newline */
        RUN_SYSLOG, /* the same, and a backslash before "xNN" as \x5c */
        RUN_CELL,   /* text_safe_into(): class ESC_CELL, valid UTF-8 kept */
        RUN_CLASS,  /* out_escaped(): the class only */
};

/*
 * The bytes of w that run_into() looks at one by one (a few more do no
 * harm; every byte it does not write as it is must be among them).  All
 * of them for a class without a word test.
 */
static inline uint64_t run_special(uint64_t w, enum run_kind kind, unsigned class) {
        if (kind == RUN_CLASS)
                switch (class) {
                case ESC_KMSG:
                        return bytes_outside(w, 0x20, 0x7e) | bytes_equal(w, '\\');
                case ESC_KMSG_HEADER:
                        return bytes_outside(w, 0x20, 0x7e) | bytes_equal(w, ',') | bytes_equal(w, ';');
                case ESC_KMSG_FIELDS:
                        return bytes_outside(w, 0x20, 0x7e) | bytes_equal(w, ';');
                case ESC_KMSG_KEY:
                        /* Upper-case letters at once; digits, '.', '_' and '-' one by one. */
                        return bytes_outside(w, 'A', 'Z');
                default:
                        return SWAR_HIGHS;
                }
        if (kind == RUN_SYSLOG)
                return bytes_outside(w, 0x20, 0x7e) | bytes_equal(w, '\\');
        return bytes_outside(w, 0x20, 0x7e);
}

static inline bool run_has_words(enum run_kind kind, unsigned class) {
        return kind != RUN_CLASS || class == ESC_KMSG || class == ESC_KMSG_HEADER || class == ESC_KMSG_FIELDS ||
               class == ESC_KMSG_KEY;
}

#ifdef __SSE2__
/* run_special() for sixteen bytes at once: one bit for each special byte (signed compares: from 0x80 is below 0x20). */
static inline unsigned run_special16(__m128i x, enum run_kind kind, unsigned class) {
        __m128i m;

        if (kind == RUN_CLASS && class == ESC_KMSG_KEY)
                m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8('A')), _mm_cmpgt_epi8(x, _mm_set1_epi8('Z')));
        else
                m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
        if (kind == RUN_SYSLOG || (kind == RUN_CLASS && class == ESC_KMSG))
                m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
        if (kind == RUN_CLASS && (class == ESC_KMSG_HEADER || class == ESC_KMSG_FIELDS))
                m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(';')));
        if (kind == RUN_CLASS && class == ESC_KMSG_HEADER)
                m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(',')));
        return (unsigned)_mm_movemask_epi8(m);
}
#endif

/*
 * Copy from s to q the bytes before the first special one among the left
 * bytes: sixteen at a time where SSE2 is, then eight, each block stored
 * whole before it is looked at.  Stops at a special byte, or where fewer
 * than eight bytes are left; returns how many were copied.
 */
static inline __attribute__((always_inline)) size_t run_plain(char *q, const unsigned char *s, size_t left,
                                                              enum run_kind kind, unsigned class) {
        size_t n = 0;

#ifdef __SSE2__
        for (; left - n >= 16; n += 16) {
                __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + n));
                unsigned m;

                _mm_storeu_si128((__m128i *)(void *)(q + n), x);
                m = run_special16(x, kind, class);
                if (m)
                        return n + (size_t)__builtin_ctz(m);
        }
#endif
        for (; left - n >= 8; n += 8) {
                uint64_t w, m;

                memcpy(&w, s + n, 8);
                memcpy(q + n, &w, 8);
                m = run_special(w, kind, class);
                if (m)
                        return n + first_marked(m);
        }
        return n;
}

/*
 * The text from *ps made safe as kind says, into q: the bytes that start
 * before stop (a UTF-8 sequence that starts there may go on past it, up to
 * end, the end of the text).  q has room for four bytes for each of them:
 * a block of plain bytes is stored whole before its special bytes are
 * looked at, which fits in that.  Returns the new end of q; *ps is moved
 * past what was written, which is all up to stop but for RUN_LINE, which
 * stops at a newline.
 */
static inline __attribute__((always_inline)) char *run_into(char *q, const unsigned char **ps,
                                                            const unsigned char *stop, const unsigned char *end,
                                                            enum run_kind kind, unsigned class) {
        const unsigned char *s = *ps, *base = s;

        while (s < stop) {
                unsigned char c;
                size_t n;

                if (run_has_words(kind, class) && stop - s >= 8) {
                        n = run_plain(q, s, (size_t)(stop - s), kind, class);
                        q += n;
                        s += n;
                        if (s == stop)
                                break;
                }
                if (run_has_words(kind, class) && stop - s < 8 && stop == end && end - base >= 8) {
                        /*
                         * Under eight bytes left: the word that ends the text, its first
                         * bytes written already, as they are if it has no special byte.
                         */
                        uint64_t w;

                        memcpy(&w, end - 8, 8);
                        if (!run_special(w, kind, class)) {
                                memcpy(q - (8 - (end - s)), &w, 8);
                                q += end - s;
                                s = end;
                                break;
                        }
                }
                if (!run_has_words(kind, class) || stop - s < 8) {
                        /* One at a time (the last bytes, short texts): the plain ones at once. */
                        while (s < stop && (byte_class[*s] & class) && !(kind == RUN_SYSLOG && *s == '\\'))
                                *q++ = (char)*s++;
                        if (s == stop)
                                break;
                }
                c = *s;
                if (kind == RUN_LINE && c == '\n')
                        break;
                if (kind == RUN_SYSLOG && c == '\\') {
                        /* Read back by -F, "\x41" would be 'A': a backslash that starts one is \x5c. */
                        if (end - s >= 4 && s[1] == 'x' && hex_digit(s[2]) && hex_digit(s[3]))
                                q += hex_escape(q, c);
                        else
                                *q++ = (char)c;
                        s++;
                        continue;
                }
                if (byte_class[c] & class) {
                        *q++ = (char)c;
                        s++;
                        continue;
                }
                if (kind == RUN_CLASS && (class == ESC_KMSG_HEADER || class == ESC_KMSG_FIELDS) && c >= 0x80 &&
                    (n = header_keeps(s, (size_t)(end - s))) > 0) {
                        do
                                *q++ = (char)*s++;
                        while (--n);
                        continue;
                }
                if (kind != RUN_CLASS && c >= 0x80 && !out_state.ascii && (n = utf8_valid(s, (size_t)(end - s))) > 0) {
                        do
                                *q++ = (char)*s++;
                        while (--n);
                        continue;
                }
                q += hex_escape(q, c);
                s++;
        }
        *ps = s;
        return q;
}

/*
 * run_into() of p[0..len) into the output buffer, as much as it has room
 * for at a time; near its end, one byte (or UTF-8 sequence) at a time
 * through out_write(), which drains it where it is full, as a write of the
 * whole run would.  Returns the length written: len, or for RUN_LINE up to
 * the first newline.  Rare: one copy for all forms.
 */
static __attribute__((noinline)) size_t out_run_slow(const char *p, size_t len, enum run_kind kind,
                                                     unsigned class) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len, *stop;

        while (s < end) {
                size_t room = OUT_BUF_SIZE - out_len;

                if (room >= 64) {
                        stop = (size_t)(end - s) > room / 4 ? s + room / 4 : end;
                        out_len = (size_t)(run_into(out_buf + out_len, &s, stop, end, kind, class) - out_buf);
                } else {
                        char e[8];

                        stop = s + 1;
                        out_write(e, (size_t)(run_into(e, &s, stop, end, kind, class) - e));
                }
                if (s < stop)
                        break; /* a newline */
        }
        return (size_t)(s - (const unsigned char *)p);
}

/* out_run_slow(), but a text that fits in the buffer whatever it becomes (nearly all) in one pass. */
static inline __attribute__((always_inline)) size_t out_run(const char *p, size_t len, enum run_kind kind,
                                                            unsigned class) {
        const unsigned char *s = (const unsigned char *)p;

        if (len > (OUT_BUF_SIZE - out_len) / 4)
                return out_run_slow(p, len, kind, class);
        out_len = (size_t)(run_into(out_buf + out_len, &s, s + len, s + len, kind, class) - out_buf);
        return (size_t)(s - (const unsigned char *)p);
}

void out_text(const char *p, size_t len, bool raw) {
        if (raw)
                out_write(p, len);
        else
                out_run(p, len, RUN_TEXT, ESC_TEXT);
}

size_t out_text_line(const char *p, size_t len, bool raw) {
        const char *nl;

        if (!raw)
                return out_run(p, len, RUN_LINE, ESC_TEXT);
        nl = memchr(p, '\n', len);
        if (nl)
                len = (size_t)(nl - p);
        out_write(p, len);
        return len;
}

void out_text_syslog(const char *p, size_t len, bool raw) {
        if (raw)
                out_write(p, len);
        else
                out_run(p, len, RUN_SYSLOG, ESC_TEXT);
}

size_t text_safe_into(char *dst, const char *p, size_t len, bool raw) {
        const unsigned char *s = (const unsigned char *)p;
        char *q;

        if (raw) {
                memcpy(dst, p, len);
                dst[len] = '\0';
                return len;
        }
        q = run_into(dst, &s, s + len, s + len, RUN_CELL, ESC_CELL);
        *q = '\0';
        return (size_t)(q - dst);
}

char *text_safe_dup(const char *p, size_t len, bool raw) {
        /* At most four bytes out for one in. */
        char *d = malloc(len * 4 + 1);

        if (d)
                text_safe_into(d, p, len, raw);
        return d;
}

int out_flush(void) {
        out_drain();
        return out_state.error ? -out_state.error : 0;
}

void out_flush_within(unsigned usec) {
        struct timespec ts;
        uint64_t now;

        if (usec == 0) {
                out_drain();
                return;
        }
        if (out_len == 0)
                return;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        /* When the wait began, and out_drained then: a flush since starts a new one. */
        if (!out_state.waiting || out_state.since_drained != out_drained) {
                out_state.waiting = true;
                out_state.since_drained = out_drained;
                out_state.since_ns = now;
        } else if (now - out_state.since_ns >= (uint64_t)usec * 1000u) {
                out_drain();
        }
}

int out_close(void) {
        return out_flush();
}

/* p[0..len) to standard output, bytes not in class (escape.h) as \xNN. */
void out_escaped(const char *p, size_t len, unsigned class) {
        /* The classes with a word test, each its own copy of the loop. */
        switch (class) {
        case ESC_KMSG:
                out_run(p, len, RUN_CLASS, ESC_KMSG);
                break;
        case ESC_KMSG_HEADER:
                out_run(p, len, RUN_CLASS, ESC_KMSG_HEADER);
                break;
        case ESC_KMSG_FIELDS:
                out_run(p, len, RUN_CLASS, ESC_KMSG_FIELDS);
                break;
        case ESC_KMSG_KEY:
                out_run(p, len, RUN_CLASS, ESC_KMSG_KEY);
                break;
        default:
                out_run(p, len, RUN_CLASS, class);
        }
}
