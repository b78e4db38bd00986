/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A table batch laid out by kdmesg: see table-plain.h.  The rows of a
 * batch are kept in one growing buffer, laid out as they come, with the
 * offsets, lengths and widths of their cells; nothing is allocated per
 * cell, each cell is measured once, and a row takes one pass.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "text/escape.h"
#include "text/fit.h"
#include "text/writer.h"
#include "text/table-plain.h"

/* Bytes a row may write past its end: spaces sixteen at a time. */
#define SLACK 16

/*
 * A cell's text in the batch buffer, unpadded; len 0: empty.  A text
 * cell's color (table_plain_src's), on a terminal, is kept apart
 * (colors[]) and goes around the pieces fit.c prints.
 */
struct cell {
        size_t off, len, width;
};

struct table_plain {
        const struct columns *cols;
        struct table_layout *lo;
        size_t n;           /* columns */
        char *text;         /* the rows of the batch, laid out */
        size_t text_len, text_cap;
        struct cell *cells; /* rows * n */
        size_t rows, rows_cap;
        size_t *w;          /* the widths of the batch so far */
        size_t *head;       /* the headings' lengths */
        bool *right;        /* right-aligned columns */
        bool repad;         /* a column widened under rows laid out narrower */
        struct fit *fit;    /* on a terminal: the layout that fits it (the rows are printed through it); else NULL */
        struct fit_column *fit_cols;
        struct fit_cell *fit_cells; /* a row's */
        const char **colors; /* on a terminal with colors: each cell's color (rows * n, as cells); else NULL */
        bool colored;        /* colors are on: a text cell may have one */
};

static const char SPACES[] = "                                                                ";

bool table_plain_fits(const struct columns *cols, const struct table_layout *lo) {
        return cols->n > 0 && table_layout_termwidth(lo) == 0 &&
               !(column_info[cols->v[cols->n - 1].id].flags & COLF_RIGHT);
}

/* A batch starts at the widths held, at least the headings'. */
static void start_widths(struct table_plain *p) {
        size_t i;

        for (i = 0; i + 1 < p->n; i++) {
                size_t w = table_layout_width(p->lo, i);

                p->w[i] = w > p->head[i] ? w : p->head[i];
        }
}

/* The layout for a terminal termwidth columns wide: MESSAGE and DICT are free text, the default columns optional (DEVICE and SUBSYSTEM spare). */
static int fit_setup(struct table_plain *p, size_t termwidth, bool wrap) {
        size_t i;

        p->fit_cols = calloc(p->n ? p->n : 1, sizeof(*p->fit_cols));
        p->fit_cells = calloc(p->n ? p->n : 1, sizeof(*p->fit_cells));
        if (!p->fit_cols || !p->fit_cells)
                return -ENOMEM;
        for (i = 0; i < p->n; i++) {
                const struct column_info *ci = &column_info[p->cols->v[i].id];
                unsigned f = ci->flags;

                p->fit_cols[i].heading = column_heading(&p->cols->v[i]);
                p->fit_cols[i].flags = (f & COLF_RIGHT ? FIT_RIGHT : 0) | (f & COLF_FREE ? FIT_FREE : 0) |
                                       (p->cols->v[i].optional ? FIT_OPTIONAL : 0);
                /* As wide as the table's width hint from the start, as elsewhere: fewer headings again. */
                p->fit_cols[i].min = ci->whint >= 1 ? (size_t)ci->whint : 0;
                /* The default set's DEVICE, then SUBSYSTEM, give way to MESSAGE on a narrow terminal. */
                if (p->cols->v[i].optional && p->cols->v[i].id == COL_DEVICE)
                        p->fit_cols[i].spare = 1;
                else if (p->cols->v[i].optional && p->cols->v[i].id == COL_SUBSYSTEM)
                        p->fit_cols[i].spare = 2;
        }
        p->fit = fit_new(p->fit_cols, p->n, termwidth, wrap);
        return p->fit ? 0 : -ENOMEM;
}

