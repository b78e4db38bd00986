/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_FILTER_H
#define KDMESG_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "libkmsg.h"

/*
 * Which records are shown: --level, --facility, --kernel, --userspace,
 * --since, --until, --grep and --seq.  Every condition that is set must
 * hold.
 */
struct filter {
        bool active; /* any condition set */

        bool have_levels;
        uint8_t levels; /* bit per level 0..7 */

        bool have_facilities;
        uint32_t facilities[256 / 32]; /* bit per facility 0..255 */

        bool have_since, have_until;
        int64_t since_usec, until_usec; /* monotonic µs since boot, or wall clock (below) */
        /* Set: since_usec/until_usec are wall-clock µs, compared with timefmt_wall() of the record. */
        const struct timefmt *since_wall, *until_wall;

        bool have_grep;
        regex_t grep;

        bool have_seq;
        uint64_t seq_from, seq_to;
        bool seq_warned; /* said once that a source has no sequence numbers */

        char error[320]; /* what the last failed filter_parse_*()/filter_set_grep() found wrong */
};

/*
 * The parsers below print nothing: on failure they return -EINVAL (or
 * -ENOMEM) and f->error says what was wrong, for the caller to print.
 */
/* "err,warn", "3", "err+" (err and more severe), "+err" (err and less severe). */
int filter_parse_levels(struct filter *f, const char *list);
/* "kern,daemon", "0", numbers up to 255. */
int filter_parse_facilities(struct filter *f, const char *list);
/* -k: the kernel facility; -u: every other facility. */
void filter_add_kernel(struct filter *f);
void filter_add_userspace(struct filter *f);
/* POSIX extended regular expression on the decoded message. */
int filter_set_grep(struct filter *f, const char *regex);
/* "FROM-TO", "FROM-", "-TO" or "N". */
int filter_parse_seq(struct filter *f, const char *range);
/* Monotonic bounds in µs since boot (inclusive). */
void filter_set_since(struct filter *f, int64_t usec);
void filter_set_until(struct filter *f, int64_t usec);
/*
 * Wall-clock bounds, µs since the epoch (inclusive): each record's own
 * wall-clock time is compared, with the time slept before it (timefmt_wall()).
 */
void filter_set_since_wall(struct filter *f, int64_t usec, const struct timefmt *t);
void filter_set_until_wall(struct filter *f, int64_t usec, const struct timefmt *t);

/*
 * Whether the record lies in the time and sequence window (--since,
 * --until, --seq).  Lost-message reports are shown only inside it.
 */
bool filter_in_window(const struct filter *f, const struct kmsg_record *r);
/* Whether the record carries a time --since and --until can compare. */
bool filter_has_time(const struct filter *f, const struct kmsg_record *r);
/* Whether the record is shown: inside the window and matching the rest. */
bool filter_match(struct filter *f, const struct kmsg_record *r);

void filter_done(struct filter *f);

#endif
