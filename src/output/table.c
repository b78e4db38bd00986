/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=table: a libsmartcols table of the columns chosen with -o.
 *
 * Memory stays constant: lines are printed in batches of TABLE_BATCH (one
 * at a time when following), and libsmartcols only ever holds one batch.
 * The column widths hold from batch to batch (table-layout.c).  MESSAGE
 * wraps to fit the terminal width; when standard output is not a terminal,
 * lines are not wrapped unless COLUMNS is set; then kdmesg lays the table
 * out itself (table-plain.c), in the same lines.  Each row's cells are
 * taken from the record once (fill_cell()), then laid out by table-plain.c
 * or given to libsmartcols (scols_cell()).  Cell text is escaped as in
 * the classic view, plus tabs; libsmartcols's own encoding is off.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "text/color.h"
#include "text/columns.h"
#include "select/device.h"
#include "text/escape.h"
#include "base/i18n.h"
#include "output/loss-text.h"
#include "output/loss.h"
#include "text/writer.h"
#include "output/sink.h"
#include "text/table-layout.h"
#include "text/table-plain.h"

#define TABLE_BATCH 512
/* Room for a time stamp's text in the formats of timefmt.h. */
#define TIME_TEXT_MAX 128
/* Marks held until the heading can be printed; more are printed after a heading of default widths. */
#define HELD_MAX 16

/* A line of its own: a loss, or the start of boot n (loss NULL). */
struct mark {
        struct kmsg_loss *loss;
        uint64_t boot;
};

struct cell_buf {
        char *p;
        size_t cap;
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
        struct cell_buf *bufs; /* a buffer a column, for the text made here */
        struct table_plain_src *src; /* laid out here: the cells of the row being filled */
        const char *level_name[8]; /* the levels' names and their lengths, in their colors when on */
        size_t level_len[8], level_width[8];
        char level_colored[8][COLOR_SEQ_MAX + 16];
};

/* Column i's buffer, of at least need bytes (until the row is out); NULL when out of memory. */
static char *col_buf(struct table_sink *t, size_t i, size_t need) {
        struct cell_buf *b = &t->bufs[i];

        if (need > b->cap) {
                char *p = realloc(b->p, need);

                if (!p)
                        return NULL;
                b->p = p;
                b->cap = need;
        }
        return b->p;
}

static inline void src_text(struct table_plain_src *x, const char *s, size_t len) {
        x->kind = TABLE_PLAIN_TEXT;
        x->s = s;
        x->len = len;
}

static inline void src_str(struct table_plain_src *x, const char *s) {
        if (s)
                src_text(x, s, strlen(s));
}

/* Safe text, NUL-terminated at len, width columns wide (SIZE_MAX: to be measured). */
static inline void src_safe(struct table_plain_src *x, const char *s, size_t len, size_t width) {
        x->kind = TABLE_PLAIN_SAFE;
        x->s = s;
        x->len = len;
        x->width = width;
}

static inline void src_number(struct table_plain_src *x, enum table_plain_kind kind, uint64_t v) {
        x->kind = kind;
        x->v = v;
}

/* The dictionary's KEY=VALUE pairs made safe, one space between them, into d; returns the length. */
static size_t dict_into(char *d, const struct kmsg_record *r, bool *ascii) {
        size_t n = kmsg_record_get_dict_count(r), k, len;
        const char *key, *val;
        char *q = d;

        for (k = 0; k < n; k++) {
                if (kmsg_record_get_dict_entry(r, k, &key, &val, &len) < 0)
                        continue;
                if (q > d)
                        *q++ = ' ';
                q += table_plain_safe_into(q, key, strlen(key), ascii);
                *q++ = '=';
                q += table_plain_safe_into(q, val, len, ascii);
        }
        *q = '\0';
        return (size_t)(q - d);
}

static int dict_cell(struct table_sink *t, size_t i, const struct kmsg_record *r) {
        size_t n = kmsg_record_get_dict_count(r), k, total = 0, len;
        const char *key, *val;
        bool ascii = true;
        char *s;

        for (k = 0; k < n; k++)
                if (kmsg_record_get_dict_entry(r, k, &key, &val, &len) == 0)
                        total += 4 * strlen(key) + 1 + 4 * len + 1;
        if (total == 0)
                return 0;
        s = col_buf(t, i, total + 1);
        if (!s)
                return -ENOMEM;
        len = dict_into(s, r, &ascii);
        src_safe(&t->src[i], s, len, ascii ? len : SIZE_MAX);
        return 0;
}

