/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program's one hash table: string keys, chained buckets, caller-owned entries. */
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

struct strmap *strmap_new(size_t n_buckets) {
        struct strmap *m = calloc(1, sizeof(*m) + n_buckets * sizeof(m->buckets[0]));

        if (m)
                m->n_buckets = n_buckets;
        return m;
}

void strmap_free(struct strmap *m) {
        free(m);
}

/* djb2. */
static size_t bucket(const struct strmap *m, const char *s) {
        size_t h = 5381;

        while (*s)
                h = h * 33 + (unsigned char)*s++;
        return h % m->n_buckets;
}

struct strmap_node *strmap_find(const struct strmap *m, const char *key) {
        struct strmap_node *e;

        for (e = m->buckets[bucket(m, key)]; e; e = e->next)
                if (strcmp(e->key, key) == 0)
                        return e;
        return NULL;
}

void strmap_add(struct strmap *m, struct strmap_node *node) {
        size_t h = bucket(m, node->key);

        node->next = m->buckets[h];
        m->buckets[h] = node;
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
