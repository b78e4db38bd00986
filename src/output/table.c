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
 * taken from the record once (table-cells.c), then laid out by table-plain.c
 * or given to libsmartcols (scols_cell()).  Cell text is escaped as in
 * the classic view, plus tabs; libsmartcols's own encoding is off.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "base/i18n.h"
#include "output/loss-text.h"
#include "output/loss.h"
#include "output/table-private.h"
#include "text/escape.h"
#include "text/writer.h"

#define TABLE_BATCH 512
/* Marks held until the heading can be printed; more are printed after a heading of default widths. */
#define HELD_MAX 16

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
                p = x->len < SIZE_MAX / 4 ? table_col_buf(t, i, x->len * 4 + 1) : NULL;
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

/* LEVEL in the level's color for libsmartcols, which takes the escapes out of the width (table-cells.c colors the others). */
static int level_color(struct libscols_line *ln, size_t i, unsigned lvl) {
        if (!color_slot_set(COLOR_EMERG + lvl))
                return 0;
        return scols_cell_set_color(scols_line_get_cell(ln, i), color_state.slots[COLOR_EMERG + lvl]);
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
                e = table_fill_cell(t, i, &cols->v[i], r, m);
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
                        if (e >= 0 && cols->v[i].id == COL_LEVEL && color_enabled() && kmsg_record_has_priority(r))
                                e = level_color(ln, i, kmsg_record_get_level(r) & 7);
                        if (e >= 0 && t->src[i].color && t->src[i].kind == TABLE_PLAIN_TEXT)
                                e = scols_cell_set_color(scols_line_get_cell(ln, i), t->src[i].color);
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

/*
 * The default columns left out to fit the terminal (fit.h's spare ones),
 * said once under the table: the columns change with the width, and a
 * person must not look for one in vain.  Nothing for the empty ones.
 */
static void say_spared(struct table_sink *t) {
        const struct columns *cols = t->s.settings->columns;
        char names[256] = "", line[512];
        size_t i, n = 0;

        for (i = 0; t->plain && i < cols->n; i++) {
                if (!table_plain_spared(t->plain, i))
                        continue;
                n += (size_t)snprintf(names + n, n < sizeof(names) ? sizeof(names) - n : 0, "%s%s", n ? ", " : "",
                                      column_heading(&cols->v[i]));
        }
        if (n == 0 || n >= sizeof(names))
                return;
        /* TRANSLATORS: %2$s lists column headings (SUBSYSTEM, DEVICE); -o is the option. */
        snprintf(line, sizeof(line), _("-- Not shown at %1$zu columns: %2$s (-o names columns to keep) --"),
                 t->s.termwidth, names);
        out_puts(line);
        out_putc('\n');
}

static int table_finish(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;
        int e;

        if (t->n_lines > 0) {
                e = flush_batch(t);
                if (e < 0)
                        return e;
        } else {
                if (!t->printed) {
                        e = print_heading(t);
                        if (e < 0)
                                return e;
                }
                write_held(t);
        }
        say_spared(t);
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

static int table_init(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;

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
        }
        table_level_names(t, t->plain != NULL);
        if (!t->plain && color_enabled())
                scols_table_enable_colors(t->tb, 1);
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