/* TIME in the chosen time format (--time-format, -T, -e, -d, -t). */
static int time_cell(struct table_sink *t, size_t i, uint64_t usec) {
        enum time_format f = t->time.format;
        bool running = f == TIME_RELTIME || t->time.delta;
        char *buf, *p;
        size_t n;

        /* A "dmesg -T" paste's wall clock shows as it printed it where seconds would. */
        if (t->time.wall_stamp && f == TIME_RAW && !running)
                f = TIME_CTIME;
        if (!running && f != TIME_CTIME && f != TIME_ISO) {
                /* Seconds (made where they go), or none. */
                if (f != TIME_NONE)
                        src_number(&t->src[i], TABLE_PLAIN_SECONDS, usec);
                return 0;
        }
        buf = col_buf(t, i, TIME_TEXT_MAX);
        if (!buf)
                return -ENOMEM;
        p = buf;
        if (running) {
                /* The running forms, as the classic view has them, without the brackets. */
                n = timefmt_prefix(&t->time, usec, buf, TIME_TEXT_MAX, NULL);
                while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == ']'))
                        buf[--n] = '\0';
                while (*p == '[' || *p == ' ')
                        p++;
        } else if (f == TIME_CTIME)
                n = timefmt_ctime(&t->time, usec, buf, TIME_TEXT_MAX);
        else
                n = timefmt_iso(&t->time, usec, buf, TIME_TEXT_MAX);
        if (n > 0)
                src_safe(&t->src[i], p, strlen(p), SIZE_MAX);
        return 0;
}

/* The value of cell i of record r, into t->src[i]. */
static int fill_cell(struct table_sink *t, size_t i, const struct column *c, const struct kmsg_record *r,
                     const struct match *m) {
        struct table_plain_src *x = &t->src[i];
        const char *v;
        unsigned lvl;
        size_t len;

        x->kind = TABLE_PLAIN_EMPTY;
        switch (c->id) {
        case COL_SEQ:
                if (kmsg_record_has_seqnum(r))
                        src_number(x, TABLE_PLAIN_U64, kmsg_record_get_seqnum(r));
                return 0;
        case COL_TIME: {
                uint64_t usec;

                return timefmt_record(&t->time, r, &usec) ? time_cell(t, i, usec) : 0;
        }
        case COL_PRI:
                if (kmsg_record_has_priority(r))
                        src_number(x, TABLE_PLAIN_U64, kmsg_record_get_priority(r));
                return 0;
        case COL_FACILITY:
                if (!kmsg_record_has_priority(r))
                        return 0;
                v = kmsg_facility_to_name(kmsg_record_get_facility(r));
                if (v)
                        src_safe(x, v, strlen(v), SIZE_MAX);
                else
                        src_number(x, TABLE_PLAIN_U64, kmsg_record_get_facility(r));
                return 0;
        case COL_LEVEL:
                if (kmsg_record_has_priority(r)) {
                        lvl = kmsg_record_get_level(r) & 7;
                        src_safe(x, t->level_name[lvl], t->level_len[lvl], t->level_width[lvl]);
                }
                return 0;
        case COL_FLAGS:
                src_str(x, kmsg_record_get_flags(r));
                return 0;
        case COL_CALLER:
                src_str(x, kmsg_record_get_caller_text(r));
                return 0;
        case COL_MESSAGE:
                v = kmsg_record_get_message(r, &len);
                src_text(x, v, len);
                return 0;
        case COL_SUBSYSTEM:
                src_str(x, kmsg_record_get_subsystem(r));
                return 0;
        case COL_DEVICE:
                src_str(x, kmsg_record_get_device(r));
                return 0;
        case COL_DEVNAME:
                src_str(x, devnamer_name(t->s.settings->devices, r));
                return 0;
        case COL_MATCH:
                src_str(x, m->how == DEVMATCH_TEXT ? "text" : NULL);
                return 0;
        case COL_DICT:
                return dict_cell(t, i, r);
        case COL_DICT_KEY:
                v = kmsg_record_get_dict_value(r, c->key, &len);
                if (v)
                        src_text(x, v, len);
                return 0;
        }
        return 0;
}

