/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sequence tracker: gaps, causes, rotation, resume, new segments, duplicates. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "tests.h"

static struct kmsg_record *rec(uint64_t seq, uint64_t usec, const char *msg) {
        char buf[256];
        struct kmsg_record *r = NULL;

        snprintf(buf, sizeof(buf), "6,%" PRIu64 ",%" PRIu64 ",-;%s\n", seq, usec, msg);
        if (kmsg_record_parse(buf, strlen(buf), &r) < 0)
                abort();
        return r;
}

/* Feed seq with a message derived from it (so that a re-read is a duplicate). */
static int feed(struct kmsg_seqtrack *t, uint64_t seq, const struct kmsg_loss **l) {
        char msg[64];
        struct kmsg_record *r;
        int f;

        snprintf(msg, sizeof(msg), "message %" PRIu64, seq);
        r = rec(seq, seq * 1000 + 7, msg);
        f = kmsg_seqtrack_feed(t, r, l);
        kmsg_record_unref(r);
        return f;
}

static struct kmsg_seqtrack *new_track(void) {
        struct kmsg_seqtrack *t = NULL;

        if (kmsg_seqtrack_new(&t) < 0)
                abort();
        return t;
}

TEST(consecutive_from_zero) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        uint64_t last = 99;
        uint64_t i;

        CHECK_INT(kmsg_seqtrack_get_last(t, &last), -ENODATA);
        CHECK_INT(last, 99);
        for (i = 0; i < 100; i++)
                CHECK_INT(feed(t, i, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        CHECK_INT(kmsg_seqtrack_get_last(t, &last), 0);
        CHECK_INT(last, 99);
        kmsg_seqtrack_unref(t);
}

TEST(first_record_above_zero_is_rotated) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        l = NULL;
        CHECK_INT(feed(t, 1234, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_ROTATED);
        CHECK_INT(l->first_seq, 0);
        CHECK_INT(l->count, 1234);
        CHECK_INT(l->has_before, 0);
        CHECK_INT(l->usec_after, 1234007);
        CHECK_INT(feed(t, 1235, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 1234);
        kmsg_seqtrack_unref(t);
}

TEST(gap_reports_both_sides) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 1, &l), 0);
        CHECK_INT(feed(t, 2, &l), 0);
        l = NULL;
        CHECK_INT(feed(t, 5, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_GAP);
        CHECK_INT(l->first_seq, 3);
        CHECK_INT(l->count, 2);
        CHECK_INT(l->has_before, 1);
        CHECK_INT(l->usec_before, 2007);
        CHECK_INT(l->usec_after, 5007);
        CHECK_INT(feed(t, 6, &l), 0);
        CHECK_INT(feed(t, 100, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->first_seq, 7);
        CHECK_INT(l->count, 93);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 95);
        /* NULL ret_loss is allowed. */
        CHECK_INT(feed(t, 102, NULL), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 96);
        kmsg_seqtrack_unref(t);
}

TEST(noted_cause_applies_to_the_next_gap_only) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        CHECK_INT(feed(t, 0, &l), 0);
        /* -EPIPE from the reader, then the oldest record still there. */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 40, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_OVERRUN);
        CHECK_INT(l->first_seq, 1);
        CHECK_INT(l->count, 39);
        CHECK_INT(feed(t, 45, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_GAP);
        /* A cause noted before a record that follows on is dropped with it. */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 46, &l), 0);
        CHECK_INT(feed(t, 48, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_GAP);
        /* -EMSGSIZE: the consumed record is lost as "toobig". */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_TOOBIG);
        CHECK_INT(feed(t, 50, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_TOOBIG);
        CHECK_INT(l->first_seq, 49);
        CHECK_INT(l->count, 1);
        /* Before the first record: EPIPE right after opening. */
        kmsg_seqtrack_unref(t);
        t = new_track();
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 10, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_OVERRUN);
        CHECK_INT(l->count, 10);
        kmsg_seqtrack_unref(t);
}

