/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sequence tracker's state, shared by seqtrack.c and its reorder window (seqtrack-window.c). */
#ifndef KMSG_SEQTRACK_PRIVATE_H
#define KMSG_SEQTRACK_PRIVATE_H

#include <string.h>

#include "kmsg-private.h"

/* The sequence numbers remembered (with a fingerprint each) for telling duplicates. */
#define SEQ_WINDOW 65536u
/* The most candidate duplicates stamped 0 held before deciding. */
#define HOLD_MAX 4096u
/* The largest reorder window: records are held in memory while it is open. */
#define REORDER_MAX 4096u
/*
 * A time stamp that drops by more than this starts a new boot (see
 * seqtrack.c for when it does not): printk stamps step back across CPUs by
 * microseconds, a boot takes far longer than this to reach the time where
 * the last one ended.
 */
#define BOOT_TIME_DROP 30000000u
/* The boot ids remembered: a return to one of them is no new boot. */
#define BOOT_IDS 8u

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
        bool have_prev;     /* prev_usec: the time stamp of the record accepted before the last */
        uint64_t prev_usec;
        char *boot_id;     /* the last boot id seen (kmsg_record_get_boot_id()), or NULL */
        char *boot_ids[BOOT_IDS]; /* the boot ids seen, the oldest overwritten first */
        unsigned next_boot_id;
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
        uint64_t clashes;
        uint64_t segments;
};

/* seqtrack-core.c */
bool seq_time_drops(const struct kmsg_seqtrack *t, const struct kmsg_record *r);
int seq_new_segment(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp, struct kmsg_loss *ret_loss);
int queue_push(struct queue *q, const struct kmsg_record *r, int flags, struct kmsg_loss *l);
void queue_clear(struct queue *q);
/* Up to 8 bytes as one word (little end first), without reading past p + n. */
static inline uint64_t fp_load(const unsigned char *p, size_t n) {
        uint64_t v = 0;

        if (n >= 8) {
                memcpy(&v, p, 8);
                return v;
        }
        while (n-- > 0)
                v = v << 8 | p[n];
        return v;
}

static inline uint64_t fp_load8(const unsigned char *p) {
        uint64_t v;

        memcpy(&v, p, 8);
        return v;
}

/* The odd multiplier of the fingerprint's polynomials. */
#define FP_K UINT64_C(0x9e3779b97f4a7c15)

/*
 * The fingerprint of a record from its time stamp, priority and message
 * length and eight words of the message (the head's and the tail's, see
 * fingerprint()).  This runs for every record, so the words go into two
 * polynomials in FP_K by Horner's rule, a multiplication and an addition a
 * word (the addition reads the word from memory), the two independent of
 * each other so that they run side by side, and are mixed once: under half
 * the instructions of a product a word with a multiplier and a key of its
 * own.  It tells records apart as well: FP_K and the multiplier that joins
 * the polynomials are odd, and an odd multiplication loses no bit modulo
 * 2^64, so two records that differ in one of these words (or in the time
 * stamp, priority or length) always differ in the 64-bit sum; only the
 * fold to 32 bits can then make them look the same, about one pair in 2^32.
 */
static inline uint32_t fp_words(const struct kmsg_record *r, size_t len, uint64_t w0, uint64_t w1, uint64_t w2,
                                uint64_t w3, uint64_t w4, uint64_t w5, uint64_t w6, uint64_t w7) {
        uint64_t a, b;

        a = (((r->usec * FP_K + w0) * FP_K + w1) * FP_K + w2) * FP_K + w3;
        b = ((((uint64_t)r->priority << 32 | (uint32_t)len) * FP_K + w4) * FP_K + w5) * FP_K + w6;
        a = a * UINT64_C(0xbf58476d1ce4e5b9) + b * FP_K + w7;
        a = (a ^ a >> 31) * UINT64_C(0x94d049bb133111eb);
        a ^= a >> 29;
        return (uint32_t)(a ^ a >> 32);
}

/*
 * The time stamp, priority and length of the message, with the words of
 * its head and its tail (the first and the last 32 bytes, overlapping in a
 * short message): enough to tell records apart.  Inline for
 * kmsg_seqtrack_feed()'s usual record; seq_fingerprint() is the same out
 * of line.
 */
static inline uint32_t fingerprint(const struct kmsg_record *r) {
        const unsigned char *m;
        uint64_t w2 = 0, w3 = 0, w4 = 0, w5 = 0;
        size_t len;

        /* The record's own fields: kmsg_record_get_message() is exported, a call through the PLT. */
        m = (const unsigned char *)(r->data_cap ? r->data + r->msg_off : "");
        len = r->msg_len;
        /* Each way its own sum: the usual one then reads its words in the additions. */
        if (len >= 32) {
                const unsigned char *e = m + len - 32;

                return fp_words(r, len, fp_load8(m), fp_load8(m + 8), fp_load8(m + 16), fp_load8(m + 24),
                                fp_load8(e), fp_load8(e + 8), fp_load8(e + 16), fp_load8(e + 24));
        }
        if (len < 8)
                return fp_words(r, len, fp_load(m, len), 0, 0, 0, 0, 0, 0, 0);
        if (len >= 16) {
                w2 = fp_load8(m + 8);
                w3 = fp_load8(m + len - 16);
        }
        if (len >= 24) {
                w4 = fp_load8(m + 16);
                w5 = fp_load8(m + len - 24);
        }
        return fp_words(r, len, fp_load8(m), fp_load8(m + len - 8), w2, w3, w4, w5, 0, 0);
}
uint32_t seq_fingerprint(const struct kmsg_record *r);
bool seq_starts_boot(const struct kmsg_seqtrack *t, const struct kmsg_record *r);
void seq_accept(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp);
/*
 * What seq_accept() does for a record without a boot id: r is the last
 * record, remembered in the ring.  Inline for kmsg_seqtrack_feed()'s usual
 * record, which calls nothing else here.
 */
static inline void seq_note(struct kmsg_seqtrack *t, const struct kmsg_record *r, uint32_t fp) {
        struct slot *s = &t->ring[r->seqnum % SEQ_WINDOW];

        s->seq = r->seqnum;
        s->fp = fp;
        s->segment = (uint32_t)t->segments;
        t->have_prev = t->have_last;
        t->prev_usec = t->last_usec;
        t->have_last = true;
        t->last_seq = r->seqnum;
        t->last_usec = r->usec;
}
bool seq_seen_same(const struct kmsg_seqtrack *t, uint64_t seq, uint32_t fp);
int seq_push_ready(struct kmsg_seqtrack *t, const struct kmsg_record *r, int flags, const struct kmsg_loss *v);
int seq_feed_one(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss);

/* seqtrack-window.c: the reorder window. */
int window_feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, struct kmsg_loss *ret_loss);
int window_settle_all(struct kmsg_seqtrack *t);
int window_expire(struct kmsg_seqtrack *t);

/* seqtrack-loss.c */
struct kmsg_loss *loss_alloc(void);

#endif
