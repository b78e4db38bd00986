/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=table: a libsmartcols table of the columns chosen with -o.
 *
 * Memory stays constant: lines are printed in batches of TABLE_BATCH (one
 * at a time when following), and libsmartcols only ever holds one batch.
 * Each column keeps the widest width it has had (its width hint grows), so
 * a column never narrows; a batch with a wider value widens that column
 * from that batch on.  MESSAGE wraps to fit the terminal width;
 * when standard output is not a terminal, lines are not wrapped unless
 * COLUMNS is set.  On a terminal, a column flagged COLF_TRUNC grows past its
 * width hint only while MESSAGE keeps msg_min columns; beyond that its
 * values are cut (here, not by libsmartcols, which would cut a held column
 * below its width in a later batch).  Cell text is escaped here as in the
 * classic view, plus tabs (cell_text()); libsmartcols's own encoding is off.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include <libsmartcols.h>

#include "columns.h"
#include "device.h"
#include "i18n.h"
#include "loss-text.h"
#include "output.h"
#include "sink.h"

#define TABLE_BATCH 512
/* Losses held until the heading can be printed; more are printed after a heading of default widths. */
#define HELD_MAX 16
#define SPACES_MAX 255

static inline size_t min_size(size_t a, size_t b) {
        return a < b ? a : b;
}

struct table_sink {
        struct sink s;
        struct libscols_table *tb;
        struct libscols_column **cols;
        size_t n_cols;
        size_t *widths;   /* the width of each column so far */
        size_t *shown;    /* the width of each column in the lines printed so far */
        struct timefmt time; /* a copy: reltime and delta keep state */
        size_t n_lines;   /* lines in the current batch */
        bool printed;     /* the heading is out */
        struct kmsg_loss *held; /* losses before the first record: they follow the heading */
        size_t n_held;
        char spaces[SPACES_MAX + 1];
        char *buf;        /* escaping buffer */
        size_t buf_cap;
        size_t termwidth; /* the width to fit, 0: none (not a terminal, no COLUMNS) */
        size_t msg_min;   /* the width kept for MESSAGE when cutting other columns */
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
        const char *s = cell_text(t, p, len);

        if (!s)
                return -ENOMEM;
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
        return n > 0 ? scols_line_set_data(ln, i, p) : 0;
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
                snprintf(num, sizeof(num), "%" PRIu64, kmsg_record_get_seqnum(r));
                return scols_line_set_data(ln, i, num);
        case COL_TIME:
                if (!kmsg_record_has_timestamp(r))
                        return 0;
                return time_cell(t, ln, i, kmsg_record_get_timestamp(r));
        case COL_PRI:
                if (!kmsg_record_has_priority(r))
                        return 0;
                snprintf(num, sizeof(num), "%u", kmsg_record_get_priority(r));
                return scols_line_set_data(ln, i, num);
        case COL_FACILITY:
                if (!kmsg_record_has_priority(r))
                        return 0;
                v = kmsg_facility_to_name(kmsg_record_get_facility(r));
                if (!v) {
                        snprintf(num, sizeof(num), "%u", kmsg_record_get_facility(r));
                        v = num;
                }
                return scols_line_set_data(ln, i, v);
        case COL_LEVEL:
                if (!kmsg_record_has_priority(r))
                        return 0;
                return scols_line_set_data(ln, i, kmsg_level_to_name(kmsg_record_get_level(r)));
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
                return set_str(t, ln, i,
                               m->how == DEVMATCH_TEXT ? "text" : NULL);
        case COL_DICT:
                return dict_text(t, ln, i, r);
        case COL_DICT_KEY:
                v = kmsg_record_get_dict_value(r, c->key, &len);
                return v ? set_cell(t, ln, i, v, len) : 0;
        }
        return 0;
}

