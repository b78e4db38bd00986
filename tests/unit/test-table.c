/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table kdmesg lays out itself (src/table-plain.c): its escaping, its
 * numbers and its padding against the slow ways they stand for
 * (text_safe_into(), put_seconds(), printf()).
 */
#include <inttypes.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "text/columns.h"
#include "text/writer.h"
#include "text/table-layout.h"
#include "text/table-plain.h"
#include "tests.h"

const char *test_skip_reason(void) {
        /* Not fitted to a terminal: laid out by kdmesg. */
        unsetenv("COLUMNS");
        return setlocale(LC_CTYPE, "C.UTF-8") ? NULL : "no C.UTF-8 locale";
}

/* table_plain_safe_into() of s[0..len) is text_safe_into()'s, and says rightly whether it is ASCII. */
static void check_safe(const char *s, size_t len) {
        char *a = malloc(len * 4 + 1), *b = malloc(len * 4 + 1);
        size_t na, nb, k;
        bool ascii = true, want = true;

        na = text_safe_into(a, s, len, false);
        nb = table_plain_safe_into(b, s, len, &ascii);
        CHECK_MEM(b, nb, a, na);
        for (k = 0; k < na; k++)
                if ((unsigned char)a[k] >= 0x80)
                        want = false;
        CHECK(ascii == want);
        free(a);
        free(b);
}

/* Every byte value at every place of texts of 0 to 50 bytes, in a UTF-8 locale and in an ASCII one. */
TEST(safe_into_every_byte_everywhere) {
        char s[64];
        size_t len, at;
        unsigned c;

        for (int ascii = 0; ascii < 2; ascii++) {
                out_set_ascii(ascii);
                for (len = 0; len <= 50; len++) {
                        memset(s, 'a', len);
                        check_safe(s, len);
                        for (at = 0; at < len; at++)
                                for (c = 0; c < 256; c++) {
                                        memset(s, 'a', len);
                                        s[at] = (char)c;
                                        check_safe(s, len);
                                }
                }
        }
        out_set_ascii(false);
}

/* Characters of several bytes, valid or not, at every place, also cut by the end. */
TEST(safe_into_utf8_everywhere) {
        static const char *const seqs[] = {
                "\xc3\xa9",         /* é */
                "\xe4\xb8\xad",     /* a wide ideograph */
                "\xf0\x9f\x98\x80", /* an emoji */
                "e\xcc\x81",        /* a combining accent */
                "\xe2\x80\xae",     /* a bidirectional control */
                "\xc2\x85",         /* a C1 control */
                "\xe2\x82",         /* cut short */
                "\xc0\xaf",         /* overlong */
                "\xed\xa0\x80",     /* a surrogate */
        };
        char s[80];
        size_t len, at, k;

        for (int ascii = 0; ascii < 2; ascii++) {
                out_set_ascii(ascii);
                for (k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++) {
                        size_t n = strlen(seqs[k]);

                        for (len = n; len <= 40; len++)
                                for (at = 0; at + n <= len; at++) {
                                        memset(s, 'x', len);
                                        memcpy(s + at, seqs[k], n);
                                        check_safe(s, len);
                                        /* Cut by the end of the text. */
                                        check_safe(s, at + n - 1);
                                }
                }
        }
        out_set_ascii(false);
}

struct table {
        struct columns cols;
        struct libscols_table *tb;
        struct table_layout *lo;
        struct table_plain *p;
};

static void table_open(struct table *t, const char *list) {
        char *l = strdup(list);
        const char *bad;

        memset(t, 0, sizeof(*t));
        CHECK_INT(columns_parse(&t->cols, l, &bad), 0);
        free(l);
        t->tb = scols_new_table();
        t->lo = table_layout_new(t->tb, &t->cols);
        CHECK(t->lo && table_plain_fits(&t->cols, t->lo));
        t->p = table_plain_new(&t->cols, t->lo, 0, false, false);
        CHECK(t->p != NULL);
}

static void table_close(struct table *t) {
        table_plain_free(t->p);
        table_layout_free(t->lo);
        scols_unref_table(t->tb);
        columns_free(&t->cols);
}

/* The batch's rows as printed are want. */
static void check_rows(struct table *t, const char *want) {
        char *got;

        out_flush();
        table_plain_lay_out(t->p);
        table_plain_print_rows(t->p);
        got = strndup(out_buf, out_len);
        out_len = 0;
        CHECK_STR(got, want);
        free(got);
}

/* One row of SEQ,TIME,MESSAGE. */
static void add_numbers(struct table *t, uint64_t seq, uint64_t usec) {
        struct table_plain_src src[3] = {
                { .kind = TABLE_PLAIN_U64, .v = seq },
                { .kind = TABLE_PLAIN_SECONDS, .v = usec },
                { .kind = TABLE_PLAIN_TEXT, .s = "m", .len = 1 },
        };

        CHECK_INT(table_plain_add_row(t->p, src), 0);
}

