/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=table: a libsmartcols table of the columns chosen with -o.
 *
 * Memory stays constant: lines are printed in batches of TABLE_BATCH (one
 * at a time when following), and libsmartcols only ever holds one batch.
 * The column widths hold from batch to batch (table-layout.c).  MESSAGE
 * wraps to fit the terminal width; when standard output is not a terminal,
 * lines are not wrapped unless COLUMNS is set.  Cell text is escaped here
 * as in the classic view, plus tabs (cell_text()); libsmartcols's own
 * encoding is off.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "columns.h"
#include "device.h"
#include "escape.h"
#include "i18n.h"
#include "loss-text.h"
#include "loss.h"
#include "output.h"
#include "sink.h"
#include "table-layout.h"
#include "table-plain.h"

#define TABLE_BATCH 512
/* Marks held until the heading can be printed; more are printed after a heading of default widths. */
#define HELD_MAX 16

/* A line of its own: a loss, or the start of boot n (loss NULL). */
struct mark {
        struct kmsg_loss *loss;
        uint64_t boot;
};

struct table_sink {
        struct sink s;
        struct libscols_table *tb;
        struct table_layout *layout;
        struct table_plain *plain; /* laid out here, not by libsmartcols (table-plain.h); else NULL */
        struct timefmt time; /* a copy: reltime and delta keep state */
        size_t n_lines;   /* lines in the current batch */
        bool printed;     /* the heading is out */
        struct mark *held; /* marks before the first record (loss copies): they follow the heading */
        size_t n_held;
        char *buf;        /* escaping buffer */
        size_t buf_cap;
};

/*
 * Cell text, made safe as in the other text views (\xNN for controls,
 * NUL, invalid UTF-8, C1 and bidirectional controls): libsmartcols's own
 * encoding is off, as it would show a NUL as the end of the text, pass
 * bidirectional controls and write a backslash as \x5c.  The result lives
 * in t->buf until the next call.
 */
static const char *cell_text(struct table_sink *t, const char *p, size_t len) {
        size_t need = len * 4 + 1;

        if (need > t->buf_cap) {
                char *b = realloc(t->buf, need);

                if (!b)
                        return NULL;
                t->buf = b;
                t->buf_cap = need;
        }
        text_safe_into(t->buf, p, len, false);
        return t->buf;
}

static int set_cell(struct table_sink *t, struct libscols_line *ln, size_t i, const char *p, size_t len) {
        const char *s;

        if (t->plain) {
                /* Made safe in place: at most four bytes for one. */
                char *d = len < SIZE_MAX / 4 ? table_plain_reserve(t->plain, len * 4 + 1) : NULL;

                if (!d)
                        return -ENOMEM;
                table_plain_commit(t->plain, i, text_safe_into(d, p, len, false));
                return 0;
        }
        s = cell_text(t, p, len);
        if (!s)
                return -ENOMEM;
        return scols_line_set_data(ln, i, s);
}

/* Text that is safe as it is (numbers, names). */
static int set_data(struct table_sink *t, struct libscols_line *ln, size_t i, const char *s) {
        if (t->plain)
                return table_plain_set(t->plain, i, s, strlen(s));
        return scols_line_set_data(ln, i, s);
}

static int set_str(struct table_sink *t, struct libscols_line *ln, size_t i, const char *s) {
        return s ? set_cell(t, ln, i, s, strlen(s)) : 0;
}

static int dict_text(struct table_sink *t, struct libscols_line *ln, size_t i, const struct kmsg_record *r) {
        size_t n = kmsg_record_get_dict_count(r), k, total = 0, len;
        const char *key, *val;
        char *s, *d;
        int e;

        for (k = 0; k < n; k++)
                if (kmsg_record_get_dict_entry(r, k, &key, &val, &len) == 0)
                        total += 4 * strlen(key) + 1 + 4 * len + 1;
        if (total == 0)
                return 0;
        s = malloc(total + 1);
        if (!s)
                return -ENOMEM;
        *s = '\0';
        for (d = s, k = 0; k < n; k++) {
                if (kmsg_record_get_dict_entry(r, k, &key, &val, &len) < 0)
                        continue;
                if (d > s)
                        *d++ = ' ';
                d += text_safe_into(d, key, strlen(key), false);
                *d++ = '=';
                d += text_safe_into(d, val, len, false);
        }
        if (t->plain) {
                e = table_plain_set(t->plain, i, s, (size_t)(d - s));
                free(s);
                return e;
        }
        e = scols_line_refer_data(ln, i, s);
        if (e < 0)
                free(s);
        return e;
}