TEST(expect_resumes) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        /* Resume where we stopped: nothing lost. */
        kmsg_seqtrack_expect(t, 500);
        CHECK_INT(feed(t, 500, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        kmsg_seqtrack_unref(t);

        /* Records before the resume point were delivered already. */
        t = new_track();
        kmsg_seqtrack_expect(t, 500);
        CHECK_INT(feed(t, 498, &l), KMSG_SEQ_DUPLICATE);
        CHECK_INT(feed(t, 499, &l), KMSG_SEQ_DUPLICATE);
        CHECK_INT(feed(t, 500, &l), 0);
        CHECK_INT(feed(t, 501, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        kmsg_seqtrack_unref(t);

        /* The first record is past the resume point: a gap, not rotation. */
        t = new_track();
        kmsg_seqtrack_expect(t, 500);
        CHECK_INT(feed(t, 510, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l->cause, KMSG_LOSS_GAP);
        CHECK_INT(l->first_seq, 500);
        CHECK_INT(l->count, 10);
        kmsg_seqtrack_unref(t);
}

TEST(time_going_back_starts_a_new_boot) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        struct kmsg_record *r;
        uint64_t i, last = 0;
        int f;

        for (i = 0; i <= 50; i++) {
                r = rec(i, 40000000 + i * 1000000, "boot one");
                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
                kmsg_record_unref(r);
        }
        /* A dump of the next boot: seq 0 again, the clock started again. */
        r = rec(0, 0, "Linux version (next boot)");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_NEW_SEGMENT);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        r = rec(1, 10, "second of next boot");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
        kmsg_record_unref(r);

        /* A third boot whose dump starts at 20 (rotated), far behind in time. */
        for (i = 2; i <= 100; i++) {
                r = rec(i, i * 1000000, "boot two");
                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
                kmsg_record_unref(r);
        }
        r = rec(20, 5, "boot three");
        f = kmsg_seqtrack_feed(t, r, &l);
        kmsg_record_unref(r);
        CHECK_INT(f, KMSG_SEQ_NEW_SEGMENT | KMSG_SEQ_LOSS);
        if (f & KMSG_SEQ_LOSS) {
                CHECK_INT(l->first_seq, 0);
                CHECK_INT(l->count, 20);
                CHECK_INT(l->has_before, 0);
        }
        CHECK_INT(kmsg_seqtrack_get_segments(t), 3);
        /* Never anything near 2^64 lost. */
        CHECK_INT(kmsg_seqtrack_get_lost(t), 20);
        CHECK_INT(kmsg_seqtrack_get_last(t, &last), 0);
        CHECK_INT(last, 20);
        kmsg_seqtrack_unref(t);
}

TEST(numbers_going_back_while_time_goes_on_are_no_boot) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        struct kmsg_record *r;
        uint64_t i, last = 0;
        int f;

        /* util-linux's test inputs: numbers that repeat while the time rises. */
        for (i = 0; i <= 5; i++) {
                r = rec(i, i * 1000000, "first");
                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
                kmsg_record_unref(r);
        }
        r = rec(3, 7000000, "another record numbered 3");
        l = NULL;
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_CLASH);
        CHECK(l == NULL);
        kmsg_record_unref(r);
        /* Back to 0, 10 s later than the last: a clash, no boot, no loss. */
        r = rec(0, 17000000, "again from 0");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_CLASH);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        CHECK_INT(kmsg_seqtrack_get_clashes(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 0);
        /* The numbers go on from the highest. */
        CHECK_INT(kmsg_seqtrack_get_last(t, &last), 0);
        CHECK_INT(last, 5);
        r = rec(6, 18000000, "six");
        f = kmsg_seqtrack_feed(t, r, &l);
        kmsg_record_unref(r);
        CHECK_INT(f, 0);
        kmsg_seqtrack_unref(t);
}

TEST(backwards_beyond_the_window) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        uint64_t i;

        for (i = 0; i < 70000; i++)
                if (feed(t, i, &l) != 0) {
                        test_fail(__FILE__, __LINE__, "seq %" PRIu64 " not consecutive", i);
                        break;
                }
        /* Far behind, outside what is remembered, the time going on: delivered, no boot, no loss. */
        {
                struct kmsg_record *r = rec(3, 80000000, "late");

                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
                kmsg_record_unref(r);
        }
        /* The time going back 40 s: a new boot. */
        CHECK_INT(feed(t, 3, &l), KMSG_SEQ_NEW_SEGMENT | KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 3);
        kmsg_seqtrack_unref(t);
}

TEST(overlapping_dumps_duplicates_skipped) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        uint64_t i;

        for (i = 0; i <= 10; i++)
                CHECK_INT(feed(t, i, &l), 0);
        /* The second dump overlaps the first: 5..10 again, then new ones. */
        for (i = 5; i <= 10; i++)
                CHECK_INT(feed(t, i, &l), KMSG_SEQ_DUPLICATE);
        for (i = 11; i <= 15; i++)
                CHECK_INT(feed(t, i, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 6);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        /* The same record twice in a row. */
        CHECK_INT(feed(t, 15, &l), KMSG_SEQ_DUPLICATE);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 7);
        kmsg_seqtrack_unref(t);
}

