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
        [PROBLEM_MEMORY_LEAK] = "memory-leak",
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
 * Expand template t with the groups m of text into buf: the first stage of
 * a subject, a template still (select/rules.h, struct problems' tmpl): the
 * groups' backslashes doubled, \\, \f and \a kept for render(); \s is
 * prev, the report's template so far.  With final, the text itself (for
 * name= and access=): a backslash of a group as it is, \\ one backslash.
 * A subject is one line: a group that holds a line break gives its first
 * line only.
 */
static void expand(char *buf, size_t size, const char *t, const char *text, const regmatch_t *m, const char *prev,
                   bool final) {
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
                        t++;
                        if (len > size - 1 - n)
                                len = size - 1 - n;
                        memcpy(buf + n, from, len);
                        n += len;
                        continue;
                } else if (*t == '\\' && !final && (t[1] == '\\' || t[1] == 'f' || t[1] == 'F' || t[1] == 'a')) {
                        if (n + 2 >= size)
                                break;
                        buf[n++] = *t++;
                        buf[n++] = *t;
                        continue;
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
                for (size_t i = 0; i < len && n + 1 < size; i++) {
                        if (!final && from[i] == '\\') {
                                if (n + 2 >= size)
                                        break;
                                buf[n++] = '\\';
                        }
                        buf[n++] = from[i];
                }
        }
        buf[n] = '\0';
}

void frame_strip_suffix(char *name) {
        char *dot = strchr(name, '.');

        if (dot && dot != name)
                *dot = '\0';
}

bool frame_skipped(const struct problems *p, int kind, const char *name) {
        size_t i;

        for (i = 0; i < p->n; i++) {
                const struct rule *r = &p->rules[i];

                if (r->type == RULE_SKIP && (r->kind == KIND_ANY || r->kind == kind) &&
                    regexec(&r->re, name, 0, NULL, 0) == 0)
                        return true;
        }
        return false;
}

const struct rule *frame_anchor(const struct problems *p, int kind, const char *name, regmatch_t *m) {
        size_t i;

        for (i = 0; i < p->n; i++) {
                const struct rule *r = &p->rules[i];

                if (r->type == RULE_ANCHOR && (r->kind == KIND_ANY || r->kind == kind) &&
                    regexec(&r->re, name, 10, m, 0) == 0)
                        return r;
        }
        return NULL;
}


/*
 * The open report's subject from its template: \f the culprit frame (the
 * first that no skip rule matches; none, every frame the machinery's or no
 * frame at all: "corrupted", the report is cut short, as syzbot titles
 * it), \a a blank and the access when a line gave one.
 */
static void render(struct problems *p) {
        const char *t = p->tmpl;
        size_t n = 0, size = sizeof(p->subject);
        char *buf = p->subject;

        for (; *t && n + 1 < size; t++) {
                const char *from = NULL;
                char sep = 0;
                size_t len;

                if (*t != '\\' || !t[1]) {
                        buf[n++] = *t;
                        continue;
                }
                t++;
                if (*t == 'f' || *t == 'F') {
                        from = p->found ? p->culprit : "corrupted";
                } else if (*t == 'a') {
                        if (!p->access[0])
                                continue;
                        from = p->access;
                        sep = ' ';
                } else {
                        buf[n++] = *t;
                        continue;
                }
                if (sep)
                        buf[n++] = sep;
                len = strlen(from);
                if (len > size - 1 - n)
                        len = size - 1 - n;
                memcpy(buf + n, from, len);
                n += len;
        }
        buf[n] = '\0';
}

/* Whether the open report's subject is settled: no retitle, culprit frame or access to wait for. */
static bool has_frame(const char *tmpl) {
        return strstr(tmpl, "\\f") || strstr(tmpl, "\\F");
}

static bool settled(const struct problems *p) {
        return !p->provisional && ((p->found && (!p->anchoring || p->anchored)) || !has_frame(p->tmpl)) &&
               (p->access[0] || !strstr(p->tmpl, "\\a"));
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

                return t < p->last ? p->last - t > REPORT_GAP_USEC : t - p->last > REPORT_GAP_USEC;
        }
        return false;
}

static void note_time(struct problems *p, const struct kmsg_record *rec) {
        p->have_last = kmsg_record_has_timestamp(rec);
        if (p->have_last)
                p->last = kmsg_record_get_timestamp(rec);
}

/* The first rule that opens a problem or is ignored that matches: its index, or p->n. */
static size_t first_opener(struct problems *p, const struct kmsg_record *rec, size_t len, regmatch_t *m) {
        size_t c;

        for (c = 0; c < p->n_cand; c++) {
                size_t i = p->cand[c];
                const struct rule *r = &p->rules[i];

                if ((r->type == RULE_PROBLEM || r->type == RULE_IGNORE) && matches(p, i, rec, p->text, len, m))
                        return i;
        }
        return p->n;
}

