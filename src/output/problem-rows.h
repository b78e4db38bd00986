/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PROBLEM_ROWS_H
#define KDMESG_PROBLEM_ROWS_H

#include <stddef.h>

#include "libkmsg.h"
#include "output/sink.h"

/*
 * --problem N (output/problem-rows.c): the records of every problem, held
 * until the end, when the rows of --problems are known, and printed for
 * the problems of one row in the default view, report after report.
 * Memory grows with the records of problems (not with the others).
 */
struct problem_rows;

struct problem_rows *problem_rows_new(void);
struct problem_rows *problem_rows_free(struct problem_rows *pr);
/* A problem opens: *ret_index is its number (from 0, in input order).  0 or -ENOMEM. */
int problem_rows_open(struct problem_rows *pr, size_t *ret_index);
/* Problem index was counted in the group group (the sink's, compared only). */
void problem_rows_set_group(struct problem_rows *pr, size_t index, const void *group);
/* Hold r, a record of the problem opened last.  0 or -ENOMEM. */
int problem_rows_hold(struct problem_rows *pr, const struct kmsg_record *r);
/*
 * Print the records of the problems of group in the default view (with
 * settings), "-- report 2 of 3 --" between two reports.  0 or -errno.
 */
int problem_rows_print(struct problem_rows *pr, const void *group, const struct output_settings *settings);

#endif
