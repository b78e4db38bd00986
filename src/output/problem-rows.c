/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --problem N: the records of the problems of one row of --problems (problem-rows.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/i18n.h"
#include "output/problem-rows.h"
#include "select/match.h"
#include "text/writer.h"

/* A record of a problem. */
struct held {
        struct kmsg_record *r;
        size_t problem; /* its problem's number */
};

struct problem_rows {
        struct held *held;
        size_t n_held, cap_held;
        const void **group; /* each problem's group */
        size_t n_problems, cap_problems;
        struct sink *view;
};

/* The default view (not through sinks.c, whose table names the --problems sink that uses this). */
extern const struct sink_ops sink_short_ops;
static const struct sink_info view_info = { "short", SINK_FORMAT, &sink_short_ops, 0 };

struct problem_rows *problem_rows_new(void) {
        return calloc(1, sizeof(struct problem_rows));
}

struct problem_rows *problem_rows_free(struct problem_rows *pr) {
        size_t i;

        if (!pr)
                return NULL;
        for (i = 0; i < pr->n_held; i++)
                kmsg_record_unref(pr->held[i].r);
        free(pr->held);
        free(pr->group);
        sink_free(pr->view);
        free(pr);
        return NULL;
}

int problem_rows_open(struct problem_rows *pr, size_t *ret_index) {
        if (pr->n_problems == pr->cap_problems) {
                size_t cap = pr->cap_problems ? pr->cap_problems * 2 : 64;
                const void **n = realloc(pr->group, cap * sizeof(*n));

                if (!n)
                        return -ENOMEM;
                pr->group = n;
                pr->cap_problems = cap;
        }
        pr->group[pr->n_problems] = NULL;
        *ret_index = pr->n_problems++;
        return 0;
}

void problem_rows_set_group(struct problem_rows *pr, size_t index, const void *group) {
        if (index < pr->n_problems)
                pr->group[index] = group;
}

int problem_rows_hold(struct problem_rows *pr, const struct kmsg_record *r) {
        if (pr->n_problems == 0)
                return 0;
        if (pr->n_held == pr->cap_held) {
                size_t cap = pr->cap_held ? pr->cap_held * 2 : 256;
                struct held *n = realloc(pr->held, cap * sizeof(*n));

                if (!n)
                        return -ENOMEM;
                pr->held = n;
                pr->cap_held = cap;
        }
        pr->held[pr->n_held].r = kmsg_record_ref((struct kmsg_record *)r);
        pr->held[pr->n_held].problem = pr->n_problems - 1;
        pr->n_held++;
        return 0;
}

int problem_rows_print(struct problem_rows *pr, const void *group, const struct output_settings *settings) {
        struct match none = { .problem = { .kind = PROBLEM_NONE } };
        size_t i, reports = 0, at = 0, last = SIZE_MAX;
        char line[128];
        int e = 0;

        for (i = 0; i < pr->n_problems; i++)
                reports += pr->group[i] == group;
        pr->view = sink_new(&view_info, settings);
        if (!pr->view)
                return -ENOMEM;
        for (i = 0; i < pr->n_held && e >= 0; i++) {
                const struct held *h = &pr->held[i];

                if (pr->group[h->problem] != group)
                        continue;
                if (h->problem != last) {
                        if (at++ > 0) {
                                snprintf(line, sizeof(line), _("-- report %zu of %zu --\n"), at, reports);
                                out_puts(line);
                        }
                        last = h->problem;
                }
                e = pr->view->ops->record(pr->view, h->r, &none);
        }
        if (e >= 0)
                e = sink_finish(pr->view);
        return e;
}
