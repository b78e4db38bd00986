/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_STRMAP_H
#define KDMESG_STRMAP_H

#include <stddef.h>

/*
 * A chained hash table of caller-owned entries keyed by a string: an entry
 * embeds a struct strmap_node (first, so a node pointer is the entry's) and
 * points its key at a string it holds.  The table never frees entries.
 * It doubles its buckets whenever it holds more than STRMAP_LOAD_MAX
 * entries per bucket, so that an add or a lookup takes constant time on
 * average however many entries there are.
 */
struct strmap_node {
        struct strmap_node *next;
        const char *key;
        size_t hash; /* set by strmap_add() */
};

#define STRMAP_LOAD_MAX 2

struct strmap {
        size_t n_buckets; /* a power of two */
        size_t n;         /* entries added */
        struct strmap_node **buckets;
};

/* A table of at least n_buckets empty buckets (it grows as it fills); NULL when out of memory. */
struct strmap *strmap_new(size_t n_buckets);
/* Free the table (not its entries); accepts NULL. */
void strmap_free(struct strmap *m);
/* The entry for key, or NULL. */
struct strmap_node *strmap_find(const struct strmap *m, const char *key);
/*
 * Add node, whose key is not in the table yet.  When the buckets cannot be
 * doubled for lack of memory, the table keeps working with the ones it has.
 */
void strmap_add(struct strmap *m, struct strmap_node *node);
/* fn(node, userdata) for every entry; fn may free the node. */
void strmap_each(const struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata), void *userdata);

#endif