struct table_plain *table_plain_new(const struct columns *cols, struct table_layout *lo, size_t termwidth, bool wrap,
                                    bool colored) {
        struct table_plain *p = calloc(1, sizeof(*p));
        size_t i;

        if (!p)
                return NULL;
        p->cols = cols;
        p->lo = lo;
        p->n = cols->n;
        p->w = calloc(p->n ? p->n : 1, sizeof(*p->w));
        p->head = calloc(p->n ? p->n : 1, sizeof(*p->head));
        p->right = calloc(p->n ? p->n : 1, sizeof(*p->right));
        if (!p->w || !p->head || !p->right) {
                table_plain_free(p);
                return NULL;
        }
        for (i = 0; i < p->n; i++) {
                p->head[i] = strlen(column_heading(&cols->v[i]));
                /* The last column is not padded: not aligned either. */
                p->right[i] = i + 1 < p->n && (column_info[cols->v[i].id].flags & COLF_RIGHT);
        }
        start_widths(p);
        p->colored = colored;
        if (termwidth && fit_setup(p, termwidth, wrap) < 0) {
                table_plain_free(p);
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
        free(p->head);
        free(p->right);
        fit_free(p->fit);
        free(p->colors);
        free(p->fit_cols);
        free(p->fit_cells);
        free(p);
}

/* Room for one more row's cells. */
static int more_rows(struct table_plain *p) {
        size_t cap = p->rows_cap ? p->rows_cap * 2 : 64;
        struct cell *c = realloc(p->cells, cap * p->n * sizeof(*c));

        if (!c)
                return -ENOMEM;
        p->cells = c;
        if (p->fit && p->colored) {
                const char **k = realloc(p->colors, cap * p->n * sizeof(*k));

                if (!k)
                        return -ENOMEM;
                p->colors = k;
        }
        p->rows_cap = cap;
        return 0;
}

/* Room for need more bytes after used ones, and the slack. */
static char *grow(struct table_plain *p, size_t used, size_t need) {
        size_t cap = p->text_cap ? p->text_cap : 65536;
        char *t;

        if (need >= SIZE_MAX / 4 || used > SIZE_MAX / 4)
                return NULL;
        while (cap < used + need + SLACK)
                cap *= 2;
        t = realloc(p->text, cap);
        if (!t)
                return NULL;
        p->text = t;
        p->text_cap = cap;
        return t;
}

/* Spaces from d to at least d + n, and at least sixteen (there is room for SLACK bytes more). */
static inline void spaces(char *d, size_t n) {
        size_t k;

        memcpy(d, "                ", 16);
        for (k = 16; k < n; k += 8)
                memcpy(d + k, "        ", 8);
}

/* s[0..n) to d, short ones without a call. */
static inline void copy(char *d, const char *s, size_t n) {
        uint64_t a, b;
        uint32_t x, y;

        if (n >= 8 && n <= 16) {
                memcpy(&a, s, 8);
                memcpy(&b, s + n - 8, 8);
                memcpy(d, &a, 8);
                memcpy(d + n - 8, &b, 8);
        } else if (n >= 4 && n < 8) {
                memcpy(&x, s, 4);
                memcpy(&y, s + n - 4, 4);
                memcpy(d, &x, 4);
                memcpy(d + n - 4, &y, 4);
        } else if (n > 16)
                memcpy(d, s, n);
        else
                while (n-- > 0)
                        *d++ = *s++;
}

/* Whether s[0..len) is all ASCII. */
static bool is_ascii(const char *s, size_t len) {
        size_t i = 0;

        for (; i + 8 <= len; i += 8) {
                uint64_t v;

                memcpy(&v, s + i, 8);
                if (v & SWAR_HIGHS)
                        return false;
        }
        for (; i < len; i++)
                if ((unsigned char)s[i] >= 0x80)
                        return false;
        return true;
}

/* The display width of safe text (printable ASCII and valid UTF-8). */
static size_t measure(const char *s, size_t len) {
        /* Printable ASCII: a column a byte. */
        return is_ascii(s, len) ? len : text_width(s, len, SIZE_MAX, NULL);
}

size_t table_plain_safe_into(char *d, const char *s, size_t len, bool *ascii) {
        size_t i = 0, n;

        /* Printable ASCII as it is, sixteen or eight bytes at a time: the common case. */
#if defined(__SSE2__)
        const __m128i below = _mm_set1_epi8(0x20 - 1), above = _mm_set1_epi8(0x7e + 1);

        for (; i + 16 <= len; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
                /* Signed: the bytes from 0x80 are below 0x20. */
                __m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, below), _mm_cmplt_epi8(v, above));

                if (_mm_movemask_epi8(ok) != 0xffff)
                        break;
                _mm_storeu_si128((__m128i *)(void *)(d + i), v);
        }
