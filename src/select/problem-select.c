/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --problem and the classification of each record the other filters let through (problem-select.h). */
#include "select/problem-select.h"

bool problem_select(struct problem_select *ps, const struct kmsg_record *r, struct problem_hit *ret) {
        ps->tally.seen++;
        if (problems_classify(ps->rules, r, ret) < 0)
                ret->kind = PROBLEM_NONE;
        if (ps->kinds && (ret->kind == PROBLEM_NONE || !(ps->kinds & (1u << ret->kind))))
                return false;
        if (ret->kind != PROBLEM_NONE && ret->opens)
                ps->tally.found++;
        return true;
}
