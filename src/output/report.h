/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_REPORT_H
#define KDMESG_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>
#include <libsmartcols.h>

#include "base/strmap.h"

/*
 * What the reports (report-*.c) share: a table of their columns printed
 * with libsmartcols (table_print_free() prints it), or JSON Lines, one
 * object a line; and the groups they count in a struct strmap, listed in
 * their order at the end.
 */

/* One column of a report's table. */
struct report_column {
        const char *name;
        double width; /* libsmartcols' width hint (a fraction of the terminal), 0: none */
        int flags;    /* SCOLS_FL_* */
        int json;     /* SCOLS_JSON_*, for a table that is printed as JSON (0: a string) */
};

/*
 * A table with the n columns of cols, those whose bit is set in hidden
 * hidden, without headings when noheadings.  Its cells are made safe
 * (text_safe_dup()) before they go in: libsmartcols escapes nothing again.
 * NULL when out of memory.
 */
struct libscols_table *report_table_new(const struct report_column *cols, size_t n, unsigned long hidden,
                                        bool noheadings);
/* o as one line of JSON Lines; o is put.  0, or -ENOMEM (also for o NULL: its constructor failed). */
int report_json_line(struct json_object *o);
/*
 * The entries of m in an array sorted by cmp (qsort()'s, on pointers to the
 * entries), with room for extra more after them; *ret_n gets their number.
 * NULL when out of memory.  Free the array, not the entries.
 */
struct strmap_node **report_sorted(const struct strmap *m, size_t extra, int (*cmp)(const void *, const void *),
                                   size_t *ret_n);
/* Free every entry of m with fn, then m (NULL is fine). */
void report_map_free(struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata));

#endif
