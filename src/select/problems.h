/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PROBLEMS_H
#define KDMESG_PROBLEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libkmsg.h"

/*
 * Known problems: rules (select/rules.c; the format is in
 * data/problems.rules and kdmesg-problems(5)), built in or read from files
 * (select/rules-load.c), sort records into kinds, and the records of one
 * multi-line report (an oops with its registers, call trace and "Modules
 * linked in:") into one problem with a subject (select/problems.c).
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
        PROBLEM_LOCKDEP,
        PROBLEM_MEMORY_LEAK,
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
/* The rules built into kdmesg (data/problems.rules at build time), named "<built-in>". */
int problems_load_builtin(struct problems *p);
/* What the last failed load found wrong. */
const char *problems_error(const struct problems *p);
/* How many rules are loaded. */
size_t problems_count(const struct problems *p);

/* Where rule i (in the order they are tried) came from. */
struct problem_rule_info {
        const char *source; /* the file, or "<built-in>" */
        unsigned line;
        const char *text;   /* the rule as written, without leading blanks */
};
/* 0 and *ret for rule i; -ENOENT past the last. */
int problems_rule_info(const struct problems *p, size_t i, struct problem_rule_info *ret);

/*
 * The rules kdmesg uses: the drop-ins, files whose names end in ".rules" in
 * /etc/kdmesg/problems.d and /usr/share/kdmesg/problems.d (a list separated
 * by ':', KDMESG_PROBLEMS_DIR replaces it), in name order, a name in an
 * earlier directory hiding it in later ones; then the shipped rules: the
 * file /usr/share/kdmesg/problems.rules where it exists, otherwise those
 * built in (KDMESG_PROBLEMS_RULES names another file to use instead; set
 * and empty: the built-in ones).  A missing directory is no error; a
 * missing file that KDMESG_PROBLEMS_RULES names is.  Returns 0 or -errno
 * with problems_error() set.
 */
int problems_load_default(struct problems *p);

/* What problems_classify() found for one record. */
struct problem_hit {
        int kind;        /* enum problem_kind, or PROBLEM_NONE */
        bool opens;      /* the first record of a problem (a report's other records: false) */
        /*
         * opens, retitled: the subject may still change: a later record of
         * the report can retitle it or name its culprit frame (a report that
         * waits for it groups it then, or at its end: problems_classify() of
         * the next record that is not its part).
         */
        bool provisional;
        bool retitled;   /* a record of the report that changed or settled its subject (in subject) */
        const char *subject; /* opens, retitled: the subject, "" when the rule gives none; valid until the next call */
        const char *devname; /* opens: the device named by the text, or NULL */
};

/*
 * Classify the next record, in input order.  A record that continues the
 * report still open gets that report's kind: a report runs from the record
 * that opens it up to the one a "part end" rule matches, or up to the first
 * record that starts something else (a "stop" rule matches it, or it opens
 * another problem, or it comes from user space, or it is stamped more than
 * two seconds after the report's last record or before it: console lines
 * of several CPUs are stamped out of order by less).  Returns 0 or
 * -ENOMEM.
 */
int problems_classify(struct problems *p, const struct kmsg_record *r, struct problem_hit *ret);
/* Forget the open report (a loss or a new source in between). */
void problems_break(struct problems *p);
/* Whether a report is open: the next record may still belong to it. */
bool problems_report_open(const struct problems *p);

#endif
