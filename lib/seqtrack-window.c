/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sequence tracker's reorder window (kmsg_seqtrack_set_reorder_window()):
 * a gap is not reported when it is found, as a record that arrives late
 * (seq 0, 1, 3, 2, 4) may still fill it.  From the first open gap on,
 * records are held with a list of the holes between them; a late record
 * shrinks or splits its hole.  A hole is settled once the window's number
 * of records came after it, when every hole is filled, or when the caller
 * settles (kmsg_seqtrack_settle(), kmsg_seqtrack_finish()); the records
 * held are then released in sequence order with a loss before each record
 * that follows a hole still open.  Anything that is no plain gap (a new
 * boot, a noted cause, a record going back) goes through seqtrack.c's
 * seq_feed_one() after what is held.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seqtrack-private.h"

/* ------------------------------------------------------------------ */
/* The reorder window                                                 */

static int by_seq(const void *a, const void *b) {
        uint64_t x = ((const struct held *)a)->r->seqnum, y = ((const struct held *)b)->r->seqnum;

        return x < y ? -1 : x > y;
}

/*
 * Release the held records numbered below limit (all of them with all:
 * seq 2^64-1 is below no limit), in sequence order, each after the loss of
 * the hole that ends right before it; those holes are settled.
 */
static int release_below(struct kmsg_seqtrack *t, uint64_t limit, bool all) {
        struct held *v;
        uint64_t prev = t->win_usec;
        size_t i, n = 0, k = 0;
        int e = 0;

        if (t->win.len == 0)
                return 0;
        v = t->win.v + t->win.head;
        qsort(v, t->win.len, sizeof(*v), by_seq);
        while (n < t->win.len && (all || v[n].r->seqnum < limit))
                n++;
        for (i = 0; i < n; i++) {
                const struct kmsg_record *r = v[i].r;
                struct kmsg_loss loss = {};
                int f = 0;

                if (k < t->n_holes && t->holes[k].last + 1 == r->seqnum) {
                        const struct hole *h = &t->holes[k++];

                        loss.first_seq = h->first;
                        loss.count = h->last - h->first + 1;
                        loss.has_before = true;
                        loss.usec_before = prev;
                        loss.usec_after = r->usec;
                        loss.cause = KMSG_LOSS_GAP;
                        t->lost += loss.count;
                        f = KMSG_SEQ_LOSS;
                }
                if (e >= 0)
                        e = seq_push_ready(t, r, f, &loss);
                prev = r->usec;
                kmsg_record_unref(v[i].r);
        }
        t->win.head += n;
        t->win.len -= n;
        if (t->win.len == 0)
                t->win.head = 0;
        memmove(t->holes, t->holes + k, (t->n_holes - k) * sizeof(*t->holes));
        t->n_holes -= k;
        t->win_usec = prev;
        return e;
}

/* Settle every open hole: what is missing now is lost. */
int window_settle_all(struct kmsg_seqtrack *t) {
        int e = release_below(t, 0, true);

        /* Only after a failure to queue can a hole be left without its record. */
        t->n_holes = 0;
        queue_clear(&t->win);
        return e;
}

/* Settle the holes that the window's number of records came after. */
int window_expire(struct kmsg_seqtrack *t) {
        int e = 0;

        while (e >= 0 && t->n_holes > 0 && t->fed - t->holes[0].made_at >= t->reorder)
                e = t->n_holes > 1 ? release_below(t, t->holes[1].first, false) : window_settle_all(t);
        return e;
}

static int hole_insert(struct kmsg_seqtrack *t, size_t at, uint64_t first, uint64_t last, uint64_t made_at) {
        if (t->n_holes == t->holes_cap) {
                size_t cap = t->holes_cap ? t->holes_cap * 2 : 8;
                struct hole *v = realloc(t->holes, cap * sizeof(*v));

                if (!v)
                        return -ENOMEM;
                t->holes = v;
                t->holes_cap = cap;
        }
        memmove(t->holes + at + 1, t->holes + at, (t->n_holes - at) * sizeof(*t->holes));
        t->holes[at] = (struct hole){ first, last, made_at };
        t->n_holes++;
        return 0;
}

