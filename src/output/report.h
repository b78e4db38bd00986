/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_REPORT_H
#define KDMESG_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>
#include <libsmartcols.h>

#include "base/strmap.h"
#include "output/sink.h"

/*
 * What the reports (report-*.c) share: a table of their columns printed
 * with libsmartcols (report_table_print() prints it), or JSON Lines, one
 * object a line; and the groups they count in a struct strmap, listed in
 * their order at the end.
 */

/* One column of a report's table. */
struct report_column {
        const char *name;
        double width; /* libsmartcols' width hint (a fraction of the terminal), 0: none */
        int flags;    /* SCOLS_FL_* */
        int json;     /* SCOLS_JSON_*, for a table that is printed as JSON (0: a string) */
        /*
         * Free text (a message, a subject): on a terminal it takes what
         * the other columns leave, cut or wrapped (text/fit.h); the other
         * columns are left out there while empty.
         */
        bool free;
        unsigned spare; /* on a narrow terminal, left out for the free text: rank 1 first (text/fit.h); 0 never */
        size_t keep;    /* free text: kept whole up to this many columns on a terminal (text/fit.h's min) */
};

/*
 * A table with the n columns of cols, those whose bit is set in hidden
 * hidden, without headings when noheadings.  Its cells are made safe
 * (text_safe_dup()) before they go in: libsmartcols escapes nothing again.
 * NULL when out of memory.
 */
struct libscols_table *report_table_new(const struct report_column *cols, size_t n, unsigned long hidden,
                                        bool noheadings);
/*
 * Print tb, made by report_table_new() with the n columns of cols, and
 * unref it; e < 0: filling it failed, print nothing and return e.  On a
 * terminal (s->termwidth) its lines are laid out for it by text/fit.h;
 * elsewhere libsmartcols prints them whole.  0, or -errno.
 */
int report_table_print(const struct sink *s, struct libscols_table *tb, const struct report_column *cols, size_t n,
                       int e);
/* o as one line of JSON Lines; o is put.  0, or -ENOMEM (also for o NULL: its constructor failed). */
int report_json_line(struct json_object *o);
/*
 * The entries of m in an array sorted by cmp (qsort()'s, on pointers to the
 * entries), with room for extra more after them; *ret_n gets their number.
 * NULL when out of memory.  Free the array, not the entries.
 */
struct strmap_node **report_sorted(const struct strmap *m, size_t extra, int (*cmp)(const void *, const void *),
                                   size_t *ret_n);
/*
 * The end of every report when inputs could not be opened or read through
 * (s->settings->unread): no verdict on them, in one line, "-- No verdict on
 * NAME: it could not be read --" (JSON Lines: {"unread_inputs":N}, or
 * nothing when json_done, the report having written its own last object).
 * Whether there were such inputs: a report prints no empty-result line then.
 */
bool report_unread_line(const struct sink *s, bool json_done);
/* How many inputs could not be opened or read through (s->settings->unread). */
unsigned report_unread_sources(const struct sink *s);
/* Free every entry of m with fn, then m (NULL is fine). */
void report_map_free(struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata));

#endif
