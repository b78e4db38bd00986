/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --problems: what is wrong, since when.  One group per problem kind and
 * subject (the process, device or file:line the rule pulls out of the
 * message), counting problems: a multi-line report (an oops with its call
 * trace) is one.  A table, in the order the groups first came; or JSON
 * Lines, one object per group.  Following, a group's object is written
 * when the group first appears and each time it changes.  Memory grows
 * with the number of groups, not of records, and is bounded: beyond
 * MAX_GROUPS, each kind's further subjects share one "(others)" group.
 */
#include <errno.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/device.h"
#include "base/i18n.h"
#include "text/json.h"
#include "text/writer.h"
#include "select/match.h"
#include "select/problem-select.h"
#include "output/problem-rows.h"
#include "output/report.h"
#include "output/sink.h"
#include "base/strmap.h"
#include "time/timefmt.h"

#define N_BUCKETS 256
/* Groups beyond this many go into one "(others)" group per kind: memory stays bounded. */
#define MAX_GROUPS 10000

struct group {
        struct strmap_node node; /* keyed by kind and subject */
        int kind;
        uint64_t count;
        bool has_seq;
        uint64_t first_seq, last_seq;
        bool has_first;
        bool wall; /* first and last are the wall clock a "dmesg -T" paste printed (timefmt_record()) */
        uint64_t first, last;
        bool others;   /* the problems of this kind beyond MAX_GROUPS, whatever their subject */
        bool came_first; /* its first problem is the first of all (problems are counted in input order) */
        uint64_t order;  /* its first problem's number in input order: the rows' order */
        const char *file; /* with several inputs, the file its problems came from (in files) */
        char *device;  /* the first problem's device: its name, or its DEVICE value */
        char *message; /* the first line of the first problem's first record */
        size_t message_len;
        const char *subject; /* in key, after the kind and a NUL */
        char key[];
};

/*
 * A problem whose subject may still change (a "retitle" report): counted
 * when a later record gives the subject, or when its report ends.
 */
struct pending {
        bool on;
        int kind;
        bool has_seq, has_time, time_wall;
        uint64_t seq, time;
        char *device, *message;
        size_t message_len;
        char subject[256];
        size_t index; /* the problem's number in input order (from 0) */
};

struct problems_sink {
        struct sink sink;
        const struct problem_tally *tally; /* what the run classified: the verdict rests on it */
        const struct devnamer *dev;
        struct strmap *groups;
        bool json;
        char *keybuf;
        struct pending pend;
        bool have_first; /* a group has the first problem */
        char **files;    /* with several inputs, their names so far: the last is being read */
        size_t n_files;
        uint64_t counted;  /* problems counted so far */
        /* --problem N: the row; the records of every problem (problem-rows.h). */
        unsigned long row;
        struct problem_rows *rows;
        bool in_problem; /* a problem was opened: records of its report go with it */
};

static const char others_key[] = "\n(others)";

/*
 * The key of kind and subject: the kind's name, '/', the subject (names
 * have no '/'); with several inputs, the number of the file and ':' before
 * them (a group is of one file).
 */
static struct group *group_get(struct problems_sink *p, int kind, const char *subject, bool *ret_new) {
        const char *name = problem_kind_name(kind);
        size_t nl = strlen(name), sl = strlen(subject);
        struct group *g;

        *ret_new = false;
        nl = 0;
        if (p->n_files > 0)
                nl = (size_t)snprintf(p->keybuf, 24, "%zu:", p->n_files - 1);
        memcpy(p->keybuf + nl, name, strlen(name));
        nl += strlen(name);
        p->keybuf[nl] = '/';
        memcpy(p->keybuf + nl + 1, subject, sl + 1);
        g = (struct group *)strmap_find(p->groups, p->keybuf);
        if (g)
                return g;
        if (p->groups->n >= MAX_GROUPS && subject != others_key) {
                /* '\n' is in no subject (the rules see one line), so this key is no subject's. */
                g = group_get(p, kind, others_key, ret_new);
                if (g)
                        g->others = true;
                return g;
        }
        g = calloc(1, sizeof(*g) + nl + 1 + sl + 1);
        if (!g)
                return NULL;
        memcpy(g->key, p->keybuf, nl + 1 + sl + 1);
        g->subject = g->key + nl + 1;
        g->kind = kind;
        g->file = p->n_files > 0 ? p->files[p->n_files - 1] : NULL;
        g->node.key = g->key;
        strmap_add(p->groups, &g->node);
        *ret_new = true;
        return g;
}

