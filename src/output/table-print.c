/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=table: what is printed of the rows table.c collects: each batch
 * (laid out by table-plain.c or by libsmartcols), the heading (again when
 * a batch moves the columns), the marks (a loss, a boot) as lines of their
 * own, held until the heading is out, and at the end the line that says
 * which columns gave way to the terminal's width.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "base/i18n.h"
#include "output/loss-text.h"
#include "output/loss.h"
#include "output/table-private.h"
#include "text/writer.h"

/* Marks held until the heading can be printed; more are printed after a heading of default widths. */
#define HELD_MAX 16

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
int table_flush_batch(struct table_sink *t) {
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

        e = table_flush_batch(t);
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

int table_loss(struct sink *s, const struct kmsg_loss *l) {
        struct mark m = { .loss = (struct kmsg_loss *)l };

        return table_mark(s, &m);
}

int table_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        struct mark m = { .boot = n };

        return table_mark(s, &m);
}

/*
 * The default columns left out to fit the terminal (fit.h's spare ones),
 * said once under the table: the columns change with the width, and a
 * person must not look for one in vain.  Nothing for the empty ones.
 */
static void say_spared(struct table_sink *t) {
        /* TRANSLATORS: -o is the option. */
        if (t->plain)
                table_plain_say_spared(t->plain, _("-o names columns to keep"));
}

int table_finish(struct sink *s) {
        struct table_sink *t = (struct table_sink *)s;
        int e;

        if (t->n_lines > 0) {
                e = table_flush_batch(t);
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
