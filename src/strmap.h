/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_STRMAP_H
#define KDMESG_STRMAP_H

#include <stddef.h>

/*
 * A chained hash table of caller-owned entries keyed by a string: an entry
 * embeds a struct strmap_node (first, so a node pointer is the entry's) and
 * points its key at a string it holds.  The table never frees entries.
 */
struct strmap_node {
        struct strmap_node *next;
        const char *key;
};

struct strmap {
        size_t n_buckets;
        size_t n; /* entries added */
        struct strmap_node *buckets[];
};

/* A table of n_buckets empty buckets; NULL when out of memory. */
struct strmap *strmap_new(size_t n_buckets);
/* Free the table (not its entries); accepts NULL. */
void strmap_free(struct strmap *m);
/* The entry for key, or NULL. */
struct strmap_node *strmap_find(const struct strmap *m, const char *key);
/* Add node, whose key is not in the table yet. */
void strmap_add(struct strmap *m, struct strmap_node *node);
/* fn(node, userdata) for every entry; fn may free the node. */
void strmap_each(const struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata), void *userdata);

#endif