/*
 * A line of the open report that names a function (a frame rule, among
 * the candidates of the record's text): the first that no skip rule
 * matches is the culprit; for \F, until an anchor names it: the frame
 * before the anchor (when no rule skips it), or the name of the anchor's
 * name=; or a frame that follows itself (a recursion).
 */
static void note_frame(struct problems *p, const struct kmsg_record *rec, size_t len, regmatch_t *m) {
        char name[MAX_FRAME];
        size_t c;

        for (c = 0; c < p->n_cand; c++) {
                size_t i = p->cand[c];
                const struct rule *r = &p->rules[i];

                if (r->type != RULE_FRAME || (r->kind != KIND_ANY && r->kind != p->open) ||
                    !matches(p, i, rec, p->text, len, m))
                        continue;
                expand(name, sizeof(name), r->name, p->text, m, "", true);
                frame_strip_suffix(name);
                if (!name[0])
                        return;
                if (p->anchoring) {
                        regmatch_t am[10];
                        const struct rule *a;

                        /* A function that calls itself: the recursion that overflowed the stack is its. */
                        if (p->prev[0] && strcmp(name, p->prev) == 0) {
                                snprintf(p->culprit, sizeof(p->culprit), "%s", name);
                                p->found = p->anchored = true;
                                return;
                        }
                        a = frame_anchor(p, p->open, name, am);

                        if (a && (a->name || p->prev[0])) {
                                if (a->name)
                                        expand(p->culprit, sizeof(p->culprit), a->name, name, am, "", true);
                                else
                                        snprintf(p->culprit, sizeof(p->culprit), "%s", p->prev);
                                p->found = p->anchored = true;
                                return;
                        }
                        if (a) {
                                p->prev[0] = '\0';
                                return;
                        }
                }
                if (frame_skipped(p, p->open, name)) {
                        p->prev[0] = '\0';
                        return;
                }
                snprintf(p->prev, sizeof(p->prev), "%s", name);
                if (!p->found)
                        snprintf(p->culprit, sizeof(p->culprit), "%s", name);
                p->found = true;
                return;
        }
}

/*
 * After a record of the open report (rec, matched by the part rule r or
 * NULL): its frame, its access, its title; *ret says when the subject
 * changed or became settled.
 */
static void report_update(struct problems *p, const struct kmsg_record *rec, size_t len, regmatch_t *m,
                          const struct rule *r, struct problem_hit *ret) {
        bool was = settled(p), hide = p->hide_frame;

        if (r && r->subject) {
                char t[MAX_SUBJECT];

                expand(t, sizeof(t), r->subject, p->text, m, p->tmpl, false);
                snprintf(p->tmpl, sizeof(p->tmpl), "%s", t);
                p->provisional = false;
                p->anchoring = strstr(p->tmpl, "\\F") != NULL;
        }
        if (r && r->access && !was)
                expand(p->access, sizeof(p->access), r->access, p->text, m, "", true);
        p->hide_frame = r && r->hidenext;
        if (!hide && (!p->found || (p->anchoring && !p->anchored)) && has_frame(p->tmpl))
                note_frame(p, rec, len, m);
        render(p);
        if (strcmp(p->subject, p->open_subject) != 0 || (settled(p) && !was)) {
                snprintf(p->open_subject, sizeof(p->open_subject), "%s", p->subject);
                ret->subject = p->subject;
                ret->retitled = true;
                ret->provisional = !settled(p);
        }
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
                report_update(p, rec, len, m, r, ret);
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
        report_update(p, rec, len, m, NULL, ret);
        note_time(p, rec);
        return 1;
}

static int classify(struct problems *p, const struct kmsg_record *rec, struct problem_hit *ret) {
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
        p->tmpl[0] = '\0';
        if (r->subject)
                expand(p->tmpl, sizeof(p->tmpl), r->subject, p->text, m, "", false);
        if (r->devname) {
                expand(p->devname, sizeof(p->devname), r->devname, p->text, m, "", true);
                ret->devname = p->devname;
        }
        p->access[0] = p->culprit[0] = p->prev[0] = '\0';
        p->found = p->anchored = p->hide_frame = false;
        p->anchoring = r->report && strstr(p->tmpl, "\\F") != NULL;
        if (r->report) {
                p->open = r->kind;
                p->provisional = r->retitle;
                /* The opening line may name the function (a WARNING's "at file:line foo+0x12/0x34"). */
                if (has_frame(p->tmpl))
                        note_frame(p, rec, len, m);
                ret->provisional = !settled(p);
                note_time(p, rec);
        }
        render(p);
        snprintf(p->open_subject, sizeof(p->open_subject), "%s", p->subject);
        ret->subject = p->subject;
        return 0;
}

int problems_classify(struct problems *p, const struct kmsg_record *rec, struct problem_hit *ret) {
        /* The rules match bytes, in the C locale they were compiled in (select/rules.h). */
        locale_t was = p->cloc ? uselocale(p->cloc) : (locale_t)0;
        int e = classify(p, rec, ret);

        if (was)
                uselocale(was);
        return e;
}
