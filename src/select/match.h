/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_MATCH_H
#define KDMESG_MATCH_H

#include "select/problems.h"

/* Which rule of the device filter selected a record. */
enum devmatch {
        DEVMATCH_NONE = 0,
        DEVMATCH_DICT, /* by its dictionary */
        DEVMATCH_TEXT, /* inferred from the message text (--device-text) */
};

/*
 * What the selection found for one record, computed once by the run loop
 * (pipeline/run.c) and handed to the sink with the record: what the device
 * filter found (devfilter_match(); all zero: nothing) and the problem the
 * record belongs to (problem_select(); kind PROBLEM_NONE when records are
 * not classified).
 */
struct match {
        enum devmatch how;
        const char *name;      /* DEVMATCH_TEXT: the name found in its text */
        const char *device;    /* DEVMATCH_TEXT: that device's DEVICE value */
        const char *subsystem; /* DEVMATCH_TEXT: and its subsystem, or NULL */
        struct problem_hit problem;
        /* The record's fields (kmsg_record_get_view()), where the pipeline took them already; else NULL. */
        const struct kmsg_record_view *view;
};

#endif