/*
 * libsmartcols 2.38 makes a column as wide as its widest cell, at least its
 * heading (measured once) and at least its width hint when it has data.
 * So, to hold the layout from batch to batch, the heading is padded to the
 * first width (with spaces before it for right-aligned columns), the hint
 * grows with the column, and an empty cell is filled with spaces.
 */
static int set_heading(struct table_sink *t, size_t i) {
        const char *name = column_heading(&t->s.settings->columns->v[i]);
        size_t len = strlen(name), w = t->widths[i];
        char *h;
        int e;

        if (w < len)
                w = len;
        h = malloc(w + 1);
        if (!h)
                return -ENOMEM;
        memset(h, ' ', w);
        h[w] = '\0';
        if (scols_column_is_right(t->cols[i]))
                memcpy(h + w - len, name, len);
        else
                memcpy(h, name, len);
        e = scols_cell_refer_data(scols_column_get_header(t->cols[i]), h);
        if (e < 0)
                free(h);
        return e;
}

/* The losses held until the heading was out, each a marked line. */
static void write_held(struct table_sink *t) {
        size_t i;

        for (i = 0; i < t->n_held; i++)
                out_loss_line(&t->held[i]);
        free(t->held);
        t->held = NULL;
        t->n_held = 0;
}

/* Whether the batch just laid out widened a column that earlier lines have (but the last). */
static bool batch_widened(const struct table_sink *t) {
        size_t i;

        for (i = 0; i + 1 < t->n_cols; i++)
                if (t->shown[i] && scols_column_get_width(t->cols[i]) > t->shown[i])
                        return true;
        return false;
}

/*
 * Keep column i at least as wide as libsmartcols just laid it out, so the
 * layout holds from batch to batch; returns that width.
 */
static size_t hold_width(struct table_sink *t, size_t i) {
        size_t w = scols_column_get_width(t->cols[i]);

        if (w > t->widths[i]) {
                t->widths[i] = w;
                scols_column_set_whint(t->cols[i], (double)w);
        }
        return w;
}

