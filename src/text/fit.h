/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_FIT_H
#define KDMESG_FIT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Rows of columns laid out for the terminal they are printed on, as lsblk
 * and findmnt lay theirs out: the reports and --format=table on a terminal
 * (standard output a pipe or a file keeps its whole lines: fit.c is not
 * used there).
 *
 * Key columns are as wide as their widest cell (and their heading), never
 * wrapped and never cut.  The free-text columns (FIT_FREE: a message, a
 * problem's subject) share what the terminal has left: each as wide as its
 * widest cell while that fits, else an even share of the rest, at least a
 * column (its heading is then cut too).  A cell wider than its column is
 * cut and ends in an ellipsis ("…", "..." when the locale is not UTF-8)
 * or, when wrap is set, goes on in lines of its own, broken at spaces.
 * When the key columns alone are wider than the terminal, so is the line:
 * they are never cut.  A FIT_OPTIONAL column that is empty in every row
 * is left out (a column the user asked for never is).  When the free text
 * would get fewer than FIT_FREE_MIN columns each, the spare columns (a
 * rank in spare: 1 goes first) are left out one by one until it gets them
 * or none is left: a narrow terminal shows fewer key columns, whole, and
 * a message that can be read.  A free column with a min keeps up to min
 * columns whole: it needs that much, not FIT_FREE_MIN, and short of room
 * it gets it before the other free columns share the rest; a free column
 * with a spare rank is left out too, in its turn (never the last one).  One space between columns; the last one is
 * not padded.
 *
 * The widths hold: a column never narrows, so a table printed in batches
 * keeps its columns where they were; fit_lay_out() says when a batch moves
 * them (the table then prints the heading again).  Usage: fit_measure()
 * each cell of a batch, fit_lay_out(), fit_print_heading() if wanted,
 * fit_print_row() for each row.
 */
#define FIT_RIGHT 1u    /* right-aligned */
#define FIT_FREE 2u     /* free text: takes what is left, cut or wrapped */
#define FIT_OPTIONAL 4u /* left out while empty in every row */
/* The columns of free text each a spare column is left out for. */
#define FIT_FREE_MIN 24

struct fit_column {
        const char *heading; /* safe text */
        unsigned flags;      /* FIT_* */
        /*
         * A key column shown is at least this wide (a table's first batch
         * rarely widens it); a free one keeps up to this many columns whole.
         */
        size_t min;
        unsigned spare;      /* 0: always shown; else left out on a narrow terminal, rank 1 first */
};

/*
 * A cell: safe text (text_safe_into()) s[0..len), width columns wide on the
 * screen; color, when not NULL, the escape sequence that starts each piece
 * printed of it (a reset ends it; the ellipsis of a cut is inside).
 */
struct fit_cell {
        const char *s;
        size_t len, width;
        const char *color;
};

struct fit;

/*
 * n columns (cols is used, not copied) fitted to termwidth; free columns
 * wrapped when wrap, else cut.  NULL when out of memory.
 */
struct fit *fit_new(const struct fit_column *cols, size_t n, size_t termwidth, bool wrap);
struct fit *fit_free(struct fit *f);

/* Cell i of a row is width columns wide (0: empty); call it for every cell of a row, then fit_row_done(). */
void fit_measure(struct fit *f, size_t i, size_t width);
void fit_row_done(struct fit *f);

/*
 * The widths for the rows measured so far.  Returns whether they move a
 * column of the lines already printed (a column appeared or widened).
 */
bool fit_lay_out(struct fit *f);

/* The width column i was laid out with; 0: it is left out. */
size_t fit_width(const struct fit *f, size_t i);
/*
 * The spare columns left out to fit the terminal in the layouts so far
 * (not those left out while empty: they hide nothing), said once under
 * the table or report, as the columns change with the width: "-- Not
 * shown at 80 columns: DEVICE (hint) --", without the hint where the line
 * would not fit the terminal.  Nothing when none was.
 */
void fit_say_spared(const struct fit *f, const char *hint);

/* The heading line; a row, cells[] one per column, in as many lines as wrapping takes. */
void fit_print_heading(struct fit *f);
void fit_print_row(struct fit *f, const struct fit_cell *cells);

#endif
