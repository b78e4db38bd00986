/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PROBLEM_SELECT_H
#define KDMESG_PROBLEM_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "libkmsg.h"
#include "select/problems.h"

/* What the run learned of the classification: the --problems report's verdict rests on it. */
struct problem_tally {
        uint64_t seen;    /* records classified */
        uint64_t found;   /* problems (first records) seen in the selected kinds */
        uint64_t unread;  /* records (lines) of the input that could not be read */
        uint64_t unchecked; /* records the rules could not be matched on (the regex engine failed) */
        bool unread_rest; /* reading failed: the rest of the input was not read */
};

/* The classification of the records that pass every other filter (--problems, --problem, --fail-on-problem). */
struct problem_select {
        struct problems *rules; /* the rules (problems.h) */
        uint32_t kinds;         /* --problem KIND...: a bit per kind; 0: every record */
        struct problem_tally tally;
};

/*
 * Classify a record that passed every other filter into *ret (kind
 * PROBLEM_NONE for none, or when classifying failed); whether it is shown
 * (always without --problem).
 */
bool problem_select(struct problem_select *ps, const struct kmsg_record *r, struct problem_hit *ret);

#endif
