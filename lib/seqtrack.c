/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sequence tracking: gaps, overruns, records rotated out before reading
 * started, new boot segments and duplicates from overlapping dumps.
 *
 * Duplicates are told from a new boot by a fingerprint of the record
 * (time stamp, priority, message) kept for the last WINDOW sequence
 * numbers: a record whose sequence number was seen in this segment with
 * the same fingerprint is a duplicate; anything else that goes backwards
 * starts a new segment.  Memory is fixed whatever the input's size.
 *
 * One case is ambiguous record by record: two boots of the same kernel
 * begin with the same records, all stamped 0.  A backwards jump onto a
 * matching record stamped 0 is therefore only a candidate: the tracker
 * holds such records (at most HOLD_MAX) until one stamped later than 0
 * decides.  If it matches too, the held records were duplicates; if not,
 * they start a new boot segment and are released, in order, through
 * kmsg_seqtrack_pop().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg-private.h"

#define WINDOW 65536u
#define HOLD_MAX 4096u

struct slot {
        uint64_t seq;
        uint32_t fp;
        uint32_t segment; /* which segment stored it; 0: never */
};

struct held {
        struct kmsg_record *r;
        int flags;
        struct kmsg_loss loss;
};

/* A FIFO of records with their verdicts. */
struct queue {
        struct held *v;
        size_t head;
        size_t len;
        size_t cap;
};

struct kmsg_seqtrack {
        int n_ref;
        bool tentative;    /* holding candidate duplicates */
        uint64_t tent_next; /* the next candidate's sequence number */
        struct queue held;  /* candidates, flags unused */
        struct queue ready; /* released records, for kmsg_seqtrack_pop() */
        bool have_last;
        uint64_t last_seq;
        uint64_t last_usec;
        uint64_t seg_first;
        bool have_expect;
        uint64_t expect;
        bool have_cause;
        enum kmsg_loss_cause cause;
        struct slot *ring;
        uint64_t lost;
        uint64_t dups;
        uint64_t segments;
};

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

static int queue_push(struct queue *q, const struct kmsg_record *r, int flags, const struct kmsg_loss *l) {
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
        if (l)
                h->loss = *l;
        else
                memset(&h->loss, 0, sizeof(h->loss));
        return 0;
}

static void queue_clear(struct queue *q) {
        size_t i;

        for (i = 0; i < q->len; i++)
                kmsg_record_unref(q->v[q->head + i].r);
        q->head = q->len = 0;
}