#endif
        for (; i + 8 <= len; i += 8) {
                uint64_t v;

                memcpy(&v, s + i, 8);
                if (bytes_outside(v, 0x20, 0x7e))
                        break;
                memcpy(d + i, &v, 8);
        }
        if (i == len)
                return len;
        if (len >= 8 && i + 8 > len) {
                /* The last bytes: the last eight again. */
                uint64_t v;

                memcpy(&v, s + len - 8, 8);
                if (!bytes_outside(v, 0x20, 0x7e)) {
                        memcpy(d + len - 8, &v, 8);
                        return len;
                }
        } else if (len < 8) {
                for (; i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f; i++)
                        d[i] = s[i];
                if (i == len)
                        return len;
        }
        /* The rest as the other views make it safe. */
        n = text_safe_into(d + i, s + i, len - i, false);
        if (*ascii && !is_ascii(d + i, n))
                *ascii = false;
        return i + n;
}

int table_plain_add_row(struct table_plain *p, const struct table_plain_src *src) {
        size_t n = p->n, cap, i;
        char *base, *q;
        struct cell *c;

        /* The text area exists before a pointer into it is made (no offset from NULL). */
        if (!p->text && !grow(p, 0, 1))
                return -ENOMEM;
        cap = p->text_cap;
        base = p->text;
        q = base + p->text_len;
        if (p->rows == p->rows_cap && more_rows(p) < 0)
                return -ENOMEM;
        c = p->cells + p->rows * n;
        p->rows++;
        for (i = 0; i < n; i++, c++) {
                const struct table_plain_src *x = &src[i];
                size_t w = p->w[i], len, width, pad, off = 0, need;
                bool right = p->right[i], ascii = true;

                /* The text (made safe: four bytes for one, and the NUL), its padding (w at most), the separator. */
                if (x->kind == TABLE_PLAIN_TEXT)
                        need = x->len < SIZE_MAX / 16 ? x->len * 4 + 1 : SIZE_MAX / 4;
                else if (x->kind == TABLE_PLAIN_SAFE)
                        need = x->len < SIZE_MAX / 16 ? x->len : SIZE_MAX / 4;
                else
                        need = 28; /* digits */
                if ((size_t)(q - base) + need + w + 1 + SLACK > cap) {
                        size_t used = (size_t)(q - base);

                        if (!grow(p, used, need + w + 1)) {
                                p->rows--;
                                return -ENOMEM;
                        }
                        base = p->text;
                        cap = p->text_cap;
                        q = base + used;
                }
                /* The text at q, or right-aligned at q + off when its width is known before. */
                switch (x->kind) {
                case TABLE_PLAIN_TEXT:
                        len = table_plain_safe_into(q, x->s, x->len, &ascii);
                        /* The last column is not padded: no width needed (fit_rows() measures it). */
                        width = i + 1 == n || ascii ? len : text_width(q, len, SIZE_MAX, NULL);
                        break;
                case TABLE_PLAIN_U64:
                        len = width = digits10(x->v);
                        off = right && width < w ? w - width : 0;
                        spaces(q, off);
                        put_digits(q + off + len, x->v);
                        break;
                case TABLE_PLAIN_SECONDS:
                        len = width = digits10(x->v / 1000000) + 7;
                        off = right && width < w ? w - width : 0;
                        spaces(q, off);
                        put_seconds_at(q + off + len, x->v);
                        break;
                case TABLE_PLAIN_SAFE:
                        len = x->len;
                        width = x->width != SIZE_MAX ? x->width : measure(x->s, len);
                        off = right && width < w ? w - width : 0;
                        spaces(q, off);
                        copy(q + off, x->s, len);
                        break;
                case TABLE_PLAIN_EMPTY:
                default:
                        len = width = 0;
                        off = right ? w : 0;
                        spaces(q, off);
                        break;
                }
                if (i + 1 == n) {
                        *c = (struct cell){ (size_t)(q - base), len, width };
                        q += len;
                        break;
                }
                if (width > w) {
                        p->w[i] = width;
                        /* The rows before this one were laid out narrower. */
                        p->repad |= p->rows > 1;
                        pad = 0;
                } else
                        pad = w - width;
                if (right && off < pad) {
                        /* Text written at q, to go right. */
                        memmove(q + pad, q, len);
                        memset(q, ' ', pad);
                        off = pad;
                } else if (!right)
                        spaces(q + len, pad);
                *c = (struct cell){ (size_t)(q - base) + off, len, width };
                q += len + pad;
                *q++ = ' ';
        }
        /* The slack has room for it. */
        *q++ = '\n';
        p->text_len = (size_t)(q - base);
        return 0;
}

