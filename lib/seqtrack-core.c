/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sequence tracker's judgement of one record (seq_feed_one()): the
 * fingerprint, where a boot starts, duplicates, gaps, late records and
 * clashes (see seqtrack.c for the rules), and the queues of held records.
 * seqtrack.c (the API, candidate duplicates) and seqtrack-window.c (the
 * reorder window) both build on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seqtrack-private.h"

/* ------------------------------------------------------------------ */
/* Queues of held records                                             */

/* Takes over l (which may be NULL) when it succeeds. */
int queue_push(struct queue *q, const struct kmsg_record *r, int flags, struct kmsg_loss *l) {
        struct held *h;

        if (q->head + q->len == q->cap) {
                if (q->head > 0) {
                        memmove(q->v, q->v + q->head, q->len * sizeof(*q->v));
                        q->head = 0;
                } else {
                        size_t cap = q->cap ? q->cap * 2 : 16;
                        struct held *v = realloc(q->v, cap * sizeof(*v));

                        if (!v)
                                return -ENOMEM;
                        q->v = v;
                        q->cap = cap;
                }
        }
        h = &q->v[q->head + q->len++];
        h->r = kmsg_record_ref((struct kmsg_record *)r);
        h->flags = flags;
        h->loss = l;
        return 0;
}

void queue_clear(struct queue *q) {
        size_t i;

        for (i = 0; i < q->len; i++) {
                kmsg_record_unref(q->v[q->head + i].r);
                kmsg_loss_unref(q->v[q->head + i].loss);
        }
        q->head = q->len = 0;
}

/* Out of line for the tracker's rarer ways; kmsg_seqtrack_feed()'s usual record uses the inline one. */
uint32_t seq_fingerprint(const struct kmsg_record *r) {
        return fingerprint(r);
}

static void fill_loss(struct kmsg_seqtrack *t, struct kmsg_loss *l, uint64_t first, uint64_t count,
                      const struct kmsg_record *r, bool before, enum kmsg_loss_cause dflt) {
        l->first_seq = first;
        l->count = count;
        l->has_before = before;
        l->usec_before = before ? t->last_usec : 0;
        l->usec_after = r->usec;
        l->cause = t->have_cause ? t->cause : dflt;
        t->have_cause = false;
        t->lost += count;
}

static const char *boot_id_of(const struct kmsg_record *r) {
        return r->boot_id_off == SIZE_MAX ? NULL : r->data + r->boot_id_off;
}

/* Whether id is one of the boots seen before. */
static bool boot_id_known(const struct kmsg_seqtrack *t, const char *id) {
        unsigned i;

        for (i = 0; i < BOOT_IDS; i++)
                if (t->boot_ids[i] && strcmp(t->boot_ids[i], id) == 0)
                        return true;
        return false;
}

/* The time stamp dropped by more than BOOT_TIME_DROP from the last record's (unsigned: no overflow). */
bool seq_time_drops(const struct kmsg_seqtrack *t, const struct kmsg_record *r) {
        return r->has_timestamp && r->usec < t->last_usec && t->last_usec - r->usec > BOOT_TIME_DROP;
}

/*
 * Whether r starts a new boot (see the top of this file).  Only with
 * t->have_last.  This runs for every record: the usual answer (no boot
 * id, time going on) takes two comparisons.
 */
bool seq_starts_boot(const struct kmsg_seqtrack *t, const struct kmsg_record *r) {
        const char *id = boot_id_of(r);

        if (id && t->boot_id && strcmp(id, t->boot_id) != 0 && !boot_id_known(t, id))
                return true;
        /*
         * The kernel numbers every boot's records from 0: seq 0 again, after
         * higher numbers, with a time stamp below the last one, is a boot
         * however little the time drops (a boot that ended in its first
         * seconds).  Not the same record again: that was a duplicate.
         */
        if (r->seqnum == 0 && t->last_seq > 0 && r->has_timestamp && r->usec < t->last_usec)
                return true;
        if (!seq_time_drops(t, r) || r->seqnum == t->last_seq + 1)
                return false;
        /*
         * The numbers go on, the last record had jumped ahead of the one
         * before it, and r is back in line with that one: the last alone
         * was out of line.
         */
        if (r->seqnum > t->last_seq && t->have_prev && t->last_usec > t->prev_usec &&
            t->last_usec - t->prev_usec > BOOT_TIME_DROP &&
            (t->prev_usec <= BOOT_TIME_DROP || r->usec >= t->prev_usec - BOOT_TIME_DROP))
                return false;
        return true;
}

