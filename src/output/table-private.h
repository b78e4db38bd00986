/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_TABLE_PRIVATE_H
#define KDMESG_TABLE_PRIVATE_H

/*
 * --format=table's state, shared by the sink's rows (table.c: the cells
 * of each record) and their printing (table-print.c: batches, headings,
 * marks) only.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libsmartcols.h>

#include "text/color.h"
#include "output/sink.h"
#include "text/table-layout.h"
#include "text/table-plain.h"


/* A line of its own: a loss, or the start of boot n (loss NULL). */
struct mark {
        struct kmsg_loss *loss;
        uint64_t boot;
};

struct cell_buf {
        char *p;
        size_t cap;
};

struct table_sink {
        struct sink s;
        struct libscols_table *tb;
        struct table_layout *layout;
        struct table_plain *plain; /* laid out here, not by libsmartcols (table-plain.h); else NULL */
        struct timefmt time; /* a copy: reltime and delta keep state */
        size_t n_lines;   /* lines in the current batch */
        bool printed;     /* the heading is out */
        struct mark *held; /* marks before the first record (loss copies): they follow the heading */
        size_t n_held;
        struct cell_buf *bufs; /* a buffer a column, for the text made here */
        struct table_plain_src *src; /* laid out here: the cells of the row being filled */
        const char *level_name[8]; /* the levels' names and their lengths, in their colors when on */
        size_t level_len[8], level_width[8];
        char level_colored[8][COLOR_SEQ_MAX + 16];
};

/* Print the lines collected so far and forget them (table-print.c).  Returns 0 or a negative errno. */
int table_flush_batch(struct table_sink *t);
/* The sink's loss(), boot() and finish() (table-print.c). */
int table_loss(struct sink *s, const struct kmsg_loss *l);
int table_boot(struct sink *s, uint64_t n, const struct kmsg_record *r);
int table_finish(struct sink *s);

#endif