static int json_group(struct problems_sink *p, const struct group *g);

/* Count a problem of p->pend in its group; the device and message move to a new group. */
static int commit(struct problems_sink *p) {
        struct pending *pd = &p->pend;
        struct sink *s = &p->sink;
        struct group *g;
        bool fresh;
        int e = 0;

        if (!pd->on)
                return 0;
        pd->on = false;
        g = group_get(p, pd->kind, pd->subject, &fresh);
        if (!g)
                e = -ENOMEM;
        if (g) {
                g->count++;
                if (pd->has_seq) {
                        if (!g->has_seq)
                                g->first_seq = pd->seq;
                        g->has_seq = true;
                        g->last_seq = pd->seq;
                }
                if (pd->has_time) {
                        if (!g->has_first) {
                                g->first = pd->time;
                                g->wall = pd->time_wall;
                        }
                        g->has_first = true;
                        /* Stamps of one kind in a group: a paste's wall clock is not seconds since boot. */
                        if (pd->time_wall == g->wall)
                                g->last = pd->time;
                }
        }
        if (g)
                p->counted++;
        if (g && p->rows)
                problem_rows_set_group(p->rows, pd->index, g);
        if (g && !p->have_first) {
                /* Problems are counted in the order they opened: the first counted came first. */
                g->came_first = true;
                p->have_first = true;
        }
        if (g && fresh) {
                g->order = p->counted;
                g->device = pd->device;
                g->message = pd->message;
                g->message_len = pd->message_len;
                pd->device = pd->message = NULL;
        }
        free(pd->device);
        free(pd->message);
        pd->device = pd->message = NULL;
        if (g && p->json && s->settings->stream) {
                e = json_group(p, g);
                sink_end_item(s);
        }
        return e;
}

/* Take the problem r opens into p->pend. */
static int open_problem(struct problems_sink *p, const struct kmsg_record *r, const struct problem_hit *hit) {
        struct pending *pd = &p->pend;
        const char *dev = devnamer_name(p->dev, r), *msg, *nl;
        size_t len;

        pd->on = true;
        pd->kind = hit->kind;
        if (p->rows && problem_rows_open(p->rows, &pd->index) < 0) {
                pd->on = false;
                return -ENOMEM;
        }
        snprintf(pd->subject, sizeof(pd->subject), "%s", hit->subject ? hit->subject : "");
        pd->has_seq = kmsg_record_has_seqnum(r);
        pd->seq = pd->has_seq ? kmsg_record_get_seqnum(r) : 0;
        {
                struct timefmt t = p->sink.settings->time;

                pd->has_time = timefmt_record(&t, r, &pd->time);
                pd->time_wall = pd->has_time && t.wall_stamp;
        }
        if (!dev)
                dev = kmsg_record_get_device(r);
        if (!dev)
                dev = hit->devname;
        msg = kmsg_record_get_message(r, &len);
        nl = memchr(msg, '\n', len);
        if (nl)
                len = (size_t)(nl - msg);
        pd->device = dev ? strdup(dev) : NULL;
        pd->message = malloc(len + 1);
        if ((dev && !pd->device) || !pd->message) {
                pd->on = false;
                return -ENOMEM;
        }
        memcpy(pd->message, msg, len);
        pd->message[len] = '\0';
        pd->message_len = len;
        return 0;
}

static int problems_group(struct problems_sink *p, const struct kmsg_record *r, const struct problem_hit *hit);

static int problems_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct problems_sink *p = (struct problems_sink *)s;
        const struct problem_hit *hit = &m->problem;
        int e = 0;

        if (p->row) {
                if (hit->kind == PROBLEM_NONE || hit->opens)
                        p->in_problem = false;
                e = problems_group(p, r, hit);
                if (e >= 0 && hit->kind != PROBLEM_NONE && hit->opens)
                        p->in_problem = true;
                if (e >= 0 && p->in_problem && hit->kind != PROBLEM_NONE)
                        e = problem_rows_hold(p->rows, r);
                return e;
        }
        return problems_group(p, r, hit);
}

