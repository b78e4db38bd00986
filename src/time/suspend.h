/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SUSPEND_H
#define KDMESG_SUSPEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libkmsg.h"

/*
 * Wall-clock times across suspends.  The kernel's time stamps stop while
 * the machine sleeps, so each stretch of the log between two resumes needs
 * its own offset to the wall clock: the time slept before it.  The log
 * shows where the machine suspended ("PM: suspend entry", "PM: hibernation
 * entry") and resumed (the first resume-side record after it: "ACPI: PM:
 * Low-level resume complete", "PM: resume from suspend-to-idle",
 * "Timekeeping suspended for N seconds", "Enabling non-boot CPUs", "PM:
 * suspend exit", ...), and sometimes how long it slept (the "Suspended for
 * N seconds" lines of pm_debug_messages).  Only kernel records (facility 0)
 * count: userspace cannot write them.
 *
 * For the live log the clocks also give the total time slept since boot
 * (CLOCK_BOOTTIME - CLOCK_MONOTONIC): the ring is read once before the log
 * is shown (suspends_prescan()), and every stretch gets the exact offset
 * where the durations it depends on are known (the ring goes back to seq 0
 * and every earlier sleep's duration is known or is the only unknown one,
 * or every later sleep's duration is known), else the least upper bound,
 * which is never further off than util-linux's single offset (the total).
 * For a dump only the logged durations count, summed as the log goes.
 */
struct suspends;

/*
 * A tracker.  total_usec is the time slept since boot (live), or -1 when
 * not known (dumps); total_now (live, may be NULL) reads it again, for a
 * sleep while following.  Returns NULL without memory.
 */
struct suspends *suspends_new(int64_t total_usec, int64_t (*total_now)(void));
struct suspends *suspends_free(struct suspends *s);
/*
 * Read the ring once (the reader must be at its oldest record) and work out
 * the offset of each stretch.  Returns 0 or -errno of the reader.
 */
int suspends_prescan(struct suspends *s, struct kmsg_reader *rd);
/* Feed a record, in the order of the log: moves to the next stretch at a resume. */
void suspends_feed(struct suspends *s, const struct kmsg_record *r);
/* The same for a caller that holds the record's view. */
void suspends_feed_view(struct suspends *s, const struct kmsg_record_view *v);
/* A new boot starts (a dump of several): nothing slept yet. */
void suspends_new_boot(struct suspends *s);
/* The offset of the stretch the last record fed lies in, µs (0 before any). */
int64_t suspends_offset(const struct suspends *s);

/* For tests: whether the message marks a suspend (1), a resume (2) or neither (0). */
int suspends_classify(const char *msg, size_t len, int64_t *ret_duration_usec);

#endif
