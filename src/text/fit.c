/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Columns laid out for the terminal: see fit.h. */
#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "text/escape.h"
#include "text/fit.h"
#include "text/writer.h"

struct fit {
        const struct fit_column *cols;
        size_t n, termwidth;
        bool wrap;
        const char *ell; /* the ellipsis and its width */
        size_t ell_len, ell_w;
        size_t *head;    /* the headings' widths */
        size_t *natural; /* the widest cell of each column so far */
        size_t *w;       /* laid out: each column's width, 0: left out */
        size_t *shown;   /* the widths of the lines printed so far */
        bool printed;    /* lines were laid out before (shown holds) */
        size_t rows;     /* rows measured */
        char *line;      /* the line being put together */
        size_t line_len, line_cap, line_keep;
        size_t *pos;     /* wrapping: how far each free cell is printed */
        bool *out;       /* a free column left out for the others (its spare rank) */
        bool *spared;    /* left out to fit, in a layout so far (fit_spared()) */
};

struct fit *fit_free(struct fit *f) {
        if (!f)
                return NULL;
        free(f->head);
        free(f->natural);
        free(f->w);
        free(f->shown);
        free(f->pos);
        free(f->out);
        free(f->spared);
        free(f->line);
        free(f);
        return NULL;
}

struct fit *fit_new(const struct fit_column *cols, size_t n, size_t termwidth, bool wrap) {
        struct fit *f = calloc(1, sizeof(*f));
        size_t i, k = n ? n : 1;

        if (!f)
                return NULL;
        f->cols = cols;
        f->n = n;
        f->termwidth = termwidth;
        f->wrap = wrap;
        f->head = calloc(k, sizeof(*f->head));
        f->natural = calloc(k, sizeof(*f->natural));
        f->w = calloc(k, sizeof(*f->w));
        f->shown = calloc(k, sizeof(*f->shown));
        f->pos = calloc(k, sizeof(*f->pos));
        f->out = calloc(k, sizeof(*f->out));
        f->spared = calloc(k, sizeof(*f->spared));
        if (!f->head || !f->natural || !f->w || !f->shown || !f->pos || !f->out || !f->spared)
                return fit_free(f);
        for (i = 0; i < n; i++)
                f->head[i] = text_width(cols[i].heading, strlen(cols[i].heading), SIZE_MAX, NULL);
        f->ell = strcmp(nl_langinfo(CODESET), "UTF-8") == 0 ? "\xe2\x80\xa6" : "...";
        f->ell_len = strlen(f->ell);
        f->ell_w = f->ell_len == 3 && f->ell[0] == '.' ? 3 : 1;
        return f;
}

void fit_measure(struct fit *f, size_t i, size_t width) {
        if (width > f->natural[i])
                f->natural[i] = width;
}

void fit_row_done(struct fit *f) {
        f->rows++;
}

static inline size_t max_size(size_t a, size_t b) {
        return a > b ? a : b;
}

/*
 * The free columns share avail: those narrower than an even share get
 * their width and leave the rest to the others, round by round; the
 * others split what is left (the first ones one column more when it does
 * not divide), each at least a column.
 */
