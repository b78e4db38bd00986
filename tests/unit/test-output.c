/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The buffered output's writers against simple byte-at-a-time references:
 * the escapers that look at eight bytes at a time (out_text() and its
 * forms, out_escaped(), text_safe_into()) over every byte value at every
 * position and alignment, over random text and where the buffer fills;
 * the numbers (out_u64(), put_seconds()) against printf.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/escape.h"
#include "text/writer.h"
#include "tests.h"
#include "text/utf8.h"

/* What reached the writer: the bytes (the tests write at most 1 MiB at a time), and the length of each write. */
struct capture {
        char buf[1 << 20];
        size_t len;
        size_t writes[64];
        size_t n_writes;
};

static struct capture cap;
static char dots[OUT_BUF_SIZE];

static int capture_writer(void *userdata, const void *p, size_t len) {
        struct capture *c = userdata;

        if (len > sizeof(c->buf) - c->len)
                abort();
        memcpy(c->buf + c->len, p, len);
        c->len += len;
        if (c->n_writes < sizeof(c->writes) / sizeof(c->writes[0]))
                c->writes[c->n_writes] = len;
        c->n_writes++;
        return 0;
}

static void capture_start(void) {
        out_set_writer(capture_writer, &cap);
        out_flush();
        cap.len = 0;
        cap.n_writes = 0;
}

/* Everything written since capture_start(), flushed. */
static const char *capture_end(size_t *ret_len) {
        out_flush();
        *ret_len = cap.len;
        return cap.buf;
}

static unsigned long long failures;

static void check_u64(uint64_t v) {
        char want[32], *buf = malloc(24); /* exactly the room put_decimal() may use */
        size_t got_len;
        const char *got;

        snprintf(want, sizeof(want), "%" PRIu64, v);
        capture_start();
        out_u64(v);
        got = capture_end(&got_len);
        if ((got_len != strlen(want) || memcmp(got, want, got_len) != 0) && failures++ < 10)
                CHECK_MEM(got, got_len, want, strlen(want));
        if (!buf)
                abort();
        got_len = put_decimal(buf, v);
        if ((got_len != strlen(want) || memcmp(buf, want, got_len) != 0) && failures++ < 10)
                CHECK_MEM(buf, got_len, want, strlen(want));
        free(buf);
}

