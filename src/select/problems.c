/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sorting records into problems with the rules of select/rules.c: the
 * first rule that matches a record decides; a "report" rule opens a
 * multi-line report, which takes the records after it until one ends it
 * (see problems_classify() in problems.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "select/problems.h"
#include "select/regex-cost.h"
#include "select/rules.h"

static const char *const kind_names[_PROBLEM_MAX] = {
        [PROBLEM_PANIC] = "panic",
        [PROBLEM_OOPS] = "oops",
        [PROBLEM_HARD_LOCKUP] = "hard-lockup",
        [PROBLEM_SOFT_LOCKUP] = "soft-lockup",
        [PROBLEM_RCU_STALL] = "rcu-stall",
        [PROBLEM_HUNG_TASK] = "hung-task",
        [PROBLEM_MCE] = "mce",
        [PROBLEM_OOM_KILL] = "oom-kill",
        [PROBLEM_FS_ERROR] = "fs-error",
        [PROBLEM_IO_ERROR] = "io-error",
        [PROBLEM_THERMAL] = "thermal",
        [PROBLEM_LOCKDEP] = "lockdep",
        [PROBLEM_SEGFAULT] = "segfault",
        [PROBLEM_WARNING] = "warning",
        [PROBLEM_LINK_DOWN] = "link-down",
};

const char *problem_kind_name(int kind) {
        return kind >= 0 && kind < _PROBLEM_MAX ? kind_names[kind] : NULL;
}

int problem_kind_from_name(const char *name) {
        int i;

        for (i = 0; i < _PROBLEM_MAX; i++)
                if (strcmp(name, kind_names[i]) == 0)
                        return i;
        return -EINVAL;
}

/*
 * Expand template t with the groups m of text into buf; \s is prev, the
 * report's subject so far.  A subject is one line: a group that holds a
 * line break gives its first line only.
 */
static void expand(char *buf, size_t size, const char *t, const char *text, const regmatch_t *m, const char *prev) {
        size_t n = 0;

        for (; *t && n + 1 < size; t++) {
                const char *from = NULL;
                size_t len = 0;

                if (*t == '\\' && t[1] >= '1' && t[1] <= '9') {
                        const regmatch_t *g = &m[t[1] - '0'];

                        if (g->rm_so >= 0) {
                                from = text + g->rm_so;
                                len = (size_t)(g->rm_eo - g->rm_so);
                        }
                } else if (*t == '\\' && t[1] == 's') {
                        from = prev;
                        len = strlen(prev);
                } else {
                        if (*t == '\\' && t[1] == '\\')
                                t++;
                        buf[n++] = *t;
                        continue;
                }
                t++;
                if (!from)
                        continue;
                if (memchr(from, '\n', len))
                        len = (size_t)((const char *)memchr(from, '\n', len) - from);
                if (len > size - 1 - n)
                        len = size - 1 - n;
                memcpy(buf + n, from, len);
                n += len;
        }
        buf[n] = '\0';
}

/* Whether a line of text[0..len) starts with lit. */
static bool line_starts_with(const char *text, size_t len, const char *lit, size_t n) {
        const char *p = text, *end = text + len;

        for (;;) {
                if ((size_t)(end - p) >= n && memcmp(p, lit, n) == 0)
                        return true;
                p = memchr(p, '\n', (size_t)(end - p));
                if (!p)
                        return false;
                p++;
        }
}

static bool matches(struct problems *p, size_t ri, const struct kmsg_record *rec, const char *text,
                    size_t len, regmatch_t *m) {
        const struct rule *r = &p->rules[ri];
        int k;

        /* The index found a literal of an indexed rule (the callers go through p->cand only). */
        if (!r->indexed && r->n_literals > 0) {
                size_t i;

                for (i = 0; i < r->n_literals; i++)
                        if (r->literal_anchored[i] ? line_starts_with(text, len, r->literals[i], r->literal_lens[i])
                                                   : memmem(text, len, r->literals[i], r->literal_lens[i]) != NULL)
                                break;
                if (i == r->n_literals)
                        return false;
        }
        if (r->have_levels && kmsg_record_has_priority(rec) && !(r->levels & (1u << kmsg_record_get_level(rec))))
                return false;
        if (r->subsystem) {
                const char *v = kmsg_record_get_subsystem(rec);

                if (!v || fnmatch(r->subsystem, v, 0) != 0)
                        return false;
        }
        if (r->device) {
                const char *v = kmsg_record_get_device(rec);

                if (!v || fnmatch(r->device, v, 0) != 0)
                        return false;
        }
        /* An engine that fails is no "no match": counted, the report gives no verdict (problem-select.c). */
        k = regex_cost_exec(&r->re, text, 10, m, &p->engine_error);
        if (k < 0)
                p->engine_errors++;
        return k > 0;
}

void problems_break(struct problems *p) {
        p->open = PROBLEM_NONE;
}

bool problems_report_open(const struct problems *p) {
        return p->open != PROBLEM_NONE;
}

/* Whether rec is past the end of the open report by its time or its origin (user space). */
static bool ends_report(const struct problems *p, const struct kmsg_record *rec) {
        if (kmsg_record_has_priority(rec) && kmsg_record_get_facility(rec) != 0)
                return true;
        if (p->have_last && kmsg_record_has_timestamp(rec)) {
                uint64_t t = kmsg_record_get_timestamp(rec);

                return t < p->last || t - p->last > REPORT_GAP_USEC;
        }
        return false;
}

static void note_time(struct problems *p, const struct kmsg_record *rec) {
        p->have_last = kmsg_record_has_timestamp(rec);
        if (p->have_last)
                p->last = kmsg_record_get_timestamp(rec);
}

/* The first rule but parts and stops that matches: its index, or p->n. */
static size_t first_opener(struct problems *p, const struct kmsg_record *rec, size_t len, regmatch_t *m) {
        size_t c;

        for (c = 0; c < p->n_cand; c++) {
                size_t i = p->cand[c];
                const struct rule *r = &p->rules[i];

                if (r->type != RULE_PART && r->type != RULE_STOP && matches(p, i, rec, p->text, len, m))
                        return i;
        }
        return p->n;
}

/*
 * A record while a report is open: 1 when it is a part of it (*ret filled),
 * 0 when it ends the report before it.  *ret_opener: the opener found, or
 * p->n when none was looked for.
 */
static int continue_report(struct problems *p, const struct kmsg_record *rec, size_t len, regmatch_t *m,
                           struct problem_hit *ret, size_t *ret_opener) {
        size_t c;

        *ret_opener = p->n;
        if (ends_report(p, rec))
                return 0;
        for (c = 0; c < p->n_cand; c++) {
                size_t i = p->cand[c];
                const struct rule *r = &p->rules[i];

                if ((r->type != RULE_PART && r->type != RULE_STOP) || (r->kind != KIND_ANY && r->kind != p->open))
                        continue;
                /* A part rule with a subject is the title line of a report that has none yet. */
                if (r->subject && !p->provisional)
                        continue;
                if (!matches(p, i, rec, p->text, len, m))
                        continue;
                if (r->type == RULE_STOP)
                        return 0;
                ret->kind = p->open;
                if (r->subject) {
                        expand(p->subject, sizeof(p->subject), r->subject, p->text, m, p->open_subject);
                        snprintf(p->open_subject, sizeof(p->open_subject), "%s", p->subject);
                        ret->subject = p->subject;
                        ret->retitled = true;
                        p->provisional = false;
                }
                note_time(p, rec);
                if (r->end)
                        p->open = PROBLEM_NONE;
                return 1;
        }
        /* What opens another problem ends this report; anything else goes on with it. */
        *ret_opener = first_opener(p, rec, len, m);
        if (*ret_opener < p->n && p->rules[*ret_opener].type == RULE_PROBLEM)
                return 0;
        ret->kind = p->open;
        note_time(p, rec);
        return 1;
}

int problems_classify(struct problems *p, const struct kmsg_record *rec, struct problem_hit *ret) {
        size_t len, i;
        const char *msg = kmsg_record_get_message(rec, &len);
        const char *nul;
        regmatch_t m[10];
        const struct rule *r;

        *ret = (struct problem_hit){ .kind = PROBLEM_NONE };
        if (len > MAX_TEXT)
                len = MAX_TEXT;
        /* The regex sees the message up to a NUL in it. */
        nul = memchr(msg, '\0', len);
        if (nul)
                len = (size_t)(nul - msg);
        memcpy(p->text, msg, len);
        p->text[len] = '\0';
        /* The index of the rules loaded so far (none yet: none built, or more rules since). */
        if ((!p->bigrams || p->indexed != p->n) && rule_index_build(p) < 0)
                return -ENOMEM;
        rule_index_scan(p, p->text, len);

        i = p->n;
        if (p->open != PROBLEM_NONE) {
                if (continue_report(p, rec, len, m, ret, &i) > 0)
                        return 0;
                p->open = PROBLEM_NONE;
        }
        /* Records from user space (written to /dev/kmsg) are no kernel problem. */
        if (kmsg_record_has_priority(rec) && kmsg_record_get_facility(rec) != 0)
                return 0;
        if (i == p->n)
                i = first_opener(p, rec, len, m);
        if (i == p->n)
                return 0;
        r = &p->rules[i];
        if (r->type == RULE_IGNORE)
                return 0;
        ret->kind = r->kind;
        ret->opens = true;
        p->subject[0] = '\0';
        if (r->subject)
                expand(p->subject, sizeof(p->subject), r->subject, p->text, m, "");
        ret->subject = p->subject;
        if (r->devname) {
                expand(p->devname, sizeof(p->devname), r->devname, p->text, m, "");
                ret->devname = p->devname;
        }
        if (r->report) {
                p->open = r->kind;
                p->provisional = r->retitle;
                ret->provisional = r->retitle;
                snprintf(p->open_subject, sizeof(p->open_subject), "%s", p->subject);
                note_time(p, rec);
        }
        return 0;
}