static void share(struct fit *f, size_t avail, size_t nfree) {
        bool more = true;
        size_t i, left = nfree, k, total = 0;

        for (i = 0; i < f->n; i++)
                if (f->cols[i].flags & FIT_FREE) {
                        f->w[i] = 0;
                        if (!f->out[i])
                                total += max_size(f->natural[i], f->head[i]);
                }
        /* Short of room: a column with a min keeps up to min whole before the others share the rest. */
        for (i = 0; total > avail && i < f->n && left > 1; i++) {
                size_t keep;

                if (!(f->cols[i].flags & FIT_FREE) || f->out[i] || !f->cols[i].min)
                        continue;
                keep = max_size(f->natural[i], f->head[i]);
                if (keep > f->cols[i].min)
                        keep = f->cols[i].min;
                if (keep > avail)
                        keep = avail;
                f->w[i] = max_size(keep, 1);
                avail -= f->w[i] < avail ? f->w[i] : avail;
                left--;
        }
        while (more && left > 0) {
                more = false;
                for (i = 0; i < f->n; i++) {
                        size_t want = max_size(f->natural[i], f->head[i]);

                        if (!(f->cols[i].flags & FIT_FREE) || f->out[i] || f->w[i] || want > avail / left)
                                continue;
                        f->w[i] = want;
                        avail -= want;
                        left--;
                        more = true;
                        if (left == 0)
                                break;
                }
        }
        for (i = 0, k = 0; i < f->n && left > 0; i++) {
                size_t part;

                if (!(f->cols[i].flags & FIT_FREE) || f->out[i] || f->w[i])
                        continue;
                part = avail / left + (k < avail % left ? 1 : 0);
                /* Narrower than its heading, rather than a line wider than the terminal. */
                f->w[i] = max_size(part, 1);
                k++;
        }
}

/* What the free columns shown need: min (at most their width) where they have one, else FIT_FREE_MIN. */
static size_t free_need(const struct fit *f) {
        size_t i, need = 0;

        for (i = 0; i < f->n; i++) {
                size_t want = max_size(f->natural[i], f->head[i]);

                if (!(f->cols[i].flags & FIT_FREE) || f->out[i])
                        continue;
                need += f->cols[i].min ? (want < f->cols[i].min ? want : f->cols[i].min) : FIT_FREE_MIN;
        }
        return need;
}

bool fit_lay_out(struct fit *f) {
        size_t i, used = 0, shown = 0, nfree = 0, last = f->n ? f->n - 1 : 0;
        bool moved = false;

        for (i = 0; i < f->n; i++) {
                if (f->cols[i].flags & FIT_FREE) {
                        f->out[i] = false;
                        nfree++;
                        shown++;
                        continue;
                }
                /* Left out while empty in every row; with no row at all, every heading shows. */
                if ((f->cols[i].flags & FIT_OPTIONAL) && f->rows > 0 && f->natural[i] == 0) {
                        f->w[i] = 0;
                        continue;
                }
                f->w[i] = max_size(max_size(f->natural[i], f->head[i]), f->cols[i].min);
                used += f->w[i];
                shown++;
        }
        used += shown > 0 ? shown - 1 : 0;
        while (nfree > 0 && used + free_need(f) > f->termwidth) {
                size_t drop = f->n;

                for (i = 0; i < f->n; i++)
                        if (f->cols[i].spare && ((f->cols[i].flags & FIT_FREE) ? !f->out[i] && nfree > 1 : f->w[i] != 0) &&
                            (drop == f->n || f->cols[i].spare < f->cols[drop].spare))
                                drop = i;
                if (drop == f->n)
                        break;
                f->spared[drop] = true;
                if (f->cols[drop].flags & FIT_FREE) {
                        f->out[drop] = true;
                        nfree--;
                        used -= 1;
                } else {
                        used -= f->w[drop] + 1;
                        f->w[drop] = 0;
                }
        }
        if (nfree > 0)
                share(f, f->termwidth > used ? f->termwidth - used : 0, nfree);
        /* The last column is not padded: its width moves nothing, whether it shows does. */
        for (i = 0; f->printed && i < f->n; i++)
                if (i < last ? f->w[i] != f->shown[i] : (f->w[i] == 0) != (f->shown[i] == 0))
                        moved = true;
        memcpy(f->shown, f->w, f->n * sizeof(*f->w));
        f->printed = true;
        return moved;
}

size_t fit_width(const struct fit *f, size_t i) {
        return f->w[i];
}

