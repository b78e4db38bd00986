/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Column widths for --format=table that hold from batch to batch.
 *
 * Each column keeps the widest width it has had (its width hint grows), so
 * a column never narrows; a batch with a wider value widens that column
 * from that batch on.  On a terminal, a column flagged COLF_TRUNC grows
 * past its width hint only while MESSAGE keeps msg_min columns; beyond
 * that its values are cut (here, not by libsmartcols, which would cut a
 * held column below its width in a later batch).
 *
 * scols_table_print_range() does not do this: it lays out every line the
 * table holds, so steady widths would need every line kept (memory and
 * layout time growing with the dump); with the printed lines removed it
 * lays out each batch on its own, as scols_print_table() does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/escape.h"
#include "text/writer.h"
#include "text/table-layout.h"
#include "text/util.h"

#define SPACES_MAX 255

struct table_layout {
        const struct columns *columns;
        struct libscols_column **cols;
        size_t n_cols;
        size_t *widths;   /* the width of each column so far */
        size_t *shown;    /* the width of each column in the lines printed so far */
        size_t termwidth; /* the width to fit, 0: none (not a terminal, no COLUMNS) */
        size_t msg_min;   /* the width kept for MESSAGE when cutting other columns */
        char spaces[SPACES_MAX + 1];
};

static inline size_t min_size(size_t a, size_t b) {
        return a < b ? a : b;
}

/*
 * libsmartcols 2.38 makes a column as wide as its widest cell, at least its
 * heading (measured once) and at least its width hint when it has data.
 * So, to hold the layout from batch to batch, the heading is padded to the
 * first width (with spaces before it for right-aligned columns), the hint
 * grows with the column, and an empty cell is filled with spaces.
 */
static int set_heading(struct table_layout *lo, size_t i) {
        const char *name = column_heading(&lo->columns->v[i]);
        size_t len = strlen(name), w = lo->widths[i];
        char *h;
        int e;

        if (w < len)
                w = len;
        h = malloc(w + 1);
        if (!h)
                return -ENOMEM;
        memset(h, ' ', w);
        h[w] = '\0';
        if (scols_column_is_right(lo->cols[i]))
                memcpy(h + w - len, name, len);
        else
                memcpy(h, name, len);
        e = scols_cell_refer_data(scols_column_get_header(lo->cols[i]), h);
        if (e < 0)
                free(h);
        return e;
}

bool table_layout_widened(const struct table_layout *lo) {
        size_t i;

        for (i = 0; i + 1 < lo->n_cols; i++)
                if (lo->shown[i] && scols_column_get_width(lo->cols[i]) > lo->shown[i])
                        return true;
        return false;
}

/*
 * Keep column i at least as wide as libsmartcols just laid it out, so the
 * layout holds from batch to batch; returns that width.
 */
static size_t hold_width(struct table_layout *lo, size_t i) {
        size_t w = scols_column_get_width(lo->cols[i]);

        if (w > lo->widths[i]) {
                lo->widths[i] = w;
                scols_column_set_whint(lo->cols[i], (double)w);
        }
        return w;
}

int table_layout_reheading(struct table_layout *lo) {
        size_t i;
        int e;

        for (i = 0; i + 1 < lo->n_cols; i++) {
                hold_width(lo, i);
                e = set_heading(lo, i);
                if (e < 0)
                        return e;
        }
        return 0;
}

void table_layout_printed(struct table_layout *lo) {
        size_t i;

        for (i = 0; i + 1 < lo->n_cols; i++) {
                size_t w = hold_width(lo, i);

                if (w > lo->shown[i])
                        lo->shown[i] = w;
        }
}

void table_layout_heading_printed(struct table_layout *lo) {
        size_t i;

        for (i = 0; i + 1 < lo->n_cols; i++)
                lo->shown[i] = scols_column_get_width(lo->cols[i]);
}

/*
 * On a terminal, keep a COLF_TRUNC column within what the terminal has
 * left: it widens for a wider value only while the fixed columns and
 * msg_min columns for MESSAGE fit, and a value wider than that is cut.
 */
static int fit_cell(struct table_layout *lo, struct libscols_line *ln, size_t i) {
        const struct columns *cols = lo->columns;
        struct libscols_cell *ce = scols_line_get_cell(ln, i);
        const char *d = ce ? scols_cell_get_data(ce) : NULL;
        size_t w, used, j, cut;
        char *c;
        int e;

        if (!d || !lo->termwidth)
                return 0;
        w = text_width(d, strlen(d), SIZE_MAX, NULL);
        if (w <= lo->widths[i])
                return 0;
        /*
         * Every column but the last one holds its width; the last one gets
         * what is left, at least its heading (also when MESSAGE is before it).
         */
        for (used = lo->msg_min + (cols->n - 1), j = 0; j + 1 < cols->n; j++)
                if (cols->v[j].id != COL_MESSAGE)
                        used += lo->widths[j];
        if (cols->v[cols->n - 1].id != COL_MESSAGE)
                used += strlen(column_heading(&cols->v[cols->n - 1]));
        if (used < lo->termwidth) {
                size_t grow = lo->termwidth - used;

                lo->widths[i] += grow < w - lo->widths[i] ? grow : w - lo->widths[i];
                scols_column_set_whint(lo->cols[i], (double)lo->widths[i]);
        }
        if (w <= lo->widths[i])
                return 0;
        text_width(d, strlen(d), lo->widths[i], &cut);
        c = strndup(d, cut);
        if (!c)
                return -ENOMEM;
        e = scols_line_refer_data(ln, i, c);
        if (e < 0)
                free(c);
        return e;
}

