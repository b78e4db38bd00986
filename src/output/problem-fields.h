/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PROBLEM_FIELDS_H
#define KDMESG_PROBLEM_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "select/problems.h"

/*
 * What export and json write of a record's problem, when records are
 * classified (output_settings.problem_fields): every record of a problem
 * names its kind (KDMESG_PROBLEM=oops, "problem":"oops") and its subject
 * as known at that record (KDMESG_PROBLEM_SUBJECT, "problem_subject"; none
 * when the rule gives none); its first record says so
 * (KDMESG_PROBLEM_START=1, "problem_start":true).  A later record of a
 * multi-line report can give the report its subject: the records from it
 * on carry that one.
 */
struct problem_fields {
        char *subject; /* the subject of the problem the last record belonged to */
        size_t len, cap;
        bool failed;   /* out of memory: no subject until the next problem */
};

/* What to write for a record with hit h: its kind's name, or NULL; *subject ("" for none), *start. */
const char *problem_fields_of(struct problem_fields *pf, const struct problem_hit *h, const char **subject,
                              size_t *subject_len, bool *start);
void problem_fields_free(struct problem_fields *pf);

#endif