/* Group r's problem: count it in its group once its subject is settled. */
static int problems_group(struct problems_sink *p, const struct kmsg_record *r, const struct problem_hit *hit) {
        int e;

        /* The report's subject so far; counted once it is settled (or at the report's end). */
        if (hit->retitled && p->pend.on) {
                snprintf(p->pend.subject, sizeof(p->pend.subject), "%s", hit->subject);
                return hit->provisional ? 0 : commit(p);
        }
        /* A record that is no part of the pending problem's report ends it. */
        if (p->pend.on && (hit->kind == PROBLEM_NONE || hit->opens) && (e = commit(p)) < 0)
                return e;
        if (hit->kind == PROBLEM_NONE || !hit->opens)
                return 0;
        e = open_problem(p, r, hit);
        if (e >= 0 && !hit->provisional)
                e = commit(p);
        return e;
}

/*
 * The rows in the order their problems first came: the first one (often
 * the cause) on top, what followed it (often its fallout) after.
 */
static int group_cmp(const void *a, const void *b) {
        const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;

        if (x->order != y->order)
                return x->order < y->order ? -1 : 1;
        return strcmp(x->subject, y->subject);
}

enum { COL_NUM, COL_FILE, COL_KIND, COL_COUNT, COL_FIRST, COL_LAST, COL_SUBJECT, COL_DEVICE, COL_MESSAGE };

static const struct report_column columns[] = {
        [COL_NUM] = { "#", 0.03, SCOLS_FL_RIGHT },
        [COL_FILE] = { "FILE", 0.1, 0 },
        [COL_KIND] = { "KIND", 0.1, 0 },
        [COL_COUNT] = { "COUNT", 0.05, SCOLS_FL_RIGHT },
        [COL_FIRST] = { "FIRST", 0.1, SCOLS_FL_RIGHT },
        /*
         * At 80 columns a subject of up to 40 characters stays whole: MESSAGE,
         * then LAST give way (the line under the table says so), LAST also
         * where it differs from FIRST: the time a problem was last seen
         * matters less than what it is.
         */
        [COL_LAST] = { "LAST", 0.1, SCOLS_FL_RIGHT, 0, false, 2 },
        [COL_SUBJECT] = { "SUBJECT", 0.15, SCOLS_FL_TRUNC, 0, true, 0, 40 },
        [COL_DEVICE] = { "DEVICE", 0.05, 0, 0, false, 3 },
        [COL_MESSAGE] = { "MESSAGE", 0.5, SCOLS_FL_NOEXTREMES, 0, true, 1 },
};

static int set_text(struct libscols_line *ln, int col, const char *s, size_t len, bool raw) {
        char *text = text_safe_dup(s, len, raw);
        int e;

        if (!text)
                return -ENOMEM;
        e = scols_line_refer_data(ln, col, text);
        if (e < 0)
                free(text);
        return e;
}

/* Row num (from 1) of the table: its number for --problem N, '*' after the one that came first. */
static int fill_line(struct problems_sink *p, struct libscols_line *ln, const struct group *g, size_t num) {
        struct timefmt wall = p->sink.settings->time;
        const struct timefmt *t = &wall;
        char buf[64];
        int e;

        snprintf(buf, sizeof(buf), "%zu%c", num, g->came_first ? '*' : ' ');
        if ((e = scols_line_set_data(ln, COL_NUM, buf)) < 0)
                return e;
        if (g->file && (e = set_text(ln, COL_FILE, g->file, strlen(g->file), false)) < 0)
                return e;
        if ((e = scols_line_set_data(ln, COL_KIND, problem_kind_name(g->kind))) < 0)
                return e;
        snprintf(buf, sizeof(buf), "%" PRIu64, g->count);
        if ((e = scols_line_set_data(ln, COL_COUNT, buf)) < 0)
                return e;
        if (g->has_first) {
                /* In the time format (timefmt_point(): a paste's wall clock as ctime where seconds would be). */
                wall.wall_stamp = g->wall;
                if (timefmt_point(t, g->first, buf, sizeof(buf)) > 0 && (e = scols_line_set_data(ln, COL_FIRST, buf)) < 0)
                        return e;
                if (timefmt_point(t, g->last, buf, sizeof(buf)) > 0 && (e = scols_line_set_data(ln, COL_LAST, buf)) < 0)
                        return e;
        }
        if (g->others && (e = scols_line_set_data(ln, COL_SUBJECT, _("(others)"))) < 0)
                return e;
        if (!g->others && (e = set_text(ln, COL_SUBJECT, g->subject, strlen(g->subject), false)) < 0)
                return e;
        if (g->device && (e = set_text(ln, COL_DEVICE, g->device, strlen(g->device), false)) < 0)
                return e;
        return set_text(ln, COL_MESSAGE, g->message, g->message_len, p->sink.settings->noescape);
}

