/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_TABLE_PLAIN_H
#define KDMESG_TABLE_PLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "text/columns.h"
#include "text/table-layout.h"

/*
 * A batch of table rows laid out and printed by kdmesg itself, for a table
 * that is fitted to no width (standard output no terminal, no COLUMNS):
 * then libsmartcols would only pad each cell to its column's width, at a
 * cost of about 4 µs a row as it measures every character of every cell
 * with mbrtowc() and wcwidth().  The lines are those libsmartcols prints
 * (the tests compare both): every column but the last padded to its width
 * (right-aligned ones on the left), one space between columns, the last
 * column unpadded.  The widths hold from batch to batch as table-layout.c
 * holds them.
 *
 * Each row is laid out as it comes, in the widths of the batch so far,
 * into one buffer that is printed as it is when no later row of the batch
 * widened a column; when one did (rare: the widths only grow), the rows
 * are padded again from their cells' offsets.  Usage, per batch:
 * table_plain_add_row() for each row; then table_plain_lay_out(), the
 * heading if wanted, table_plain_print_rows().
 *
 * On a terminal the rows are kept the same way and printed fitted to it
 * (text/fit.h): key columns whole, the free-text ones (COLF_FREE) cut or
 * wrapped in what is left, the default columns left out while empty.
 */
struct table_plain;

/*
 * Fitted to a terminal termwidth columns wide (wrapping the free-text
 * columns when wrap), or for no width when termwidth is 0; colored: the
 * text cells' colors are used (table_plain_src's color).  NULL when out of
 * memory.
 */
struct table_plain *table_plain_new(const struct columns *cols, struct table_layout *lo, size_t termwidth, bool wrap,
                                    bool colored);
void table_plain_free(struct table_plain *p);

/* Whether kdmesg lays out this table itself: no width to fit, the last column left-aligned. */
bool table_plain_fits(const struct columns *cols, const struct table_layout *lo);

/* What a cell shows. */
enum table_plain_kind {
        TABLE_PLAIN_EMPTY = 0,
        TABLE_PLAIN_TEXT,    /* s[0..len) from the log, to be made safe (text_safe_into()) */
        TABLE_PLAIN_SAFE,    /* s[0..len), safe as it is, width columns wide (SIZE_MAX: measure it) */
        TABLE_PLAIN_U64,     /* v in decimal */
        TABLE_PLAIN_SECONDS, /* v µs as put_seconds() writes them, unpadded */
};

struct table_plain_src {
        enum table_plain_kind kind;
        const char *s;
        size_t len, width;
        uint64_t v;
        /*
         * TABLE_PLAIN_TEXT on a terminal: the escape sequence that starts
         * its color, fit.c prints it around the pieces (NULL: none; for no
         * width, a colored cell is TABLE_PLAIN_SAFE with its escapes).
         */
        const char *color;
};

/* A row: its cells, one a column.  Returns 0 or -ENOMEM. */
int table_plain_add_row(struct table_plain *p, const struct table_plain_src *src);
/* With colors on a terminal: the colors of the row just added (its text cells'), after table_plain_add_row(). */
void table_plain_color_row(struct table_plain *p, const struct table_plain_src *src);

/*
 * p[0..len) made safe for a cell (text_safe_into()) into d, which has room
 * for len * 4 + 1 bytes; returns the length.  *ascii is cleared when the
 * result is not ASCII only (and so must be measured), else left.
 */
size_t table_plain_safe_into(char *d, const char *s, size_t len, bool *ascii);

/* The widths of the batch; whether they move a column of the lines already printed. */
bool table_plain_lay_out(struct table_plain *p);
/* The heading line in the widths laid out; the lines after it must fit it. */
void table_plain_print_heading(struct table_plain *p);
/* The rows, then forget them; the widths hold for the next batch. */
void table_plain_print_rows(struct table_plain *p);
/* On a terminal: the columns left out to fit it, said in one line (fit_say_spared()); else nothing. */
void table_plain_say_spared(const struct table_plain *p, const char *hint);

#endif
