/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_TABLE_PLAIN_H
#define KDMESG_TABLE_PLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "table-layout.h"

/*
 * A batch of table rows laid out and printed by kdmesg itself, for a table
 * that is fitted to no width (standard output no terminal, no COLUMNS):
 * then libsmartcols would only pad each cell to its column's width, at a
 * cost of about 4 µs a row as it measures every character of every cell
 * with mbrtowc() and wcwidth().  The lines are those libsmartcols prints
 * (the tests compare both): every column but the last padded to its width
 * (right-aligned ones on the left), one space between columns, the last
 * column unpadded.  The widths hold from batch to batch as table-layout.c
 * holds them.  Usage, per batch: table_plain_row(), table_plain_set() for
 * its cells; then table_plain_lay_out(), the heading if wanted,
 * table_plain_print_rows().
 */
struct table_plain;

/* NULL when out of memory. */
struct table_plain *table_plain_new(const struct columns *cols, struct table_layout *lo);
void table_plain_free(struct table_plain *p);

/* Whether kdmesg lays out this table itself: no width to fit, the last column left-aligned. */
bool table_plain_fits(const struct columns *cols, const struct table_layout *lo);

/* Start a new row, its cells empty. */
int table_plain_row(struct table_plain *p);
/* Cell col of the last row: a copy of s[0..len), text already made safe. */
int table_plain_set(struct table_plain *p, size_t col, const char *s, size_t len);
/*
 * Room for a cell of at most max bytes, to be written in place and then
 * given to table_plain_commit() with its length; NULL when out of memory.
 */
char *table_plain_reserve(struct table_plain *p, size_t max);
void table_plain_commit(struct table_plain *p, size_t col, size_t len);
size_t table_plain_rows(const struct table_plain *p);

/* The widths of the batch; whether they move a column of the lines already printed. */
bool table_plain_lay_out(struct table_plain *p);
/* The heading line in the widths laid out; the lines after it must fit it. */
void table_plain_print_heading(struct table_plain *p);
/* The rows, then forget them; the widths hold for the next batch. */
void table_plain_print_rows(struct table_plain *p);

#endif
