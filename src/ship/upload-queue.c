/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload: the units of the export stream, held until the collector accepted them (upload-queue.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "ship/upload-queue.h"

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
        last->newest = h->newest;
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
        h->replaced = true;
        q->taken = 0;
        return 0;
}

/* What a dropped entry is: a record's, a loss entry to merge in, or an entry to keep. */
enum entry_kind { ENTRY_RECORD, ENTRY_MERGE, ENTRY_KEEP };

/* A loss entry's numbers. */
struct entry_loss {
        uint64_t count, first, last;
        const char *cause, *merged; /* in the entry's bytes */
        size_t cause_len, merged_len;
};

static bool field_is(const struct export_field *f, const char *key) {
        return f->klen == strlen(key) && memcmp(f->key, key, f->klen) == 0;
}

static bool val_is(const struct export_field *f, const char *val) {
        return f->vlen == strlen(val) && memcmp(f->val, val, f->vlen) == 0;
}

/* A decimal field's value; false when it is not one. */
static bool val_u64(const struct export_field *f, uint64_t *ret) {
        uint64_t v = 0;
        size_t i;

        if (f->vlen == 0 || f->vlen > 19)
                return false;
        for (i = 0; i < f->vlen; i++) {
                if (f->val[i] < '0' || f->val[i] > '9')
                        return false;
                v = v * 10 + (uint64_t)(f->val[i] - '0');
        }
        *ret = v;
        return true;
}

/* The entry of len bytes at p (one whole entry of the export form): what it is, with *l for a loss entry. */
static enum entry_kind entry_kind(const char *p, size_t len, struct entry_loss *l) {
        struct export_field f;
        bool loss = false, boot = false, has_count = false, has_first = false, has_last = false;
        size_t at = 0;

        *l = (struct entry_loss){ .cause = "", .merged = "" };
        while (export_next_field(p, len, &at, &f) > 0) {
                if (field_is(&f, "MESSAGE_ID")) {
                        loss = val_is(&f, EXPORT_LOSS_MESSAGE_ID);
                        boot = val_is(&f, EXPORT_BOOT_MESSAGE_ID);
                } else if (field_is(&f, "KDMESG_LOST"))
                        has_count = val_u64(&f, &l->count);
                else if (field_is(&f, "KDMESG_LOST_FIRST_SEQ"))
                        has_first = val_u64(&f, &l->first);
                else if (field_is(&f, "KDMESG_LOST_LAST_SEQ"))
                        has_last = val_u64(&f, &l->last);
                else if (field_is(&f, "KDMESG_LOST_CAUSE")) {
                        l->cause = f.val;
                        l->cause_len = f.vlen;
                } else if (field_is(&f, "KDMESG_LOST_MERGED")) {
                        l->merged = f.val;
                        l->merged_len = f.vlen;
                }
        }
        if (boot)
                return ENTRY_KEEP;
        if (!loss)
                return ENTRY_RECORD;
        /* Of an unknown number, or of the records the boot before left unread: not a range of this boot. */
        if (!has_count || !has_first || l->count == 0 || l->first > UINT64_MAX - (l->count - 1) ||
            (l->cause_len == 6 && memcmp(l->cause, "reboot", 6) == 0))
                return ENTRY_KEEP;
        if (!has_last)
                l->last = l->first + (l->count - 1);
        return ENTRY_MERGE;
}

/* Add a cause (len bytes at name) to the comma-separated list merged (size bytes), once. */
static void add_cause(char *merged, size_t size, const char *name, size_t len) {
        size_t have = strlen(merged), i = 0;

        if (len == 0 || memchr(name, ',', len) || memchr(name, '\n', len))
                return;
        while (i < have) {
                size_t k = strcspn(merged + i, ",");

                if (k == len && memcmp(merged + i, name, len) == 0)
                        return;
                i += k + (merged[i + k] == ',');
        }
        if (have + (have > 0) + len + 1 > size)
                return;
        if (have > 0)
                merged[have++] = ',';
        memcpy(merged + have, name, len);
        merged[have + len] = '\0';
}

