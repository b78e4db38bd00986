/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload: batches of the export stream, held until the collector accepted them (upload-queue.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/upload-queue.h"

void upload_queue_init(struct upload_queue *q, size_t batch_max, size_t mem_max) {
        *q = (struct upload_queue){ .batch_max = batch_max, .mem_max = mem_max };
}

static void batch_free(struct upload_batch *b) {
        if (b) {
                free(b->data);
                free(b);
        }
}

void upload_queue_done(struct upload_queue *q) {
        while (q->head) {
                struct upload_batch *b = q->head;

                q->head = b->next;
                batch_free(b);
        }
        batch_free(q->open);
        *q = (struct upload_queue){};
}

int upload_queue_append(struct upload_queue *q, const void *p, size_t len) {
        struct upload_batch *b = q->open;

        if (!b) {
                b = q->open = calloc(1, sizeof(*b));
                if (!b)
                        return -ENOMEM;
        }
        if (b->len + len > b->cap) {
                size_t cap = b->cap ? b->cap : 4096;
                char *d;

                while (cap < b->len + len)
                        cap *= 2;
                d = realloc(b->data, cap);
                if (!d)
                        return -ENOMEM;
                b->data = d;
                b->cap = cap;
        }
        memcpy(b->data + b->len, p, len);
        b->len += len;
        q->bytes += len;
        return 0;
}

void upload_queue_close(struct upload_queue *q) {
        struct upload_batch *b = q->open;

        if (!b || (b->len == 0 && !b->has_seq))
                return;
        /* Held for long maybe: no room beyond its bytes (the bound counts bytes, not capacity). */
        if (b->cap > b->len && b->len > 0) {
                char *d = realloc(b->data, b->len);

                if (d) {
                        b->data = d;
                        b->cap = b->len;
                }
        }
        q->open = NULL;
        if (q->tail)
                q->tail->next = b;
        else
                q->head = b;
        q->tail = b;
        q->n_closed++;
}

void upload_queue_mark(struct upload_queue *q, uint64_t seq, uint64_t usec) {
        if (q->open && q->open->len >= q->batch_max)
                upload_queue_close(q);
        if (!q->open) {
                q->open = calloc(1, sizeof(*q->open));
                if (!q->open)
                        return; /* the next append fails and reports it */
        }
        q->open->has_seq = true;
        q->open->seq = seq;
        q->open->usec = usec;
}

bool upload_queue_full(const struct upload_queue *q) {
        return q->bytes >= q->mem_max;
}

int upload_queue_take(struct upload_queue *q, char **ret_buf, size_t *ret_cap, size_t *ret_len,
                      const struct upload_batch **ret_last) {
        const struct upload_batch *b, *last = NULL;
        size_t n = 0, len = 0;

        const struct upload_batch *end = NULL;

        for (b = q->head; b && (n == 0 || len + b->len <= q->batch_max); b = b->next) {
                len += b->len;
                if (b->has_seq)
                        last = b;
                end = b;
                n++;
        }
        if (n == 0)
                return 0;
        if (len > *ret_cap) {
                char *d = realloc(*ret_buf, len);

                if (!d)
                        return -ENOMEM;
                *ret_buf = d;
                *ret_cap = len;
        }
        len = 0;
        for (b = q->head; b != end->next; b = b->next) {
                if (b->len)
                        memcpy(*ret_buf + len, b->data, b->len);
                len += b->len;
        }
        q->taken = n;
        q->taken_bytes = len;
        *ret_len = len;
        *ret_last = last;
        return (int)n;
}

void upload_queue_ack(struct upload_queue *q) {
        while (q->taken > 0 && q->head) {
                struct upload_batch *b = q->head;

                q->head = b->next;
                if (!q->head)
                        q->tail = NULL;
                q->bytes -= b->len;
                q->n_closed--;
                q->taken--;
                batch_free(b);
        }
        q->taken = q->taken_bytes = 0;
}

unsigned upload_backoff_ms(unsigned attempt, unsigned base, unsigned cap, uint32_t rnd) {
        uint64_t d = base;
        unsigned i;

        for (i = 1; i < attempt && d < cap; i++)
                d *= 2;
        if (d > cap)
                d = cap;
        /* Full spread over the upper half: many clients that failed together do not retry together. */
        return (unsigned)(d / 2 + (d - d / 2) * (uint64_t)rnd / UINT32_MAX);
}