/*
 * Cell i of ln, for libsmartcols, from t->src[i].  Text from the log is
 * made safe as in the other text views (\xNN for controls, NUL, invalid
 * UTF-8, C1 and bidirectional controls): libsmartcols's own encoding is
 * off, as it would show a NUL as the end of the text, pass bidirectional
 * controls and write a backslash as \x5c.
 */
static int scols_cell(struct table_sink *t, struct libscols_line *ln, size_t i) {
        const struct table_plain_src *x = &t->src[i];
        char buf[32], *p = buf + 21;
        uint64_t v = x->v;

        switch (x->kind) {
        case TABLE_PLAIN_EMPTY:
                return 0;
        case TABLE_PLAIN_TEXT:
                p = x->len < SIZE_MAX / 4 ? col_buf(t, i, x->len * 4 + 1) : NULL;
                if (!p)
                        return -ENOMEM;
                text_safe_into(p, x->s, x->len, false);
                break;
        case TABLE_PLAIN_SAFE:
                return scols_line_set_data(ln, i, x->s);
        case TABLE_PLAIN_U64:
                *p = '\0';
                do {
                        *--p = (char)('0' + v % 10);
                        v /= 10;
                } while (v);
                break;
        case TABLE_PLAIN_SECONDS:
                /* Unpadded: timefmt_mono() without its copy. */
                put_seconds(buf, v, 0);
                p = buf;
                break;
        }
        return scols_line_set_data(ln, i, p);
}

static void write_mark(const struct table_sink *t, const struct mark *m) {
        if (m->loss)
                out_loss_line(m->loss, &t->s.settings->time);
        else
                out_boot_line(m->boot);
}

/* The marks held until the heading was out, each a line. */
static void write_held(struct table_sink *t) {
        size_t i;

        for (i = 0; i < t->n_held; i++) {
                write_mark(t, &t->held[i]);
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
        struct libscols_line *ln;
        size_t i;
        int e;

        for (i = 0; i < cols->n; i++) {
                e = fill_cell(t, i, &cols->v[i], r, m);
                if (e < 0)
                        return e;
        }
        if (t->plain) {
                e = table_plain_add_row(t->plain, t->src);
                if (e < 0)
                        return e;
        } else {
                ln = scols_table_new_line(t->tb, NULL);
                if (!ln)
                        return -ENOMEM;
                for (i = 0; i < cols->n; i++) {
                        e = scols_cell(t, ln, i);
                        if (e >= 0)
                                e = table_layout_cell(t->layout, ln, i);
                        if (e < 0)
                                return e;
                }
        }
        t->n_lines++;
        if (t->n_lines >= TABLE_BATCH || s->settings->stream) {
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
        if (!t->printed && t->n_held < HELD_MAX && !s->settings->stream) {
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
        write_mark(t, mk);
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
        for (size_t i = 0; t->bufs && i < s->settings->columns->n; i++)
                free(t->bufs[i].p);
        free(t->bufs);
        free(t->src);
        for (size_t i = 0; i < t->n_held; i++)
                kmsg_loss_unref(t->held[i].loss);
        free(t->held);
}

/* LEVEL in the level's color, as the classic view colors the message (width apart from the bytes: see color.h). */
static void level_colors(struct table_sink *t) {
        for (unsigned l = 0; l < 8; l++) {
                size_t n = color_wrap(COLOR_EMERG + l, t->level_name[l], t->level_colored[l], sizeof(t->level_colored[l]));

                if (n > 0) {
                        t->level_name[l] = t->level_colored[l];
                        t->level_len[l] = n;
                }
        }
}

static int table_init(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;

        for (unsigned l = 0; l < 8; l++) {
                t->level_name[l] = kmsg_level_to_name(l);
                t->level_len[l] = t->level_width[l] = strlen(t->level_name[l]);
        }
        t->bufs = calloc(s->settings->columns->n + 1, sizeof(*t->bufs));
        t->src = calloc(s->settings->columns->n + 1, sizeof(*t->src));
        if (!t->bufs || !t->src)
                return -ENOMEM;
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
        /* On a terminal, and for no width: laid out here; else (COLUMNS, a pipe) by libsmartcols. */
        if (s->termwidth || (table_plain_fits(s->settings->columns, t->layout) && !getenv("KDMESG_TABLE_SCOLS"))) {
                t->plain = table_plain_new(s->settings->columns, t->layout, s->termwidth, s->settings->wrap);
                if (!t->plain)
                        return -ENOMEM;
                level_colors(t);
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
