/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=table: the cells of a record, each taken from it once, into the
 * sink's sources (struct table_plain_src), which table.c lays out or hands
 * to libsmartcols.  Text the cell makes (a time, the dictionary) goes in
 * the column's buffer; text from the log is made safe where it is laid out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "select/device.h"
#include "text/writer.h"
#include "output/table-private.h"

/* Room for a time stamp's text in the formats of timefmt.h. */
#define TIME_TEXT_MAX 128

/* Column i's buffer, of at least need bytes (until the row is out); NULL when out of memory. */
char *table_col_buf(struct table_sink *t, size_t i, size_t need) {
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
        s = table_col_buf(t, i, total + 1);
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
        buf = table_col_buf(t, i, TIME_TEXT_MAX);
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

int table_fill_cell(struct table_sink *t, size_t i, const struct column *c, const struct kmsg_record *r,
                    const struct match *m) {
        struct table_plain_src *x = &t->src[i];
        const char *v;
        unsigned lvl;
        size_t len;

        x->kind = TABLE_PLAIN_EMPTY;
        x->color = NULL;
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
                while (len > 0 && *v == '\n') {
                        v++;
                        len--;
                }
                while (len > 0 && v[len - 1] == '\n')
                        len--;
                src_text(x, v, len);
                if (color_enabled())
                        x->color = message_color(r, v, len);
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

void table_level_names(struct table_sink *t, bool colors) {
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