_public_ struct kmsg_seqtrack *kmsg_seqtrack_unref(struct kmsg_seqtrack *t) {
        if (!t || --t->n_ref > 0)
                return NULL;
        queue_clear(&t->held);
        queue_clear(&t->ready);
        free(t->held.v);
        free(t->ready.v);
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

static inline uint64_t mix(uint64_t h, uint64_t v) {
        h = (h ^ v) * 0x100000001b3u;
        return h ^ h >> 29;
}

/* Up to 8 bytes as one word (little end first), without reading past p + n. */
static inline uint64_t load(const unsigned char *p, size_t n) {
        uint64_t v = 0;

        if (n >= 8) {
                memcpy(&v, p, 8);
                return v;
        }
        while (n-- > 0)
                v = v << 8 | p[n];
        return v;
}

static uint32_t fingerprint(const struct kmsg_record *r) {
        const unsigned char *m;
        uint64_t h = 0xcbf29ce484222325u;
        size_t len, i, n;

        m = (const unsigned char *)kmsg_record_get_message(r, &len);
        h = mix(h, r->usec);
        h = mix(h, (uint64_t)r->priority << 32 | (uint32_t)len);
        /*
         * The head and the tail of the message are enough to tell records
         * apart; a word at a time, as this runs for every record.
         */
        n = len < 32 ? len : 32;
        for (i = 0; i < n; i += 8)
                h = mix(h, load(m + i, n - i));
        if (len > 32) {
                i = len > 64 ? len - 32 : 32;
                for (; i < len; i += 8)
                        h = mix(h, load(m + i, len - i));
        }
        return (uint32_t)(h ^ h >> 32);
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

static void accept(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp) {
        struct slot *s = &t->ring[r->seqnum % WINDOW];

        s->seq = r->seqnum;
        s->fp = fp;
        s->segment = (uint32_t)t->segments;
        t->have_last = true;
        t->last_seq = r->seqnum;
        t->last_usec = r->usec;
}

static int new_segment(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp,
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
        accept(t, r, fp);
        return flags;
}

static bool seen_same(const struct kmsg_seqtrack *t, uint64_t seq, uint32_t fp) {
        const struct slot *s = &t->ring[seq % WINDOW];

        return seq >= t->seg_first && seq <= t->last_seq && t->last_seq - seq < WINDOW &&
               s->segment == (uint32_t)t->segments && s->seq == seq && s->fp == fp;
}

static int feed_one(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss);

/*
 * The candidates were not duplicates: they start a new boot segment.  Queue
 * them, and r after them, with their verdicts for kmsg_seqtrack_pop().
 */
static int release_held(struct kmsg_seqtrack *t, const struct kmsg_record *r) {
        struct kmsg_loss loss;
        size_t i;
        int f, e = 0;

        t->tentative = false;
        for (i = 0; i < t->held.len && e >= 0; i++) {
                const struct kmsg_record *h = t->held.v[t->held.head + i].r;

                memset(&loss, 0, sizeof(loss));
                f = i == 0 ? new_segment(t, h, fingerprint(h), &loss) : feed_one(t, h, &loss);
                e = f < 0 ? f : queue_push(&t->ready, h, f, &loss);
        }
        queue_clear(&t->held);
        if (e < 0)
                return e;
        memset(&loss, 0, sizeof(loss));
        f = feed_one(t, r, &loss);
        if (f < 0)
                return f;
        if (f & KMSG_SEQ_HELD)
                return KMSG_SEQ_HELD;
        e = queue_push(&t->ready, r, f, &loss);
        return e < 0 ? e : KMSG_SEQ_HELD;
}

_public_ int kmsg_seqtrack_feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        struct kmsg_loss dummy;
        uint32_t fp;

        if (!t || !r)
                return -EINVAL;
        if (!r->has_seqnum)
                return 0;
        if (!ret_loss)
                ret_loss = &dummy;
        if (!t->ring) {
                t->ring = calloc(WINDOW, sizeof(*t->ring));
                if (!t->ring)
                        return -ENOMEM;
        }
        if (!t->tentative)
                return feed_one(t, r, ret_loss);

        fp = fingerprint(r);
        if (r->seqnum == t->tent_next && seen_same(t, r->seqnum, fp)) {
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
                return feed_one(t, r, ret_loss);
        }
        return release_held(t, r);
}

_public_ int kmsg_seqtrack_pop(struct kmsg_seqtrack *t, struct kmsg_record **ret, struct kmsg_loss *ret_loss) {
        struct held *h;

        if (!t || !ret)
                return -EINVAL;
        if (t->ready.len == 0)
                return -ENODATA;
        h = &t->ready.v[t->ready.head];
        *ret = h->r;
        if (ret_loss)
                *ret_loss = h->loss;
        t->ready.head++;
        t->ready.len--;
        if (t->ready.len == 0)
                t->ready.head = 0;
        return h->flags;
}

_public_ int kmsg_seqtrack_finish(struct kmsg_seqtrack *t) {
        if (!t)
                return -EINVAL;
        if (t->tentative) {
                /* The input ended while everything still matched. */
                t->dups += t->held.len;
                queue_clear(&t->held);
                t->tentative = false;
        }
        return 0;
}

static int feed_one(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        struct slot *s;
        uint64_t seq;
        uint32_t fp;
        int flags = 0;

        seq = r->seqnum;
        fp = fingerprint(r);

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
                accept(t, r, fp);
                return flags;
        }

        if (seq == t->last_seq + 1) {
                t->have_cause = false;
                accept(t, r, fp);
                return 0;
        }
        if (seq > t->last_seq) {
                fill_loss(t, ret_loss, t->last_seq + 1, seq - t->last_seq - 1, r, true, KMSG_LOSS_GAP);
                accept(t, r, fp);
                return KMSG_SEQ_LOSS;
        }

        /* Backwards, or the same number again. */
        s = &t->ring[seq % WINDOW];
        if (seq >= t->seg_first && t->last_seq - seq < WINDOW) {
                bool seen = s->segment == (uint32_t)t->segments && s->seq == seq;

                if (seen && s->fp == fp) {
                        if (r->usec == 0) {
                                /* Could be a new boot of the same kernel: wait and see. */
                                t->tentative = true;
                                t->tent_next = seq + 1;
                                return queue_push(&t->held, r, 0, NULL) < 0 ? -ENOMEM : KMSG_SEQ_HELD;
                        }
                        t->dups++;
                        return KMSG_SEQ_DUPLICATE;
                }
                if (!seen && seq > t->seg_first) {
                        /* A record that was missing here fills part of a reported gap. */
                        s->seq = seq;
                        s->fp = fp;
                        s->segment = (uint32_t)t->segments;
                        if (t->lost > 0)
                                t->lost--;
                        return 0;
                }
        }

        return new_segment(t, r, fp, ret_loss);
}

_public_ uint64_t kmsg_seqtrack_get_lost(const struct kmsg_seqtrack *t) {
        return t ? t->lost : 0;
}

_public_ uint64_t kmsg_seqtrack_get_duplicates(const struct kmsg_seqtrack *t) {
        return t ? t->dups : 0;
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

_public_ uint64_t kmsg_loss_get_first_seq(const struct kmsg_loss *l) {
        return l ? l->first_seq : 0;
}

_public_ uint64_t kmsg_loss_get_count(const struct kmsg_loss *l) {
        return l ? l->count : 0;
}

_public_ int kmsg_loss_has_before(const struct kmsg_loss *l) {
        return l && l->has_before;
}

_public_ uint64_t kmsg_loss_get_usec_before(const struct kmsg_loss *l) {
        return l ? l->usec_before : 0;
}

_public_ uint64_t kmsg_loss_get_usec_after(const struct kmsg_loss *l) {
        return l ? l->usec_after : 0;
}

_public_ enum kmsg_loss_cause kmsg_loss_get_cause(const struct kmsg_loss *l) {
        return l ? l->cause : KMSG_LOSS_GAP;
}