/* TIME in the chosen time format (--time-format, -T, -e, -d, -t). */
static int time_cell(struct table_sink *t, struct libscols_line *ln, size_t i, uint64_t usec) {
        char buf[128], *p = buf;
        size_t n;

        if (t->time.format == TIME_RELTIME || t->time.delta) {
                /* The running forms, as the classic view has them, without the brackets. */
                n = timefmt_prefix(&t->time, usec, buf, sizeof(buf), NULL);
                while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == ']'))
                        buf[--n] = '\0';
                while (*p == '[' || *p == ' ')
                        p++;
        } else if (t->time.format == TIME_CTIME)
                n = timefmt_ctime(&t->time, usec, buf, sizeof(buf));
        else if (t->time.format == TIME_ISO)
                n = timefmt_iso(&t->time, usec, buf, sizeof(buf));
        else if (t->time.format == TIME_NONE)
                n = 0;
        else
                n = timefmt_mono(usec, buf, sizeof(buf));
        return n > 0 ? set_data(t, ln, i, p) : 0;
}

/* v in decimal, in buf (at least 21 bytes); returns where the digits start. */
static const char *u64_text(char buf[static 21], uint64_t v) {
        char *p = buf + 20;

        *p = '\0';
        do {
                *--p = (char)('0' + v % 10);
                v /= 10;
        } while (v);
        return p;
}

static int fill_cell(struct table_sink *t, struct libscols_line *ln, size_t i, const struct column *c,
                     const struct kmsg_record *r, const struct match *m) {
        char num[48];
        const char *v;
        size_t len;

        switch (c->id) {
        case COL_SEQ:
                if (!kmsg_record_has_seqnum(r))
                        return 0;
                return set_data(t, ln, i, u64_text(num, kmsg_record_get_seqnum(r)));
        case COL_TIME:
                if (!kmsg_record_has_timestamp(r))
                        return 0;
                return time_cell(t, ln, i, kmsg_record_get_timestamp(r));
        case COL_PRI:
                if (!kmsg_record_has_priority(r))
                        return 0;
                return set_data(t, ln, i, u64_text(num, kmsg_record_get_priority(r)));
        case COL_FACILITY:
                if (!kmsg_record_has_priority(r))
                        return 0;
                v = kmsg_facility_to_name(kmsg_record_get_facility(r));
                if (!v) {
                        snprintf(num, sizeof(num), "%u", kmsg_record_get_facility(r));
                        v = num;
                }
                return set_data(t, ln, i, v);
        case COL_LEVEL:
                if (!kmsg_record_has_priority(r))
                        return 0;
                return set_data(t, ln, i, kmsg_level_to_name(kmsg_record_get_level(r)));
        case COL_FLAGS:
                return set_str(t, ln, i, kmsg_record_get_flags(r));
        case COL_CALLER:
                return set_str(t, ln, i, kmsg_record_get_caller_text(r));
        case COL_MESSAGE:
                v = kmsg_record_get_message(r, &len);
                return set_cell(t, ln, i, v, len);
        case COL_SUBSYSTEM:
                return set_str(t, ln, i, kmsg_record_get_subsystem(r));
        case COL_DEVICE:
                return set_str(t, ln, i, kmsg_record_get_device(r));
        case COL_DEVNAME:
                return set_str(t, ln, i, (t->s.settings->devices ? devctx_devname(t->s.settings->devices, r) : NULL));
        case COL_MATCH:
                return set_str(t, ln, i, m->how == DEVMATCH_TEXT ? "text" : NULL);
        case COL_DICT:
                return dict_text(t, ln, i, r);
        case COL_DICT_KEY:
                v = kmsg_record_get_dict_value(r, c->key, &len);
                return v ? set_cell(t, ln, i, v, len) : 0;
        }
        return 0;
}