TEST(late_record_fills_a_reported_gap) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        uint64_t last = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 1, &l), 0);
        CHECK_INT(feed(t, 4, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 2);
        /* 2 and 3 turn up late (from another dump): delivered, no longer lost. */
        CHECK_INT(feed(t, 2, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 1);
        CHECK_INT(feed(t, 3, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        /* Again: now duplicates. */
        CHECK_INT(feed(t, 2, &l), KMSG_SEQ_DUPLICATE);
        CHECK_INT(feed(t, 3, &l), KMSG_SEQ_DUPLICATE);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 2);
        /* The sequence goes on from the highest. */
        CHECK_INT(kmsg_seqtrack_get_last(t, &last), 0);
        CHECK_INT(last, 4);
        CHECK_INT(feed(t, 5, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        kmsg_seqtrack_unref(t);
}

TEST(records_without_seqnum_are_not_tracked) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r = NULL;
        const struct kmsg_loss *l;
        int fds[2];
        struct kmsg_reader *rd = NULL;

        /* A syslog-form record has no sequence number. */
        if (pipe(fds) < 0 || write(fds[1], "<6>[1.0] x\n", 11) != 11) {
                test_fail(__FILE__, __LINE__, "pipe: %m");
                return;
        }
        close(fds[1]);
        CHECK_INT(kmsg_reader_new_fd(fds[0], "pipe", KMSG_FORMAT_SYSLOG, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(!kmsg_record_has_seqnum(r));
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_last(t, NULL), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 0);
        kmsg_reader_unref(rd);
        close(fds[0]);
        CHECK_INT(kmsg_seqtrack_feed(NULL, r, &l), -EINVAL);
        CHECK_INT(kmsg_seqtrack_feed(t, NULL, &l), -EINVAL);
        CHECK_INT(kmsg_seqtrack_new(NULL), -EINVAL);
        CHECK(kmsg_seqtrack_ref(t) == t);
        CHECK(kmsg_seqtrack_unref(t) == NULL);
        CHECK(kmsg_seqtrack_unref(t) == NULL);
        CHECK(kmsg_seqtrack_unref(NULL) == NULL);
}

TEST(huge_sequence_numbers) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        CHECK_INT(feed(t, UINT64_MAX - 2, &l), KMSG_SEQ_LOSS);
        CHECK(l->count == UINT64_MAX - 2);
        CHECK_INT(feed(t, UINT64_MAX - 1, &l), 0);
        CHECK_INT(feed(t, UINT64_MAX, &l), 0);
        kmsg_seqtrack_unref(t);
}

TEST(cause_names) {
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_GAP), "gap");
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_OVERRUN), "overrun");
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_ROTATED), "rotated");
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_TOOBIG), "toobig");
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_REBOOT), "reboot");
        CHECK(kmsg_loss_cause_to_name((enum kmsg_loss_cause)42) == NULL);
}

/* Boot b of the same kernel: seq < 5 are stamped 0 with the same text in every boot. */
static struct kmsg_record *boot_rec(unsigned b, uint64_t seq) {
        char msg[64];

        if (seq < 5) {
                snprintf(msg, sizeof(msg), "early %" PRIu64, seq);
                return rec(seq, 0, msg);
        }
        snprintf(msg, sizeof(msg), "late %" PRIu64, seq);
        /* Later than 30 s: a new boot's records stamped 0 are that far back. */
        return rec(seq, 40000000 + seq * 1000 + b, msg);
}

static int feed_boot(struct kmsg_seqtrack *t, unsigned b, uint64_t seq) {
        struct kmsg_record *r = boot_rec(b, seq);
        const struct kmsg_loss *l;
        int f = kmsg_seqtrack_feed(t, r, &l);

        kmsg_record_unref(r);
        return f;
}

TEST(same_kernel_booted_twice_is_a_new_segment_not_duplicates) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;
        uint64_t i;
        int f;

        for (i = 0; i < 10; i++)
                CHECK_INT(feed_boot(t, 1, i), 0);
        /* Boot 2 begins like boot 1: the tracker cannot tell yet. */
        for (i = 0; i < 5; i++) {
                CHECK_INT(feed_boot(t, 2, i), KMSG_SEQ_HELD);
                CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        }
        /* The first record stamped later differs: a new boot. */
        CHECK_INT(feed_boot(t, 2, 5), KMSG_SEQ_HELD);
        for (i = 0; i < 6; i++) {
                f = kmsg_seqtrack_pop(t, &r, &l);
                CHECK_INT(f, i == 0 ? KMSG_SEQ_NEW_SEGMENT : 0);
                if (f < 0)
                        break;
                CHECK_INT(kmsg_record_get_seqnum(r), i);
                kmsg_record_unref(r);
        }
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        CHECK_INT(feed_boot(t, 2, 6), 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        kmsg_seqtrack_unref(t);
}

TEST(overlap_over_records_stamped_zero_is_duplicates) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;
        uint64_t i;

        for (i = 0; i < 10; i++)
                CHECK_INT(feed_boot(t, 1, i), 0);
        for (i = 0; i < 5; i++)
                CHECK_INT(feed_boot(t, 1, i), KMSG_SEQ_HELD);
        /* A later record matches too: all were duplicates, none comes out. */
        CHECK_INT(feed_boot(t, 1, 5), KMSG_SEQ_DUPLICATE);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        for (i = 6; i < 10; i++)
                CHECK_INT(feed_boot(t, 1, i), KMSG_SEQ_DUPLICATE);
        CHECK_INT(feed_boot(t, 1, 10), 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 10);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        kmsg_seqtrack_unref(t);
}

TEST(overlap_of_only_records_stamped_zero_then_new_records) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;
        uint64_t i;

        for (i = 0; i < 5; i++)
                CHECK_INT(feed_boot(t, 1, i), 0);
        for (i = 0; i < 5; i++)
                CHECK_INT(feed_boot(t, 1, i), KMSG_SEQ_HELD);
        /* The overlap ended where the segment ended: the next one is new. */
        CHECK_INT(feed_boot(t, 1, 5), 0);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 5);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        kmsg_seqtrack_unref(t);
}

TEST(finish_counts_held_records_as_duplicates) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;
        uint64_t i;

        for (i = 0; i < 8; i++)
                CHECK_INT(feed_boot(t, 1, i), 0);
        for (i = 0; i < 3; i++)
                CHECK_INT(feed_boot(t, 1, i), KMSG_SEQ_HELD);
        CHECK_INT(kmsg_seqtrack_finish(t), 0);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 3);
        kmsg_seqtrack_unref(t);
}

