/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The caller id prefix of the text views and its width from pid_max. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/caller.h"
#include "tests.h"

static struct kmsg_record *parse(const char *s) {
        struct kmsg_record *r = NULL;

        CHECK_INT(kmsg_record_parse(s, strlen(s), &r), 0);
        return r;
}

/* prefix of the record s at width w */
static const char *prefix_of(const char *s, unsigned w) {
        static char buf[CALLER_PREFIX_MAX];
        struct kmsg_record *r = parse(s);
        size_t n = caller_prefix(r, w, buf);

        CHECK_INT(n, strlen(buf));
        kmsg_record_unref(r);
        return buf;
}

TEST(prefix_padded_to_the_width) {
        CHECK_STR(prefix_of("6,1,0,-,caller=T1;m\n", 6), "[    T1] ");
        CHECK_STR(prefix_of("6,1,0,-,caller=C12;m\n", 6), "[   C12] ");
        CHECK_STR(prefix_of("6,1,0,-,caller=T12345;m\n", 6), "[T12345] ");
        CHECK_STR(prefix_of("6,1,0,-,caller=T1;m\n", 8), "[      T1] ");
        /* 0 is the default width; a longer id is written whole. */
        CHECK_STR(prefix_of("6,1,0,-,caller=T1;m\n", 0), "[    T1] ");
        CHECK_STR(prefix_of("6,1,0,-,caller=T4194304;m\n", 6), "[T4194304] ");
}

TEST(prefix_none_without_a_caller) {
        CHECK_STR(prefix_of("6,1,0,-;m\n", 6), "");
        CHECK_STR(prefix_of("6,1,0,-,caller=;m\n", 6), "");
        CHECK_STR(prefix_of("6,1,0,-,vendor=x;m\n", 6), "");
}

TEST(prefix_odd_callers_as_written_and_safe) {
        /* Vendor kernels: kept as text, as util-linux prints it. */
        CHECK_STR(prefix_of("6,1,0,-,caller=abc;m\n", 6), "[   abc] ");
        /* The header is not unescaped: "\x1b" is four printable bytes. */
        CHECK_STR(prefix_of("6,1,0,-,caller=T1\\x1b;m\n", 6), "[T1\\x1b] ");
        CHECK_STR(prefix_of("6,1,0,-,caller=T1234567890123456789012345678901234567890;m\n", 6),
                  "[T1234567890123456789012345678901...] ");
}

TEST(prefix_every_width_and_length) {
        /* The padding is stored sixteen spaces at once up to a width of 16, with memset() beyond. */
        char rec[80], text[40], want[CALLER_PREFIX_MAX];

        for (unsigned n = 1; n <= CALLER_TEXT_MAX; n++)
                for (unsigned w = 1; w <= 40; w++) {
                        memset(text, '7', n);
                        text[0] = 'T';
                        text[n] = '\0';
                        snprintf(rec, sizeof(rec), "6,1,0,-,caller=%s;m\n", text);
                        snprintf(want, sizeof(want), "[%*s] ", (int)w, text);
                        CHECK_STR(prefix_of(rec, w), want);
                }
}

TEST(width_from_pid_max) {
        char path[] = "/tmp/test-caller-XXXXXX";
        int fd = mkstemp(path);
        FILE *f;

        CHECK(fd >= 0);
        f = fdopen(fd, "w");
        fputs("4194304\n", f);
        fclose(f);
        CHECK_INT(caller_width_from_pid_max(path), 8);
        f = fopen(path, "w");
        fputs("32768\n", f);
        fclose(f);
        CHECK_INT(caller_width_from_pid_max(path), 6);
        f = fopen(path, "w");
        fputs("99\n", f);
        fclose(f);
        CHECK_INT(caller_width_from_pid_max(path), 3);
        f = fopen(path, "w");
        fputs("nonsense\n", f);
        fclose(f);
        CHECK_INT(caller_width_from_pid_max(path), CALLER_WIDTH_DEFAULT);
        unlink(path);
        CHECK_INT(caller_width_from_pid_max(path), CALLER_WIDTH_DEFAULT);
}
