/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Buffered, error-checked standard output with terminal-safe text. */
#include <errno.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "output.h"
#include "utf8.h"

char out_buf[OUT_BUF_SIZE];
size_t out_len;
uint64_t out_drained;
static int out_error;
/* The locale's character set is not UTF-8: text keeps ASCII only. */
static bool out_ascii;

void out_set_ascii(bool ascii) {
        out_ascii = ascii;
}

void out_init_locale(void) {
        out_ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
}

static void (*hook_before)(void *userdata);
static void (*hook_after)(void *userdata);
static void *hook_userdata;

void out_set_write_hooks(void (*before)(void *userdata), void (*after)(void *userdata), void *userdata) {
        hook_before = before;
        hook_after = after;
        hook_userdata = userdata;
}

static int (*writer_fn)(void *userdata, const void *p, size_t len);
static void *writer_userdata;

void out_set_writer(int (*writer)(void *userdata, const void *p, size_t len), void *userdata) {
        writer_fn = writer;
        writer_userdata = userdata;
}

size_t out_pending(void) {
        return out_len;
}

void out_drain(void) {
        size_t done = 0;

        if (out_len > 0 && !out_error && hook_before)
                hook_before(hook_userdata);

        if (writer_fn && out_len > 0 && !out_error) {
                int e = writer_fn(writer_userdata, out_buf, out_len);

                if (e < 0)
                        out_error = -e;
                done = out_len;
        }
        while (done < out_len) {
                ssize_t n;

                if (out_error) {
                        break;
                }
                n = write(STDOUT_FILENO, out_buf + done, out_len - done);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        out_error = errno;
                        break;
                }
                done += (size_t)n;
        }
        if (out_len > 0 && !out_error && hook_after)
                hook_after(hook_userdata);
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

/* "00" to "99": two digits a step. */
static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                               "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                               "8081828384858687888990919293949596979899";

static const uint64_t powers_of_ten[20] = {
        UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000), UINT64_C(100000),
        UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
        UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000), UINT64_C(10000000000000),
        UINT64_C(100000000000000), UINT64_C(1000000000000000), UINT64_C(10000000000000000),
        UINT64_C(100000000000000000), UINT64_C(1000000000000000000), UINT64_C(10000000000000000000),
};

/* The number of decimal digits of v (1 for 0), without dividing. */
static inline unsigned digits10(uint64_t v) {
        /*
         * x = v | 1 has as many digits as v (an even v + 1 is never a power
         * of ten) and a bit set; with b bits it has t or t + 1 digits, where
         * t = b * log10(2) rounded down (1233 / 4096 is log10(2) closely enough).
         */
        uint64_t x = v | 1;
        unsigned t = (unsigned)(64 - __builtin_clzll(x)) * 1233 >> 12;

        return t + (x >= powers_of_ten[t]);
}

/* The decimal digits of v, ending at end (right to left, two at a time). */
static inline void put_digits(char *end, uint64_t v) {
        while (v >= 100) {
                end -= 2;
                memcpy(end, pairs + 2 * (v % 100), 2);
                v /= 100;
        }
        if (v >= 10)
                memcpy(end - 2, pairs + 2 * v, 2);
        else
                end[-1] = (char)('0' + v);
}

void out_u64(uint64_t v) {
        unsigned n = digits10(v);
        char tmp[20];

        if (OUT_BUF_SIZE - out_len >= 20) {
                /* Straight into the buffer. */
                put_digits(out_buf + out_len + n, v);
                out_len += n;
                return;
        }
        put_digits(tmp + n, v);
        out_write(tmp, n);
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
        uint64_t sec = usec / 1000000;
        unsigned frac = (unsigned)(usec - sec * 1000000), n = digits10(sec);
        size_t pad = n < width ? width - n : 0, len = pad + n + 7;
        char *p = buf + len;

        /* Spaces first, for the padding (eight at once: len is at least 8); the digits go over them. */
        if (pad <= 8)
                memcpy(buf, "        ", 8);
        else
                memset(buf, ' ', pad);
        *p = '\0';
        memcpy(p - 6, pairs + 2 * (frac / 10000), 2);
        memcpy(p - 4, pairs + 2 * (frac / 100 % 100), 2);
        memcpy(p - 2, pairs + 2 * (frac % 100), 2);
        p[-7] = '.';
        put_digits(p - 7, sec);
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

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Non-zero when a byte of w is below n (n <= 128). */
static inline uint64_t has_byte_below(uint64_t w, unsigned n) {
        return (w - ONES * n) & ~w & HIGHS;
}

/* Non-zero when a byte of w is above n (n <= 127). */
static inline uint64_t has_byte_above(uint64_t w, unsigned n) {
        return ((w + ONES * (127 - n)) | w) & HIGHS;
}

void out_text(const char *p, size_t len, bool raw) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len, *run = s;

        if (raw) {
                out_write(p, len);
                return;
        }
        while (s < end) {
                unsigned char c;
                char e[4];
                size_t n;

                /* Eight printable ASCII bytes at a time: the common case. */
                while (end - s >= 8) {
                        uint64_t w;

                        memcpy(&w, s, 8);
                        if ((has_byte_below(w, 0x20) | has_byte_above(w, 0x7e)) != 0)
                                break;
                        s += 8;
                }
                if (s == end)
                        break;
                c = *s;
                if (byte_class[c] & ESC_TEXT) {
                        s++;
                        continue;
                }
                if (c >= 0x80 && !out_ascii && (n = utf8_valid(s, (size_t)(end - s))) > 0) {
                        s += n;
                        continue;
                }
                out_write(run, (size_t)(s - run));
                out_write(e, hex_escape(e, c));
                s++;
                run = s;
        }
        out_write(run, (size_t)(s - run));
}

size_t text_safe_into(char *dst, const char *p, size_t len, bool raw) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len;
        char *q = dst;

        if (raw) {
                memcpy(q, p, len);
                q[len] = '\0';
                return len;
        }
        while (s < end) {
                unsigned char c;
                size_t n;

                /* Eight printable ASCII bytes at a time: the common case. */
                while (end - s >= 8) {
                        uint64_t w;

                        memcpy(&w, s, 8);
                        if ((has_byte_below(w, 0x20) | has_byte_above(w, 0x7e)) != 0)
                                break;
                        memcpy(q, &w, 8);
                        q += 8;
                        s += 8;
                }
                if (s == end)
                        break;
                c = *s;
                if (byte_class[c] & ESC_CELL) {
                        *q++ = (char)*s++;
                        continue;
                }
                if (c >= 0x80 && !out_ascii && (n = utf8_valid(s, (size_t)(end - s))) > 0) {
                        memcpy(q, s, n);
                        q += n;
                        s += n;
                        continue;
                }
                q += hex_escape(q, c);
                s++;
        }
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
        return out_error ? -out_error : 0;
}

int out_failed(void) {
        return out_error ? -out_error : 0;
}

int out_close(void) {
        return out_flush();
}

/* p[0..len) to standard output, bytes not in class (escape.h) as \xNN. */
void out_escaped(const char *p, size_t len, unsigned class) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len, *run = s;

        for (; s < end; s++) {
                char e[4];

                if (byte_class[*s] & class)
                        continue;
                out_write(run, (size_t)(s - run));
                out_write(e, hex_escape(e, *s));
                run = s + 1;
        }
        out_write(run, (size_t)(end - run));
}