void fit_say_spared(const struct fit *f, const char *hint) {
        char names[256], line[512];
        size_t i, n = 0;

        for (i = 0; i < f->n && n < sizeof(names); i++)
                if (f->spared[i])
                        n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "", f->cols[i].heading);
        if (n == 0 || n >= sizeof(names))
                return;
        /* TRANSLATORS: %2$s lists column headings (DEVICE, FIRST); %3$s says how to see them all. */
        snprintf(line, sizeof(line), _("-- Not shown at %1$zu columns: %2$s (%3$s) --"), f->termwidth, names, hint);
        /* The line itself fits the terminal: without the hint where it would not. */
        if (text_width(line, strlen(line), SIZE_MAX, NULL) > f->termwidth)
                snprintf(line, sizeof(line), _("-- Not shown at %1$zu columns: %2$s --"), f->termwidth, names);
        out_puts(line);
        out_putc('\n');
}

/* Append s[0..len) to the line; text (not padding) moves the end that is kept. */
static void put(struct fit *f, const char *s, size_t len, bool text) {
        if (len == 0)
                return;
        if (f->line_len + len > f->line_cap) {
                size_t cap = f->line_cap ? f->line_cap : 256;
                char *p;

                while (cap < f->line_len + len)
                        cap *= 2;
                p = realloc(f->line, cap);
                if (!p) {
                        /* Out of memory: what the line has so far, then the rest straight. */
                        out_write(f->line, f->line_keep);
                        f->line_len = f->line_keep = 0;
                        out_write(s, len);
                        return;
                }
                f->line = p;
                f->line_cap = cap;
        }
        memcpy(f->line + f->line_len, s, len);
        f->line_len += len;
        if (text)
                f->line_keep = f->line_len;
}

static void put_spaces(struct fit *f, size_t n) {
        static const char spaces[] = "                                ";

        while (n > 0) {
                size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

                put(f, spaces, k, false);
                n -= k;
        }
}

/* The line without the padding after its last text. */
static void end_line(struct fit *f) {
        out_write(f->line, f->line_keep);
        out_putc('\n');
        f->line_len = f->line_keep = 0;
}

#define COLOR_RESET "\x1b[0m"

/* Text in color (NULL: none); escapes take no column. */
static void put_colored(struct fit *f, const char *color, const char *s, size_t len) {
        if (color && len)
                put(f, color, strlen(color), true);
        put(f, s, len, true);
        if (color && len)
                put(f, COLOR_RESET, sizeof(COLOR_RESET) - 1, true);
}

/* Text of width tw in column i, aligned in it, after the separator when it is not the first shown. */
static void put_cell(struct fit *f, size_t i, bool first, const char *s, size_t len, size_t tw, const char *color) {
        size_t pad = f->w[i] > tw ? f->w[i] - tw : 0;

        if (!first)
                put_spaces(f, 1);
        if (f->cols[i].flags & FIT_RIGHT)
                put_spaces(f, pad);
        put_colored(f, color, s, len);
        if (!(f->cols[i].flags & FIT_RIGHT))
                put_spaces(f, pad);
}

/*
 * A cut at s[cut] moved back to the start of an escape \xNN it would split:
 * in safe text every "\x" starts one (a backslash before an x is itself
 * escaped), and "\x1" before an ellipsis would read as another byte.
 */
static size_t whole_escape(const char *s, size_t len, size_t cut) {
        size_t k;

        for (k = cut > 3 ? cut - 3 : 0; k < cut; k++)
                if (s[k] == '\\' && k + 1 < len && s[k + 1] == 'x')
                        return k;
        return cut;
}