TEST(held_records_stay_valid_after_the_caller_lets_go) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;
        const char *m;
        uint64_t i;

        for (i = 0; i < 8; i++)
                CHECK_INT(feed_boot(t, 1, i), 0);
        /* feed_boot() drops its reference: the tracker must keep its own. */
        CHECK_INT(feed_boot(t, 2, 0), KMSG_SEQ_HELD);
        r = rec(1, 0, "a different boot");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_HELD);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), KMSG_SEQ_NEW_SEGMENT);
        m = kmsg_record_get_message(r, NULL);
        CHECK_STR(m, "early 0");
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), 0);
        CHECK_STR(kmsg_record_get_message(r, NULL), "a different boot");
        kmsg_record_unref(r);
        kmsg_seqtrack_unref(t);
}

TEST(loss_getters) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 4, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_first_seq(l), 1);
        CHECK_INT(kmsg_loss_get_count(l), 3);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_GAP);
        CHECK_INT(kmsg_loss_has_before(l), 1);
        CHECK_INT(kmsg_loss_get_usec_before(l), l->usec_before);
        CHECK_INT(kmsg_loss_get_usec_after(l), l->usec_after);
        CHECK_INT(kmsg_loss_get_count(NULL), 0);
        CHECK_INT(kmsg_loss_has_before(NULL), 0);
        kmsg_seqtrack_unref(t);
}

TEST(loss_new_ref_unref_and_setters) {
        struct kmsg_loss *l = NULL, *m;

        CHECK_INT(kmsg_loss_new(10, 5, KMSG_LOSS_INTERRUPTED, &l), 0);
        CHECK_INT(kmsg_loss_get_first_seq(l), 10);
        CHECK_INT(kmsg_loss_get_count(l), 5);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_INTERRUPTED);
        CHECK_INT(kmsg_loss_has_before(l), 0);
        CHECK_INT(kmsg_loss_get_usec_before(l), 0);
        CHECK_INT(kmsg_loss_get_usec_after(l), 0);
        CHECK_INT(kmsg_loss_set_before(l, 1234), 0);
        CHECK_INT(kmsg_loss_has_before(l), 1);
        CHECK_INT(kmsg_loss_get_usec_before(l), 1234);
        CHECK_INT(kmsg_loss_set_after(l, 5678), 0);
        CHECK_INT(kmsg_loss_get_usec_after(l), 5678);
        /* Before 0 is a known time stamp too. */
        CHECK_INT(kmsg_loss_set_before(l, 0), 0);
        CHECK_INT(kmsg_loss_has_before(l), 1);
        CHECK_INT(kmsg_loss_get_usec_before(l), 0);

        /* Two references: the loss lives until the second unref. */
        CHECK(kmsg_loss_ref(l) == l);
        CHECK(kmsg_loss_unref(l) == NULL);
        CHECK_INT(kmsg_loss_get_first_seq(l), 10);
        CHECK(kmsg_loss_unref(l) == NULL);
        CHECK(kmsg_loss_ref(NULL) == NULL);
        CHECK(kmsg_loss_unref(NULL) == NULL);

        /* Count 0: not known, as a reboot's tail; that its record before was the newest, once said. */
        CHECK_INT(kmsg_loss_new(7, 0, KMSG_LOSS_REBOOT, &l), 0);
        CHECK_INT(kmsg_loss_get_count(l), 0);
        CHECK_INT(kmsg_loss_before_newest(l), 0);
        CHECK_INT(kmsg_loss_set_before_newest(l), 0);
        CHECK_INT(kmsg_loss_before_newest(l), 1);
        kmsg_loss_unref(l);
        CHECK_INT(kmsg_loss_set_before_newest(NULL), -EINVAL);
        CHECK_INT(kmsg_loss_before_newest(NULL), 0);

        /* Bad arguments; *ret untouched. */
        m = (struct kmsg_loss *)&m;
        CHECK_INT(kmsg_loss_new(0, 1, KMSG_LOSS_GAP, NULL), -EINVAL);
        CHECK_INT(kmsg_loss_new(0, 1, (enum kmsg_loss_cause)42, &m), -EINVAL);
        CHECK(m == (struct kmsg_loss *)&m);
        CHECK_INT(kmsg_loss_set_before(NULL, 1), -EINVAL);
        CHECK_INT(kmsg_loss_set_after(NULL, 1), -EINVAL);
        CHECK_INT(kmsg_loss_get_first_seq(NULL), 0);
        CHECK_INT(kmsg_loss_get_usec_before(NULL), 0);
        CHECK_INT(kmsg_loss_get_usec_after(NULL), 0);
        CHECK_INT(kmsg_loss_get_cause(NULL), KMSG_LOSS_GAP);
}