/* Records first..last counted in d. */
static void add_range(struct upload_drop *d, uint64_t count, uint64_t first, uint64_t last) {
        d->records += count;
        if (!d->has_range || first < d->first_seq)
                d->first_seq = first;
        if (!d->has_range || last > d->last_lost)
                d->last_lost = last;
        d->has_range = true;
}

/* What dropping u adds to d: its record, the loss entries it merges in, the entries it keeps. */
static void drop_add(struct upload_drop *d, const struct upload_unit *u) {
        size_t off = 0, k;

        d->units++;
        d->bytes += u->len;
        d->id = u->id;
        /* Not the export form (the unit tests' units): the unit is its record, or the spool's loss entry. */
        for (off = 0; off < u->len; off += k)
                if ((k = export_entry_len(u->data + off, u->len - off)) == 0)
                        break;
        if (off < u->len) {
                if (u->has_seq)
                        add_range(d, u->lost ? u->lost : 1, u->lost ? u->lost_first : u->seq, u->seq);
        } else
                for (off = 0; off < u->len; off += k) {
                        struct entry_loss l;

                        k = export_entry_len(u->data + off, u->len - off);
                        switch (entry_kind(u->data + off, k, &l)) {
                        case ENTRY_KEEP:
                                d->keep += k;
                                break;
                        case ENTRY_MERGE:
                                add_range(d, l.count, l.first, l.last);
                                if (l.cause_len != 10 || memcmp(l.cause, "spool-full", 10) != 0)
                                        add_cause(d->merged, sizeof(d->merged), l.cause, l.cause_len);
                                for (size_t i = 0, n; i < l.merged_len; i += n + 1) {
                                        const char *comma = memchr(l.merged + i, ',', l.merged_len - i);

                                        n = comma ? (size_t)(comma - (l.merged + i)) : l.merged_len - i;
                                        add_cause(d->merged, sizeof(d->merged), l.merged + i, n);
                                }
                                break;
                        case ENTRY_RECORD:
                                if (u->has_seq)
                                        add_range(d, 1, u->seq, u->seq);
                                break;
                        }
                }
        if (!u->has_seq)
                return;
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
                /*
                 * A loss entry alone in its boot makes no room in its own
                 * place, nor do entries that are kept: the next ones go.
                 */
                if ((ret->units > 1 || !first->lost) && ret->bytes > ret->keep)
                        return ret->units;
        }
        *ret = (struct upload_drop){};
        return 0;
}

/* Copy the entries of u that a drop keeps to dst; returns the bytes copied. */
static size_t copy_kept(const struct upload_unit *u, char *dst) {
        size_t off, k, at = 0;

        for (off = 0; off < u->len; off += k)
                if ((k = export_entry_len(u->data + off, u->len - off)) == 0)
                        return 0;
        for (off = 0; off < u->len; off += k) {
                struct entry_loss l;

                k = export_entry_len(u->data + off, u->len - off);
                if (entry_kind(u->data + off, k, &l) == ENTRY_KEEP) {
                        memcpy(dst + at, u->data + off, k);
                        at += k;
                }
        }
        return at;
}

int upload_queue_drop(struct upload_queue *q, const struct upload_drop *d, const char *p, size_t len) {
        struct upload_unit *n = unit_new(NULL, 0), *u, *next;
        size_t i, at = 0;

        if (!n || reserve(n, d->keep + len) < 0) {
                unit_free(n);
                return -ENOMEM;
        }
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
                if (at < d->keep)
                        at += copy_kept(u, n->data + at);
                q->bytes -= u->len;
                q->closed_bytes -= u->len;
                q->n_closed--;
                if (q->tail == u)
                        q->tail = NULL;
                unit_free(u);
                u = next;
        }
        if (len)
                memcpy(n->data + at, p, len);
        n->len = at + len;
        n->next = u;
        if (d->before)
                d->before->next = n;
        else
                q->head = n;
        if (!q->tail)
                q->tail = n;
        q->bytes += n->len;
        q->closed_bytes += n->len;
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
        u->replaced = r->replaced;
        u->newest = r->newest;
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