static const uint64_t numbers[] = {
        0,
        7,
        9,
        10,
        99,
        100,
        12345,
        999999,
        1000000,
        9999999,
        4294967295u,
        4294967296u,
        99999999999u,
        1000000000000000000u,
        9999999999999999999u,
        UINT64_MAX,
};

/*
 * Numbers of every length, right-aligned in the widest one's width: in a
 * first batch, which widens the columns (its rows padded again), and in a
 * second one, laid out in the widths it keeps (printed as laid out).
 */
TEST(numbers_and_seconds) {
        size_t n = sizeof(numbers) / sizeof(numbers[0]), i, w_seq = 7, w_time = 13;
        char want[8192] = "", line[128], sec[32];
        struct table t;

        table_open(&t, "SEQ,TIME,MESSAGE");
        for (i = 0; i < n; i++) {
                size_t a = (size_t)snprintf(line, sizeof(line), "%" PRIu64, numbers[i]);
                size_t b = put_seconds(sec, numbers[n - 1 - i], 0);

                w_seq = a > w_seq ? a : w_seq;
                w_time = b > w_time ? b : w_time;
        }
        for (i = 0; i < n; i++) {
                put_seconds(sec, numbers[n - 1 - i], 0);
                snprintf(line, sizeof(line), "%*" PRIu64 " %*s m\n", (int)w_seq, numbers[i], (int)w_time, sec);
                strcat(want, line);
        }
        for (int batch = 0; batch < 2; batch++) {
                for (i = 0; i < n; i++)
                        add_numbers(&t, numbers[i], numbers[n - 1 - i]);
                check_rows(&t, want);
        }
        table_close(&t);
}

/* Numbers and seconds narrower than their columns, in a batch that widens nothing. */
TEST(numbers_and_seconds_in_their_widths) {
        static const char *const want = "      0      0.000000 m\n"
                                        "    999      0.000999 m\n"
                                        "1234567 123456.000001 m\n";
        struct table t;

        table_open(&t, "SEQ,TIME,MESSAGE");
        add_numbers(&t, 0, 0);
        add_numbers(&t, 999, 999);
        add_numbers(&t, 1234567, 123456000001);
        check_rows(&t, want);
        table_close(&t);
}

/* One row of CALLER,DEVICE,FLAGS,MESSAGE. */
static void add_row(struct table *t, const char *caller, const char *dev, const char *flags, const char *msg) {
        struct table_plain_src src[4] = {
                { .kind = *caller ? TABLE_PLAIN_TEXT : TABLE_PLAIN_EMPTY, .s = caller, .len = strlen(caller) },
                { .kind = TABLE_PLAIN_TEXT, .s = dev, .len = strlen(dev) },
                /* Safe text, to be measured. */
                { .kind = *flags ? TABLE_PLAIN_SAFE : TABLE_PLAIN_EMPTY, .s = flags, .len = strlen(flags), .width = SIZE_MAX },
                { .kind = TABLE_PLAIN_TEXT, .s = msg, .len = strlen(msg) },
        };

        CHECK_INT(table_plain_add_row(t->p, src), 0);
}

/*
 * A cell wider than its column in a later row of the batch: the rows
 * before it are padded again; left- and right-aligned, empty cells, text
 * made safe, text to measure (wide characters).  The second batch keeps
 * the widths the first one widened: printed as laid out.
 */
TEST(widening_in_the_batch) {
        static const char *const want =
                "          T1 a            -     m0\n"
                "                                m1\n"
                "      C2\\x01 bb                 m2\n"
                "T12345678901 \xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad       m3\n"
                "             c\\x09        w\xc3\xa9" "de  m4\n"
                "          T3                    m5\n";
        struct table t;

        table_open(&t, "CALLER,DEVICE,FLAGS,MESSAGE");
        for (int batch = 0; batch < 2; batch++) {
                add_row(&t, "T1", "a", "-", "m0");
                add_row(&t, "", "", "", "m1");
                add_row(&t, "C2\x01", "bb", "", "m2");
                add_row(&t, "T12345678901", "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad", "", "m3");
                add_row(&t, "", "c\t", "w\xc3\xa9" "de", "m4");
                add_row(&t, "T3", "", "", "m5");
                check_rows(&t, want);
        }
        table_close(&t);
}

/* Right-aligned text narrower than its column, in a batch that widens nothing. */
TEST(right_aligned_text_in_its_width) {
        static const char *const want = "     T1 a          -     m0\n"
                                        " C2\\x01 \xc3\xa9          w\xc3\xa9" "de  m1\n"
                                        "                         m2\n";
        struct table t;

        table_open(&t, "CALLER,DEVICE,FLAGS,MESSAGE");
        add_row(&t, "T1", "a", "-", "m0");
        add_row(&t, "C2\x01", "\xc3\xa9", "w\xc3\xa9" "de", "m1");
        add_row(&t, "", "", "", "m2");
        check_rows(&t, want);
        table_close(&t);
}
