/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program's one hash table: string keys, chained buckets that double as it fills, caller-owned entries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"

struct strmap *strmap_new(size_t n_buckets) {
        struct strmap *m = calloc(1, sizeof(*m));
        size_t n = 16;

        if (!m)
                return NULL;
        while (n < n_buckets && n < SIZE_MAX / 2 / sizeof(m->buckets[0]))
                n *= 2;
        m->buckets = calloc(n, sizeof(m->buckets[0]));
        if (!m->buckets) {
                free(m);
                return NULL;
        }
        m->n_buckets = n;
        return m;
}

void strmap_free(struct strmap *m) {
        if (!m)
                return;
        free(m->buckets);
        free(m);
}

/* FNV-1a, 64 bits: its low bits pick the bucket. */
static size_t hash(const char *s) {
        uint64_t h = 14695981039346656037u;

        while (*s)
                h = (h ^ (unsigned char)*s++) * 1099511628211u;
        return (size_t)(h ^ h >> 32);
}

struct strmap_node *strmap_find(const struct strmap *m, const char *key) {
        size_t h = hash(key);
        struct strmap_node *e;

        for (e = m->buckets[h & (m->n_buckets - 1)]; e; e = e->next)
                if (e->hash == h && strcmp(e->key, key) == 0)
                        return e;
        return NULL;
}

/* Twice the buckets, every entry moved to its new one.  Left as it is when out of memory. */
static void grow(struct strmap *m) {
        size_t n = m->n_buckets * 2, i;
        struct strmap_node **b;

        if (n > SIZE_MAX / sizeof(*b))
                return;
        b = calloc(n, sizeof(*b));
        if (!b)
                return;
        for (i = 0; i < m->n_buckets; i++) {
                struct strmap_node *e = m->buckets[i], *next;

                for (; e; e = next) {
                        next = e->next;
                        e->next = b[e->hash & (n - 1)];
                        b[e->hash & (n - 1)] = e;
                }
        }
        free(m->buckets);
        m->buckets = b;
        m->n_buckets = n;
}

void strmap_add(struct strmap *m, struct strmap_node *node) {
        size_t i;

        node->hash = hash(node->key);
        if (m->n >= m->n_buckets * STRMAP_LOAD_MAX)
                grow(m);
        i = node->hash & (m->n_buckets - 1);
        node->next = m->buckets[i];
        m->buckets[i] = node;
        m->n++;
}

void strmap_each(const struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata), void *userdata) {
        size_t i;

        for (i = 0; i < m->n_buckets; i++) {
                struct strmap_node *e = m->buckets[i], *next;

                for (; e; e = next) {
                        next = e->next;
                        fn(e, userdata);
                }
        }
}