void seq_accept(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp) {
        const char *id = boot_id_of(r);

        if (id && (!t->boot_id || strcmp(id, t->boot_id) != 0)) {
                free(t->boot_id);
                /* Out of memory, boot ids are not compared until the next one. */
                t->boot_id = strdup(id);
                if (!boot_id_known(t, id)) {
                        free(t->boot_ids[t->next_boot_id]);
                        t->boot_ids[t->next_boot_id] = strdup(id);
                        t->next_boot_id = (t->next_boot_id + 1) % BOOT_IDS;
                }
        }

        seq_note(t, r, fp);
}

int seq_new_segment(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp,
                       struct kmsg_loss *ret_loss) {
        int flags = KMSG_SEQ_NEW_SEGMENT;

        t->segments++;
        t->seg_first = r->seqnum;
        t->have_last = false;
        if (r->seqnum > 0) {
                fill_loss(t, ret_loss, 0, r->seqnum, r, false, KMSG_LOSS_ROTATED);
                flags |= KMSG_SEQ_LOSS;
        }
        t->have_cause = false;
        seq_accept(t, r, fp);
        return flags;
}

bool seq_seen_same(const struct kmsg_seqtrack *t, uint64_t seq, uint32_t fp) {
        const struct slot *s = &t->ring[seq % SEQ_WINDOW];

        return seq >= t->seg_first && seq <= t->last_seq && t->last_seq - seq < SEQ_WINDOW &&
               s->segment == (uint32_t)t->segments && s->seq == seq && s->fp == fp;
}


/* Queue a released record with its verdict and a loss of its own made from *v. */
int seq_push_ready(struct kmsg_seqtrack *t, const struct kmsg_record *r, int flags, const struct kmsg_loss *v) {
        struct kmsg_loss *l = NULL;
        int e;

        if (flags & KMSG_SEQ_LOSS) {
                l = loss_alloc();
                if (!l)
                        return -ENOMEM;
                *l = *v;
                l->n_ref = 1;
        }
        e = queue_push(&t->ready, r, flags, l);
        if (e < 0)
                kmsg_loss_unref(l);
        return e;
}

int seq_feed_one(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        struct slot *s;
        uint64_t seq;
        uint32_t fp;
        int flags = 0;

        seq = r->seqnum;
        fp = seq_fingerprint(r);

        if (!t->have_last) {
                if (t->have_expect && seq < t->expect)
                        /* Already delivered before the resume point. */
                        return KMSG_SEQ_DUPLICATE;
                t->segments = 1;
                t->seg_first = seq;
                if (t->have_expect && seq > t->expect) {
                        fill_loss(t, ret_loss, t->expect, seq - t->expect, r, false, KMSG_LOSS_GAP);
                        flags = KMSG_SEQ_LOSS;
                } else if (!t->have_expect && seq > 0) {
                        fill_loss(t, ret_loss, 0, seq, r, false, KMSG_LOSS_ROTATED);
                        flags = KMSG_SEQ_LOSS;
                }
                t->have_cause = false;
                seq_accept(t, r, fp);
                return flags;
        }

        if (seq <= t->last_seq && seq_seen_same(t, seq, fp)) {
                const char *id = boot_id_of(r);

                if (!id || !t->boot_id || strcmp(id, t->boot_id) == 0) {
                        if (r->usec == 0) {
                                /* Could be a new boot of the same kernel: wait and see. */
                                t->tentative = true;
                                t->tent_next = seq + 1;
                                return queue_push(&t->held, r, 0, NULL) < 0 ? -ENOMEM : KMSG_SEQ_HELD;
                        }
                        t->dups++;
                        return KMSG_SEQ_DUPLICATE;
                }
        }
        if (seq_starts_boot(t, r))
                return seq_new_segment(t, r, fp, ret_loss);
        if (seq == t->last_seq + 1) {
                t->have_cause = false;
                seq_accept(t, r, fp);
                return 0;
        }
        if (seq > t->last_seq) {
                fill_loss(t, ret_loss, t->last_seq + 1, seq - t->last_seq - 1, r, true, KMSG_LOSS_GAP);
                seq_accept(t, r, fp);
                return KMSG_SEQ_LOSS;
        }

        /*
         * Backwards, or the same number again, with the time going on: no
         * boot.  The numbers go on from the highest; r is delivered.
         */
        s = &t->ring[seq % SEQ_WINDOW];
        if (seq >= t->seg_first && t->last_seq - seq < SEQ_WINDOW) {
                bool seen = s->segment == (uint32_t)t->segments && s->seq == seq;

                if (seen) {
                        /* Another record under a number seen: the input clashes with itself. */
                        t->clashes++;
                        return KMSG_SEQ_CLASH;
                }
                if (seq > t->seg_first) {
                        /* A record that was missing here fills part of a reported gap. */
                        s->seq = seq;
                        s->fp = fp;
                        s->segment = (uint32_t)t->segments;
                        if (t->lost > 0)
                                t->lost--;
                }
        }
        /* Before the first record, or beyond what is remembered: a late record, delivered as it came. */
        return 0;
}