int table_layout_cell(struct table_layout *lo, struct libscols_line *ln, size_t i) {
        const struct columns *cols = lo->columns;
        struct libscols_cell *ce;
        int e;

        if (i + 1 >= cols->n)
                return 0;
        if (column_info[cols->v[i].id].flags & COLF_TRUNC) {
                e = fit_cell(lo, ln, i);
                if (e < 0)
                        return e;
        }
        ce = scols_line_get_cell(ln, i);
        if (lo->widths[i] > 0 && ce && !scols_cell_get_data(ce))
                return scols_line_set_data(ln, i, lo->spaces + SPACES_MAX - min_size(lo->widths[i], SPACES_MAX));
        return 0;
}

size_t table_layout_termwidth(const struct table_layout *lo) {
        return lo->termwidth;
}

size_t table_layout_width(const struct table_layout *lo, size_t i) {
        return lo->widths[i];
}

size_t table_layout_shown(const struct table_layout *lo, size_t i) {
        return lo->shown[i];
}

void table_layout_hold(struct table_layout *lo, size_t i, size_t w) {
        if (w > lo->widths[i]) {
                lo->widths[i] = w;
                scols_column_set_whint(lo->cols[i], (double)w);
        }
}

void table_layout_show(struct table_layout *lo, size_t i, size_t w, bool heading) {
        if (heading || w > lo->shown[i])
                lo->shown[i] = w;
}

struct libscols_column *table_layout_column(const struct table_layout *lo, size_t i) {
        return lo->cols[i];
}

static int flags_to_scols(unsigned f) {
        int fl = (f & COLF_RIGHT ? SCOLS_FL_RIGHT : 0) | (f & COLF_TRUNC ? SCOLS_FL_TRUNC : 0) |
                 (f & COLF_WRAP ? SCOLS_FL_WRAP : 0);

        return fl;
}

/*
 * The width libsmartcols fits the table to: the terminal's, else COLUMNS;
 * 0 when standard output is no terminal and COLUMNS is not set (no limit).
 */
static size_t table_termwidth(void) {
        size_t w = term_width();

        if (w > 0 && w < 100000)
                return w;
        return isatty(STDOUT_FILENO) || getenv("COLUMNS") ? 80 : 0;
}

void table_layout_free(struct table_layout *lo) {
        if (!lo)
                return;
        free(lo->cols);
        free(lo->widths);
        free(lo->shown);
        free(lo);
}

struct table_layout *table_layout_new(struct libscols_table *tb, const struct columns *cols) {
        struct table_layout *lo = calloc(1, sizeof(*lo));
        size_t i;

        if (!lo)
                return NULL;
        lo->columns = cols;
        memset(lo->spaces, ' ', SPACES_MAX);
        lo->cols = calloc(cols->n ? cols->n : 1, sizeof(*lo->cols));
        lo->widths = calloc(cols->n ? cols->n : 1, sizeof(*lo->widths));
        lo->shown = calloc(cols->n ? cols->n : 1, sizeof(*lo->shown));
        if (!lo->cols || !lo->widths || !lo->shown) {
                table_layout_free(lo);
                return NULL;
        }
        if (getenv("COLUMNS"))
                scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
        lo->termwidth = table_termwidth();
        if (lo->termwidth)
                scols_table_set_termwidth(tb, lo->termwidth);
        for (i = 0; i < cols->n; i++) {
                const struct column_info *ci = &column_info[cols->v[i].id];
                unsigned flags = ci->flags;

                if (cols->v[i].id == COL_MESSAGE && lo->termwidth) {
                        lo->msg_min = (size_t)(ci->whint * (double)lo->termwidth);
                        if (lo->msg_min < strlen(ci->name))
                                lo->msg_min = strlen(ci->name);
                }
                /* A held column is cut by fit_cell(), the last one by libsmartcols. */
                if (i + 1 < cols->n)
                        flags &= ~COLF_TRUNC;

                /* MESSAGE wraps wherever it is; the last column may be cut if all else fails. */
                if (i + 1 == cols->n && !(flags & (COLF_WRAP | COLF_TRUNC)))
                        flags |= COLF_TRUNC;
                lo->cols[i] = scols_table_new_column(tb, column_heading(&cols->v[i]),
                                                     i + 1 < cols->n || cols->v[i].id == COL_MESSAGE ? ci->whint : 0.1,
                                                     flags_to_scols(flags));
                if (!lo->cols[i]) {
                        table_layout_free(lo);
                        return NULL;
                }
                lo->n_cols = i + 1;
                if (i + 1 < cols->n) {
                        lo->widths[i] = ci->whint >= 1 ? (size_t)ci->whint : 0;
                        if (set_heading(lo, i) < 0) {
                                table_layout_free(lo);
                                return NULL;
                        }
                }
        }
        return lo;
}

int table_print_free(struct libscols_table *tb, int e) {
        char *str = NULL;

        if (e >= 0)
                e = scols_print_table_to_string(tb, &str);
        if (e >= 0 && str) {
                out_puts(str);
                out_putc('\n');
        }
        free(str);
        scols_unref_table(tb);
        return e < 0 ? e : 0;
}
