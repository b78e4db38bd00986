/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg's record filters: levels, facilities, window, regex, sequence range. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/filter.h"
#include "tests.h"

static struct kmsg_record *rec(const char *text) {
        struct kmsg_record *r = NULL;

        if (kmsg_record_parse(text, strlen(text), &r) < 0)
                test_fail(__FILE__, __LINE__, "cannot parse %s", text);
        return r;
}

/* Which of the levels 0..7 (kernel records) pass, as a bit mask. */
static unsigned passing_levels(struct filter *f) {
        unsigned mask = 0, l;

        for (l = 0; l < 8; l++) {
                char buf[64];
                struct kmsg_record *r;

                snprintf(buf, sizeof(buf), "%u,1,0,-;x", l);
                r = rec(buf);
                if (r && filter_match(f, r))
                        mask |= 1u << l;
                kmsg_record_unref(r);
        }
        return mask;
}

/* The errors go to stderr; keep the TAP output clean. */
static void quiet(void) {
        if (!freopen("/dev/null", "w", stderr))
                abort();
}

TEST(levels_names_numbers_ranges) {
        struct filter f = {};

        quiet();
        CHECK_INT(filter_parse_levels(&f, "err"), 0);
        CHECK_INT(passing_levels(&f), 1u << 3);
        f = (struct filter){};
        CHECK_INT(filter_parse_levels(&f, "err+"), 0);
        CHECK_INT(passing_levels(&f), 0x0f);
        f = (struct filter){};
        CHECK_INT(filter_parse_levels(&f, "+err"), 0);
        CHECK_INT(passing_levels(&f), 0xf8);
        f = (struct filter){};
        CHECK_INT(filter_parse_levels(&f, "0,debug,WARNING"), 0);
        CHECK_INT(passing_levels(&f), 0x91);
        f = (struct filter){};
        CHECK_INT(filter_parse_levels(&f, "emerg+"), 0);
        CHECK_INT(passing_levels(&f), 0x01);
        f = (struct filter){};
        CHECK_INT(filter_parse_levels(&f, "+debug"), 0);
        CHECK_INT(passing_levels(&f), 0x80);
}

TEST(levels_rejected) {
        static const char *const bad[] = { "", "8", "bogus", "err++", "+", "++err", "+err+", "err,",
                                           ",err", "-1", "3x" };
        size_t i;

        quiet();
        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                struct filter f = {};

                /* strtok skips empty items: "err," is "err". */
                if (strcmp(bad[i], "err,") == 0 || strcmp(bad[i], ",err") == 0) {
                        CHECK_INT(filter_parse_levels(&f, bad[i]), 0);
                        continue;
                }
                if (filter_parse_levels(&f, bad[i]) != -EINVAL)
                        test_fail(__FILE__, __LINE__, "\"%s\" was accepted", bad[i]);
        }
}

/* The parsers print nothing: what was wrong is in f->error for the caller. */
TEST(errors_are_returned_not_printed) {
        struct filter f = {};
        char out[64] = "";
        FILE *saved = stderr, *mem = fmemopen(out, sizeof(out) - 1, "w");

        CHECK(mem != NULL);
        stderr = mem;
        CHECK_INT(filter_parse_levels(&f, "bogus"), -EINVAL);
        CHECK_STR(f.error, "unknown level 'bogus' (expected emerg, alert, crit, err, warn, notice, info, debug or 0-7; "
                           "LEVEL+ or +LEVEL for a range)");
        CHECK_INT(filter_parse_facilities(&f, ""), -EINVAL);
        CHECK_STR(f.error, "empty facility list");
        CHECK_INT(filter_parse_seq(&f, "9-3"), -EINVAL);
        CHECK_STR(f.error, "empty sequence range '9-3': 9 is after 3");
        CHECK_INT(filter_set_grep(&f, "("), -EINVAL);
        CHECK(strncmp(f.error, "bad regular expression '(': ", 28) == 0);
        fflush(mem);
        stderr = saved;
        fclose(mem);
        CHECK_STR(out, "");
        filter_done(&f);
}

TEST(facilities_up_to_255) {
        struct filter f = {};
        struct kmsg_record *kern = rec("6,1,0,-;k"), *daemon = rec("30,2,0,-;d"), *f200 = rec("1603,3,0,-;x"),
                           *f255 = rec("2047,4,0,-;y");

        quiet();
        CHECK_INT(filter_parse_facilities(&f, "daemon,200"), 0);
        CHECK(!filter_match(&f, kern));
        CHECK(filter_match(&f, daemon));
        CHECK(filter_match(&f, f200));
        CHECK(!filter_match(&f, f255));
        CHECK_INT(filter_parse_facilities(&f, "256"), -EINVAL);
        CHECK_INT(filter_parse_facilities(&f, "local8"), -EINVAL);

        f = (struct filter){};
        filter_add_userspace(&f);
        CHECK(!filter_match(&f, kern));
        CHECK(filter_match(&f, daemon));
        CHECK(filter_match(&f, f255));
        filter_add_kernel(&f);
        CHECK(filter_match(&f, kern));
        kmsg_record_unref(kern);
        kmsg_record_unref(daemon);
        kmsg_record_unref(f200);
        kmsg_record_unref(f255);
}

