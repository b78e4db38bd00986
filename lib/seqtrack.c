/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sequence tracking: gaps, overruns, records rotated out before reading
 * started, new boots, duplicates from overlapping dumps, and records
 * whose numbers clash.
 *
 * A new boot starts where the input's boot id changes to one not seen
 * before, or where the time stamp drops by more than BOOT_TIME_DROP
 * (30 s): a reboot starts the monotonic clock again.  Not when the record
 * carries on the numbering exactly (seq = last + 1: a reboot starts the
 * numbers again too, so that is one stamp out of line), nor when the
 * numbers go on and the record is back in line with the one before the
 * last (that one alone was out of line).  Seq 0 after higher numbers with
 * a time stamp below the last one starts a boot however little the time
 * drops: the kernel numbers each boot from 0 (a boot that ended within 30 s
 * of its start, then another).  Whatever the numbers do without
 * the time going back is no boot: numbers that go back while the time goes
 * on are duplicates (the same fingerprint), late records (a gap reported
 * before them shrinks), or records that clash with one seen under the same
 * number (delivered, flagged KMSG_SEQ_CLASH for the caller to warn).
 *
 * Duplicates are told by a fingerprint of the record (time stamp,
 * priority, message) kept for the last SEQ_WINDOW sequence numbers: a
 * record whose sequence number was seen in this segment with the same
 * fingerprint is a duplicate.  Memory is fixed whatever the input's size.
 *
 * One case is ambiguous record by record: two boots of the same kernel
 * begin with the same records, all stamped 0.  A backwards jump onto a
 * matching record stamped 0 is therefore only a candidate: the tracker
 * holds such records (at most HOLD_MAX) until one stamped later than 0
 * decides.  If it matches too, the held records were duplicates; if not,
 * they start a new boot segment (when the time dropped far enough) and are
 * released, in order, through kmsg_seqtrack_pop().
 *
 * seqtrack-core.c judges one record, seqtrack-window.c holds records in
 * the reorder window, seqtrack-loss.c has the loss object; this file is
 * the API and the candidate duplicates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seqtrack-private.h"

_public_ int kmsg_seqtrack_new(struct kmsg_seqtrack **ret) {
        struct kmsg_seqtrack *t;

        if (!ret)
                return -EINVAL;
        t = calloc(1, sizeof(*t));
        if (!t)
                return -ENOMEM;
        t->n_ref = 1;
        *ret = t;
        return 0;
}

_public_ struct kmsg_seqtrack *kmsg_seqtrack_ref(struct kmsg_seqtrack *t) {
        if (t)
                t->n_ref++;
        return t;
}

_public_ struct kmsg_seqtrack *kmsg_seqtrack_unref(struct kmsg_seqtrack *t) {
        if (!t || --t->n_ref > 0)
                return NULL;
        queue_clear(&t->held);
        queue_clear(&t->ready);
        queue_clear(&t->win);
        free(t->held.v);
        free(t->ready.v);
        free(t->win.v);
        free(t->holes);
        free(t->boot_id);
        for (unsigned i = 0; i < BOOT_IDS; i++)
                free(t->boot_ids[i]);
        kmsg_loss_unref(t->spare);
        kmsg_loss_unref(t->out);
        free(t->ring);
        free(t);
        return NULL;
}

_public_ void kmsg_seqtrack_expect(struct kmsg_seqtrack *t, uint64_t seq) {
        if (!t)
                return;
        t->have_expect = true;
        t->expect = seq;
}

_public_ void kmsg_seqtrack_note_cause(struct kmsg_seqtrack *t, enum kmsg_loss_cause cause) {
        if (!t)
                return;
        t->have_cause = true;
        t->cause = cause;
}

/*
 * The candidates were not followed by a match.  Where the time went back
 * far enough they start a new boot segment; otherwise they were copies of
 * records seen.  Queue them, and r after them, with their verdicts for
 * kmsg_seqtrack_pop().
 */
static int release_held(struct kmsg_seqtrack *t, const struct kmsg_record *r) {
        struct kmsg_loss loss;
        size_t i;
        int f, e = 0;

        t->tentative = false;
        for (i = 0; i < t->held.len && e >= 0; i++) {
                const struct kmsg_record *h = t->held.v[t->held.head + i].r;

                memset(&loss, 0, sizeof(loss));
                if (i == 0 && !seq_time_drops(t, h)) {
                        /* The time did not go back far enough for a boot: copies of records seen. */
                        t->dups += t->held.len;
                        break;
                }
                /* The rest follow the first by one each, in its new segment: accepted as they are. */
                f = i == 0 ? seq_new_segment(t, h, seq_fingerprint(h), &loss) : seq_feed_one(t, h, &loss);
                e = f < 0 ? f : seq_push_ready(t, h, f, &loss);
        }
        queue_clear(&t->held);
        if (e < 0)
                return e;
        memset(&loss, 0, sizeof(loss));
        f = seq_feed_one(t, r, &loss);
        if (f < 0)
                return f;
        /* Held again (the start of another overlap), or a duplicate, which never comes out. */
        if (f & (KMSG_SEQ_HELD | KMSG_SEQ_DUPLICATE))
                return KMSG_SEQ_HELD;
        e = seq_push_ready(t, r, f, &loss);
        return e < 0 ? e : KMSG_SEQ_HELD;
}

static int feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss);

