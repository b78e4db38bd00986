/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sorting records into problems with the rules of select/rules.c: the
 * first rule that matches a record decides; a "report" rule opens a
 * multi-line report whose "part" rules take the records after it.
 */
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "select/problems.h"
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

/* Expand template t with the groups m of text into buf. */
static void expand(char *buf, size_t size, const char *t, const char *text, const regmatch_t *m) {
        size_t n = 0;

        for (; *t && n + 1 < size; t++) {
                if (*t == '\\' && t[1] >= '1' && t[1] <= '9') {
                        const regmatch_t *g = &m[t[1] - '0'];
                        size_t len;

                        t++;
                        if (g->rm_so < 0)
                                continue;
                        len = (size_t)(g->rm_eo - g->rm_so);
                        if (len > size - 1 - n)
                                len = size - 1 - n;
                        memcpy(buf + n, text + g->rm_so, len);
                        n += len;
                        continue;
                }
                if (*t == '\\' && t[1] == '\\')
                        t++;
                buf[n++] = *t;
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

static bool matches(const struct rule *r, const struct kmsg_record *rec, const char *text, size_t len,
                    regmatch_t *m) {
        if (r->n_literals > 0) {
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
        return regexec(&r->re, text, 10, m, 0) == 0;
}

void problems_break(struct problems *p) {
        p->open = PROBLEM_NONE;
}

int problems_classify(struct problems *p, const struct kmsg_record *rec, struct problem_hit *ret) {
        size_t len, i;
        const char *msg = kmsg_record_get_message(rec, &len);
        const char *nul;
        regmatch_t m[10];

        *ret = (struct problem_hit){ .kind = PROBLEM_NONE };
        if (len > MAX_TEXT)
                len = MAX_TEXT;
        /* The regex sees the message up to a NUL in it. */
        nul = memchr(msg, '\0', len);
        if (nul)
                len = (size_t)(nul - msg);
        memcpy(p->text, msg, len);
        p->text[len] = '\0';

        if (p->open != PROBLEM_NONE)
                for (i = 0; i < p->n; i++) {
                        const struct rule *r = &p->rules[i];

                        if (r->type != RULE_PART || (r->kind != KIND_ANY && r->kind != p->open))
                                continue;
                        if (matches(r, rec, p->text, len, m)) {
                                ret->kind = p->open;
                                if (r->end)
                                        p->open = PROBLEM_NONE;
                                return 0;
                        }
                }
        p->open = PROBLEM_NONE;
        for (i = 0; i < p->n; i++) {
                const struct rule *r = &p->rules[i];

                if (r->type == RULE_PART || !matches(r, rec, p->text, len, m))
                        continue;
                if (r->type == RULE_IGNORE)
                        return 0;
                ret->kind = r->kind;
                ret->opens = true;
                p->subject[0] = '\0';
                if (r->subject)
                        expand(p->subject, sizeof(p->subject), r->subject, p->text, m);
                ret->subject = p->subject;
                if (r->devname) {
                        expand(p->devname, sizeof(p->devname), r->devname, p->text, m);
                        ret->devname = p->devname;
                }
                if (r->report)
                        p->open = r->kind;
                return 0;
        }
        return 0;
}
