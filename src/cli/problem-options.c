/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --problem KIND, --fail-on-problem, the rules: parsing; the classification: set-up, selection. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "cli/problem-options.h"
#include "text/util.h"
#include "text/writer.h"

const char *problem_options_help(void) {
        return _("     --problem <kind>        only the records of problems of this kind\n"
                 "     --problem <N>           only the records of row N of --problems\n"
                 "     --fail-on-problem       exit with status 4 when a problem was found\n"
                 "     --problem-rules <file>  only the rules of this file\n"
                 "     --list-problem-rules    list the rules, each with its file and line\n");
}

/* The one kind whose name starts with prefix ("oom" is oom-kill), or -EINVAL: none, or more than one. */
static int kind_by_prefix(const char *prefix) {
        size_t n = strlen(prefix);
        int i, found = -EINVAL;

        for (i = 0; n > 0 && i < _PROBLEM_MAX; i++)
                if (strncmp(problem_kind_name(i), prefix, n) == 0) {
                        if (found >= 0)
                                return -EINVAL;
                        found = i;
                }
        return found;
}

int problem_options_add(struct problem_options *po, int opt, const char *arg, char *err, size_t size) {
        int k;

        switch (opt) {
        case PROBOPT_FAIL:
                po->fail = true;
                return 0;
        case PROBOPT_RULES:
                po->rules_file = arg;
                return 0;
        case PROBOPT_LIST_RULES:
                po->list_rules = true;
                return 0;
        case PROBOPT_PROBLEM:
                if (arg[0] >= '0' && arg[0] <= '9') {
                        char *end;
                        unsigned long n;

                        errno = 0;
                        n = strtoul(arg, &end, 10);
                        if (*end || errno || n == 0) {
                                snprintf(err, size, _("--problem %s: a row of --problems is a number from 1"), arg);
                                return -EINVAL;
                        }
                        if (po->group && po->group != n) {
                                snprintf(err, size, _("--problem takes one row of --problems"));
                                return -EINVAL;
                        }
                        po->group = n;
                        return 0;
                }
                k = problem_kind_from_name(arg);
                if (k < 0)
                        k = kind_by_prefix(arg);
                if (k < 0) {
                        char list[300] = "";
                        int i;

                        for (i = 0; i < _PROBLEM_MAX; i++) {
                                if (i > 0)
                                        strcat(list, " ");
                                strcat(list, problem_kind_name(i));
                        }
                        snprintf(err, size, _("unknown problem kind '%s' (expected one of: %s)"), arg, list);
                        return -EINVAL;
                }
                po->sel.kinds |= 1u << k;
                return 0;
        default:
                return -EINVAL;
        }
}

bool problem_options_active(const struct problem_options *po) {
        return po->report || po->sel.kinds || po->fail || po->fields || po->counted || po->group;
}

static int load_rules(struct problem_options *po) {
        int e;

        po->sel.rules = problems_new();
        if (!po->sel.rules) {
                warnx_("%s", strerror(ENOMEM));
                return -ENOMEM;
        }
        e = po->rules_file ? problems_load_file(po->sel.rules, po->rules_file)
                           : problems_load_default(po->sel.rules);
        if (e < 0)
                warnx_("%s", problems_error(po->sel.rules));
        return e;
}

int problem_options_setup(struct problem_options *po) {
        int e;

        if (!problem_options_active(po))
                return 0;
        e = load_rules(po);
        /* Asked for by no option (the export stream's KDMESG_PROBLEM): the records go, unnamed, as said. */
        if (e < 0 && !po->report && !po->sel.kinds && !po->fail && !po->rules_file) {
                warnx_(_("the records go without KDMESG_PROBLEM: the problem rules could not be read"));
                po->sel.rules = problems_free(po->sel.rules);
                po->fields = false;
                return 0;
        }
        return e;
}

int problem_options_list_rules(struct problem_options *po) {
        struct problem_rule_info info;
        size_t i;

        if (load_rules(po) < 0)
                return EXIT_BAD_INPUT;
        for (i = 0; problems_rule_info(po->sel.rules, i, &info) == 0; i++) {
                out_text(info.source, strlen(info.source), false);
                out_putc(':');
                out_u64_digits(info.line);
                out_puts(": ");
                out_text(info.text, strlen(info.text), false);
                out_putc('\n');
        }
        return out_close() < 0 ? EXIT_BAD_INPUT : EXIT_SUCCESS;
}

void problem_options_done(struct problem_options *po) {
        po->sel.rules = problems_free(po->sel.rules);
}
