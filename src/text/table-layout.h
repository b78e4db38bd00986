/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_TABLE_LAYOUT_H
#define KDMESG_TABLE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include <libsmartcols.h>

#include "text/columns.h"

/*
 * The column widths of --format=table, held from batch to batch.
 *
 * libsmartcols lays out each batch it prints on its own; the layout keeps
 * every column but the last at least as wide as it has been, so the
 * columns stay where they were.  Usage, per batch: table_layout_cell()
 * on each cell after its data is set; after printing,
 * table_layout_printed().  Before printing a batch under lines already out,
 * table_layout_widened() says whether it moves a column; if so,
 * table_layout_reheading() widens the heading to fit it.
 */
struct table_layout;

/* Create the columns of tb for cols, fitted to the terminal (or COLUMNS). */
struct table_layout *table_layout_new(struct libscols_table *tb, const struct columns *cols);
void table_layout_free(struct table_layout *lo);

/* The libsmartcols column for column i. */
struct libscols_column *table_layout_column(const struct table_layout *lo, size_t i);

/* Fit cell i of ln, just set: cut or widen it on a terminal, pad it when empty. */
int table_layout_cell(struct table_layout *lo, struct libscols_line *ln, size_t i);

/* Whether the batch just laid out widened a column that lines already printed have. */
bool table_layout_widened(const struct table_layout *lo);

/* Hold the widths of the batch just laid out and pad the headings to them. */
int table_layout_reheading(struct table_layout *lo);

/* The batch just laid out is printed: hold its widths. */
void table_layout_printed(struct table_layout *lo);

/* The heading alone was printed: the lines that follow must fit it. */
void table_layout_heading_printed(struct table_layout *lo);

/*
 * For a table laid out without libsmartcols (table-plain.c): the width
 * fitted to (0: none), the width column i holds, the width it has in the
 * lines printed; hold w for column i; lines (or, with heading, a heading
 * alone) were printed with column i w wide.
 */
size_t table_layout_termwidth(const struct table_layout *lo);
size_t table_layout_width(const struct table_layout *lo, size_t i);
size_t table_layout_shown(const struct table_layout *lo, size_t i);
void table_layout_hold(struct table_layout *lo, size_t i, size_t w);
void table_layout_show(struct table_layout *lo, size_t i, size_t w, bool heading);

#endif
