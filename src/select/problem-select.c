/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --problem and the classification of each record the other filters let through (problem-select.h). */
#include <regex.h>
#include <string.h>

#include "base/i18n.h"
#include "select/problem-select.h"
#include "select/rules.h"
#include "text/diag.h"

/*
 * The rules could not be matched on r (the regex engine failed, or memory
 * ran out): no verdict on it, said once; the report counts such records.
 */
static void unchecked(struct problem_select *ps, const struct kmsg_record *r, const char *why) {
        if (ps->tally.unchecked++ > 0)
                return;
        if (kmsg_record_has_seqnum(r))
                warnx_(_("the problem rules could not be matched on the record of seq %llu (%s): the report gives "
                         "no verdict on it"),
                       (unsigned long long)kmsg_record_get_seqnum(r), why);
        else
                warnx_(_("the problem rules could not be matched on a record (%s): the report gives no verdict on it"),
                       why);
}

bool problem_select(struct problem_select *ps, const struct kmsg_record *r, struct problem_hit *ret) {
        uint64_t errors = ps->rules->engine_errors;
        char why[160];
        int e;

        ps->tally.seen++;
        e = problems_classify(ps->rules, r, ret);
        if (e < 0) {
                ret->kind = PROBLEM_NONE;
                unchecked(ps, r, strerror(-e));
        } else if (ps->rules->engine_errors != errors) {
                regerror(ps->rules->engine_error, NULL, why, sizeof(why));
                unchecked(ps, r, why);
        }
        if (ps->kinds && (ret->kind == PROBLEM_NONE || !(ps->kinds & (1u << ret->kind))))
                return false;
        if (ret->kind != PROBLEM_NONE && ret->opens)
                ps->tally.found++;
        return true;
}