/* Print the lines collected so far and forget them. */
static int flush_batch(struct table_sink *t) {
        char *text = NULL;
        size_t i;
        int e;

        if (t->n_lines == 0)
                return 0;
        e = scols_print_table_to_string(t->tb, &text);
        if (e < 0)
                return e;
        if (t->printed && !t->s.settings->noheadings && batch_widened(t)) {
                /*
                 * A value wider than its column in the lines above (a time
                 * past 999999 seconds, a longer device) moves the columns
                 * after it: print this batch under a heading of its own, so
                 * that every line stands under a heading that fits it.
                 */
                free(text);
                text = NULL;
                for (i = 0; i + 1 < t->n_cols; i++) {
                        hold_width(t, i);
                        e = set_heading(t, i);
                        if (e < 0)
                                return e;
                }
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
        for (i = 0; i + 1 < t->n_cols; i++) {
                size_t w = hold_width(t, i);

                if (w > t->shown[i])
                        t->shown[i] = w;
        }
        scols_table_remove_lines(t->tb);
        t->n_lines = 0;
        if (!t->printed) {
                t->printed = true;
                scols_table_enable_noheadings(t->tb, 1);
        }
        return 0;
}

/*
 * The width of cell text on the screen (made safe by cell_text(), so a
 * character it cannot print is unexpected and counted as \xNN per byte,
 * as libsmartcols would show it).  With ret_cut, the length of the
 * longest prefix no wider than max.
 */
static size_t text_width(const char *s, size_t max, size_t *ret_cut) {
        mbstate_t st;
        size_t w = 0, i = 0, len = strlen(s);

        memset(&st, 0, sizeof(st));
        while (i < len) {
                wchar_t wc;
                size_t n = mbrtowc(&wc, s + i, len - i, &st), cw;
                int x;

                if (n == (size_t)-1 || n == (size_t)-2) {
                        memset(&st, 0, sizeof(st));
                        n = 1;
                        cw = 4;
                } else if (n == 0) {
                        break;
                } else {
                        x = iswprint((wint_t)wc) ? wcwidth(wc) : -1;
                        cw = x >= 0 ? (size_t)x : 4 * n;
                }
                if (w + cw > max)
                        break;
                w += cw;
                i += n;
        }
        if (ret_cut)
                *ret_cut = i;
        return w;
}

/*
 * On a terminal, keep a COLF_TRUNC column within what the terminal has
 * left: it widens for a wider value only while the fixed columns and
 * msg_min columns for MESSAGE fit, and a value wider than that is cut.
 */
static int fit_cell(struct table_sink *t, struct libscols_line *ln, size_t i) {
        const struct columns *cols = t->s.settings->columns;
        struct libscols_cell *ce = scols_line_get_cell(ln, i);
        const char *d = ce ? scols_cell_get_data(ce) : NULL;
        size_t w, used, j, cut;
        char *c;
        int e;

        if (!d || !t->termwidth)
                return 0;
        w = text_width(d, SIZE_MAX, NULL);
        if (w <= t->widths[i])
                return 0;
        /*
         * Every column but the last one holds its width; the last one gets
         * what is left, at least its heading (also when MESSAGE is before it).
         */
        for (used = t->msg_min + (cols->n - 1), j = 0; j + 1 < cols->n; j++)
                if (cols->v[j].id != COL_MESSAGE)
                        used += t->widths[j];
        if (cols->v[cols->n - 1].id != COL_MESSAGE)
                used += strlen(column_heading(&cols->v[cols->n - 1]));
        if (used < t->termwidth) {
                size_t grow = t->termwidth - used;

                t->widths[i] += grow < w - t->widths[i] ? grow : w - t->widths[i];
                scols_column_set_whint(t->cols[i], (double)t->widths[i]);
        }
        if (w <= t->widths[i])
                return 0;
        text_width(d, t->widths[i], &cut);
        c = strndup(d, cut);
        if (!c)
                return -ENOMEM;
        e = scols_line_refer_data(ln, i, c);
        if (e < 0)
                free(c);
        return e;
}

static int table_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct table_sink *t = (struct table_sink *)s;
        const struct columns *cols = s->settings->columns;
        struct libscols_line *ln = scols_table_new_line(t->tb, NULL);
        size_t i;
        int e;

        if (!ln)
                return -ENOMEM;
        for (i = 0; i < cols->n; i++) {
                struct libscols_cell *ce;

                e = fill_cell(t, ln, i, &cols->v[i], r, m);
                if (e >= 0 && i + 1 < cols->n && (column_info[cols->v[i].id].flags & COLF_TRUNC))
                        e = fit_cell(t, ln, i);
                if (e < 0)
                        return e;
                ce = scols_line_get_cell(ln, i);
                if (i + 1 < cols->n && t->widths[i] > 0 && ce && !scols_cell_get_data(ce)) {
                        e = scols_line_set_data(ln, i, t->spaces + SPACES_MAX - min_size(t->widths[i], SPACES_MAX));
                        if (e < 0)
                                return e;
                }
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
        size_t i;
        int e;

        ln = scols_table_new_line(t->tb, NULL);
        if (!ln)
                return -ENOMEM;
        scols_table_enable_noheadings(t->tb, 0);
        e = scols_print_table_to_string(t->tb, &text);
        /* The lines that come under this heading must fit it. */
        for (i = 0; e >= 0 && i + 1 < t->n_cols; i++)
                t->shown[i] = scols_column_get_width(t->cols[i]);
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

/* A loss is a row of its own: its text spans the row from the first column. */
static int table_loss(struct sink *s, const struct kmsg_loss *l) {
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
                struct kmsg_loss *v = realloc(t->held, (t->n_held + 1) * sizeof(*v));

                if (!v)
                        return -ENOMEM;
                t->held = v;
                t->held[t->n_held++] = *l;
                return 0;
        }
        if (!t->printed) {
                e = print_heading(t);
                if (e < 0)
                        return e;
                write_held(t);
        }
        out_loss_line(l);
        sink_end_item(s);
        return 0;
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

        scols_unref_table(t->tb);
        free(t->cols);
        free(t->widths);
        free(t->shown);
        free(t->buf);
        free(t->held);
        free(t);
}

static int flags_to_scols(unsigned f) {
        int fl = (f & COLF_RIGHT ? SCOLS_FL_RIGHT : 0) | (f & COLF_TRUNC ? SCOLS_FL_TRUNC : 0) |
                 (f & COLF_WRAP ? SCOLS_FL_WRAP : 0);

        return fl;
}

/*
 * The width libsmartcols fits the table to: the terminal's, else COLUMNS;
 * 0 when standard output is no terminal and COLUMNS is not set (no limit).
 */
static size_t table_termwidth(void) {
        const char *env = getenv("COLUMNS");
        struct winsize ws;
        char *end;
        long n;

        if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
                return ws.ws_col;
        if (env && *env) {
                n = strtol(env, &end, 10);
                if (!*end && n > 0 && n < 100000)
                        return (size_t)n;
        }
        return isatty(STDOUT_FILENO) || env ? 80 : 0;
}

static int table_init(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;
        const struct columns *cols = s->settings->columns;
        size_t i;

        t->time = s->settings->time;
        memset(t->spaces, ' ', SPACES_MAX);
        t->tb = scols_new_table();
        if (t->tb)
                scols_table_enable_noencoding(t->tb, 1);
        t->cols = calloc(cols->n ? cols->n : 1, sizeof(*t->cols));
        t->widths = calloc(cols->n ? cols->n : 1, sizeof(*t->widths));
        t->shown = calloc(cols->n ? cols->n : 1, sizeof(*t->shown));
        if (!t->tb || !t->cols || !t->widths || !t->shown) {
                return -ENOMEM;
        }
        if (s->settings->noheadings) {
                scols_table_enable_noheadings(t->tb, 1);
                t->printed = true;
        }
        if (getenv("COLUMNS"))
                scols_table_set_termforce(t->tb, SCOLS_TERMFORCE_ALWAYS);
        t->termwidth = table_termwidth();
        if (t->termwidth)
                scols_table_set_termwidth(t->tb, t->termwidth);
        for (i = 0; i < cols->n; i++) {
                const struct column_info *ci = &column_info[cols->v[i].id];
                unsigned flags = ci->flags;

                if (cols->v[i].id == COL_MESSAGE && t->termwidth) {
                        t->msg_min = (size_t)(ci->whint * (double)t->termwidth);
                        if (t->msg_min < strlen(ci->name))
                                t->msg_min = strlen(ci->name);
                }
                /* A held column is cut by fit_cell(), the last one by libsmartcols. */
                if (i + 1 < cols->n)
                        flags &= ~COLF_TRUNC;

                /* MESSAGE wraps wherever it is; the last column may be cut if all else fails. */
                if (i + 1 == cols->n && !(flags & (COLF_WRAP | COLF_TRUNC)))
                        flags |= COLF_TRUNC;
                t->cols[i] = scols_table_new_column(t->tb, column_heading(&cols->v[i]),
                                                    i + 1 < cols->n || cols->v[i].id == COL_MESSAGE ? ci->whint : 0.1,
                                                    flags_to_scols(flags));
                if (!t->cols[i]) {
                        return -ENOMEM;
                }
                t->n_cols = i + 1;
                if (i + 1 < cols->n) {
                        t->widths[i] = ci->whint >= 1 ? (size_t)ci->whint : 0;
                        if (set_heading(t, i) < 0) {
                                return -ENOMEM;
                        }
                }
        }
        return 0;
}

const struct sink_ops sink_table_ops = {
        .size = sizeof(struct table_sink),
        .init = table_init,
        .record = table_record,
        .loss = table_loss,
        .finish = table_finish,
        .free = table_free,
};