static int print_table(struct problems_sink *p, struct group **groups, size_t n) {
        /* FILE: with several inputs only. */
        struct libscols_table *tb = report_table_new(columns, sizeof(columns) / sizeof(columns[0]),
                                                     p->n_files > 0 ? 0 : 1ul << COL_FILE,
                                                     p->sink.settings->noheadings);
        size_t i;
        int e = 0;

        if (!tb)
                return -ENOMEM;
        for (i = 0; i < n && e >= 0; i++) {
                struct libscols_line *ln = scols_table_new_line(tb, NULL);

                e = ln ? fill_line(p, ln, groups[i], i + 1) : -ENOMEM;
        }
        return report_table_print(&p->sink, tb, columns, sizeof(columns) / sizeof(columns[0]), e);
}

/* One group as a line of JSON: problem, count, first_seq, ..., message. */
static int json_group(struct problems_sink *p, const struct group *g) {
        struct json_object *o = json_object_new_object();
        int e;

        if (!o)
                return -ENOMEM;
        e = json_add(o, "problem", json_object_new_string(problem_kind_name(g->kind)));
        if (e >= 0)
                e = json_add(o, "count", json_object_new_uint64(g->count));
        if (e >= 0 && g->has_seq)
                e = json_add(o, "first_seq", json_object_new_uint64(g->first_seq));
        if (e >= 0 && g->has_seq)
                e = json_add(o, "last_seq", json_object_new_uint64(g->last_seq));
        /* time_first and time_last are seconds since boot, which a paste's wall clock is not. */
        if (e >= 0 && g->has_first && !g->wall)
                e = json_add(o, "time_first", json_usec_new(g->first));
        if (e >= 0 && g->has_first && !g->wall)
                e = json_add(o, "time_last", json_usec_new(g->last));
        if (e >= 0)
                e = json_add(o, "subject", g->others ? json_object_new_string("") : json_bytes_new(g->subject, strlen(g->subject)));
        if (e >= 0 && g->others)
                e = json_add(o, "others", json_object_new_boolean(1));
        if (e >= 0 && g->came_first)
                e = json_add(o, "first", json_object_new_boolean(1));
        if (e >= 0 && g->file)
                e = json_add(o, "file", json_bytes_new(g->file, strlen(g->file)));
        if (e >= 0 && g->device)
                e = json_add(o, "device", json_bytes_new(g->device, strlen(g->device)));
        if (e >= 0)
                e = json_add(o, "message", json_bytes_new(g->message, g->message_len));
        if (e < 0) {
                json_object_put(o);
                return -ENOMEM;
        }
        return report_json_line(o);
}

static bool unread(const struct problems_sink *p) {
        return p->tally->unread > 0 || p->tally->unread_rest || p->tally->unchecked > 0 ||
               report_unread_sources(&p->sink) > 0;
}

/*
 * What could not be read has no verdict: say how much, after the table (or
 * as the last JSON line, {"unread":N,"unread_rest":true,"unread_inputs":M}).
 */
static int report_unread(struct problems_sink *p) {
        char line[256];

        if (!unread(p))
                return 0;
        if (p->json) {
                out_puts("{\"unread\":");
                out_u64_digits(p->tally->unread);
                if (p->tally->unchecked > 0) {
                        out_puts(",\"unchecked\":");
                        out_u64_digits(p->tally->unchecked);
                }
                if (p->tally->unread_rest)
                        out_puts(",\"unread_rest\":true");
                if (report_unread_sources(&p->sink) > 0) {
                        out_puts(",\"unread_inputs\":");
                        out_u64_digits(report_unread_sources(&p->sink));
                }
                out_puts("}\n");
                sink_end_item(&p->sink);
                return 0;
        }
        if (p->tally->unread > 0) {
                snprintf(line, sizeof(line), _("Lines that could not be read: %llu; no verdict on them.\n"),
                         (unsigned long long)p->tally->unread);
                out_puts(line);
        }
        if (p->tally->unchecked > 0) {
                snprintf(line, sizeof(line),
                         _("Records the problem rules could not be matched on: %llu; no verdict on them.\n"),
                         (unsigned long long)p->tally->unchecked);
                out_puts(line);
        }
        report_unread_line(&p->sink, true);
        return 0;
}