TEST(u64_as_printf) {
        static const uint64_t powers[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
        uint64_t p = 1;
        unsigned seed = 1;

        failures = 0;
        for (uint64_t v = 0; v < 100000; v++)
                check_u64(v);
        for (int i = 0; i < 64; i++) {
                check_u64((UINT64_C(1) << i) - 1);
                check_u64(UINT64_C(1) << i);
                check_u64((UINT64_C(1) << i) + 1);
        }
        for (int i = 0; i < 20; i++, p *= 10) {
                check_u64(p - 1);
                check_u64(p);
                check_u64(p + 1);
        }
        check_u64(UINT64_MAX);
        /* Below 10^8 the digits are made all at once: a sample of every length. */
        for (int i = 0; i < 50000; i++)
                check_u64((uint64_t)rand_r(&seed) % 100000000 / powers[i % 8]);
        for (int i = 0; i < 20000; i++)
                check_u64((uint64_t)rand_r(&seed) << 33 ^ (uint64_t)rand_r(&seed) << 11 ^ (uint64_t)rand_r(&seed));
        CHECK_INT(failures, 0);
}

TEST(u64_near_the_buffer_end) {
        size_t got_len, room;
        const char *got;

        memset(dots, '.', sizeof(dots));
        for (room = 0; room < 30; room++) {
                capture_start();
                out_write(dots, OUT_BUF_SIZE - room);
                out_u64(7);
                out_u64(UINT64_C(18446744073709551615));
                out_usec(UINT64_C(18446744073709551615), 5);
                out_u64(0);
                got = capture_end(&got_len);
                CHECK_INT(got_len, OUT_BUF_SIZE - room + 1 + 20 + 21 + 1);
                CHECK_MEM(got + OUT_BUF_SIZE - room, 43, "71844674407370955161518446744073709.5516150", 43);
        }
}

TEST(write_from64_any_length_and_room) {
        /* Up to 64 bytes are copied 64 at once where the buffer has room for 64; else as out_write(). */
        static char src[200];
        size_t got_len;
        const char *got;

        for (size_t i = 0; i < sizeof(src); i++)
                src[i] = (char)('A' + i % 26);
        memset(dots, '.', sizeof(dots));
        for (size_t room = 0; room <= 130; room += 13)
                for (size_t len = 0; len <= 100; len++) {
                        capture_start();
                        out_write(dots, OUT_BUF_SIZE - room);
                        out_write_from64(src, len);
                        out_putc('|');
                        got = capture_end(&got_len);
                        CHECK_INT(got_len, OUT_BUF_SIZE - room + len + 1);
                        CHECK_MEM(got + OUT_BUF_SIZE - room, len, src, len);
                        CHECK_INT(got[got_len - 1], '|');
                }
}

static void check_seconds(uint64_t usec, unsigned width) {
        char want[64], got[64];
        size_t n;

        snprintf(want, sizeof(want), "%*" PRIu64 ".%06" PRIu64, (int)width, usec / 1000000, usec % 1000000);
        memset(got, 'x', sizeof(got));
        n = put_seconds(got, usec, width);
        if ((n != strlen(want) || strcmp(got, want) != 0) && failures++ < 10)
                CHECK_STR(got, want);
}

TEST(seconds_as_printf) {
        uint64_t p = 1;
        unsigned seed = 2;

        failures = 0;
        for (unsigned w = 0; w <= 20; w++) {
                for (int i = 0; i < 20; i++, p *= 10) {
                        check_seconds(p - 1, w);
                        check_seconds(p, w);
                        check_seconds(p * 1000000 - 1, w);
                }
                p = 1;
                for (int i = 0; i < 64; i++)
                        check_seconds(UINT64_C(1) << i, w);
                check_seconds(0, w);
                check_seconds(UINT64_MAX, w);
                for (int i = 0; i < 2000; i++)
                        check_seconds((uint64_t)rand_r(&seed) << 20 ^ (uint64_t)rand_r(&seed), w);
        }
        CHECK_INT(failures, 0);
}

/* A growing string for the references. */
struct str {
        char buf[1 << 16];
        size_t len;
};

static void put(struct str *s, const void *p, size_t n) {
        if (s->len + n > sizeof(s->buf))
                abort();
        memcpy(s->buf + s->len, p, n);
        s->len += n;
}

static void put_hex(struct str *s, unsigned char c) {
        char e[4];

        put(s, e, hex_escape(e, c));
}

/* The references, one byte at a time. */
enum form { FORM_TEXT, FORM_LINE, FORM_SYSLOG, FORM_CELL };

static bool ref_ascii;

/* The length of a valid UTF-8 sequence at p that may reach a terminal, or 0. */
static size_t ref_utf8(const unsigned char *p, size_t len) {
        uint32_t cp;
        size_t n = utf8_decode(p, len, &cp);

        if (!n || (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
                return 0;
        return n;
}

static bool is_hex(unsigned char c) {
        return strchr("0123456789abcdefABCDEF", c) && c;
}

/* Returns the bytes of p taken (up to a newline for FORM_LINE). */
static size_t ref_text(struct str *s, const char *p, size_t len, enum form form) {
        const unsigned char *u = (const unsigned char *)p;
        size_t i = 0, n;

        while (i < len) {
                unsigned char c = u[i];

                if (form == FORM_LINE && c == '\n')
                        break;
                if (form == FORM_SYSLOG && c == '\\' && i + 4 <= len && u[i + 1] == 'x' && is_hex(u[i + 2]) &&
                    is_hex(u[i + 3])) {
                        put(s, "\\x5c", 4);
                        i++;
                } else if ((c >= 0x20 && c < 0x7f) || (c == '\t' && form != FORM_CELL)) {
                        put(s, &c, 1);
                        i++;
                } else if (c >= 0x80 && !ref_ascii && (n = ref_utf8(u + i, len - i)) > 0) {
                        put(s, u + i, n);
                        i += n;
                } else {
                        put_hex(s, c);
                        i++;
                }
        }
        return i;
}

/* The bytes each class keeps, from its definition in escape.h. */
static bool ref_keeps(unsigned class, unsigned char c) {
        bool printable = c >= 0x20 && c < 0x7f;

        switch (class) {
        case ESC_KMSG:
                return printable && c != '\\';
        case ESC_KMSG_KEY:
                return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == '-';
        case ESC_KMSG_HEADER:
                return printable && c != ',' && c != ';';
        case ESC_KMSG_FIELDS:
                return printable && c != ';';
        case ESC_ASCII:
                return c < 0x80;
        case ESC_CELL:
                return printable;
        case ESC_TEXT:
                return printable || c == '\t';
        case ESC_EXPORT_KEY:
                return c != '=' && c != '\\';
        case ESC_JSON:
                return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
        }
        abort();
}

/*
 * The header classes' bytes from 0x80 (header_keeps() in escape.h), decoded
 * here on their own: how many to keep, 0 to escape the first.
 */
static size_t ref_header_keeps(const unsigned char *p, size_t len) {
        unsigned c = p[0];
        size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2, i;
        uint32_t cp;

        if (c < 0xc0)
                return 0;
        if (c < 0xc2 || c > 0xf4 || len < n)
                return 1;
        cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
        for (i = 1; i < n; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 1;
                cp = cp << 6 | (p[i] & 0x3f);
        }
        if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
                return 1;
        /* C1 controls, bidirectional controls. */
        if (cp <= 0x9f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
                return 0;
        return n;
}

static void ref_escaped(struct str *s, const char *p, size_t len, unsigned class) {
        const unsigned char *u = (const unsigned char *)p;
        size_t i = 0, n;

        while (i < len) {
                unsigned char c = u[i];

                if (ref_keeps(class, c)) {
                        put(s, &c, 1);
                        i++;
                } else if ((class == ESC_KMSG_HEADER || class == ESC_KMSG_FIELDS) && c >= 0x80 &&
                           (n = ref_header_keeps(u + i, len - i)) > 0) {
                        put(s, u + i, n);
                        i += n;
                } else {
                        put_hex(s, c);
                        i++;
                }
        }
}

static const unsigned all_classes[] = { ESC_KMSG, ESC_KMSG_KEY, ESC_KMSG_HEADER, ESC_KMSG_FIELDS,
                                    ESC_ASCII, ESC_CELL, ESC_TEXT, ESC_EXPORT_KEY, ESC_JSON };

/*
 * p[0..len) through every writer (the classes only with classes: they do
 * not depend on the locale) and its reference; what ran before leaves lead
 * bytes in the buffer.
 */
static void check_all(const char *p, size_t len, size_t lead, bool classes) {
        static struct str want;
        static const char filler[64] = "0123456789012345678901234567890123456789012345678901234567890123";
        char *cell;
        size_t got_len, n, k;
        const char *got;
        int form;

        for (form = FORM_TEXT; form <= FORM_SYSLOG; form++) {
                want.len = 0;
                put(&want, filler, lead);
                capture_start();
                out_write(filler, lead);
                if (form == FORM_TEXT) {
                        ref_text(&want, p, len, FORM_TEXT);
                        out_text(p, len, false);
                } else if (form == FORM_LINE) {
                        k = ref_text(&want, p, len, FORM_LINE);
                        n = out_text_line(p, len, false);
                        if (n != k && failures++ < 10)
                                CHECK_INT(n, k);
                } else {
                        ref_text(&want, p, len, FORM_SYSLOG);
                        out_text_syslog(p, len, false);
                }
                got = capture_end(&got_len);
                if ((got_len != want.len || memcmp(got, want.buf, got_len) != 0) && failures++ < 10)
                        CHECK_MEM(got, got_len, want.buf, want.len);
        }
        for (k = 0; classes && k < sizeof(all_classes) / sizeof(all_classes[0]); k++) {
                want.len = 0;
                put(&want, filler, lead);
                ref_escaped(&want, p, len, all_classes[k]);
                capture_start();
                out_write(filler, lead);
                out_escaped(p, len, all_classes[k]);
                got = capture_end(&got_len);
                if ((got_len != want.len || memcmp(got, want.buf, got_len) != 0) && failures++ < 10)
                        CHECK_MEM(got, got_len, want.buf, want.len);
        }
        want.len = 0;
        ref_text(&want, p, len, FORM_CELL);
        /* Exactly the room text_safe_into() may use, so that AddressSanitizer sees a write past it. */
        cell = malloc(len * 4 + 1);
        if (!cell)
                abort();
        n = text_safe_into(cell, p, len, false);
        if ((n != want.len || memcmp(cell, want.buf, n) != 0 || cell[n]) && failures++ < 10)
                CHECK_MEM(cell, n, want.buf, want.len);
        free(cell);
}

/* Both locales: UTF-8 kept, or every byte from 0x80 escaped. */
static void check_both(const char *p, size_t len, size_t lead) {
        ref_ascii = false;
        out_set_ascii(false);
        check_all(p, len, lead, true);
        ref_ascii = true;
        out_set_ascii(true);
        check_all(p, len, lead, false);
        out_set_ascii(false);
        ref_ascii = false;
}

TEST(every_byte_at_every_position_and_alignment) {
        /* Room to start the text at each of eight alignments. */
        static char area[64 + 8];
        /* Around each byte: plain text, a backslash, a UTF-8 lead byte. */
        const char fills[] = "a\\\xc3";

        failures = 0;
        for (size_t f = 0; f < sizeof(fills) - 1; f++)
                for (size_t len = 1; len <= 20; len++)
                        for (size_t pos = 0; pos < len; pos++)
                                for (unsigned b = 0; b < 256; b++) {
                                        size_t align = (len + pos + b) % 8;
                                        char *p = area + align;

                                        memset(p, fills[f], len);
                                        p[pos] = (char)b;
                                        check_both(p, len, (pos + b) % 8);
                                }
        CHECK_INT(failures, 0);
}

/* A random piece of text: plain runs, UTF-8 (good and bad), controls, backslash escapes, separators. */
static size_t random_piece(char *p, unsigned *seed) {
        static const char *const pieces[] = {
                "\xc3\xa9", "\xe2\x80\x94", "\xf0\x9f\x94\x8c", "\xc2\x80", "\xc2\x9f", "\xe2\x80\xaa", "\xe2\x81\xa9",
                "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe7\xab", "\xc3", "\x80", "\xff", "\\x41", "\\xzz",
                "\\x4", "\\", "\\\\", "\\xAf", "\t", "\n", "\x1b[1m", ",", ";", "=", "\x7f", "SUBSYSTEM", "caller=T1",
        };
        unsigned k = (unsigned)rand_r(seed) % 4, n, i;

        if (k == 0) {
                const char *s = pieces[(unsigned)rand_r(seed) % (sizeof(pieces) / sizeof(pieces[0]))];

                memcpy(p, s, strlen(s));
                return strlen(s);
        }
        if (k == 1) {
                p[0] = (char)(rand_r(seed) & 0xff);
                return 1;
        }
        n = (unsigned)rand_r(seed) % 30;
        for (i = 0; i < n; i++)
                p[i] = (char)(0x20 + (unsigned)rand_r(seed) % 0x5f);
        return n;
}

TEST(random_text) {
        static char text[4096];
        unsigned seed = 15;

        failures = 0;
        for (int i = 0; i < 5000; i++) {
                size_t len = 0, pieces = (size_t)rand_r(&seed) % 40;

                while (pieces-- > 0 && len + 64 < sizeof(text))
                        len += random_piece(text + len, &seed);
                check_both(text, len, (size_t)rand_r(&seed) % 64);
        }
        CHECK_INT(failures, 0);
}

/* The writes to standard output are where they were: the buffer drains only where it is full. */
TEST(buffer_fills_where_a_plain_write_would) {
        static char text[300], want[4 * sizeof(text)];
        size_t before[64], n_before, want_len, got_len;
        unsigned seed = 7;
        const char *got;
        static struct str ref;

        memset(dots, '.', sizeof(dots));
        failures = 0;
        for (size_t room = 0; room < 150; room++)
                for (int form = 0; form < 4; form++) {
                        size_t len = 0;

                        while (len + 64 < sizeof(text))
                                len += random_piece(text + len, &seed);
                        ref.len = 0;
                        /* The three forms of out_text(), and out_escaped() (form 3). */
                        if (form < 3)
                                ref_text(&ref, text, len, (enum form)form);
                        else
                                ref_escaped(&ref, text, len, ESC_KMSG);
                        want_len = ref.len;
                        memcpy(want, ref.buf, want_len);
                        /* The made-safe text written as it is: where the buffer drains. */
                        capture_start();
                        out_write(dots, OUT_BUF_SIZE - room);
                        out_write(want, want_len);
                        out_flush();
                        n_before = cap.n_writes;
                        memcpy(before, cap.writes, sizeof(before));
                        /* And made safe on the way. */
                        capture_start();
                        out_write(dots, OUT_BUF_SIZE - room);
                        if (form == FORM_TEXT)
                                out_text(text, len, false);
                        else if (form == FORM_LINE)
                                out_text_line(text, len, false);
                        else if (form == FORM_SYSLOG)
                                out_text_syslog(text, len, false);
                        else
                                out_escaped(text, len, ESC_KMSG);
                        got = capture_end(&got_len);
                        if ((got_len != OUT_BUF_SIZE - room + want_len ||
                             memcmp(got + OUT_BUF_SIZE - room, want, want_len) != 0 || cap.n_writes != n_before ||
                             memcmp(cap.writes, before, sizeof(size_t) * n_before) != 0) &&
                            failures++ < 10)
                                CHECK(!"the text or the writes differ");
                }
        CHECK_INT(failures, 0);
}

TEST(long_text_over_the_buffer) {
        static char text[200000];
        static struct str want;
        unsigned seed = 3;
        size_t len = 0, got_len;
        const char *got;

        while (len + 64 < sizeof(text) / 4)
                len += random_piece(text + len, &seed);
        want.len = 0;
        ref_escaped(&want, text, len, ESC_KMSG);
        capture_start();
        out_escaped(text, len, ESC_KMSG);
        got = capture_end(&got_len);
        CHECK_MEM(got, got_len, want.buf, want.len);
}
