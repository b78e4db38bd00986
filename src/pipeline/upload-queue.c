/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload: the units of the export stream, held until the collector accepted them (upload-queue.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/upload-queue.h"

void upload_queue_init(struct upload_queue *q, size_t batch_max, size_t mem_max) {
        /* Ids from 1: 0 is before every unit. */
        *q = (struct upload_queue){ .batch_max = batch_max, .mem_max = mem_max, .next_id = 1 };
}

static void unit_free(struct upload_unit *u) {
        if (u) {
                free(u->data);
                free(u);
        }
}

void upload_queue_done(struct upload_queue *q) {
        while (q->head) {
                struct upload_unit *u = q->head;

                q->head = u->next;
                unit_free(u);
        }
        unit_free(q->open);
        *q = (struct upload_queue){};
}

static int reserve(struct upload_unit *u, size_t len) {
        size_t cap = u->cap ? u->cap : 512;
        char *d;

        if (u->len + len <= u->cap)
                return 0;
        while (cap < u->len + len)
                cap *= 2;
        d = realloc(u->data, cap);
        if (!d)
                return -ENOMEM;
        u->data = d;
        u->cap = cap;
        return 0;
}

/* A unit holding a copy of p[0..len), nothing else set; NULL when out of memory. */
static struct upload_unit *unit_new(const char *p, size_t len) {
        struct upload_unit *u = calloc(1, sizeof(*u));

        if (!u || reserve(u, len ? len : 1) < 0) {
                free(u);
                return NULL;
        }
        if (len)
                memcpy(u->data, p, len);
        u->len = len;
        return u;
}

int upload_queue_append(struct upload_queue *q, const void *p, size_t len) {
        struct upload_unit *u = q->open;

        if (len == 0)
                return 0;
        if (!u) {
                u = q->open = calloc(1, sizeof(*u));
                if (!u)
                        return -ENOMEM;
        }
        if (reserve(u, len) < 0)
                return -ENOMEM;
        memcpy(u->data + u->len, p, len);
        u->len += len;
        q->bytes += len;
        return 0;
}

static void push(struct upload_queue *q, struct upload_unit *u) {
        if (q->tail)
                q->tail->next = u;
        else
                q->head = u;
        q->tail = u;
        q->n_closed++;
        q->closed_bytes += u->len;
}

void upload_queue_close(struct upload_queue *q, uint64_t now_ns) {
        struct upload_unit *u = q->open;

        if (!u || (u->len == 0 && !u->has_seq))
                return;
        /* Held for long maybe: no room beyond its bytes (the bound counts bytes, not capacity). */
        if (u->cap > u->len + 64 && u->len > 0) {
                char *d = realloc(u->data, u->len);

                if (d) {
                        u->data = d;
                        u->cap = u->len;
                }
        }
        q->open = NULL;
        u->closed_ns = now_ns;
        u->id = q->next_id++;
        push(q, u);
}

void upload_queue_mark(struct upload_queue *q, uint64_t seq, uint64_t usec, uint64_t now_ns) {
        upload_queue_close(q, now_ns);
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

uint64_t upload_queue_due_in(const struct upload_queue *q, uint64_t now_ns, uint64_t linger_ns) {
        uint64_t since;

        if (!q->head)
                return UINT64_MAX;
        if (q->closed_bytes >= q->batch_max)
                return 0;
        /* A clock that went back (the caller's) counts as no time passed. */
        since = now_ns > q->head->closed_ns ? now_ns - q->head->closed_ns : 0;
        return since >= linger_ns ? 0 : linger_ns - since;
}

int upload_queue_take(struct upload_queue *q, size_t max_units, char **ret_buf, size_t *ret_cap, size_t *ret_len) {
        const struct upload_unit *u, *end = NULL;
        size_t n = 0, len = 0;

        for (u = q->head; u && n < max_units && (n == 0 || len + u->len <= q->batch_max); u = u->next) {
                len += u->len;
                end = u;
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
        for (u = q->head; u != end->next; u = u->next) {
                if (u->len)
                        memcpy(*ret_buf + len, u->data, u->len);
                len += u->len;
        }
        q->taken = n;
        *ret_len = len;
        return (int)n;
}

const struct upload_unit *upload_queue_last_seq(const struct upload_queue *q, size_t n) {
        const struct upload_unit *u, *last = NULL;

        for (u = q->head; u && n > 0; u = u->next, n--)
                if (u->has_seq)
                        last = u;
        return last;
}

static struct upload_unit *pop(struct upload_queue *q) {
        struct upload_unit *u = q->head;

        q->head = u->next;
        if (!q->head)
                q->tail = NULL;
        u->next = NULL;
        q->n_closed--;
        q->closed_bytes -= u->len;
        return u;
}

void upload_queue_ack(struct upload_queue *q, size_t n) {
        while (n > 0 && q->head) {
                struct upload_unit *u = pop(q);

                q->bytes -= u->len;
                unit_free(u);
                n--;
        }
        q->taken = 0;
}

int upload_queue_split_head(struct upload_queue *q, size_t (*entry_len)(const char *p, size_t len)) {
        struct upload_unit *h = q->head, *first = NULL, *last = NULL, *u;
        size_t off = 0, n = 0;

        if (!h)
                return 0;
        if (entry_len(h->data, h->len) >= h->len)
                return 1;
        while (off < h->len) {
                size_t k = entry_len(h->data + off, h->len - off);

                if (k == 0)
                        k = h->len - off; /* no whole entry: the rest as one */
                u = calloc(1, sizeof(*u));
                if (!u || reserve(u, k) < 0) {
                        free(u);
                        while (first) {
                                u = first->next;
                                unit_free(first);
                                first = u;
                        }
                        return -ENOMEM;
                }
                memcpy(u->data, h->data + off, k);
                u->len = k;
                u->closed_ns = h->closed_ns;
                /* The same bytes as before, in the same place: the spool holds them as one. */
                u->id = h->id;
                u->boot = h->boot;
                if (last)
                        last->next = u;
                else
                        first = u;
                last = u;
                off += k;
                n++;
        }
        /* The record is the last entry; the ones before it (a loss, a boot) name none. */
        last->has_seq = h->has_seq;
        last->seq = h->seq;
        last->usec = h->usec;
        last->next = h->next;
        if (q->tail == h)
                q->tail = last;
        q->head = first;
        q->n_closed += n - 1;
        q->taken = 0;
        unit_free(h);
        return (int)n;
}

int upload_queue_replace_head(struct upload_queue *q, const char *p, size_t len) {
        struct upload_unit *h = q->head;
        char *d;

        if (!h)
                return 0;
        d = malloc(len ? len : 1);
        if (!d)
                return -ENOMEM;
        memcpy(d, p, len);
        q->bytes = q->bytes - h->len + len;
        q->closed_bytes = q->closed_bytes - h->len + len;
        free(h->data);
        h->data = d;
        h->len = h->cap = len;
        q->taken = 0;
        return 0;
}

/* What dropping u adds to d. */
static void drop_add(struct upload_drop *d, const struct upload_unit *u) {
        uint64_t first = u->lost ? u->lost_first : u->seq;

        d->units++;
        d->bytes += u->len;
        d->id = u->id;
        if (!u->has_seq)
                return;
        d->records += u->lost ? u->lost : 1;
        if (!d->has_seq || first < d->first_seq)
                d->first_seq = first;
        d->has_seq = true;
        d->last_seq = u->seq;
        d->last_usec = u->usec;
}

static bool same_boot(const char *a, const char *b) {
        return a == b || (a && b && strcmp(a, b) == 0);
}

size_t upload_queue_drop_plan(const struct upload_queue *q, size_t target, struct upload_drop *ret) {
        struct upload_unit *before = NULL, *first = q->head, *u;
        size_t i;

        for (i = 0; i < q->busy && first; i++) {
                before = first;
                first = first->next;
        }
        for (; first; before = first, first = first->next) {
                *ret = (struct upload_drop){ .before = before, .boot = first->boot };
                for (u = first; u && same_boot(u->boot, ret->boot); u = u->next) {
                        drop_add(ret, u);
                        if (q->bytes - ret->bytes <= target)
                                break;
                }
                /* A loss entry alone in its boot makes no room in its own place: the next ones go. */
                if (ret->units > 1 || !first->lost)
                        return ret->units;
        }
        *ret = (struct upload_drop){};
        return 0;
}

int upload_queue_drop(struct upload_queue *q, const struct upload_drop *d, const char *p, size_t len) {
        struct upload_unit *n = unit_new(p, len), *u, *next;
        size_t i;

        if (!n)
                return -ENOMEM;
        n->has_seq = d->has_seq;
        n->seq = d->last_seq;
        n->usec = d->last_usec;
        n->lost = d->records;
        n->lost_first = d->first_seq;
        n->boot = d->boot;
        n->id = d->id;
        u = d->before ? d->before->next : q->head;
        n->closed_ns = u->closed_ns;
        for (i = 0; i < d->units; i++) {
                next = u->next;
                q->bytes -= u->len;
                q->closed_bytes -= u->len;
                q->n_closed--;
                if (q->tail == u)
                        q->tail = NULL;
                unit_free(u);
                u = next;
        }
        n->next = u;
        if (d->before)
                d->before->next = n;
        else
                q->head = n;
        if (!q->tail)
                q->tail = n;
        q->bytes += len;
        q->closed_bytes += len;
        q->n_closed++;
        q->taken = 0;
        return 0;
}

int upload_queue_push(struct upload_queue *q, const struct upload_unit *r, const char *p, size_t len) {
        struct upload_unit *u = unit_new(p, len);

        if (!u)
                return -ENOMEM;
        u->has_seq = r->has_seq;
        u->seq = r->seq;
        u->usec = r->usec;
        u->lost = r->lost;
        u->lost_first = r->lost_first;
        u->boot = r->boot;
        u->closed_ns = r->closed_ns;
        u->id = q->next_id++;
        push(q, u);
        q->bytes += len;
        return 0;
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
