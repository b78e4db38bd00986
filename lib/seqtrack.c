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
 *
 * With a reorder window (kmsg_seqtrack_set_reorder_window()), a gap is
 * not reported when it is found: a record that arrives late (seq 0, 1, 3,
 * 2, 4) may still fill it.  From the first open gap on, records are held
 * with a list of the holes between them; a late record shrinks or splits
 * its hole.  A hole is settled once the window's number of records came
 * after it, when every hole is filled, or when the caller settles
 * (kmsg_seqtrack_settle(), kmsg_seqtrack_finish()); the records held are
 * then released in sequence order with a loss before each record that
 * follows a hole still open.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg-private.h"

#define WINDOW 65536u
#define HOLD_MAX 4096u
/* The largest reorder window: records are held in memory while it is open. */
#define REORDER_MAX 4096u
/*
 * A time stamp that drops by more than this while the numbers go on starts
 * a new boot: printk stamps step back across CPUs by microseconds, a boot
 * takes far longer than this to reach the number where the last one ended.
 */
#define BOOT_TIME_DROP 30000000u

struct slot {
        uint64_t seq;
        uint32_t fp;
        uint32_t segment; /* which segment stored it; 0: never */
};

struct held {
        struct kmsg_record *r;
        int flags;
        struct kmsg_loss *loss; /* owned; NULL without KMSG_SEQ_LOSS */
};

/* A FIFO of records with their verdicts. */
struct queue {
        struct held *v;
        size_t head;
        size_t len;
        size_t cap;
};

/* Missing sequence numbers first..last, found when fed was made_at. */
struct hole {
        uint64_t first, last;
        uint64_t made_at;
};

