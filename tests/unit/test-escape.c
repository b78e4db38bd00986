/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg's byte classes, \xNN escapers and text_width(). */
#include <locale.h>
#include <stdint.h>
#include <string.h>

#include "text/escape.h"
#include "tests.h"

/* Widths are the locale's: pin the one the CLI tests use. */
const char *test_skip_reason(void) {
        return setlocale(LC_CTYPE, "C.UTF-8") ? NULL : "no C.UTF-8 locale";
}

static size_t width(const char *s) {
        return text_width(s, strlen(s), SIZE_MAX, NULL);
}

TEST(width_ascii) {
        CHECK_INT(width(""), 0);
        CHECK_INT(width("[    1.000000] "), 15);
}

TEST(width_wide_characters_take_two_columns) {
        /* 端末: two CJK ideographs; U+1F50C ELECTRIC PLUG, an emoji. */
        CHECK_INT(width("\xe7\xab\xaf\xe6\x9c\xab"), 4);
        CHECK_INT(width("<\xe7\xab\xaf\xe6\x9c\xab> "), 7);
        CHECK_INT(width("\xf0\x9f\x94\x8c"), 2);
        /* é as one code point and as e + U+0301 COMBINING ACUTE ACCENT. */
        CHECK_INT(width("\xc3\xa9"), 1);
        CHECK_INT(width("e\xcc\x81"), 1);
}

TEST(width_unprintable_bytes_count_as_escapes) {
        CHECK_INT(width("\n"), 4);
        CHECK_INT(width("a\xff" "b"), 6);
        /* A truncated sequence: each byte \xNN. */
        CHECK_INT(width("\xe7\xab"), 8);
        CHECK_INT(text_width("a\0b", 3, SIZE_MAX, NULL), 6);
}

TEST(width_cut) {
        size_t cut;

        /* A wide character that does not fit is left out whole. */
        CHECK_INT(text_width("ab\xe7\xab\xaf" "c", 6, 3, &cut), 2);
        CHECK_INT(cut, 2);
        CHECK_INT(text_width("ab\xe7\xab\xaf" "c", 6, 4, &cut), 4);
        CHECK_INT(cut, 5);
        CHECK_INT(text_width("abc", 3, SIZE_MAX, &cut), 3);
        CHECK_INT(cut, 3);
}

TEST(width_eight_at_a_time_as_one_at_a_time) {
        /* Printable ASCII is counted eight bytes at once: a control byte (4 columns) anywhere, any cut. */
        char s[32];
        size_t cut;

        for (size_t len = 1; len <= 24; len++)
                for (size_t pos = 0; pos <= len; pos++) {
                        memset(s, 'a', len);
                        if (pos < len)
                                s[pos] = '\x1b';
                        size_t full = len + (pos < len ? 3 : 0);

                        CHECK_INT(text_width(s, len, SIZE_MAX, NULL), full);
                        for (size_t max = 0; max <= full + 1; max++) {
                                /* The longest prefix no wider than max: the escape goes whole or not at all. */
                                size_t want = max < pos ? max : pos < len && max < pos + 4 ? pos : max - (pos < len ? 3 : 0);

                                if (want > len)
                                        want = len;
                                CHECK_INT(text_width(s, len, max, &cut), want + (pos < len && want > pos ? 3 : 0));
                                CHECK_INT(cut, want);
                        }
                }
}

TEST(escape_classes) {
        char buf[64];

        CHECK_INT(escape_into(buf, "a\\b\n\x7f\xc3\xa9", 7, ESC_KMSG), 22);
        CHECK_STR(buf, "a\\x5cb\\x0a\\x7f\\xc3\\xa9");
        escape_into(buf, "a=b\\c", 5, ESC_EXPORT_KEY);
        CHECK_STR(buf, "a\\x3db\\x5cc");
        escape_into(buf, "K.y_-1 !", 8, ESC_KMSG_KEY);
        CHECK_STR(buf, "K.y_-1\\x20\\x21");
        escape_into(buf, "k\x80", 2, ESC_ASCII);
        CHECK_STR(buf, "k\\x80");
        escape_into(buf, "\t\x1b", 2, ESC_CELL);
        CHECK_STR(buf, "\\x09\\x1b");
        CHECK(byte_class['\t'] & ESC_TEXT);
        CHECK(!(byte_class['"'] & ESC_JSON) && (byte_class[0x7f] & ESC_JSON));
}