void table_plain_color_row(struct table_plain *p, const struct table_plain_src *src) {
        size_t i;

        if (!p->colors || p->rows == 0)
                return;
        for (i = 0; i < p->n; i++)
                p->colors[(p->rows - 1) * p->n + i] = src[i].kind == TABLE_PLAIN_TEXT ? src[i].color : NULL;
}

/*
 * On a terminal: the rows of the batch measured for the layout that fits
 * it (here, not as they come: the pipe's rows pay nothing for it), the
 * last column's text too, which table_plain_add_row() leaves unmeasured.
 */
static bool fit_rows(struct table_plain *p) {
        size_t r, i;

        for (r = 0; r < p->rows; r++) {
                struct cell *c = &p->cells[r * p->n];

                /* Text is measured here (its width was its length); a LEVEL in its color is not as wide as its bytes. */
                if (c[p->n - 1].width == c[p->n - 1].len)
                        c[p->n - 1].width = measure(p->text + c[p->n - 1].off, c[p->n - 1].len);
                for (i = 0; i < p->n; i++)
                        fit_measure(p->fit, i, c[i].width);
                fit_row_done(p->fit);
        }
        return fit_lay_out(p->fit);
}

bool table_plain_lay_out(struct table_plain *p) {
        size_t i;

        if (p->fit)
                return fit_rows(p);
        for (i = 0; i + 1 < p->n; i++)
                if (table_layout_shown(p->lo, i) && p->w[i] > table_layout_shown(p->lo, i))
                        return true;
        return false;
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
        if (p->right[i]) {
                pad(w > tw ? w - tw : 0);
                out_write(s, len);
        } else {
                out_write(s, len);
                pad(w > tw ? w - tw : 0);
        }
        out_putc(' ');
}

/* The widths of the batch are held; the next batch starts from them. */
static void hold_widths(struct table_plain *p, bool heading) {
        size_t i;

        for (i = 0; i + 1 < p->n; i++) {
                table_layout_hold(p->lo, i, p->w[i]);
                table_layout_show(p->lo, i, p->w[i], heading);
        }
}

void table_plain_print_heading(struct table_plain *p) {
        size_t i;

        if (p->fit) {
                fit_print_heading(p->fit);
                return;
        }
        for (i = 0; i < p->n; i++)
                put_cell(p, i, column_heading(&p->cols->v[i]), p->head[i], p->head[i]);
        out_putc('\n');
        hold_widths(p, true);
}

void table_plain_print_rows(struct table_plain *p) {
        size_t i, r;

        if (p->fit) {
                for (r = 0; r < p->rows; r++) {
                        const struct cell *c = &p->cells[r * p->n];

                        for (i = 0; i < p->n; i++)
                                p->fit_cells[i] = (struct fit_cell){ p->text + c[i].off, c[i].len, c[i].width,
                                                                     p->colors ? p->colors[r * p->n + i] : NULL };
                        fit_print_row(p->fit, p->fit_cells);
                }
        } else if (!p->repad) {
                /*
                 * In pieces of 2 KiB: a larger memcpy() is a "rep movsb",
                 * as fast, but counted a byte an instruction by callgrind,
                 * which the benchmarks use.
                 */
                for (r = 0; r < p->text_len; r += 2048)
                        out_write(p->text + r, p->text_len - r < 2048 ? p->text_len - r : 2048);
        } else {
                /* A column widened under rows laid out before: pad them all again. */
                for (r = 0; r < p->rows; r++) {
                        const struct cell *c = &p->cells[r * p->n];

                        for (i = 0; i < p->n; i++)
                                put_cell(p, i, p->text + c[i].off, c[i].len, c[i].width);
                        out_putc('\n');
                }
        }
        hold_widths(p, false);
        p->rows = 0;
        p->text_len = 0;
        p->repad = false;
        start_widths(p);
}

void table_plain_say_spared(const struct table_plain *p, const char *hint) {
        if (p->fit)
                fit_say_spared(p->fit, hint);
}