struct kmsg_seqtrack {
        int n_ref;
        unsigned reorder;      /* the reorder window in records; 0: gaps are reported at once */
        uint64_t fed;          /* records fed with a sequence number */
        struct queue win;      /* held while a hole is open, flags unused */
        struct hole *holes;    /* the open holes, in sequence order */
        size_t n_holes, holes_cap;
        uint64_t win_usec;     /* the time stamp of the record before the first hole */
        bool tentative;    /* holding candidate duplicates */
        uint64_t tent_next; /* the next candidate's sequence number */
        struct queue held;  /* candidates, flags unused */
        struct queue ready; /* released records, for kmsg_seqtrack_pop() */
        bool have_last;
        uint64_t last_seq;
        uint64_t last_usec;
        char *boot_id;     /* the last boot id seen (kmsg_record_get_boot_id()), or NULL */
        uint64_t seg_first;
        bool have_expect;
        uint64_t expect;
        bool have_cause;
        enum kmsg_loss_cause cause;
        struct kmsg_loss *spare; /* allocated before a feed, so a loss found cannot fail */
        struct kmsg_loss *out;   /* the loss last returned, valid until the next call */
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

/* Takes over l (which may be NULL) when it succeeds. */
static int queue_push(struct queue *q, const struct kmsg_record *r, int flags, struct kmsg_loss *l) {
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

static void queue_clear(struct queue *q) {
        size_t i;

        for (i = 0; i < q->len; i++) {
                kmsg_record_unref(q->v[q->head + i].r);
                kmsg_loss_unref(q->v[q->head + i].loss);
        }
        q->head = q->len = 0;
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

static inline uint64_t load8(const unsigned char *p) {
        uint64_t v;

        memcpy(&v, p, 8);
        return v;
}

/*
 * The time stamp, priority and length of the message, with the words of
 * its head and its tail (the first and the last 32 bytes, overlapping in a
 * short message): enough to tell records apart.  This runs for every
 * record, so the words are multiplied by constants of their own and
 * summed, each product independent of the others, then mixed once, rather
 * than mixed one after another.
 */
static uint32_t fingerprint(const struct kmsg_record *r) {
        const unsigned char *m;
        uint64_t h, w0, w1, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0;
        size_t len;

        /* The record's own fields: kmsg_record_get_message() is exported, a call through the PLT. */
        m = (const unsigned char *)(r->data_cap ? r->data + r->msg_off : "");
        len = r->msg_len;
        /* Words in variables, not an array: one the compiler kept on the stack cost a third of this. */
        if (len >= 32) {
                const unsigned char *e = m + len - 32;

                w0 = load8(m);
                w1 = load8(m + 8);
                w2 = load8(m + 16);
                w3 = load8(m + 24);
                w4 = load8(e);
                w5 = load8(e + 8);
                w6 = load8(e + 16);
                w7 = load8(e + 24);
        } else if (len >= 8) {
                w0 = load8(m);
                w1 = load8(m + len - 8);
                if (len >= 16) {
                        w2 = load8(m + 8);
                        w3 = load8(m + len - 16);
                }
                if (len >= 24) {
                        w4 = load8(m + 16);
                        w5 = load8(m + len - 24);
                }
        } else {
                w0 = load(m, len);
                w1 = 0;
        }
        h = (r->usec ^ 0x9e3779b97f4a7c15u) * 0xbf58476d1ce4e5b9u;
        h += ((uint64_t)r->priority << 32 | (uint32_t)len) * 0x94d049bb133111ebu;
        h += (w0 ^ 0x2545f4914f6cdd1du) * 0xff51afd7ed558ccdu;
        h += (w1 ^ 0x1b873593u) * 0xc4ceb9fe1a85ec53u;
        h += (w2 ^ 0x85ebca6bu) * 0x9fb21c651e98df25u;
        h += (w3 ^ 0xc2b2ae35u) * 0xd6e8feb86659fd93u;
        h += (w4 ^ 0x27d4eb2fu) * 0xa0761d6478bd642fu;
        h += (w5 ^ 0x165667b1u) * 0xe7037ed1a0b428dbu;
        h += (w6 ^ 0xd3a2646cu) * 0x8ebc6af09c88c6e3u;
        h += (w7 ^ 0xfd7046c5u) * 0x589965cc75374cc3u;
        h = mix(h, h >> 31);
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

static const char *boot_id_of(const struct kmsg_record *r) {
        return r->boot_id_off == SIZE_MAX ? NULL : r->data + r->boot_id_off;
}

/*
 * Whether r starts a new boot where the numbers alone do not say so: the
 * input names another boot, or the numbers go on while the time stamp
 * drops by more than BOOT_TIME_DROP.  Only with t->have_last.  This runs
 * for every record: the usual answer (no boot id, time going on) takes two
 * comparisons.
 */
static inline bool boot_changes(const struct kmsg_seqtrack *t, const struct kmsg_record *r) {
        if (r->boot_id_off != SIZE_MAX && t->boot_id && strcmp(r->data + r->boot_id_off, t->boot_id) != 0)
                return true;
        return r->usec < t->last_usec && t->last_usec - r->usec > BOOT_TIME_DROP && r->seqnum > t->last_seq &&
               r->has_timestamp;
}

static void accept(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp) {
        struct slot *s = &t->ring[r->seqnum % WINDOW];
        const char *id = boot_id_of(r);

        if (id && (!t->boot_id || strcmp(id, t->boot_id) != 0)) {
                free(t->boot_id);
                /* Out of memory, boot ids are not compared until the next one. */
                t->boot_id = strdup(id);
        }

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

static struct kmsg_loss *loss_alloc(void) {
        struct kmsg_loss *l = calloc(1, sizeof(*l));

        if (l)
                l->n_ref = 1;
        return l;
}

/* Queue a released record with its verdict and a loss of its own made from *v. */
static int push_ready(struct kmsg_seqtrack *t, const struct kmsg_record *r, int flags, const struct kmsg_loss *v) {
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
                e = f < 0 ? f : push_ready(t, h, f, &loss);
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
        e = push_ready(t, r, f, &loss);
        return e < 0 ? e : KMSG_SEQ_HELD;
}

static int feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss);

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
                        e = push_ready(t, r, f, &loss);
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
static int settle_all(struct kmsg_seqtrack *t) {
        int e = release_below(t, 0, true);

        /* Only after a failure to queue can a hole be left without its record. */
        t->n_holes = 0;
        queue_clear(&t->win);
        return e;
}

/* Settle the holes that the window's number of records came after. */
static int expire(struct kmsg_seqtrack *t) {
        int e = 0;

        while (e >= 0 && t->n_holes > 0 && t->fed - t->holes[0].made_at >= t->reorder)
                e = t->n_holes > 1 ? release_below(t, t->holes[1].first, false) : settle_all(t);
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
                e = t->n_holes == 0 ? settle_all(t) : expire(t);
        return e < 0 ? e : KMSG_SEQ_HELD;
}

/*
 * feed_one() behind the reorder window: a gap of plain numbering opens a
 * hole instead of a loss, and while one is open every record is held.
 */
static int order_feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        uint64_t seq = r->seqnum;
        ssize_t i;
        int f, e;

        if (t->n_holes == 0) {
                /* Anything but a gap, the usual record (one after the last) first. */
                if (seq <= t->last_seq || seq - t->last_seq == 1 || t->reorder == 0 || !t->have_last ||
                    t->have_cause || boot_changes(t, r))
                        return feed_one(t, r, ret_loss);
                /* A gap: wait and see whether its records come late.  Only now are records counted. */
                t->fed++;
                t->win_usec = t->last_usec;
                if (hole_insert(t, 0, t->last_seq + 1, seq - 1, t->fed) < 0)
                        return -ENOMEM;
                accept(t, r, fingerprint(r));
                return hold(t, r);
        }
        t->fed++;
        if (!t->have_cause && !boot_changes(t, r)) {
                if (seq > t->last_seq) {
                        if (seq > t->last_seq + 1 &&
                            hole_insert(t, t->n_holes, t->last_seq + 1, seq - 1, t->fed) < 0)
                                return -ENOMEM;
                        accept(t, r, fingerprint(r));
                        return hold(t, r);
                }
                i = hole_find(t, seq);
                if (i >= 0) {
                        struct slot *s = &t->ring[seq % WINDOW];

                        if (hole_fill(t, (size_t)i, seq) < 0)
                                return -ENOMEM;
                        s->seq = seq;
                        s->fp = fingerprint(r);
                        s->segment = (uint32_t)t->segments;
                        return hold(t, r);
                }
                if (r->usec != 0 && seen_same(t, seq, fingerprint(r))) {
                        t->dups++;
                        return KMSG_SEQ_DUPLICATE;
                }
        }
        /* Anything else (a new boot, a noted cause, ...) comes after what is held. */
        e = settle_all(t);
        if (e < 0)
                return e;
        {
                struct kmsg_loss loss = {};

                f = feed_one(t, r, &loss);
                if (f < 0 || (f & KMSG_SEQ_HELD))
                        return f;
                /* A duplicate never comes out; what was settled does. */
                e = f & KMSG_SEQ_DUPLICATE ? 0 : push_ready(t, r, f, &loss);
        }
        return e < 0 ? e : KMSG_SEQ_HELD;
}


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
         * open, the same boot.  What feed_one() does with it, without the
         * way there.
         */
        if (r->has_seqnum && t->have_last && r->seqnum == t->last_seq + 1 && !t->tentative && t->n_holes == 0 &&
            !boot_changes(t, r)) {
                t->have_cause = false;
                accept(t, r, fingerprint(r));
                if (ret_loss)
                        *ret_loss = NULL;
                return 0;
        }
        return feed_any(t, r, ret_loss);
}

static int feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss) {
        uint32_t fp;

        if (!t->ring) {
                t->ring = calloc(WINDOW, sizeof(*t->ring));
                if (!t->ring)
                        return -ENOMEM;
        }
        if (!t->tentative)
                return order_feed(t, r, ret_loss);

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
        return records == 0 ? settle_all(t) : expire(t);
}

_public_ int kmsg_seqtrack_settle(struct kmsg_seqtrack *t) {
        if (!t)
                return -EINVAL;
        return settle_all(t);
}

_public_ int kmsg_seqtrack_finish(struct kmsg_seqtrack *t) {
        int e;

        if (!t)
                return -EINVAL;
        t->out = kmsg_loss_unref(t->out);
        e = settle_all(t);
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

        if (boot_changes(t, r))
                return new_segment(t, r, fp, ret_loss);
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

_public_ int kmsg_loss_new(uint64_t first_seq, uint64_t count, enum kmsg_loss_cause cause, struct kmsg_loss **ret) {
        struct kmsg_loss *l;

        if (!ret || (unsigned)cause > KMSG_LOSS_INTERRUPTED)
                return -EINVAL;
        l = loss_alloc();
        if (!l)
                return -ENOMEM;
        l->first_seq = first_seq;
        l->count = count;
        l->cause = cause;
        *ret = l;
        return 0;
}

_public_ struct kmsg_loss *kmsg_loss_ref(struct kmsg_loss *l) {
        if (l)
                l->n_ref++;
        return l;
}

_public_ struct kmsg_loss *kmsg_loss_unref(struct kmsg_loss *l) {
        if (l && --l->n_ref == 0)
                free(l);
        return NULL;
}

_public_ int kmsg_loss_set_before(struct kmsg_loss *l, uint64_t usec) {
        if (!l)
                return -EINVAL;
        l->has_before = true;
        l->usec_before = usec;
        return 0;
}

_public_ int kmsg_loss_set_after(struct kmsg_loss *l, uint64_t usec) {
        if (!l)
                return -EINVAL;
        l->usec_after = usec;
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