/* --problem N: the records of the problems of row N, report after report. */
static int print_row(struct problems_sink *p, struct group **groups, size_t n) {
        char line[128];

        if (p->row > n) {
                snprintf(line, sizeof(line), P_("-- No row %lu: --problems has %zu row --\n",
                                                "-- No row %lu: --problems has %zu rows --\n", n),
                         p->row, n);
                out_puts(line);
                return 0;
        }
        return problem_rows_print(p->rows, groups[p->row - 1], p->sink.settings);
}

static int problems_finish(struct sink *s) {
        struct problems_sink *p = (struct problems_sink *)s;
        struct group **groups;
        size_t i, n;
        int e = 0;

        e = commit(p);
        if (e < 0)
                return e;
        /* Following, every group was written as it changed. */
        if (p->json && s->settings->stream)
                return 0;
        if (p->groups->n == 0) {
                if (!p->json && !unread(p))
                        out_puts(_("-- No known problems found --\n"));
                else if (!p->json && p->tally->unchecked > 0)
                        out_puts(_("-- No known problems in the records the rules were matched on --\n"));
                else if (!p->json && p->tally->seen > 0)
                        out_puts(_("-- No known problems in the records that were read --\n"));
                return report_unread(p);
        }
        groups = (struct group **)report_sorted(p->groups, 0, group_cmp, &n);
        if (!groups)
                return -ENOMEM;
        if (p->row)
                e = print_row(p, groups, n);
        else if (p->json)
                for (i = 0; i < n && e >= 0; i++)
                        e = json_group(p, groups[i]);
        else
                e = print_table(p, groups, n);
        free(groups);
        return e < 0 ? e : report_unread(p);
}

static void free_group(struct strmap_node *node, void *userdata) {
        struct group *g = (struct group *)node;

        free(g->device);
        free(g->message);
        free(g);
}

static void problems_sink_free(struct sink *s) {
        struct problems_sink *p = (struct problems_sink *)s;

        report_map_free(p->groups, free_group);
        problem_rows_free(p->rows);
        free(p->pend.device);
        free(p->pend.message);
        free(p->keybuf);
        for (size_t i = 0; i < p->n_files; i++)
                free(p->files[i]);
        free(p->files);
}

/* The records that follow come from the file name: a group is of one file. */
static int problems_source(struct sink *s, const char *name) {
        struct problems_sink *p = (struct problems_sink *)s;
        char **n;
        int e;

        /* The problem still pending is the last file's. */
        if ((e = commit(p)) < 0)
                return e;
        n = realloc(p->files, (p->n_files + 1) * sizeof(*n));
        if (!n)
                return -ENOMEM;
        p->files = n;
        if (!(n[p->n_files] = strdup(name)))
                return -ENOMEM;
        p->n_files++;
        return 0;
}

static int problems_sink_init(struct sink *s) {
        struct problems_sink *p = (struct problems_sink *)s;

        p->tally = s->settings->problems;
        p->dev = s->settings->devices;
        p->json = s->settings->json;
        p->row = s->settings->problem_group;
        if (p->row && !(p->rows = problem_rows_new()))
                return -ENOMEM;
        p->groups = strmap_new(N_BUCKETS);
        /* A kind's name, '/', a subject of at most 255 bytes and its NUL. */
        p->keybuf = malloc(24 + 32 + 256 + sizeof(others_key));
        if (!p->tally)
                return -EINVAL;
        return p->groups && p->keybuf ? 0 : -ENOMEM;
}

const struct sink_ops sink_problems_ops = {
        .size = sizeof(struct problems_sink),
        .init = problems_sink_init,
        .record = problems_record,
        .source = problems_source,
        .finish = problems_finish,
        .free = problems_sink_free,
};
