/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PROBLEMS_H
#define KDMESG_PROBLEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libkmsg.h"

/*
 * Known problems: rules read from files (problems-rules.c: the format is in
 * data/problems.rules and kdmesg(1)) sort records into kinds, and the
 * records of one multi-line report (an oops with its call trace and
 * "Modules linked in:") into one problem with a subject.
 */

/* The kinds, worst first: the order of the --problems report. */
enum problem_kind {
        PROBLEM_PANIC = 0,
        PROBLEM_OOPS,
        PROBLEM_HARD_LOCKUP,
        PROBLEM_SOFT_LOCKUP,
        PROBLEM_RCU_STALL,
        PROBLEM_HUNG_TASK,
        PROBLEM_MCE,
        PROBLEM_OOM_KILL,
        PROBLEM_FS_ERROR,
        PROBLEM_IO_ERROR,
        PROBLEM_THERMAL,
        PROBLEM_SEGFAULT,
        PROBLEM_WARNING,
        PROBLEM_LINK_DOWN,
        _PROBLEM_MAX,
        PROBLEM_NONE = -1,
};

/* "oom-kill", ...: the names of the interface (--problem, JSON); NULL out of range. */
const char *problem_kind_name(int kind);
/* The kind called name, or -EINVAL. */
int problem_kind_from_name(const char *name);

struct problems;

/* A new, empty rule set; NULL when out of memory. */
struct problems *problems_new(void);
struct problems *problems_free(struct problems *p);

/*
 * Read the rules of one file, after the ones already read (the first rule
 * that matches decides).  Returns 0, -errno when the file cannot be read,
 * or -EINVAL for a bad rule; p->error then says what, as "FILE:LINE: what".
 */
int problems_load_file(struct problems *p, const char *path);
/* The same for rules in a buffer, named name in errors (tests). */
int problems_load_buffer(struct problems *p, const char *name, const char *text, size_t len);
/* What the last failed load found wrong. */
const char *problems_error(const struct problems *p);
/* How many rules are loaded. */
size_t problems_count(const struct problems *p);

/*
 * The rules kdmesg uses: the files of dir (default /etc/kdmesg/problems.d,
 * KDMESG_PROBLEMS_DIR replaces it) whose names end in ".rules", in name
 * order, then the shipped file (default /usr/share/kdmesg/problems.rules,
 * KDMESG_PROBLEMS_RULES replaces it).  A missing directory is no error; a
 * missing shipped file is.  Returns 0 or -errno with problems_error() set.
 */
int problems_load_default(struct problems *p);

/* What problems_classify() found for one record. */
struct problem_hit {
        int kind;        /* enum problem_kind, or PROBLEM_NONE */
        bool opens;      /* the first record of a problem (a report's other records: false) */
        const char *subject; /* opens: the subject, "" when the rule gives none; valid until the next call */
        const char *devname; /* opens: the device named by the text, or NULL */
};

/*
 * Classify the next record, in input order.  A record that continues the
 * report still open (a "part" rule) gets that report's kind.  Returns 0 or
 * -ENOMEM.
 */
int problems_classify(struct problems *p, const struct kmsg_record *r, struct problem_hit *ret);
/* Forget the open report (a loss or a new source in between). */
void problems_break(struct problems *p);

/* How --timeline draws: block characters, or ASCII (auto: blocks on a UTF-8 terminal). */
enum timeline_chars { TIMELINE_AUTO = 0, TIMELINE_UTF8, TIMELINE_ASCII };

/* The settings of --problems, --problem, --fail-on-problem and --timeline (problem-options.c). */
struct problem_options {
        bool report;          /* --problems */
        bool timeline;        /* --timeline: the picture (report-timeline.c) */
        enum timeline_chars chars;
        bool pstore;          /* --pstore[=N]: read a crash dump (pstore-read.c) */
        unsigned pstore_pick; /* N, 1 the newest; 0: the newest */
        bool list;            /* --list: with --pstore, the dumps */
        uint32_t select;      /* --problem KIND...: bit per kind; 0: all records */
        bool fail;            /* --fail-on-problem */
        struct problems *rules; /* loaded by problem_options_setup() when any of these is set */
        uint64_t found;       /* problems (first records) seen in the selected kinds */
        struct problem_hit last; /* the classification of the record just selected */
};

enum {
        PROBOPT_PROBLEMS = 0x500,
        PROBOPT_PROBLEM,
        PROBOPT_FAIL,
        PROBOPT_TIMELINE,
        PROBOPT_PSTORE,
        PROBOPT_LIST,
};

#define PROBLEM_LONGOPTS                                                   \
        { "problems", no_argument, NULL, PROBOPT_PROBLEMS },                \
        { "problem", required_argument, NULL, PROBOPT_PROBLEM },            \
        { "fail-on-problem", no_argument, NULL, PROBOPT_FAIL },             \
        { "timeline", optional_argument, NULL, PROBOPT_TIMELINE },          \
        { "pstore", optional_argument, NULL, PROBOPT_PSTORE },              \
        { "list", no_argument, NULL, PROBOPT_LIST }

#define PROBOPT_FIRST PROBOPT_PROBLEMS
#define PROBOPT_LAST PROBOPT_LIST

#define EXIT_PROBLEM 4

/* Take one option; returns 0, or -EINVAL for an unknown kind (error in buf). */
int problem_options_add(struct problem_options *po, int opt, const char *arg, char *err, size_t size);
/* The --help section "Problems:" (with --timeline); the --pstore lines for the Input section. */
const char *problem_options_help_input(void);
const char *problem_options_help(void);
/* Whether records are classified at all. */
bool problem_options_active(const struct problem_options *po);
/* Load the rules when needed; 0, or -errno after printing the error. */
int problem_options_setup(struct problem_options *po);
/*
 * Classify a record that passed every other filter; whether it is shown
 * (always without --problem).  *ret gets the classification.
 */
bool problem_options_select(struct problem_options *po, const struct kmsg_record *r, struct problem_hit *ret);
void problem_options_done(struct problem_options *po);

#endif