TEST(tracker_loss_lives_until_the_next_call) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l = NULL, *l2 = NULL;
        struct kmsg_record *r;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK(l == NULL);
        CHECK_INT(feed(t, 4, &l), KMSG_SEQ_LOSS);
        /* Still readable after other calls that are not feed/pop/finish. */
        CHECK_INT(kmsg_seqtrack_get_lost(t), 3);
        CHECK_INT(kmsg_loss_get_first_seq(l), 1);
        CHECK_INT(kmsg_loss_get_count(l), 3);
        /* The next feed returns a new loss (or NULL): under ASan, reading the
         * old one now would be a use after free. */
        CHECK_INT(feed(t, 9, &l2), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_first_seq(l2), 5);
        CHECK_INT(kmsg_loss_get_count(l2), 4);
        CHECK_INT(feed(t, 10, &l2), 0);
        CHECK(l2 == NULL);
        /* A loss lives until pop and finish too, and the last unref frees it. */
        CHECK_INT(feed(t, 12, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        CHECK_INT(feed(t, 14, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_finish(t), 0);
        CHECK_INT(feed(t, 16, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_count(l), 1);
        kmsg_seqtrack_unref(t);
}

TEST(released_records_carry_their_own_loss) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l, *first;
        struct kmsg_record *r;
        uint64_t i;

        for (i = 0; i < 8; i++)
                CHECK_INT(feed_boot(t, 1, i), 0);
        /* Boot 2 from 0 with a gap after 2, held until seq 5 decides. */
        for (i = 0; i < 3; i++)
                CHECK_INT(feed_boot(t, 2, i), KMSG_SEQ_HELD);
        r = rec(6, 0, "after a gap");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_HELD);
        CHECK(l == NULL);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &first), KMSG_SEQ_NEW_SEGMENT);
        CHECK(first == NULL);
        kmsg_record_unref(r);
        for (i = 1; i < 3; i++) {
                CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), 0);
                CHECK(l == NULL);
                kmsg_record_unref(r);
        }
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_record_get_seqnum(r), 6);
        CHECK_INT(kmsg_loss_get_first_seq(l), 3);
        CHECK_INT(kmsg_loss_get_count(l), 3);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_GAP);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        /* A loss still queued when the tracker goes is freed with it (ASan: no leak). */
        for (i = 7; i < 12; i++)
                CHECK_INT(feed(t, i, NULL), 0);
        kmsg_seqtrack_unref(t);
}

static struct kmsg_seqtrack *new_window(unsigned n) {
        struct kmsg_seqtrack *t = new_track();

        if (kmsg_seqtrack_set_reorder_window(t, n) < 0)
                abort();
        return t;
}

/* Pop one record: its flags, and its seq in *seq (loss fields in *l). */
static int pop_seq(struct kmsg_seqtrack *t, uint64_t *seq, const struct kmsg_loss **l) {
        struct kmsg_record *r;
        int f = kmsg_seqtrack_pop(t, &r, l);

        if (f >= 0) {
                *seq = kmsg_record_get_seqnum(r);
                kmsg_record_unref(r);
        }
        return f;
}

TEST(reorder_window_late_record_is_no_loss) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        uint64_t seq = 99;

        /* seq 0, 1, 3, 2, 4: nothing is missing. */
        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 1, &l), 0);
        CHECK_INT(feed(t, 3, &l), KMSG_SEQ_HELD);
        CHECK(l == NULL);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(feed(t, 2, &l), KMSG_SEQ_HELD);
        /* Released in sequence order, without a loss. */
        CHECK_INT(pop_seq(t, &seq, &l), 0);
        CHECK_INT(seq, 2);
        CHECK(l == NULL);
        CHECK_INT(pop_seq(t, &seq, &l), 0);
        CHECK_INT(seq, 3);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(feed(t, 4, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        kmsg_seqtrack_unref(t);

        /* Without a window the same input reports the gap at once. */
        t = new_track();
        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 1, &l), 0);
        CHECK_INT(feed(t, 3, &l), KMSG_SEQ_LOSS);
        kmsg_seqtrack_unref(t);
}

TEST(reorder_window_gap_beyond_it_is_reported) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        uint64_t i, seq = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 5, &l), KMSG_SEQ_HELD);
        /* 31 more records: 1-4 could still come. */
        for (i = 6; i <= 36; i++)
                CHECK_INT(feed(t, i, &l), KMSG_SEQ_HELD);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        /* The 32nd after the gap settles it. */
        CHECK_INT(feed(t, 37, &l), KMSG_SEQ_HELD);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 5);
        CHECK_INT(kmsg_loss_get_first_seq(l), 1);
        CHECK_INT(kmsg_loss_get_count(l), 4);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_GAP);
        CHECK_INT(kmsg_loss_has_before(l), 1);
        CHECK_INT(kmsg_loss_get_usec_before(l), 7);
        CHECK_INT(kmsg_loss_get_usec_after(l), 5007);
        for (i = 6; i <= 37; i++) {
                CHECK_INT(pop_seq(t, &seq, &l), 0);
                CHECK_INT(seq, i);
        }
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 4);
        /* The window is closed: the next record goes straight through. */
        CHECK_INT(feed(t, 38, &l), 0);
        /* Too late to fill it now: delivered, the loss stays reported. */
        CHECK_INT(feed(t, 2, &l), 0);
        kmsg_seqtrack_unref(t);
}

