/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A table batch laid out by kdmesg: see table-plain.h.  The cells of a
 * batch are kept in one growing buffer, with their offsets, lengths and
 * widths; nothing is allocated per cell.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "output.h"
#include "table-plain.h"

struct cell {
        size_t off, len, width; /* len 0: empty */
};

struct table_plain {
        const struct columns *cols;
        struct table_layout *lo;
        size_t n; /* columns */
        char *text; /* every cell of the batch */
        size_t text_len, text_cap;
        struct cell *cells; /* rows * n */
        size_t rows, rows_cap;
        size_t *w; /* the widths of the batch, laid out */
};

static const char SPACES[] = "                                                                ";

bool table_plain_fits(const struct columns *cols, const struct table_layout *lo) {
        return cols->n > 0 && table_layout_termwidth(lo) == 0 &&
               !(column_info[cols->v[cols->n - 1].id].flags & COLF_RIGHT);
}

struct table_plain *table_plain_new(const struct columns *cols, struct table_layout *lo) {
        struct table_plain *p = calloc(1, sizeof(*p));

        if (!p)
                return NULL;
        p->cols = cols;
        p->lo = lo;
        p->n = cols->n;
        p->w = calloc(p->n ? p->n : 1, sizeof(*p->w));
        if (!p->w) {
                free(p);
                return NULL;
        }
        return p;
}

void table_plain_free(struct table_plain *p) {
        if (!p)
                return;
        free(p->text);
        free(p->cells);
        free(p->w);
        free(p);
}

size_t table_plain_rows(const struct table_plain *p) {
        return p->rows;
}

int table_plain_row(struct table_plain *p) {
        if (p->rows == p->rows_cap) {
                size_t cap = p->rows_cap ? p->rows_cap * 2 : 64;
                struct cell *c = realloc(p->cells, cap * p->n * sizeof(*c));

                if (!c)
                        return -ENOMEM;
                p->cells = c;
                p->rows_cap = cap;
        }
        memset(p->cells + p->rows * p->n, 0, p->n * sizeof(*p->cells));
        p->rows++;
        return 0;
}

char *table_plain_reserve(struct table_plain *p, size_t max) {
        if (max > SIZE_MAX / 2 - p->text_len)
                return NULL;
        if (p->text_len + max > p->text_cap) {
                size_t cap = p->text_cap ? p->text_cap : 65536;
                char *t;

                while (cap < p->text_len + max)
                        cap *= 2;
                t = realloc(p->text, cap);
                if (!t)
                        return NULL;
                p->text = t;
                p->text_cap = cap;
        }
        return p->text + p->text_len;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* The display width of a cell's text (made safe: printable ASCII and valid UTF-8). */
static size_t cell_width(const char *s, size_t len) {
        size_t i = 0;

        for (; i + 8 <= len; i += 8) {
                uint64_t v;

                memcpy(&v, s + i, 8);
                if (v & HIGHS)
                        return text_width(s, len, SIZE_MAX, NULL);
        }
        for (; i < len; i++)
                if ((unsigned char)s[i] >= 0x80)
                        return text_width(s, len, SIZE_MAX, NULL);
        /* Printable ASCII: a column a byte. */
        return len;
}

void table_plain_commit(struct table_plain *p, size_t col, size_t len) {
        struct cell *c = &p->cells[(p->rows - 1) * p->n + col];

        c->off = p->text_len;
        c->len = len;
        c->width = cell_width(p->text + p->text_len, len);
        p->text_len += len;
}

int table_plain_set(struct table_plain *p, size_t col, const char *s, size_t len) {
        char *d = table_plain_reserve(p, len);

        if (!d)
                return -ENOMEM;
        memcpy(d, s, len);
        table_plain_commit(p, col, len);
        return 0;
}

bool table_plain_lay_out(struct table_plain *p) {
        bool widened = false;
        size_t i, r;

        for (i = 0; i + 1 < p->n; i++) {
                size_t w = table_layout_width(p->lo, i), h = strlen(column_heading(&p->cols->v[i]));

                if (w < h)
                        w = h;
                for (r = 0; r < p->rows; r++)
                        if (p->cells[r * p->n + i].width > w)
                                w = p->cells[r * p->n + i].width;
                p->w[i] = w;
                if (table_layout_shown(p->lo, i) && w > table_layout_shown(p->lo, i))
                        widened = true;
        }
        return widened;
}

static void pad(size_t n) {
        while (n > 0) {
                size_t k = n < sizeof(SPACES) - 1 ? n : sizeof(SPACES) - 1;

                out_write(SPACES, k);
                n -= k;
        }
}

/* Text of width tw in column i, aligned and padded (not the last column), then the separator. */
static void put_cell(const struct table_plain *p, size_t i, const char *s, size_t len, size_t tw) {
        size_t w = p->w[i];

        if (i + 1 == p->n) {
                out_write(s, len);
                return;
        }
        if (column_info[p->cols->v[i].id].flags & COLF_RIGHT) {
                pad(w > tw ? w - tw : 0);
                out_write(s, len);
        } else {
                out_write(s, len);
                pad(w > tw ? w - tw : 0);
        }
        out_putc(' ');
}

void table_plain_print_heading(struct table_plain *p) {
        size_t i;

        for (i = 0; i < p->n; i++) {
                const char *h = column_heading(&p->cols->v[i]);
                size_t len = strlen(h);

                put_cell(p, i, h, len, len);
        }
        out_putc('\n');
        for (i = 0; i + 1 < p->n; i++) {
                table_layout_hold(p->lo, i, p->w[i]);
                table_layout_show(p->lo, i, p->w[i], true);
        }
}

void table_plain_print_rows(struct table_plain *p) {
        size_t i, r;

        for (r = 0; r < p->rows; r++) {
                const struct cell *c = &p->cells[r * p->n];

                for (i = 0; i < p->n; i++)
                        put_cell(p, i, p->text + c[i].off, c[i].len, c[i].width);
                out_putc('\n');
        }
        for (i = 0; i + 1 < p->n; i++) {
                table_layout_hold(p->lo, i, p->w[i]);
                table_layout_show(p->lo, i, p->w[i], false);
        }
        p->rows = 0;
        p->text_len = 0;
}