TEST(records_without_priority_or_time) {
        struct filter f = {};
        struct kmsg_record *r = NULL;
        struct kmsg_reader *rd;
        int fds[2];

        /* A plain "[time] msg" line carries no priority. */
        CHECK_INT(pipe(fds), 0);
        CHECK(write(fds[1], "[    1.000000] plain\n", 21) == 21);
        close(fds[1]);
        CHECK_INT(kmsg_reader_new_fd(fds[0], "pipe", KMSG_FORMAT_SYSLOG, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(filter_match(&f, r));
        CHECK_INT(filter_parse_levels(&f, "+emerg"), 0);
        CHECK(!filter_match(&f, r));
        f = (struct filter){};
        /* No sequence number: --seq matches nothing. */
        CHECK_INT(filter_parse_seq(&f, "0-"), 0);
        CHECK(!filter_in_window(&f, r));
        kmsg_reader_unref(rd);
        close(fds[0]);
}

TEST(time_window_inclusive) {
        struct filter f = {};
        struct kmsg_record *a = rec("6,1,1499999,-;a"), *b = rec("6,2,1500000,-;b"), *c = rec("6,3,3000000,-;c"),
                           *d = rec("6,4,3000001,-;d");

        filter_set_since(&f, 1500000);
        filter_set_until(&f, 3000000);
        CHECK(!filter_in_window(&f, a));
        CHECK(filter_in_window(&f, b));
        CHECK(filter_in_window(&f, c));
        CHECK(!filter_in_window(&f, d));
        CHECK(!filter_match(&f, d));
        kmsg_record_unref(a);
        kmsg_record_unref(b);
        kmsg_record_unref(c);
        kmsg_record_unref(d);
}

TEST(seq_ranges) {
        struct filter f = {};
        struct kmsg_record *r5 = rec("6,5,0,-;a"), *r6 = rec("6,6,0,-;b");

        quiet();
        CHECK_INT(filter_parse_seq(&f, "5"), 0);
        CHECK(filter_in_window(&f, r5));
        CHECK(!filter_in_window(&f, r6));
        CHECK_INT(filter_parse_seq(&f, "6-"), 0);
        CHECK(!filter_in_window(&f, r5));
        CHECK(filter_in_window(&f, r6));
        CHECK_INT(filter_parse_seq(&f, "-5"), 0);
        CHECK(filter_in_window(&f, r5));
        CHECK(!filter_in_window(&f, r6));
        CHECK_INT(filter_parse_seq(&f, "18446744073709551615"), 0);
        CHECK_INT(filter_parse_seq(&f, "18446744073709551616"), -EINVAL);
        CHECK_INT(filter_parse_seq(&f, "6-5"), -EINVAL);
        CHECK_INT(filter_parse_seq(&f, "-"), -EINVAL);
        CHECK_INT(filter_parse_seq(&f, ""), -EINVAL);
        CHECK_INT(filter_parse_seq(&f, "1-2-3"), -EINVAL);
        kmsg_record_unref(r5);
        kmsg_record_unref(r6);
}

TEST(grep_on_the_decoded_message) {
        struct filter f = {};
        struct kmsg_record *nl = rec("6,1,0,-;first\\x0asecond"), *nul = rec("6,2,0,-;before\\x00after"),
                           *esc = rec("6,3,0,-;a\\x5cb");

        quiet();
        CHECK_INT(filter_set_grep(&f, "first.second"), 0);
        CHECK(filter_match(&f, nl));
        CHECK_INT(filter_set_grep(&f, "^second"), 0);
        CHECK(!filter_match(&f, nl));
        /* The whole message is searched, past a NUL byte. */
        CHECK_INT(filter_set_grep(&f, "after$"), 0);
        CHECK(filter_match(&f, nul));
        CHECK_INT(filter_set_grep(&f, "a\\\\b"), 0);
        CHECK(filter_match(&f, esc));
        CHECK(!filter_match(&f, nl));
        CHECK_INT(filter_set_grep(&f, "a(b"), -EINVAL);
        filter_done(&f);
        kmsg_record_unref(nl);
        kmsg_record_unref(nul);
        kmsg_record_unref(esc);
}