static void write_mark(const struct mark *m) {
        if (m->loss)
                out_loss_line(m->loss);
        else
                out_boot_line(m->boot);
}

/* The marks held until the heading was out, each a line. */
static void write_held(struct table_sink *t) {
        size_t i;

        for (i = 0; i < t->n_held; i++) {
                write_mark(&t->held[i]);
                kmsg_loss_unref(t->held[i].loss);
        }
        free(t->held);
        t->held = NULL;
        t->n_held = 0;
}

/* flush_batch() for a table laid out here: the same lines, in the same order. */
static int flush_plain(struct table_sink *t) {
        bool widened = table_plain_lay_out(t->plain);

        if (!t->s.settings->noheadings && (!t->printed || widened)) {
                table_plain_print_heading(t->plain);
                /* What was lost before the first record follows the heading. */
                if (t->held)
                        write_held(t);
        }
        table_plain_print_rows(t->plain);
        t->n_lines = 0;
        t->printed = true;
        return 0;
}

/* Print the lines collected so far and forget them. */
static int flush_batch(struct table_sink *t) {
        char *text = NULL;
        int e;

        if (t->n_lines == 0)
                return 0;
        if (t->plain)
                return flush_plain(t);
        e = scols_print_table_to_string(t->tb, &text);
        if (e < 0)
                return e;
        if (t->printed && !t->s.settings->noheadings && table_layout_widened(t->layout)) {
                /*
                 * A value wider than its column in the lines above (a time
                 * past 999999 seconds, a longer device) moves the columns
                 * after it: print this batch under a heading of its own, so
                 * that every line stands under a heading that fits it.
                 */
                free(text);
                text = NULL;
                e = table_layout_reheading(t->layout);
                if (e < 0)
                        return e;
                scols_table_enable_noheadings(t->tb, 0);
                e = scols_print_table_to_string(t->tb, &text);
                scols_table_enable_noheadings(t->tb, 1);
                if (e < 0)
                        return e;
        }
        if (t->held) {
                /* The heading is the first line; what was lost before the first record follows it. */
                char *nl = strchr(text, '\n');

                if (nl) {
                        out_write(text, (size_t)(nl - text) + 1);
                        write_held(t);
                        out_puts(nl + 1);
                } else {
                        write_held(t);
                        out_puts(text);
                }
        } else
                out_puts(text);
        if (*text)
                out_putc('\n');
        free(text);
        table_layout_printed(t->layout);
        scols_table_remove_lines(t->tb);
        t->n_lines = 0;
        if (!t->printed) {
                t->printed = true;
                scols_table_enable_noheadings(t->tb, 1);
        }
        return 0;
}

static int table_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct table_sink *t = (struct table_sink *)s;
        const struct columns *cols = s->settings->columns;
        struct libscols_line *ln = NULL;
        size_t i;
        int e;

        if (t->plain) {
                e = table_plain_row(t->plain);
                if (e < 0)
                        return e;
        } else {
                ln = scols_table_new_line(t->tb, NULL);
                if (!ln)
                        return -ENOMEM;
        }
        for (i = 0; i < cols->n; i++) {
                e = fill_cell(t, ln, i, &cols->v[i], r, m);
                if (e >= 0 && !t->plain)
                        e = table_layout_cell(t->layout, ln, i);
                if (e < 0)
                        return e;
        }
        t->n_lines++;
        if (t->n_lines >= TABLE_BATCH || s->settings->flush_each) {
                e = flush_batch(t);
                if (e < 0)
                        return e;
                sink_end_item(s);
        }
        return 0;
}

