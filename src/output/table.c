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
 * or given to libsmartcols (scols_cell()); the batches, headings and
 * marks are printed by table-print.c.  Cell text is escaped as in
 * the classic view, plus tabs; libsmartcols's own encoding is off.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "base/i18n.h"
#include "select/device.h"
#include "output/table-private.h"
#include "text/escape.h"
#include "text/writer.h"

#define TABLE_BATCH 512
#define COLOR_RESET "\x1b[0m"
/* Room for a time stamp's text in the formats of timefmt.h. */
#define TIME_TEXT_MAX 128


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

/*
 * The color of a record's MESSAGE, as the classic view colors a message:
 * its level's, else the segfault color for one that says "segfault at"
 * (short.c); NULL for none.
 */
static const char *message_color(const struct kmsg_record *r, const char *msg, size_t len) {
        if (kmsg_record_has_priority(r)) {
                enum color_slot slot = COLOR_EMERG + (kmsg_record_get_level(r) & 7);

                if (color_slot_set(slot))
                        return color_state.slots[slot];
        }
        if (len >= 11 && memmem(msg, len, "segfault at", 11) && color_slot_set(COLOR_SEGFAULT))
                return color_state.slots[COLOR_SEGFAULT];
        return NULL;
}

/*
 * MESSAGE (in t->src[i]) in its color: on a terminal and for libsmartcols
 * the color goes beside the text (fit.c and libsmartcols print it around
 * what they print of it); for no width, the cell is the safe text in its
 * escapes, as wide as the text alone.
 */
__attribute__((noinline)) static int message_colored(struct table_sink *t, size_t i, const struct kmsg_record *r) {
        struct table_plain_src *x = &t->src[i];
        size_t cl, n;
        char *d;

        x->color = message_color(r, x->s, x->len);
        if (!x->color || !t->plain || t->s.termwidth)
                return 0;
        cl = strlen(x->color);
        d = x->len < SIZE_MAX / 8 ? col_buf(t, i, cl + x->len * 4 + sizeof(COLOR_RESET)) : NULL;
        if (!d)
                return -ENOMEM;
        memcpy(d, x->color, cl);
        n = text_safe_into(d + cl, x->s, x->len, false);
        src_safe(x, d, cl + n + sizeof(COLOR_RESET) - 1, text_width(d + cl, n, SIZE_MAX, NULL));
        memcpy(d + cl + n, COLOR_RESET, sizeof(COLOR_RESET));
        return 0;
}

/* msg[0..*len) without the newlines at its start and end. */
__attribute__((noinline)) static const char *trim_newlines(const char *msg, size_t *len) {
        size_t n = *len;

        while (n > 0 && *msg == '\n') {
                msg++;
                n--;
        }
        while (n > 0 && msg[n - 1] == '\n')
                n--;
        *len = n;
        return msg;
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
                /*
                 * Without the newlines at its start and end, which the
                 * classic view shows as no text (an empty first line, no
                 * line of their own at the end): a cell is the message's
                 * text, its newlines inside \x0a as every control.
                 */
                v = kmsg_record_get_message(r, &len);
                if (len > 0 && (v[0] == '\n' || v[len - 1] == '\n'))
                        v = trim_newlines(v, &len);
                src_text(x, v, len);
                return color_enabled() ? message_colored(t, i, r) : 0;
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

static int fill_row(struct table_sink *t, const struct kmsg_record *r, const struct match *m) {
        const struct columns *cols = t->s.settings->columns;

        for (size_t i = 0; i < cols->n; i++) {
                int e = fill_cell(t, i, &cols->v[i], r, m);

                if (e < 0)
                        return e;
        }
        return 0;
}

static void level_names(struct table_sink *t, bool colors) {
        for (unsigned l = 0; l < 8; l++) {
                size_t n;

                t->level_name[l] = kmsg_level_to_name(l);
                t->level_len[l] = t->level_width[l] = strlen(t->level_name[l]);
                /* LEVEL in the level's color, as the classic view colors the message (width apart from the bytes: see color.h). */
                n = colors ? color_wrap(COLOR_EMERG + l, t->level_name[l], t->level_colored[l],
                                        sizeof(t->level_colored[l]))
                           : 0;
                if (n > 0) {
                        t->level_name[l] = t->level_colored[l];
                        t->level_len[l] = n;
                }
        }
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

/* LEVEL in the level's color for libsmartcols, which takes the escapes out of the width (level_names() colors the others). */
static int level_color(struct libscols_line *ln, size_t i, unsigned lvl) {
        if (!color_slot_set(COLOR_EMERG + lvl))
                return 0;
        return scols_cell_set_color(scols_line_get_cell(ln, i), color_state.slots[COLOR_EMERG + lvl]);
}

static int table_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct table_sink *t = (struct table_sink *)s;
        const struct columns *cols = s->settings->columns;
        struct libscols_line *ln;
        size_t i;
        int e;

        e = fill_row(t, r, m);
        if (e < 0)
                return e;
        if (t->plain) {
                e = table_plain_add_row(t->plain, t->src);
                if (e < 0)
                        return e;
                if (color_enabled())
                        table_plain_color_row(t->plain, t->src);
        } else {
                ln = scols_table_new_line(t->tb, NULL);
                if (!ln)
                        return -ENOMEM;
                for (i = 0; i < cols->n; i++) {
                        e = scols_cell(t, ln, i);
                        if (e >= 0 && cols->v[i].id == COL_LEVEL && color_enabled() && kmsg_record_has_priority(r))
                                e = level_color(ln, i, kmsg_record_get_level(r) & 7);
                        if (e >= 0 && t->src[i].kind == TABLE_PLAIN_TEXT && t->src[i].color)
                                e = scols_cell_set_color(scols_line_get_cell(ln, i), t->src[i].color);
                        if (e >= 0)
                                e = table_layout_cell(t->layout, ln, i);
                        if (e < 0)
                                return e;
                }
        }
        t->n_lines++;
        if (t->n_lines >= TABLE_BATCH || s->settings->stream) {
                e = table_flush_batch(t);
                if (e < 0)
                        return e;
                sink_end_item(s);
        }
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
                t->plain = table_plain_new(s->settings->columns, t->layout, s->termwidth, s->settings->wrap,
                                           color_enabled());
                if (!t->plain)
                        return -ENOMEM;
        }
        level_names(t, t->plain != NULL);
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
