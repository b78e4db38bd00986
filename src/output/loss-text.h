/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_LOSS_TEXT_H
#define KDMESG_LOSS_TEXT_H

#include <stddef.h>

#include "libkmsg.h"

struct timefmt;

/*
 * The text that marks a loss in the text views:
 * "-- 23 messages lost (seq 1200-1222, between 12.345678 and 12.400001, gap) --",
 * its times in the view's time format t (timefmt_point(); NULL: seconds
 * since boot).  Returns the length it needs, as snprintf().
 */
int loss_describe(const struct kmsg_loss *l, const struct timefmt *t, char *buf, size_t size);
/* Write that text (colored as COLOR_LOSS when colors are on) and a newline to standard output. */
void out_loss_line(const struct kmsg_loss *l, const struct timefmt *t);
/* Write it to standard error ("kdmesg: ...", warnx_()), for formats whose stdout must stay parseable. */
void err_loss_line(const struct kmsg_loss *l, const struct timefmt *t);

/* The mark of a new boot, "-- boot 2 --", into buf (snprintf's return). */
int boot_describe(uint64_t n, char *buf, size_t size);
/* That mark as loss lines are: on standard output or on stderr. */
void out_boot_line(uint64_t n);
void err_boot_line(uint64_t n);

#endif