TEST(reorder_window_split_hole_settles_in_parts) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        uint64_t i, seq = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 5, &l), KMSG_SEQ_HELD);
        for (i = 6; i <= 36; i++)
                CHECK_INT(feed(t, i, &l), KMSG_SEQ_HELD);
        /* The 32nd record after the gap is one of its own: still in time. */
        CHECK_INT(feed(t, 2, &l), KMSG_SEQ_HELD);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 2);
        CHECK_INT(kmsg_loss_get_first_seq(l), 1);
        CHECK_INT(kmsg_loss_get_count(l), 1);
        CHECK_INT(kmsg_loss_get_usec_before(l), 7);
        CHECK_INT(kmsg_loss_get_usec_after(l), 2007);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 5);
        CHECK_INT(kmsg_loss_get_first_seq(l), 3);
        CHECK_INT(kmsg_loss_get_count(l), 2);
        CHECK_INT(kmsg_loss_get_usec_before(l), 2007);
        for (i = 6; i <= 36; i++) {
                CHECK_INT(pop_seq(t, &seq, &l), 0);
                CHECK_INT(seq, i);
        }
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 3);
        kmsg_seqtrack_unref(t);
}

TEST(reorder_window_settle_and_finish_release_what_is_held) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        uint64_t seq = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 4, &l), KMSG_SEQ_HELD);
        CHECK_INT(feed(t, 2, &l), KMSG_SEQ_HELD);
        CHECK_INT(feed(t, 6, &l), KMSG_SEQ_HELD);
        /* A duplicate while the window is open is one. */
        CHECK_INT(feed(t, 4, &l), KMSG_SEQ_DUPLICATE);
        /* Idle: what is missing now is lost. */
        CHECK_INT(kmsg_seqtrack_settle(t), 0);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 2);
        CHECK_INT(kmsg_loss_get_first_seq(l), 1);
        CHECK_INT(kmsg_loss_get_count(l), 1);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 4);
        CHECK_INT(kmsg_loss_get_first_seq(l), 3);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 6);
        CHECK_INT(kmsg_loss_get_first_seq(l), 5);
        CHECK_INT(kmsg_loss_get_usec_before(l), 4007);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 3);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 1);
        CHECK_INT(kmsg_seqtrack_settle(t), 0);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        /* finish() settles too. */
        CHECK_INT(feed(t, 9, &l), KMSG_SEQ_HELD);
        CHECK_INT(kmsg_seqtrack_finish(t), 0);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 9);
        CHECK_INT(kmsg_loss_get_count(l), 2);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        /* Turning the window off settles it as well. */
        CHECK_INT(feed(t, 12, &l), KMSG_SEQ_HELD);
        CHECK_INT(kmsg_seqtrack_set_reorder_window(t, 0), 0);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 12);
        CHECK_INT(feed(t, 14, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_set_reorder_window(t, 4097), -EINVAL);
        CHECK_INT(kmsg_seqtrack_set_reorder_window(NULL, 1), -EINVAL);
        CHECK_INT(kmsg_seqtrack_settle(NULL), -EINVAL);
        kmsg_seqtrack_unref(t);
}

TEST(reorder_window_noted_cause_and_new_boot_are_not_held) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        struct kmsg_record *r;
        uint64_t seq = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        /* After EPIPE the kernel lost them: no waiting. */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 10, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_OVERRUN);
        /* A gap, then an overrun: the gap is settled first, in order. */
        CHECK_INT(feed(t, 12, &l), KMSG_SEQ_HELD);
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 20, &l), KMSG_SEQ_HELD);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 12);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_GAP);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 20);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_OVERRUN);
        CHECK_INT(kmsg_loss_get_first_seq(l), 13);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        /* A gap, then the next boot from 0, the clock 50 s back: the gap is the old boot's. */
        r = rec(23, 50000000, "the last of a boot");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_HELD);
        kmsg_record_unref(r);
        r = rec(0, 0, "Linux version (next boot)");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_HELD);
        kmsg_record_unref(r);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 23);
        CHECK_INT(kmsg_loss_get_first_seq(l), 21);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_NEW_SEGMENT);
        CHECK_INT(seq, 0);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        kmsg_seqtrack_unref(t);
}

/* A record stamped usec, with its own message. */
static int feed_at(struct kmsg_seqtrack *t, uint64_t seq, uint64_t usec, const struct kmsg_loss **l) {
        struct kmsg_record *r = rec(seq, usec, "timed");
        int f = kmsg_seqtrack_feed(t, r, l);

        kmsg_record_unref(r);
        return f;
}

TEST(seq_zero_again_with_an_earlier_time_is_a_boot_however_little_it_drops) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;

        /* A boot that crashed 3 ms in: its records are stamped 0 to 3000 µs. */
        CHECK_INT(feed_at(t, 0, 0, &l), 0);
        CHECK_INT(feed_at(t, 1, 1000, &l), 0);
        CHECK_INT(feed_at(t, 2, 3000, &l), 0);
        /* The next boot, 0.6 ms into it: seq 0, another message, 2.4 ms back. */
        r = rec(0, 600, "Linux version (next boot)");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_NEW_BOOT);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_clashes(t), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        /* Seq 0 with the time going on is no boot: a clash. */
        CHECK_INT(feed_at(t, 1, 700, &l), 0);
        r = rec(0, 900, "another seq 0, later");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_CLASH);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        kmsg_seqtrack_unref(t);
}

