/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_QUEUE_H
#define KDMESG_UPLOAD_QUEUE_H

/*
 * --upload: the export stream cut into batches, held until the collector
 * has accepted them.  No threads, no network: upload.c drives it (and
 * locks it); the unit tests drive it alone.
 *
 * Entries are appended to the open batch; a batch is closed at an entry
 * boundary when it reaches the size limit or the reader goes idle, so a
 * record waits for no later record to be sent.  Closed batches wait in
 * order; a send takes the oldest ones, as many as fit in the size limit
 * (at least one), and they leave the queue only when acknowledged (the
 * server answered 2xx): a failed send is retried with the same bytes.  All
 * batches together, open and closed, are kept under the memory bound:
 * upload_queue_full() tells the reader to wait.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct upload_batch {
        struct upload_batch *next;
        char *data;
        size_t len, cap;
        bool has_seq;        /* it ends with a record that has a sequence number */
        uint64_t seq, usec;  /* that record: where the cursor goes once it is delivered */
};

struct upload_queue {
        struct upload_batch *head, *tail; /* closed, oldest first */
        struct upload_batch *open;        /* being filled; NULL: none */
        size_t n_closed;
        size_t bytes;      /* data held in all batches */
        size_t batch_max;  /* close a batch at an entry boundary from this size on */
        size_t mem_max;    /* the memory bound */
        /* What the last send took: acknowledged or retried as a whole. */
        size_t taken;      /* batches */
        size_t taken_bytes;
};

void upload_queue_init(struct upload_queue *q, size_t batch_max, size_t mem_max);
void upload_queue_done(struct upload_queue *q);

/* Append bytes of the entry being written to the open batch.  0 or -ENOMEM. */
int upload_queue_append(struct upload_queue *q, const void *p, size_t len);
/*
 * An entry boundary: the next bytes belong to the record seq (usec).  The
 * open batch is closed first when it has reached the size limit.
 */
void upload_queue_mark(struct upload_queue *q, uint64_t seq, uint64_t usec);
/* The reader has nothing more for now (or ended): close the open batch if it holds anything. */
void upload_queue_close(struct upload_queue *q);
/* Whether the reader must wait before appending more: the memory bound is reached. */
bool upload_queue_full(const struct upload_queue *q);

/*
 * The next send: the oldest closed batches, as many as fit in batch_max
 * (at least one), copied into *ret_buf (grown as needed; *ret_cap its
 * size).  *ret_len is the length, *ret_last the last of them with a
 * sequence number (the cursor names its record once they are accepted),
 * or NULL.  Returns the number of
 * batches taken, 0 when none is closed, or -ENOMEM.  A second take without
 * an ack or a retry takes the same batches again.
 */
int upload_queue_take(struct upload_queue *q, char **ret_buf, size_t *ret_cap, size_t *ret_len,
                      const struct upload_batch **ret_last);
/* The last taken batches were accepted: free them. */
void upload_queue_ack(struct upload_queue *q);

/*
 * The wait before retry number attempt (1: the first retry) in
 * milliseconds: base * 2^(attempt-1), at most cap, then jitter: a value
 * in [d/2, d] drawn from rnd (any 32-bit random number).
 */
unsigned upload_backoff_ms(unsigned attempt, unsigned base, unsigned cap, uint32_t rnd);

#endif
