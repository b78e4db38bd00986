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
static int feed(struct kmsg_seqtrack *t, uint64_t seq, struct kmsg_loss *l) {
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;

        memset(&l, 0xff, sizeof(l));
        CHECK_INT(feed(t, 1234, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_ROTATED);
        CHECK_INT(l.first_seq, 0);
        CHECK_INT(l.count, 1234);
        CHECK_INT(l.has_before, 0);
        CHECK_INT(l.usec_after, 1234007);
        CHECK_INT(feed(t, 1235, &l), 0);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 1234);
        kmsg_seqtrack_unref(t);
}

TEST(gap_reports_both_sides) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_loss l;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 1, &l), 0);
        CHECK_INT(feed(t, 2, &l), 0);
        memset(&l, 0, sizeof(l));
        CHECK_INT(feed(t, 5, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_GAP);
        CHECK_INT(l.first_seq, 3);
        CHECK_INT(l.count, 2);
        CHECK_INT(l.has_before, 1);
        CHECK_INT(l.usec_before, 2007);
        CHECK_INT(l.usec_after, 5007);
        CHECK_INT(feed(t, 6, &l), 0);
        CHECK_INT(feed(t, 100, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.first_seq, 7);
        CHECK_INT(l.count, 93);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 95);
        /* NULL ret_loss is allowed. */
        CHECK_INT(feed(t, 102, NULL), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 96);
        kmsg_seqtrack_unref(t);
}

TEST(noted_cause_applies_to_the_next_gap_only) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_loss l;

        CHECK_INT(feed(t, 0, &l), 0);
        /* -EPIPE from the reader, then the oldest record still there. */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 40, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_OVERRUN);
        CHECK_INT(l.first_seq, 1);
        CHECK_INT(l.count, 39);
        CHECK_INT(feed(t, 45, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_GAP);
        /* A cause noted before a record that follows on is dropped with it. */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 46, &l), 0);
        CHECK_INT(feed(t, 48, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_GAP);
        /* -EMSGSIZE: the consumed record is lost as "toobig". */
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_TOOBIG);
        CHECK_INT(feed(t, 50, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_TOOBIG);
        CHECK_INT(l.first_seq, 49);
        CHECK_INT(l.count, 1);
        /* Before the first record: EPIPE right after opening. */
        kmsg_seqtrack_unref(t);
        t = new_track();
        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
        CHECK_INT(feed(t, 10, &l), KMSG_SEQ_LOSS);
        CHECK_INT(l.cause, KMSG_LOSS_OVERRUN);
        CHECK_INT(l.count, 10);
        kmsg_seqtrack_unref(t);
}

TEST(expect_resumes) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_loss l;

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
        CHECK_INT(l.cause, KMSG_LOSS_GAP);
        CHECK_INT(l.first_seq, 500);
        CHECK_INT(l.count, 10);
        kmsg_seqtrack_unref(t);
}

TEST(backwards_starts_a_new_segment) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_loss l;
        struct kmsg_record *r;
        uint64_t i, last = 0;
        int f;

        for (i = 0; i <= 50; i++)
                CHECK_INT(feed(t, i, &l), 0);
        /* A dump of the next boot: seq 0 again, other content. */
        r = rec(0, 0, "Linux version (next boot)");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), KMSG_SEQ_NEW_SEGMENT);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 0);
        r = rec(1, 10, "second of next boot");
        CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
        kmsg_record_unref(r);

        /* A third boot whose dump starts at 20 (rotated), far behind. */
        for (i = 2; i <= 100; i++) {
                r = rec(i, i, "boot two");
                CHECK_INT(kmsg_seqtrack_feed(t, r, &l), 0);
                kmsg_record_unref(r);
        }
        r = rec(20, 5, "boot three");
        f = kmsg_seqtrack_feed(t, r, &l);
        kmsg_record_unref(r);
        CHECK_INT(f, KMSG_SEQ_NEW_SEGMENT | KMSG_SEQ_LOSS);
        CHECK_INT(l.first_seq, 0);
        CHECK_INT(l.count, 20);
        CHECK_INT(l.has_before, 0);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 3);
        /* Never anything near 2^64 lost. */
        CHECK_INT(kmsg_seqtrack_get_lost(t), 20);
        CHECK_INT(kmsg_seqtrack_get_last(t, &last), 0);
        CHECK_INT(last, 20);
        kmsg_seqtrack_unref(t);
}

TEST(backwards_beyond_the_window) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_loss l;
        uint64_t i;

        for (i = 0; i < 70000; i++)
                if (feed(t, i, &l) != 0) {
                        test_fail(__FILE__, __LINE__, "seq %" PRIu64 " not consecutive", i);
                        break;
                }
        /* Far behind, outside what is remembered: a new segment. */
        CHECK_INT(feed(t, 3, &l), KMSG_SEQ_NEW_SEGMENT | KMSG_SEQ_LOSS);
        CHECK_INT(l.count, 3);
        CHECK_INT(kmsg_seqtrack_get_segments(t), 2);
        CHECK_INT(kmsg_seqtrack_get_lost(t), 3);
        kmsg_seqtrack_unref(t);
}

TEST(overlapping_dumps_duplicates_skipped) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_loss l;
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;

        CHECK_INT(feed(t, UINT64_MAX - 2, &l), KMSG_SEQ_LOSS);
        CHECK(l.count == UINT64_MAX - 2);
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
        return rec(seq, seq * 1000 + b, msg);
}

static int feed_boot(struct kmsg_seqtrack *t, unsigned b, uint64_t seq) {
        struct kmsg_record *r = boot_rec(b, seq);
        struct kmsg_loss l;
        int f = kmsg_seqtrack_feed(t, r, &l);

        kmsg_record_unref(r);
        return f;
}

TEST(same_kernel_booted_twice_is_a_new_segment_not_duplicates) {
        struct kmsg_seqtrack *t = new_track();
        struct kmsg_record *r;
        struct kmsg_loss l;
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;
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
        struct kmsg_loss l;

        CHECK_INT(feed(t, 0, &l), 0);
        CHECK_INT(feed(t, 4, &l), KMSG_SEQ_LOSS);
        CHECK_INT(kmsg_loss_get_first_seq(&l), 1);
        CHECK_INT(kmsg_loss_get_count(&l), 3);
        CHECK_INT(kmsg_loss_get_cause(&l), KMSG_LOSS_GAP);
        CHECK_INT(kmsg_loss_has_before(&l), 1);
        CHECK_INT(kmsg_loss_get_usec_before(&l), l.usec_before);
        CHECK_INT(kmsg_loss_get_usec_after(&l), l.usec_after);
        CHECK_INT(kmsg_loss_get_count(NULL), 0);
        CHECK_INT(kmsg_loss_has_before(NULL), 0);
        kmsg_seqtrack_unref(t);
}