TEST(time_dropping_more_than_30s_while_seq_goes_on_is_a_new_boot) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;

        CHECK_INT(KMSG_SEQ_NEW_BOOT, KMSG_SEQ_NEW_SEGMENT);
        CHECK_INT(feed_at(t, 0, 40000000, &l), 0);
        /* Consecutive, 29 s back: printk jitter's side of the bound, the same boot. */
        CHECK_INT(feed_at(t, 1, 11000000, &l), 0);
        CHECK_INT(feed_at(t, 2, 50000000, &l), 0);
        /* A gap, 29 s back: still the same boot, the gap is a gap. */
        l = NULL;
        CHECK_INT(feed_at(t, 5, 21000000, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_GAP);
        CHECK_INT(kmsg_loss_get_first_seq(l), 3);
        CHECK_INT(kmsg_loss_get_count(l), 2);
        /* Exactly 30 s back is not more than 30 s. */
        CHECK_INT(feed_at(t, 6, 21000000 + 30000000, &l), 0);
        CHECK_INT(feed_at(t, 7, 21000000, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        /* 31 s back with the numbers going on: the next boot, whose ring had rotated. */
        CHECK_INT(feed_at(t, 8, 60000000, &l), 0);
        CHECK_INT(feed_at(t, 9, 60000001, &l), 0);
        l = NULL;
        CHECK_INT(feed_at(t, 100, 29000000, &l), KMSG_SEQ_NEW_BOOT | KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_ROTATED);
        CHECK_INT(kmsg_loss_get_first_seq(l), 0);
        CHECK_INT(kmsg_loss_get_count(l), 100);
        CHECK_INT(kmsg_loss_has_before(l), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 102);
        /* Right after it, by one: one stamp out of line, no boot (a reboot starts the numbers again). */
        CHECK_INT(feed_at(t, 101, 31000001, &l), 0);
        CHECK_INT(feed_at(t, 102, 0, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        kmsg_seqtrack_unref(t);

        /* With the reorder window: the gap before it is the old boot's, settled first. */
        t = new_window(32);
        CHECK_INT(feed_at(t, 0, 40000000, &l), 0);
        CHECK_INT(feed_at(t, 3, 41000000, &l), KMSG_SEQ_HELD);
        CHECK_INT(feed_at(t, 7, 1000, &l), KMSG_SEQ_HELD);
        {
                struct kmsg_record *r;
                int f;

                f = kmsg_seqtrack_pop(t, &r, &l);
                CHECK_INT(f, KMSG_SEQ_LOSS);
                CHECK_INT(kmsg_loss_get_first_seq(l), 1);
                kmsg_record_unref(r);
                f = kmsg_seqtrack_pop(t, &r, &l);
                CHECK_INT(f, KMSG_SEQ_NEW_BOOT | KMSG_SEQ_LOSS);
                CHECK_INT(kmsg_loss_get_count(l), 7);
                CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_ROTATED);
                if (f >= 0)
                        kmsg_record_unref(r);
                CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        }
        kmsg_seqtrack_unref(t);
}

/* An export-form record with a _BOOT_ID (NULL: none), read back through a reader. */
static struct kmsg_record *export_rec(uint64_t seq, uint64_t usec, const char *boot_id, const char *msg) {
        char buf[512];
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r = NULL;
        int n;

        n = snprintf(buf, sizeof(buf), "%s%s%sSEQNUM=%" PRIu64 "\nTIMESTAMP=%" PRIu64 "\nPRIORITY=6\nMESSAGE=%s\n\n",
                     boot_id ? "_BOOT_ID=" : "", boot_id ? boot_id : "", boot_id ? "\n" : "", seq, usec, msg);
        if (kmsg_reader_new_buffer(buf, (size_t)n, "mem", KMSG_FORMAT_EXPORT, &rd) < 0 ||
            kmsg_reader_next(rd, &r) != 1)
                abort();
        kmsg_record_ref(r);
        kmsg_reader_unref(rd);
        return r;
}

static int feed_id(struct kmsg_seqtrack *t, uint64_t seq, const char *boot_id, const struct kmsg_loss **l) {
        struct kmsg_record *r = export_rec(seq, seq * 1000, boot_id, "same text");
        int f = kmsg_seqtrack_feed(t, r, l);

        kmsg_record_unref(r);
        return f;
}

TEST(a_new_boot_id_is_a_new_boot) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        struct kmsg_record *r;
        const char *a = "0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e", *b = "9e8d7c6b5a4f43e2a1b0c9d8e7f6a5b4",
                   *c = "c0ffee0123456789abcdef0123456789";

        r = export_rec(1, 2, a, "x");
        CHECK_STR(kmsg_record_get_boot_id(r), a);
        kmsg_record_unref(r);
        r = rec(1, 2, "kmsg form");
        CHECK(kmsg_record_get_boot_id(r) == NULL);
        kmsg_record_unref(r);
        CHECK(kmsg_record_get_boot_id(NULL) == NULL);

        CHECK_INT(feed_id(t, 0, a, &l), 0);
        CHECK_INT(feed_id(t, 1, a, &l), 0);
        /* The numbers and the time go on, the boot id does not. */
        l = NULL;
        CHECK_INT(feed_id(t, 2, b, &l), KMSG_SEQ_NEW_BOOT | KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_cause(l), KMSG_LOSS_ROTATED);
        CHECK_INT(kmsg_loss_get_count(l), 2);
        CHECK_INT(feed_id(t, 3, b, &l), 0);
        /* A record that names no boot belongs to the last one named. */
        CHECK_INT(feed_id(t, 4, NULL, &l), 0);
        CHECK_INT(feed_id(t, 5, b, &l), 0);
        /* Back to 0 with the same text and a new id: a new boot at once, never held as a duplicate. */
        CHECK_INT(feed_id(t, 0, c, &l), KMSG_SEQ_NEW_BOOT);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 3);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 0);
        /* The same id again, the same numbers: duplicates, as before. */
        CHECK_INT(feed_id(t, 1, c, &l), 0);
        CHECK_INT(feed_id(t, 1, c, &l), KMSG_SEQ_DUPLICATE);
        /* Back to a boot id seen before: no new boot, no rotation claimed. */
        CHECK_INT(feed_id(t, 2, a, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 3);
        kmsg_seqtrack_unref(t);
}

TEST(reorder_window_a_duplicate_that_settles_it_never_comes_out) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        uint64_t seq = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 1, &l), 0);
        CHECK_INT(feed(t, 3, &l), KMSG_SEQ_HELD);
        /* A noted cause settles the window; the record that comes then is a duplicate. */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 1, &l), KMSG_SEQ_HELD);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK_INT(seq, 3);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 1);
        kmsg_seqtrack_unref(t);
}

