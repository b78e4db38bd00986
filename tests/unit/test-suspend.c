/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wall-clock offsets across suspends: markers, logged durations, the prescan's arithmetic. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time/suspend.h"
#include "tests.h"

#define SEC 1000000LL

static struct kmsg_record *rec(const char *text) {
        struct kmsg_record *r = NULL;

        if (kmsg_record_parse(text, strlen(text), &r) < 0)
                test_fail(__FILE__, __LINE__, "cannot parse %s", text);
        return r;
}

static int classify(const char *msg, int64_t *d) {
        return suspends_classify(msg, strlen(msg), d);
}

TEST(markers_and_durations) {
        int64_t d;

        CHECK_INT(classify("PM: suspend entry (deep)", &d), 1);
        CHECK_INT(classify("PM: suspend entry (s2idle)", &d), 1);
        CHECK_INT(classify("PM: hibernation: hibernation entry", &d), 1);
        CHECK_INT(classify("ACPI: PM: Low-level resume complete", &d), 2);
        CHECK_INT(d, -1);
        CHECK_INT(classify("PM: suspend exit", &d), 2);
        CHECK_INT(classify("PM: Timekeeping suspended for 12.345 seconds", &d), 2);
        CHECK_INT(d, 12345000);
        CHECK_INT(classify("Suspended for 7 seconds", &d), 2);
        CHECK_INT(d, 7 * SEC);
        /* A duration without " seconds" is none; other messages are not markers. */
        CHECK_INT(classify("PM: Timekeeping suspended for 12 minutes", &d), 2);
        CHECK_INT(d, -1);
        CHECK_INT(classify("usb 1-1: PM: suspend entry", &d), 0);
        CHECK_INT(classify("", &d), 0);
}

/* Feed kmsg records "PRI,SEQ,USEC,-;TEXT" to a tracker; the offset after each, in seconds. */
static void feed_all(struct suspends *s, const char *const *texts, size_t n, int64_t *offsets) {
        for (size_t i = 0; i < n; i++) {
                struct kmsg_record *r = rec(texts[i]);

                suspends_feed(s, r);
                offsets[i] = suspends_offset(s) / SEC;
                kmsg_record_unref(r);
        }
}

TEST(dump_sums_logged_durations_of_kernel_records_only) {
        static const char *const log[] = {
                "6,0,1,-;a",
                "6,1,2,-;PM: suspend entry (deep)",
                "6,2,3,-;PM: Timekeeping suspended for 100 seconds",
                "6,3,4,-;PM: Suspended for 100 seconds",
                "14,4,5,-;PM: suspend entry (deep)",
                "14,5,6,-;PM: Timekeeping suspended for 5 seconds",
                "6,6,7,-;PM: suspend entry (deep)",
                "6,7,8,-;PM: suspend exit",
                "6,8,9,-;PM: Suspended for 20 seconds",
        };
        int64_t off[9];
        struct suspends *s = suspends_new(-1, NULL);

        feed_all(s, log, 9, off);
        CHECK_INT(off[0], 0);
        CHECK_INT(off[1], 0);
        /* One duration per sleep; a userspace record counts for nothing. */
        CHECK_INT(off[2], 100);
        CHECK_INT(off[3], 100);
        CHECK_INT(off[5], 100);
        CHECK_INT(off[7], 100);
        CHECK_INT(off[8], 120);
        suspends_free(s);
}

TEST(no_tracker_no_offset) {
        CHECK_INT(suspends_offset(NULL), 0);
        suspends_feed(NULL, NULL);
        CHECK(suspends_free(NULL) == NULL);
}

TEST(prescan_rejects_unknown_total) {
        struct suspends *s = suspends_new(-1, NULL);

        CHECK_INT(suspends_prescan(s, NULL), -EINVAL);
        suspends_free(s);
}

/* Prescan a kmsg-form buffer with total slept seconds, then feed it again: the offsets. */
static void prescan_all(const char *buf, int64_t total, int64_t *offsets, size_t n) {
        struct suspends *s = suspends_new(total * SEC, NULL);
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        size_t i = 0;

        CHECK_INT(kmsg_reader_new_buffer(buf, strlen(buf), "test", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(suspends_prescan(s, rd), 0);
        kmsg_reader_unref(rd);
        CHECK_INT(kmsg_reader_new_buffer(buf, strlen(buf), "test", KMSG_FORMAT_KMSG, &rd), 0);
        while (i < n && kmsg_reader_next(rd, &r) > 0) {
                suspends_feed(s, r);
                offsets[i++] = suspends_offset(s) / SEC;
        }
        CHECK_INT(i, n);
        kmsg_reader_unref(rd);
        suspends_free(s);
}

TEST(prescan_one_untimed_sleep_gets_the_rest) {
        int64_t off[6];

        prescan_all("6,0,1,-;a\n6,1,2,-;PM: suspend entry (deep)\n6,2,3,-;PM: Suspended for 100 seconds\n"
                    "6,3,4,-;PM: suspend entry (deep)\n6,4,5,-;PM: suspend exit\n6,5,6,-;b\n",
                    1000, off, 6);
        CHECK_INT(off[0], 0);
        CHECK_INT(off[1], 0);
        CHECK_INT(off[2], 100);
        CHECK_INT(off[3], 100);
        CHECK_INT(off[4], 1000);
        CHECK_INT(off[5], 1000);
}

TEST(prescan_untimed_sleeps_get_bounds) {
        int64_t off[5];

        /* Two untimed: before the first nothing was slept; between them at most the total less nothing. */
        prescan_all("6,0,1,-;a\n6,1,2,-;PM: suspend entry (deep)\n6,2,3,-;PM: suspend exit\n"
                    "6,3,4,-;PM: suspend entry (deep)\n6,4,5,-;PM: suspend exit\n",
                    1000, off, 5);
        CHECK_INT(off[0], 0);
        CHECK_INT(off[2], 1000);
        CHECK_INT(off[4], 1000);
        /* The second timed: the stretch between is the total less it. */
        prescan_all("6,0,1,-;a\n6,1,2,-;PM: suspend entry (deep)\n6,2,3,-;PM: suspend exit\n"
                    "6,3,4,-;PM: suspend entry (deep)\n6,4,5,-;PM: Suspended for 300 seconds\n",
                    1000, off, 5);
        CHECK_INT(off[0], 0);
        CHECK_INT(off[2], 700);
        CHECK_INT(off[4], 1000);
}

TEST(prescan_of_a_rotated_ring_works_backwards) {
        int64_t off[3];

        /* Seq 0 is gone: sleeps before it may be lost, so only later durations help. */
        prescan_all("6,7,1,-;a\n6,8,2,-;PM: suspend entry (deep)\n6,9,3,-;PM: Suspended for 300 seconds\n",
                    1000, off, 3);
        CHECK_INT(off[0], 700);
        CHECK_INT(off[2], 1000);
        prescan_all("6,7,1,-;a\n6,8,2,-;PM: suspend entry (deep)\n6,9,3,-;PM: suspend exit\n", 1000, off, 3);
        CHECK_INT(off[0], 1000);
        CHECK_INT(off[2], 1000);
}
