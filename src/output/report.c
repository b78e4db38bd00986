/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scaffolding the reports share (report.h): their tables, their JSON Lines, their groups in order. */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "output/report.h"
#include "text/escape.h"
#include "text/fit.h"
#include "text/writer.h"

struct libscols_table *report_table_new(const struct report_column *cols, size_t n, unsigned long hidden,
                                        bool noheadings) {
        struct libscols_table *tb = scols_new_table();
        size_t i;

        if (!tb)
                return NULL;
        scols_table_enable_noencoding(tb, 1);
        scols_table_enable_noheadings(tb, noheadings);
        for (i = 0; i < n; i++) {
                int flags = cols[i].flags | (hidden & (1ul << i) ? SCOLS_FL_HIDDEN : 0);
                struct libscols_column *cl = scols_table_new_column(tb, cols[i].name, cols[i].width, flags);

                if (!cl || (cols[i].json && scols_column_set_json_type(cl, cols[i].json) < 0)) {
                        scols_unref_table(tb);
                        return NULL;
                }
        }
        return tb;
}

/* The text of cell i of ln and its width on the screen; an empty cell is "". */
static struct fit_cell cell_of(struct libscols_line *ln, size_t i) {
        struct libscols_cell *ce = scols_line_get_cell(ln, i);
        const char *d = ce ? scols_cell_get_data(ce) : NULL;
        struct fit_cell c = { "", 0, 0, NULL };

        if (d && *d) {
                c.s = d;
                c.len = strlen(d);
                c.width = text_width(d, c.len, SIZE_MAX, NULL);
        }
        return c;
}

/*
 * The columns that gave way to the terminal's width, said once under the
 * report, as the table says them: piped, every column shows.
 */
static void say_spared(const struct fit *f) {
        /* TRANSLATORS: "| less -S" is a shell pipe to the pager. */
        fit_say_spared(f, _("| less -S shows every column"));
}

/*
 * tb's lines laid out for a terminal termwidth columns wide: the columns
 * shown (idx[j]: the table's column of fit column j), measured, then
 * printed.
 */
static int print_fitted(struct libscols_table *tb, const struct report_column *cols, size_t n, size_t termwidth,
                        bool wrap) {
        struct fit_column *fc = calloc(n ? n : 1, sizeof(*fc));
        struct fit_cell *cells = calloc(n ? n : 1, sizeof(*cells));
        size_t *idx = calloc(n ? n : 1, sizeof(*idx));
        struct libscols_iter *itr = scols_new_iter(SCOLS_ITER_FORWARD);
        struct libscols_line *ln;
        struct fit *f = NULL;
        size_t i, k = 0;
        int e = -ENOMEM;

        if (!fc || !cells || !idx || !itr)
                goto out;
        for (i = 0; i < n && i < scols_table_get_ncols(tb); i++) {
                if (scols_column_is_hidden(scols_table_get_column(tb, i)))
                        continue;
                fc[k].heading = cols[i].name;
                fc[k].flags = (cols[i].flags & SCOLS_FL_RIGHT ? FIT_RIGHT : 0) |
                              (cols[i].free ? FIT_FREE : FIT_OPTIONAL);
                fc[k].spare = cols[i].spare;
                fc[k].min = cols[i].free ? cols[i].keep : 0;
                idx[k++] = i;
        }
        f = fit_new(fc, k, termwidth, wrap);
        if (!f)
                goto out;
        while (scols_table_next_line(tb, itr, &ln) == 0) {
                for (i = 0; i < k; i++)
                        fit_measure(f, i, cell_of(ln, idx[i]).width);
                fit_row_done(f);
        }
        fit_lay_out(f);
        if (!scols_table_is_noheadings(tb))
                fit_print_heading(f);
        scols_reset_iter(itr, SCOLS_ITER_FORWARD);
        while (scols_table_next_line(tb, itr, &ln) == 0) {
                for (i = 0; i < k; i++)
                        cells[i] = cell_of(ln, idx[i]);
                fit_print_row(f, cells);
        }
        say_spared(f);
        e = 0;
out:
        fit_free(f);
        scols_free_iter(itr);
        free(idx);
        free(cells);
        free(fc);
        return e;
}

int report_table_print(const struct sink *s, struct libscols_table *tb, const struct report_column *cols, size_t n,
                       int e) {
        if (e < 0 || !s->termwidth)
                return table_print_free(tb, e);
        e = print_fitted(tb, cols, n, s->termwidth, s->settings->wrap);
        scols_unref_table(tb);
        return e;
}

int report_json_line(struct json_object *o) {
        const char *text;
        size_t len;

        if (!o)
                return -ENOMEM;
        text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
        if (text) {
                out_write(text, len);
                out_putc('\n');
        }
        json_object_put(o);
        return text ? 0 : -ENOMEM;
}

struct list {
        struct strmap_node **v;
        size_t n;
};

static void list_one(struct strmap_node *node, void *userdata) {
        struct list *l = userdata;

        l->v[l->n++] = node;
}

struct strmap_node **report_sorted(const struct strmap *m, size_t extra, int (*cmp)(const void *, const void *),
                                   size_t *ret_n) {
        struct list l = { .n = 0 };

        l.v = calloc(m->n + extra ? m->n + extra : 1, sizeof(*l.v));
        if (!l.v)
                return NULL;
        strmap_each(m, list_one, &l);
        qsort(l.v, l.n, sizeof(*l.v), cmp);
        *ret_n = l.n;
        return l.v;
}

void report_map_free(struct strmap *m, void (*fn)(struct strmap_node *node, void *userdata)) {
        if (m)
                strmap_each(m, fn, NULL);
        strmap_free(m);
}

unsigned report_unread_sources(const struct sink *s) {
        return s->settings->unread ? s->settings->unread->sources : 0;
}

bool report_unread_line(const struct sink *s, bool json_done) {
        const struct input_unread *u = s->settings->unread;
        char *name, *line = NULL;
        int n;

        if (!u || u->sources == 0)
                return false;
        if (s->settings->json) {
                if (!json_done) {
                        out_puts("{\"unread_inputs\":");
                        out_u64_digits(u->sources);
                        out_puts("}\n");
                        sink_end_item(s);
                }
                return true;
        }
        /* A file name may hold any byte: escaped as every other text. */
        name = text_safe_dup(u->first ? u->first : "?", u->first ? strlen(u->first) : 1, false);
        if (!name)
                return true;
        if (u->sources > 1)
                n = asprintf(&line, _("-- No verdict on %u inputs: they could not be read --\n"), u->sources);
        else if (u->partly)
                n = asprintf(&line, _("-- No verdict on the rest of %s: it could not be read --\n"), name);
        else
                n = asprintf(&line, _("-- No verdict on %s: it could not be read --\n"), name);
        if (n >= 0)
                out_puts(line);
        free(line);
        free(name);
        return true;
}