TEST(reorder_window_releases_seq_2_64_minus_1) {
        struct kmsg_seqtrack *t = new_window(32);
        const struct kmsg_loss *l;
        uint64_t seq = 0;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, UINT64_MAX, &l), KMSG_SEQ_HELD);
        CHECK_INT(kmsg_seqtrack_settle(t), 0);
        CHECK_INT(pop_seq(t, &seq, &l), KMSG_SEQ_LOSS);
        CHECK(seq == UINT64_MAX);
        CHECK(kmsg_loss_get_first_seq(l) == 1);
        CHECK(kmsg_loss_get_count(l) == UINT64_MAX - 1);
        CHECK_INT(pop_seq(t, &seq, &l), -ENODATA);
        kmsg_seqtrack_unref(t);
}

/* Issue 32's invented losses: hostile time stamps and boot ids make no boot and no loss. */
TEST(hostile_stamps_and_boot_ids_invent_no_boot_or_loss) {
        struct kmsg_seqtrack *t = new_track();
        const struct kmsg_loss *l;
        uint64_t i;
        int f, bad = 0;

        /* One record with a wild time stamp among 1,000 (high, then low). */
        for (i = 0; i < 1000; i++) {
                uint64_t usec = i == 500 ? UINT64_MAX / 2 : i == 700 ? 0 : 100000000 + i * 1000;

                if (i == 800)
                        usec = UINT64_MAX / 3; /* and a gap after it: the next one is back in line */
                f = feed_at(t, i >= 801 ? i + 2 : i, usec, &l);
                if ((f & ~KMSG_SEQ_LOSS) != 0 || ((f & KMSG_SEQ_LOSS) && i != 801))
                        bad++;
        }
        CHECK_INT(bad, 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 2);
        kmsg_seqtrack_unref(t);

        /* The time jumping back every other record, 2,000 records. */
        bad = 0;
        t = new_track();
        for (i = 0; i < 2000; i++)
                if (feed_at(t, i, i % 2 ? 1000 + i : 4000000000 + i, &l) != 0)
                        bad++;
        CHECK_INT(bad, 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        kmsg_seqtrack_unref(t);

        /* An alternating _BOOT_ID, 20,000 records: two boots, and only boot 2's seq 0 before its first record. */
        bad = 0;
        t = new_track();
        for (i = 0; i < 20000; i++) {
                f = feed_id(t, i, i % 2 ? "9e8d7c6b5a4f43e2a1b0c9d8e7f6a5b4" : "0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e", &l);
                if (f != (i == 1 ? (KMSG_SEQ_NEW_BOOT | KMSG_SEQ_LOSS) : 0))
                        bad++;
        }
        CHECK_INT(bad, 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 1);
        kmsg_seqtrack_unref(t);
}

/* Candidates stamped 0 that no boot explains, then a duplicate: none of them comes out (fuzz-reader found it). */
TEST(held_candidates_then_a_duplicate_come_out_as_nothing) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        const struct kmsg_loss *l;
        uint64_t i;

        for (i = 0; i < 10; i++) {
                r = rec(i, i < 5 ? 0 : i * 1000, "same");
                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
                kmsg_record_unref(r);
        }
        for (i = 0; i < 3; i++) {
                r = rec(i, 0, "same");
                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_HELD);
                kmsg_record_unref(r);
        }
        /* Not the next candidate, but a record seen: the time went back 9 ms only, no boot. */
        r = rec(7, 7000, "same");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_HELD);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_pop(t, &r, &l), -ENODATA);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 4);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 1);
        kmsg_seqtrack_unref(t);
}
