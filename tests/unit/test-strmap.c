/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program's hash table (src/strmap.c): lookups, growth, iteration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "tests.h"

struct entry {
        struct strmap_node node;
        unsigned seen;
        char key[24];
};

static void count(struct strmap_node *node, void *userdata) {
        ((struct entry *)node)->seen++;
        (*(size_t *)userdata)++;
}

static void free_entry(struct strmap_node *node, void *userdata) {
        (*(size_t *)userdata)++;
        free(node);
}

/* The longest chain: what a lookup may have to walk. */
static size_t longest_chain(const struct strmap *m) {
        size_t i, longest = 0;

        for (i = 0; i < m->n_buckets; i++) {
                const struct strmap_node *e;
                size_t n = 0;

                for (e = m->buckets[i]; e; e = e->next)
                        n++;
                if (n > longest)
                        longest = n;
        }
        return longest;
}

TEST(strmap_finds_what_was_added_and_nothing_else) {
        struct strmap *m = strmap_new(4);
        struct entry a = { .node.key = "b8:0" }, b = { .node.key = "b8:1" }, c = { .node.key = "" };

        CHECK(m);
        CHECK(strmap_find(m, "b8:0") == NULL);
        strmap_add(m, &a.node);
        strmap_add(m, &b.node);
        strmap_add(m, &c.node);
        CHECK_INT(m->n, 3);
        CHECK(strmap_find(m, "b8:0") == &a.node);
        CHECK(strmap_find(m, "b8:1") == &b.node);
        CHECK(strmap_find(m, "") == &c.node);
        CHECK(strmap_find(m, "b8:2") == NULL);
        CHECK(strmap_find(m, "b8:") == NULL);
        strmap_free(m);
        strmap_free(NULL);
}

/*
 * 200,000 keys in a table made for 256: it grows, so that the entries per
 * bucket stay under the bound (with fixed buckets there were 781 in each).
 */
TEST(strmap_grows_with_its_entries) {
        const size_t n = 200000;
        struct strmap *m = strmap_new(256);
        struct entry *v = calloc(n, sizeof(*v));
        size_t i, visited = 0;

        CHECK(m && v);
        if (!m || !v)
                return;
        for (i = 0; i < n; i++) {
                snprintf(v[i].key, sizeof(v[i].key), "+usb:%zu-%zu", i % 97, i);
                v[i].node.key = v[i].key;
                strmap_add(m, &v[i].node);
        }
        CHECK_INT(m->n, n);
        CHECK(m->n_buckets * STRMAP_LOAD_MAX >= n);
        CHECK((m->n_buckets & (m->n_buckets - 1)) == 0);
        /* A fair hash: no chain much longer than the average. */
        CHECK(longest_chain(m) <= 16);
        for (i = 0; i < n; i++)
                if (strmap_find(m, v[i].key) != &v[i].node) {
                        CHECK(strmap_find(m, v[i].key) == &v[i].node);
                        break;
                }
        CHECK(strmap_find(m, "+usb:0-1") == NULL);
        strmap_each(m, count, &visited);
        CHECK_INT(visited, n);
        for (i = 0; i < n; i++)
                if (v[i].seen != 1) {
                        CHECK_INT(v[i].seen, 1);
                        break;
                }
        strmap_free(m);
        free(v);
}

TEST(strmap_each_may_free_the_entries) {
        struct strmap *m = strmap_new(0);
        size_t i, freed = 0;

        CHECK(m);
        for (i = 0; i < 1000; i++) {
                struct entry *e = calloc(1, sizeof(*e));

                CHECK(e);
                if (!e)
                        break;
                snprintf(e->key, sizeof(e->key), "c%zu:0", i);
                e->node.key = e->key;
                strmap_add(m, &e->node);
        }
        strmap_each(m, free_entry, &freed);
        CHECK_INT(freed, 1000);
        strmap_free(m);
}
