/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_LOSS_H
#define KDMESG_LOSS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "libkmsg.h"

#define LOSS_CAUSES (KMSG_LOSS_INTERRUPTED + 1)

/* Everything this run reported as lost, for the summary and the exit status. */
struct loss_stats {
        uint64_t events;
        uint64_t total;                 /* records known to be lost */
        uint64_t by_cause[LOSS_CAUSES]; /* records, per cause */
        bool unknown;                   /* a loss of unknown size (reboot tail) */
        bool unknown_parts;             /* one of them: missing parts of a pstore dump */
};

void loss_stats_add(struct loss_stats *s, const struct kmsg_loss *l);
/*
 * A loss of our own with the fields of l, for keeping one past the call that
 * got it (the tracker's live only until its next call).  0 or -ENOMEM.
 */
int loss_copy(const struct kmsg_loss *l, struct kmsg_loss **ret);
static inline bool loss_stats_any(const struct loss_stats *s) {
        return s->events > 0;
}
/*
 * The one-line summary for stderr into buf (size bytes, cut to fit):
 * "23 messages lost (20 overrun, 3 gap)", and " in 2 boots" when the input
 * held more than one.
 */
#define LOSS_SUMMARY_MAX 512
void loss_stats_describe(const struct loss_stats *s, uint64_t boots, char *buf, size_t size);

#endif