/* A late record seq fills part of hole i. */
static int hole_fill(struct kmsg_seqtrack *t, size_t i, uint64_t seq) {
        struct hole *h = &t->holes[i];

        if (h->first == seq && h->last == seq) {
                memmove(h, h + 1, (t->n_holes - i - 1) * sizeof(*h));
                t->n_holes--;
        } else if (h->first == seq)
                h->first++;
        else if (h->last == seq)
                h->last--;
        else {
                uint64_t last = h->last;

                h->last = seq - 1;
                return hole_insert(t, i + 1, seq + 1, last, h->made_at);
        }
        return 0;
}

/* The open hole that holds seq, or -1. */
static ssize_t hole_find(const struct kmsg_seqtrack *t, uint64_t seq) {
        size_t i;

        for (i = 0; i < t->n_holes; i++)
                if (seq >= t->holes[i].first && seq <= t->holes[i].last)
                        return (ssize_t)i;
        return -1;
}

/* Hold r in the window (it was accepted); settle what can no longer be filled. */
static int hold(struct kmsg_seqtrack *t, const struct kmsg_record *r) {
        int e;

        e = queue_push(&t->win, r, 0, NULL);
        if (e >= 0)
                /* Every hole filled: nothing is missing, all can go. */
                e = t->n_holes == 0 ? window_settle_all(t) : window_expire(t);
        return e < 0 ? e : KMSG_SEQ_HELD;
}

/*
 * seq_feed_one() behind the reorder window: a gap of plain numbering opens a
 * hole instead of a loss, and while one is open every record is held.
 */
int window_feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        uint64_t seq = r->seqnum;
        ssize_t i;
        int f, e;

        if (t->n_holes == 0) {
                /* Anything but a gap, the usual record (one after the last) first. */
                if (seq <= t->last_seq || seq - t->last_seq == 1 || t->reorder == 0 || !t->have_last ||
                    t->have_cause || seq_starts_boot(t, r))
                        return seq_feed_one(t, r, ret_loss);
                /* A gap: wait and see whether its records come late.  Only now are records counted. */
                t->fed++;
                t->win_usec = t->last_usec;
                if (hole_insert(t, 0, t->last_seq + 1, seq - 1, t->fed) < 0)
                        return -ENOMEM;
                seq_accept(t, r, seq_fingerprint(r));
                return hold(t, r);
        }
        t->fed++;
        if (!t->have_cause && !seq_starts_boot(t, r)) {
                if (seq > t->last_seq) {
                        if (seq > t->last_seq + 1 &&
                            hole_insert(t, t->n_holes, t->last_seq + 1, seq - 1, t->fed) < 0)
                                return -ENOMEM;
                        seq_accept(t, r, seq_fingerprint(r));
                        return hold(t, r);
                }
                i = hole_find(t, seq);
                if (i >= 0) {
                        struct slot *s = &t->ring[seq % SEQ_WINDOW];

                        if (hole_fill(t, (size_t)i, seq) < 0)
                                return -ENOMEM;
                        s->seq = seq;
                        s->fp = seq_fingerprint(r);
                        s->segment = (uint32_t)t->segments;
                        return hold(t, r);
                }
                if (r->usec != 0 && seq_seen_same(t, seq, seq_fingerprint(r))) {
                        t->dups++;
                        return KMSG_SEQ_DUPLICATE;
                }
        }
        /* Anything else (a new boot, a noted cause, ...) comes after what is held. */
        e = window_settle_all(t);
        if (e < 0)
                return e;
        {
                struct kmsg_loss loss = {};

                f = seq_feed_one(t, r, &loss);
                if (f < 0 || (f & KMSG_SEQ_HELD))
                        return f;
                /* A duplicate never comes out; what was settled does. */
                e = f & KMSG_SEQ_DUPLICATE ? 0 : seq_push_ready(t, r, f, &loss);
        }
        return e < 0 ? e : KMSG_SEQ_HELD;
}
