/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scaffolding the reports share (report.h): their tables, their JSON Lines, their groups in order. */
#include <errno.h>
#include <stdlib.h>

#include "output/report.h"
#include "text/writer.h"

struct libscols_table *report_table_new(const struct report_column *cols, size_t n, unsigned long hidden,
                                        bool noheadings) {
        struct libscols_table *tb = scols_new_table();
        size_t i;

        if (!tb)
                return NULL;
        scols_table_enable_noencoding(tb, 1);
        scols_table_enable_noheadings(tb, noheadings);
        for (i = 0; i < n; i++) {
                int flags = cols[i].flags | (hidden & (1ul << i) ? SCOLS_FL_HIDDEN : 0);
                struct libscols_column *cl = scols_table_new_column(tb, cols[i].name, cols[i].width, flags);

                if (!cl || (cols[i].json && scols_column_set_json_type(cl, cols[i].json) < 0)) {
                        scols_unref_table(tb);
                        return NULL;
                }
        }
        return tb;
}

int report_json_line(struct json_object *o) {
        const char *text;
        size_t len;

        if (!o)
                return -ENOMEM;
        text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
        if (text) {
                out_write(text, len);
                out_putc('\n');
        }
        json_object_put(o);
        return text ? 0 : -ENOMEM;
}

struct list {
        struct strmap_node **v;
        size_t n;
};

static void list_one(struct strmap_node *node, void *userdata) {
        struct list *l = userdata;

        l->v[l->n++] = node;
}

struct strmap_node **report_sorted(const struct strmap *m, size_t extra, int (*cmp)(const void *, const void *),
                                   size_t *ret_n) {
        struct list l = { .n = 0 };

        l.v = calloc(m->n + extra ? m->n + extra : 1, sizeof(*l.v));
        if (!l.v)
                return NULL;
        strmap_each(m, list_one, &l);
        qsort(l.v, l.n, sizeof(*l.v), cmp);
        *ret_n = l.n;
        return l.v;
}

void report_map_free(struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata)) {
        if (m)
                strmap_each(m, fn, NULL);
        strmap_free(m);
}