/*
 * The heading line alone.  libsmartcols prints nothing for a table without
 * lines, so print one empty row and keep only the first line of the output.
 */
static int print_heading(struct table_sink *t) {
        struct libscols_line *ln;
        char *text = NULL, *nl;
        int e;

        if (t->plain) {
                table_plain_lay_out(t->plain);
                table_plain_print_heading(t->plain);
                t->printed = true;
                return 0;
        }
        ln = scols_table_new_line(t->tb, NULL);
        if (!ln)
                return -ENOMEM;
        scols_table_enable_noheadings(t->tb, 0);
        e = scols_print_table_to_string(t->tb, &text);
        /* The lines that come under this heading must fit it. */
        if (e >= 0)
                table_layout_heading_printed(t->layout);
        scols_table_remove_lines(t->tb);
        scols_table_enable_noheadings(t->tb, 1);
        t->printed = true;
        if (e < 0)
                return e;
        nl = strchr(text, '\n');
        if (nl)
                *nl = '\0';
        out_puts(text);
        out_putc('\n');
        free(text);
        return 0;
}

/* A loss or a boot is a row of its own: its text spans the row from the first column. */
static int table_mark(struct sink *s, const struct mark *mk) {
        struct table_sink *t = (struct table_sink *)s;
        int e;

        e = flush_batch(t);
        if (e < 0)
                return e;
        if (!t->printed && t->n_held < HELD_MAX && !s->settings->flush_each) {
                /*
                 * Nothing printed yet: hold the line until the first records
                 * give the heading its widths (not when following: a loss
                 * is shown when it happens).
                 */
                struct mark *v = realloc(t->held, (t->n_held + 1) * sizeof(*v));

                if (!v)
                        return -ENOMEM;
                t->held = v;
                v[t->n_held] = *mk;
                if (mk->loss) {
                        e = loss_copy(mk->loss, &v[t->n_held].loss);
                        if (e < 0)
                                return e;
                }
                t->n_held++;
                return 0;
        }
        if (!t->printed) {
                e = print_heading(t);
                if (e < 0)
                        return e;
                write_held(t);
        }
        write_mark(mk);
        sink_end_item(s);
        return 0;
}

static int table_loss(struct sink *s, const struct kmsg_loss *l) {
        struct mark m = { .loss = (struct kmsg_loss *)l };

        return table_mark(s, &m);
}

static int table_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        struct mark m = { .boot = n };

        return table_mark(s, &m);
}

static int table_finish(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;

        int e;

        if (t->n_lines > 0)
                return flush_batch(t);
        if (!t->printed) {
                e = print_heading(t);
                if (e < 0)
                        return e;
        }
        write_held(t);
        return 0;
}

static void table_free(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;

        table_plain_free(t->plain);
        table_layout_free(t->layout);
        scols_unref_table(t->tb);
        free(t->buf);
        for (size_t i = 0; i < t->n_held; i++)
                kmsg_loss_unref(t->held[i].loss);
        free(t->held);
        free(t);
}

static int table_init(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;

        t->time = s->settings->time;
        /* One stamp a cell: the first format given, with the delta joined to it. */
        t->time.n = 0;
        t->tb = scols_new_table();
        if (!t->tb)
                return -ENOMEM;
        scols_table_enable_noencoding(t->tb, 1);
        if (s->settings->noheadings) {
                scols_table_enable_noheadings(t->tb, 1);
                t->printed = true;
        }
        t->layout = table_layout_new(t->tb, s->settings->columns);
        if (!t->layout)
                return -ENOMEM;
        if (table_plain_fits(s->settings->columns, t->layout) && !getenv("KDMESG_TABLE_SCOLS")) {
                t->plain = table_plain_new(s->settings->columns, t->layout);
                if (!t->plain)
                        return -ENOMEM;
        }
        return 0;
}

const struct sink_ops sink_table_ops = {
        .size = sizeof(struct table_sink),
        .init = table_init,
        .record = table_record,
        .loss = table_loss,
        .boot = table_boot,
        .finish = table_finish,
        .free = table_free,
};
