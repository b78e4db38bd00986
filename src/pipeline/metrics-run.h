/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_METRICS_RUN_H
#define KDMESG_METRICS_RUN_H

/*
 * --metrics in the run (output/metrics.h): each record and loss counted,
 * the file written at the end and, following, every interval: between
 * records (the clock read once in 256) and while waiting for them.
 */
#include "libkmsg.h"
#include "pipeline/run.h"
#include "select/problems.h"

/* A record read, with its problem (kind PROBLEM_NONE: none); writes the file when it is due. */
void run_metrics_record(struct run *run, const struct kmsg_record *r, const struct problem_hit *hit);
/* Write the file now, with --upload's figures; 0 or -errno (said). */
int run_metrics_write(struct run *run);
/*
 * Following, before a wait: write the file if it is due.  The most
 * milliseconds to wait before calling again (poll()'s time-out), -1: no need.
 */
int run_metrics_idle(struct run *run);

#endif
