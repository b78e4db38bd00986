/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_QUEUE_H
#define KDMESG_UPLOAD_QUEUE_H

/*
 * --upload: the entries read, held until the collector has accepted them.
 * No threads, no network, no clock: upload.c drives it (and locks it) and
 * passes the time; the unit tests drive it alone.
 *
 * The stream is cut into units at the marks run.c makes before each
 * record with a sequence number: a unit is the bytes from one mark to the
 * next, the entries of one record (its loss or boot entry first, when
 * there is one), and names that record (where the cursor goes once it is
 * delivered).  A unit is closed at the next mark, or when the reader goes
 * idle; closed units wait in order.  A send takes the oldest ones, as many
 * as fit in the batch size (at least one), and they leave the queue only
 * when acknowledged: a failed send is retried with the same bytes.  All
 * units together, open and closed, are kept under the memory bound:
 * upload_queue_full() tells the reader to wait.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct upload_unit {
        struct upload_unit *next;
        char *data;
        size_t len, cap;
        bool has_seq;       /* it holds a record with a sequence number */
        uint64_t seq, usec; /* that record */
        uint64_t closed_ns; /* when it was closed (the caller's clock) */
        uint64_t id;        /* its place: ids grow from one closed unit to the next (upload.c's spool) */
        const char *boot;   /* the boot id of its record (the caller's string); NULL: not known */
        uint64_t lost, lost_first; /* a loss entry for dropped units: this many records, from seq lost_first */
        bool replaced;      /* its bytes are the loss entry that took the place of a refused one */
        bool newest;        /* its record was the newest in the ring when it was read (the reader went idle) */
};

struct upload_queue {
        struct upload_unit *head, *tail; /* closed, oldest first */
        struct upload_unit *open;        /* being filled; NULL: none */
        size_t n_closed;
        size_t closed_bytes;
        size_t bytes;      /* data held in all units */
        size_t batch_max;  /* a send takes at most this many bytes (one unit at least) */
        size_t mem_max;    /* the memory bound */
        size_t taken;      /* units the last take took: acknowledged or retried */
        size_t busy;       /* units at the head being sent: never dropped (the caller sets it) */
        uint64_t next_id;  /* the id of the next unit closed */
};

/*
 * Units dropped for a loss entry of their own (upload_queue_drop_plan()).
 * No loss entry they hold is lost: one of a known number of records of
 * their boot is merged in (its records counted, its range taken in, its
 * cause named in merged); one that cannot be (of an unknown number, or of
 * the boot before: "reboot") is kept, as is a new boot's entry, before
 * the loss entry that takes their place.
 */
struct upload_drop {
        struct upload_unit *before; /* the unit before the first dropped one; NULL: the head */
        size_t units, bytes;
        size_t keep;               /* bytes of the entries kept */
        uint64_t records;          /* records they held and that their loss entries merged in count */
        bool has_seq;
        bool has_range;            /* first_seq, last_lost: the range of records counted */
        uint64_t first_seq, last_seq, last_usec, last_lost;
        const char *boot;
        uint64_t id;               /* the last one's */
        char merged[64];           /* the causes of loss entries merged in, comma-separated; "" none */
};

void upload_queue_init(struct upload_queue *q, size_t batch_max, size_t mem_max);
void upload_queue_done(struct upload_queue *q);

/* Append bytes of the entry being written to the open unit.  0 or -ENOMEM. */
int upload_queue_append(struct upload_queue *q, const void *p, size_t len);
/* A record begins: the open unit is closed (at now_ns), and the next bytes are record seq's (usec). */
void upload_queue_mark(struct upload_queue *q, uint64_t seq, uint64_t usec, uint64_t now_ns);
/* The reader has nothing more for now (or ended): close the open unit if it holds anything. */
void upload_queue_close(struct upload_queue *q, uint64_t now_ns);
/* Whether the reader must wait before appending more: the memory bound is reached. */
bool upload_queue_full(const struct upload_queue *q);
/*
 * The linger: how long the next send may still wait for more records, in
 * nanoseconds.  0 when it is due now: a batch's worth (batch_max bytes)
 * is closed, or the oldest closed unit was closed linger_ns ago or more;
 * UINT64_MAX when no unit is closed.
 */
uint64_t upload_queue_due_in(const struct upload_queue *q, uint64_t now_ns, uint64_t linger_ns);

/*
 * The next send: the oldest closed units, as many as fit in batch_max and
 * at most max_units (at least one), copied into *ret_buf (grown as
 * needed; *ret_cap its size); *ret_len is the length.  Returns the number
 * of units taken, 0 when none is closed, or -ENOMEM.  A second take
 * without an ack takes the same ones again (or fewer, with a lower
 * max_units).
 */
int upload_queue_take(struct upload_queue *q, size_t max_units, char **ret_buf, size_t *ret_cap, size_t *ret_len);
/* The last unit of the first n taken with a sequence number (where the cursor goes once they are delivered), or NULL. */
const struct upload_unit *upload_queue_last_seq(const struct upload_queue *q, size_t n);
/* The first n units taken were accepted: free them. */
void upload_queue_ack(struct upload_queue *q, size_t n);
/*
 * Cut the oldest unit into one unit per entry, entry_len() telling the
 * length of the first entry of a buffer (0: no whole entry); the record's
 * sequence number stays with the last.  Returns the number of units it
 * became (1: one entry only), or -ENOMEM.
 */
int upload_queue_split_head(struct upload_queue *q, size_t (*entry_len)(const char *p, size_t len));
/* Replace the bytes of the oldest unit (a refused entry by the loss entry that says so).  0 or -ENOMEM. */
int upload_queue_replace_head(struct upload_queue *q, const char *p, size_t len);

/*
 * The oldest closed units after the busy ones, while the queue holds
 * more than target bytes, of one boot: what a drop takes.  Returns the
 * number of units (0: none can go), *ret says which.
 */
size_t upload_queue_drop_plan(const struct upload_queue *q, size_t target, struct upload_drop *ret);
/*
 * Replace the units of d (from upload_queue_drop_plan(), nothing changed
 * since) by one unit: the entries d keeps, then the len bytes at p, the
 * loss entry that says so.  It names the last record dropped, and counts
 * d->records from d->first_seq.  0 or -ENOMEM.
 */
int upload_queue_drop(struct upload_queue *q, const struct upload_drop *d, const char *p, size_t len);
/* Add a closed unit of len bytes at p, as it was spooled (r's fields); 0 or -ENOMEM. */
int upload_queue_push(struct upload_queue *q, const struct upload_unit *r, const char *p, size_t len);

/*
 * The wait before retry number attempt (1: the first retry) in
 * milliseconds: base * 2^(attempt-1), at most cap, then jitter: a value
 * in [d/2, d] drawn from rnd (any 32-bit random number).
 */
unsigned upload_backoff_ms(unsigned attempt, unsigned base, unsigned cap, uint32_t rnd);

#endif