/* A free cell in w columns: as it is, or cut to leave room for the ellipsis. */
static void put_cut(struct fit *f, size_t i, bool first, const struct fit_cell *c) {
        size_t w = f->w[i], cut, tw, k;

        if (c->width <= w) {
                put_cell(f, i, first, c->s, c->len, c->width, c->color);
                return;
        }
        if (w <= f->ell_w) {
                tw = text_width(c->s, c->len, w, &cut);
                put_cell(f, i, first, c->s, cut, tw, c->color);
                return;
        }
        tw = text_width(c->s, c->len, w - f->ell_w, &cut);
        k = whole_escape(c->s, c->len, cut);
        tw -= cut - k; /* an escape is ASCII: a column a byte */
        cut = k;
        if (!first)
                put_spaces(f, 1);
        if (c->color)
                put(f, c->color, strlen(c->color), true);
        put(f, c->s, cut, true);
        put(f, f->ell, f->ell_len, true);
        if (c->color)
                put(f, COLOR_RESET, sizeof(COLOR_RESET) - 1, true);
        put_spaces(f, w - f->ell_w - tw);
}

/*
 * The next piece of c from *pos that fits in w columns: up to the last
 * space that lets it fit (a word wider than the column is broken); *pos
 * moves past it and the spaces after it.  Returns the piece's length;
 * *ret_w its width.
 */
static size_t next_piece(const struct fit_cell *c, size_t *pos, size_t w, size_t *ret_w) {
        const char *s = c->s + *pos;
        size_t rest = c->len - *pos, cut, end, next;

        text_width(s, rest, w, &cut);
        if (cut >= rest) {
                end = next = rest;
        } else {
                for (end = cut; end > 0 && s[end] != ' '; end--)
                        ;
                if (end == 0) {
                        /* One word wider than the column: broken, but not inside an escape. */
                        end = whole_escape(s, rest, cut);
                        if (end == 0)
                                end = cut > 0 ? cut : 1;
                }
                next = end;
                while (end > 0 && s[end - 1] == ' ')
                        end--;
                if (end == 0)
                        end = next;
                while (next < rest && s[next] == ' ')
                        next++;
        }
        *pos += next;
        *ret_w = text_width(s, end, SIZE_MAX, NULL);
        return end;
}

void fit_print_heading(struct fit *f) {
        bool first = true;
        size_t i;

        for (i = 0; i < f->n; i++) {
                struct fit_cell h = { f->cols[i].heading, strlen(f->cols[i].heading), f->head[i], NULL };

                if (!f->w[i])
                        continue;
                /* Only a free column can be narrower than its heading. */
                put_cut(f, i, first, &h);
                first = false;
        }
        end_line(f);
}

void fit_print_row(struct fit *f, const struct fit_cell *cells) {
        bool first, more;
        size_t i, line;

        if (!f->wrap) {
                for (i = 0, first = true; i < f->n; i++) {
                        if (!f->w[i])
                                continue;
                        if (!cells[i].len)
                                put_cell(f, i, first, "", 0, 0, NULL);
                        else if (f->cols[i].flags & FIT_FREE)
                                put_cut(f, i, first, &cells[i]);
                        else
                                put_cell(f, i, first, cells[i].s, cells[i].len, cells[i].width, cells[i].color);
                        first = false;
                }
                end_line(f);
                return;
        }
        memset(f->pos, 0, f->n * sizeof(*f->pos));
        for (line = 0, more = true; more; line++) {
                more = false;
                for (i = 0, first = true; i < f->n; i++) {
                        size_t len = 0, tw = 0;
                        const char *s = "";

                        if (!f->w[i])
                                continue;
                        /* An empty cell's s may be NULL. */
                        if (cells[i].len && (f->cols[i].flags & FIT_FREE)) {
                                s = cells[i].s + f->pos[i];
                                if (f->pos[i] < cells[i].len)
                                        len = next_piece(&cells[i], &f->pos[i], f->w[i], &tw);
                                more |= f->pos[i] < cells[i].len;
                        } else if (cells[i].len && line == 0) {
                                s = cells[i].s;
                                len = cells[i].len;
                                tw = cells[i].width;
                        }
                        put_cell(f, i, first, s, len, tw, cells[i].color);
                        first = false;
                }
                end_line(f);
        }
}