/* kmsg_seqtrack_feed() for every record but the usual one (out of line: the usual one wants a light frame). */
static __attribute__((noinline)) int feed_any(struct kmsg_seqtrack *t, const struct kmsg_record *r, const struct kmsg_loss **ret_loss) {
        struct kmsg_loss v = {};
        int f;

        if (!r->has_seqnum) {
                if (ret_loss)
                        *ret_loss = NULL;
                return 0;
        }
        if (!t->spare) {
                t->spare = loss_alloc();
                if (!t->spare)
                        return -ENOMEM;
        }
        f = feed(t, r, &v);
        if (f < 0)
                return f;
        if (f & KMSG_SEQ_LOSS) {
                v.n_ref = 1;
                *t->spare = v;
                t->out = t->spare;
                t->spare = NULL;
        }
        if (ret_loss)
                *ret_loss = t->out;
        return f;
}

_public_ int kmsg_seqtrack_feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, const struct kmsg_loss **ret_loss) {
        if (!t || !r)
                return -EINVAL;
        if (t->out)
                t->out = kmsg_loss_unref(t->out);
        /*
         * The usual record: the one after the last, nothing held, no hole
         * open, the same boot.  What seq_feed_one() does with it, without the
         * way there.
         */
        if (r->has_seqnum && t->have_last && r->seqnum == t->last_seq + 1 && !t->tentative && t->n_holes == 0) {
                /* The next number starts a boot only with another boot id (seq_starts_boot()). */
                if (r->boot_id_off == SIZE_MAX) {
                        t->have_cause = false;
                        seq_note(t, r, fingerprint(r));
                        if (ret_loss)
                                *ret_loss = NULL;
                        return 0;
                }
                if (!seq_starts_boot(t, r)) {
                        t->have_cause = false;
                        seq_accept(t, r, seq_fingerprint(r));
                        if (ret_loss)
                                *ret_loss = NULL;
                        return 0;
                }
        }
        return feed_any(t, r, ret_loss);
}

static int feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        uint32_t fp;

        if (!t->ring) {
                t->ring = calloc(SEQ_WINDOW, sizeof(*t->ring));
                if (!t->ring)
                        return -ENOMEM;
        }
        if (!t->tentative)
                return window_feed(t, r, ret_loss);

        fp = seq_fingerprint(r);
        if (r->seqnum == t->tent_next && seq_seen_same(t, r->seqnum, fp)) {
                if (r->usec == 0 && t->held.len < HOLD_MAX) {
                        t->tent_next++;
                        return queue_push(&t->held, r, 0, NULL) < 0 ? -ENOMEM : KMSG_SEQ_HELD;
                }
                /* A later record matches as well: the candidates were duplicates. */
                t->dups += t->held.len + 1;
                queue_clear(&t->held);
                t->tentative = false;
                return KMSG_SEQ_DUPLICATE;
        }
        if (r->seqnum == t->last_seq + 1 && t->tent_next == r->seqnum) {
                /* The overlap ended where this segment ends: all were duplicates. */
                t->dups += t->held.len;
                queue_clear(&t->held);
                t->tentative = false;
                return seq_feed_one(t, r, ret_loss);
        }
        return release_held(t, r);
}

_public_ int kmsg_seqtrack_pop(struct kmsg_seqtrack *t, struct kmsg_record **ret, const struct kmsg_loss **ret_loss) {
        struct held *h;

        if (!t || !ret)
                return -EINVAL;
        t->out = kmsg_loss_unref(t->out);
        if (t->ready.len == 0)
                return -ENODATA;
        h = &t->ready.v[t->ready.head];
        *ret = h->r;
        t->out = h->loss;
        if (ret_loss)
                *ret_loss = t->out;
        t->ready.head++;
        t->ready.len--;
        if (t->ready.len == 0)
                t->ready.head = 0;
        return h->flags;
}

_public_ int kmsg_seqtrack_set_reorder_window(struct kmsg_seqtrack *t, unsigned records) {
        if (!t || records > REORDER_MAX)
                return -EINVAL;
        t->reorder = records;
        return records == 0 ? window_settle_all(t) : window_expire(t);
}

_public_ int kmsg_seqtrack_settle(struct kmsg_seqtrack *t) {
        if (!t)
                return -EINVAL;
        return window_settle_all(t);
}

_public_ int kmsg_seqtrack_finish(struct kmsg_seqtrack *t) {
        int e;

        if (!t)
                return -EINVAL;
        t->out = kmsg_loss_unref(t->out);
        e = window_settle_all(t);
        if (e < 0)
                return e;
        if (t->tentative) {
                /* The input ended while everything still matched. */
                t->dups += t->held.len;
                queue_clear(&t->held);
                t->tentative = false;
        }
        return 0;
}

_public_ uint64_t kmsg_seqtrack_get_lost(const struct kmsg_seqtrack *t) {
        return t ? t->lost : 0;
}

_public_ uint64_t kmsg_seqtrack_get_duplicates(const struct kmsg_seqtrack *t) {
        return t ? t->dups : 0;
}

_public_ uint64_t kmsg_seqtrack_get_clashes(const struct kmsg_seqtrack *t) {
        return t ? t->clashes : 0;
}

_public_ uint64_t kmsg_seqtrack_get_segments(const struct kmsg_seqtrack *t) {
        return t ? t->segments : 0;
}

_public_ int kmsg_seqtrack_get_last(const struct kmsg_seqtrack *t, uint64_t *ret_seq) {
        if (!t)
                return -EINVAL;
        if (!t->have_last)
                return -ENODATA;
        if (ret_seq)
                *ret_seq = t->last_seq;
        return 0;
}
