/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --timeline: the log as a picture.  Message counts over time in columns
 * that fit the terminal, one row per level group (err+, warn, +notice), or
 * per problem kind with --problems, drawn with block characters (ASCII
 * without a UTF-8 terminal); losses and boots are marked on rows of their
 * own where they happened (a later boot is drawn after the earlier ones);
 * the axis is in the chosen time format.  With --json, one object per
 * column.
 *
 * Memory is constant: counts go into a fixed number of fine buckets; when a
 * time stamp falls outside them, each ten neighbouring buckets merge (ten
 * times the span, to the right or to the left) until it fits.  The data
 * then always spans more than a tenth of the buckets, so each column drawn
 * is a group of 2 to SUBDIV of them, and 4 of 5 columns at least are used.
 */
#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "text/json.h"
#include "text/util.h"
#include "text/writer.h"
#include "select/match.h"
#include "output/report.h"
#include "output/sink.h"
#include "time/timefmt.h"

#define SUBDIV 20        /* fine buckets per column of the widest picture */
#define WIDEN 10         /* buckets merged into one when a time stamp falls outside */
#define MIN_COLUMNS 10
#define MAX_WIDTH 1000

/* The level groups, then the records without a level (a plain dmesg paste): never counted as one of them. */
enum { LEVEL_ROWS = 4, ROW_NO_LEVEL = 3 };
static const char *const level_rows[LEVEL_ROWS] = { "err+", "warn", "+notice", "no-level" };

struct timeline_sink {
        struct sink sink;
        bool by_problem; /* rows of problem kinds (the record's match says which), not of level groups */
        bool utf8;
        unsigned width; /* of the whole line */
        unsigned nrows; /* data rows: level groups, or problem kinds */
        size_t nb;      /* fine buckets per row */
        bool started;
        uint64_t origin; /* µs of bucket 0's start */
        uint64_t size;   /* µs per bucket */
        uint64_t *counts; /* (nrows + 2) * nb: the data rows, then losses, then boots */
        uint64_t *tmp;
        bool any_loss, any_boot;
        bool with_level; /* a record with a level was drawn: the level rows count */
        uint64_t untimed; /* records without a time stamp: they cannot be placed */
        /*
         * Each boot's time stamps start again at 0: a later boot is drawn
         * after the earlier ones, its stamps counted on from the latest
         * time drawn before it.
         */
        uint64_t offset, latest;
        uint64_t earliest; /* the first time drawn (latest: the last): the axis's ends */
        bool only_lost; /* timeline_strip(): the lost row alone */
};

#define ROW_LOST(t) ((t)->nrows)
#define ROW_BOOT(t) ((t)->nrows + 1)

static uint64_t *row(struct timeline_sink *t, unsigned r) {
        return t->counts + (size_t)r * t->nb;
}

/* Time stamps reach 2^64 - 1 µs: sums and products saturate there. */
static uint64_t sat_add(uint64_t a, uint64_t b) {
        return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) {
        return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/*
 * Ten times the span: each ten buckets become one, in the first tenth
 * (to_left false) or the last tenth, so that column widths stay a whole
 * number times a power of ten microseconds.  To the left, bucket 0 moves
 * no further back than time 0: the old buckets then fall into the new
 * ones their starts are in.  False when the buckets are as wide as they
 * can be (they then span all of 2^64 µs).
 */
static bool widen(struct timeline_sink *t, bool to_left) {
        size_t part = t->nb / WIDEN, i;
        uint64_t size, origin = t->origin;
        unsigned r;

        if (t->size > UINT64_MAX / WIDEN)
                return false;
        size = t->size * WIDEN;
        if (to_left)
                origin -= t->origin / size >= t->nb - part ? (t->nb - part) * size : t->origin;
        for (r = 0; r < t->nrows + 2; r++) {
                uint64_t *c = row(t, r);

                memset(t->tmp, 0, t->nb * sizeof(*t->tmp));
                for (i = 0; i < t->nb; i++) {
                        /* A bucket that holds a count starts before 2^64 µs. */
                        uint64_t at = sat_add(t->origin - origin, sat_mul(i, t->size)) / size;

                        if (c[i])
                                t->tmp[at < t->nb ? at : t->nb - 1] += c[i];
                }
                memcpy(c, t->tmp, t->nb * sizeof(*c));
        }
        t->size = size;
        t->origin = origin;
        return true;
}

/*
 * The bucket of a time stamp, widening until it fits: at most about 20
 * times in all, as each time multiplies the bucket size by ten.
 */
static void add(struct timeline_sink *t, uint64_t usec, unsigned r, uint64_t n) {
        size_t at;

        usec = sat_add(usec, t->offset);
        if (usec > t->latest)
                t->latest = usec;
        if (!t->started || usec < t->earliest)
                t->earliest = usec;
        if (!t->started) {
                t->started = true;
                t->origin = usec;
                t->size = 1;
        }
        while (usec < t->origin && widen(t, true))
                ;
        while (usec >= t->origin && (usec - t->origin) / t->size >= t->nb && widen(t, false))
                ;
        if (usec < t->origin)
                at = 0;
        else if ((usec - t->origin) / t->size >= t->nb)
                at = t->nb - 1;
        else
                at = (size_t)((usec - t->origin) / t->size);
        row(t, r)[at] = sat_add(row(t, r)[at], n);
}

static int timeline_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct timeline_sink *t = (struct timeline_sink *)s;
        unsigned level;

        /* Not drawn, but counted: "no messages" would deny they were there. */
        if (!kmsg_record_has_timestamp(r)) {
                t->untimed++;
                return 0;
        }
        if (t->by_problem) {
                const struct problem_hit *hit = &m->problem;

                if (hit->kind != PROBLEM_NONE && hit->opens)
                        add(t, kmsg_record_get_timestamp(r), (unsigned)hit->kind, 1);
                return 0;
        }
        /* A record without a priority has no level: how many of them were errors is not known. */
        if (!kmsg_record_has_priority(r)) {
                add(t, kmsg_record_get_timestamp(r), ROW_NO_LEVEL, 1);
                return 0;
        }
        level = kmsg_record_get_level(r);
        t->with_level = true;
        add(t, kmsg_record_get_timestamp(r), level <= 3 ? 0 : level == 4 ? 1 : 2, 1);
        return 0;
}

static int timeline_loss(struct sink *s, const struct kmsg_loss *l) {
        struct timeline_sink *t = (struct timeline_sink *)s;
        uint64_t at = kmsg_loss_get_usec_after(l);

        if (!at && kmsg_loss_has_before(l))
                at = kmsg_loss_get_usec_before(l);
        /* Messages, not events: 845 lost at once are 845 (one of unknown size counts 1). */
        add(t, at, ROW_LOST(t), kmsg_loss_get_count(l) ? kmsg_loss_get_count(l) : 1);
        t->any_loss = true;
        return 0;
}

/* A new boot: marked where the earlier boots' time ends, and its stamps counted on from there. */
static int timeline_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        struct timeline_sink *t = (struct timeline_sink *)s;

        t->offset = t->latest;
        add(t, 0, ROW_BOOT(t), 1);
        t->any_boot = true;
        return 0;
}

static const char *row_name(const struct timeline_sink *t, unsigned r) {
        if (r == ROW_LOST(t))
                return "lost";
        if (r == ROW_BOOT(t))
                return "boot";
        return t->by_problem ? problem_kind_name((int)r) : level_rows[r];
}

/* The columns drawn: groups of k fine buckets from first; 0 when there is nothing. */
struct layout {
        size_t first, k, ncols;
};

static void lay_out(struct timeline_sink *t, size_t cols, struct layout *lo) {
        size_t lo_i = t->nb, hi_i = 0, i, span;
        unsigned r;

        lo->ncols = 0;
        for (r = 0; r < t->nrows + 2; r++)
                for (i = 0; i < t->nb; i++)
                        if (row(t, r)[i]) {
                                if (i < lo_i)
                                        lo_i = i;
                                if (i > hi_i)
                                        hi_i = i;
                        }
        if (lo_i > hi_i)
                return;
        span = hi_i - lo_i + 1;
        lo->first = lo_i;
        lo->k = (span + cols - 1) / cols;
        lo->ncols = (span + lo->k - 1) / lo->k;
}

static uint64_t column_sum(struct timeline_sink *t, unsigned r, const struct layout *lo, size_t c) {
        size_t i, from = lo->first + c * lo->k;
        uint64_t n = 0;

        for (i = from; i < from + lo->k && i < t->nb; i++)
                n += row(t, r)[i];
        return n;
}

static uint64_t column_start(const struct timeline_sink *t, const struct layout *lo, size_t c) {
        return sat_add(t->origin, sat_mul(lo->first + c * lo->k, t->size));
}

/*
 * A time for the axis, in the chosen format: the wall clock, also by
 * default where the boot time is known and one boot is drawn (later boots'
 * stamps are shifted); else seconds since boot.
 */
static size_t axis_time(const struct timeline_sink *t, uint64_t usec, char *buf, size_t size) {
        const struct timefmt *tf = &t->sink.settings->time;

        if (tf->format == TIME_RAW && tf->have_boot && !t->any_boot)
                return timefmt_ctime(tf, usec, buf, size);
        switch (tf->format) {
        case TIME_CTIME:
        case TIME_RELTIME:
                return timefmt_ctime(tf, usec, buf, size);
        case TIME_ISO:
                return timefmt_iso(tf, usec, buf, size);
        default:
                return timefmt_mono(usec, buf, size);
        }
}

static bool row_shown(const struct timeline_sink *t, unsigned r, uint64_t total) {
        if (t->only_lost)
                return r == ROW_LOST(t) && t->any_loss;
        if (r == ROW_LOST(t))
                return t->any_loss;
        if (r == ROW_BOOT(t))
                return t->any_boot;
        /* The kinds that were found. */
        if (t->by_problem)
                return total > 0;
        /* The records without a level, when there were some. */
        if (r == ROW_NO_LEVEL)
                return total > 0;
        /* The level groups, but where no record had a level: their counts are not known, not 0. */
        return t->with_level;
}

static uint64_t row_total(struct timeline_sink *t, unsigned r) {
        uint64_t n = 0;
        size_t i;

        for (i = 0; i < t->nb; i++)
                n += row(t, r)[i];
        return n;
}

static void pad(size_t n) {
        while (n-- > 0)
                out_putc(' ');
}

static int draw(struct timeline_sink *t) {
        static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
                                               "\u2585", "\u2586", "\u2587", "\u2588" };
        static const char ascii[8] = { '.', ':', '-', '=', '+', '*', '#', '@' };
        size_t label = 0, digits = 1, cols, c;
        uint64_t maxtotal = 0, scale = 0;
        struct layout lo;
        char buf[80], end[80];
        unsigned r;

        for (r = 0; r < t->nrows + 2; r++) {
                uint64_t total = row_total(t, r);

                if (!row_shown(t, r, total))
                        continue;
                if (strlen(row_name(t, r)) > label)
                        label = strlen(row_name(t, r));
                if (total > maxtotal)
                        maxtotal = total;
        }
        while (maxtotal >= 10) {
                digits++;
                maxtotal /= 10;
        }
        cols = t->width > label + digits + 2 + MIN_COLUMNS ? t->width - label - digits - 2 : MIN_COLUMNS;
        lay_out(t, cols, &lo);
        if (lo.ncols == 0) {
                /* Nothing drawn over input that was not read in full: report_unread_line() says so. */
                if (t->only_lost || (report_unread_sources(&t->sink) == 0 && t->untimed == 0))
                        out_puts(t->by_problem ? _("-- No known problems found --\n") : _("-- No messages --\n"));
                return 0;
        }
        /* One scale for every data row: a full block is the fullest column of any. */
        for (r = 0; r < t->nrows; r++)
                for (c = 0; c < lo.ncols && row_shown(t, r, 1); c++) {
                        uint64_t n = column_sum(t, r, &lo, c);

                        if (n > scale)
                                scale = n;
                }
        for (r = 0; r < t->nrows + 2; r++) {
                uint64_t total = row_total(t, r);
                const char *name = row_name(t, r);

                if (!row_shown(t, r, total))
                        continue;
                out_puts(name);
                pad(label - strlen(name) + 1);
                for (c = 0; c < lo.ncols; c++) {
                        uint64_t n = column_sum(t, r, &lo, c);

                        if (n == 0)
                                out_putc(' ');
                        else if (r == ROW_LOST(t))
                                out_putc('!');
                        else if (r == ROW_BOOT(t))
                                out_puts(t->utf8 ? "\u2502" : "|");
                        else {
                                /* The one scale; any count shows. */
                                unsigned h = (unsigned)((n * 8 + scale - 1) / scale);

                                h = h < 1 ? 1 : h > 8 ? 8 : h;
                                if (t->utf8)
                                        out_puts(blocks[h - 1]);
                                else
                                        out_putc(ascii[h - 1]);
                        }
                }
                pad(cols - lo.ncols + 1);
                out_u64_padded(total, (unsigned)digits);
                out_putc('\n');
        }
        /* The axis: the first time drawn and the last, not the columns' bounds around them. */
        axis_time(t, t->earliest, buf, sizeof(buf));
        axis_time(t, t->latest, end, sizeof(end));
        pad(label + 1);
        out_puts(buf);
        if (strlen(buf) + 1 + strlen(end) <= lo.ncols) {
                pad(lo.ncols - strlen(buf) - strlen(end));
                out_puts(end);
        }
        out_putc('\n');
        put_seconds(buf, sat_mul(lo.k, t->size), 0);
        /* "1.3 s", "11 s": no zeros after the last digit that counts. */
        {
                size_t n = strlen(buf);

                while (n > 0 && buf[n - 1] == '0')
                        buf[--n] = '\0';
                if (n > 0 && buf[n - 1] == '.')
                        buf[--n] = '\0';
        }
        pad(label + 1);
        snprintf(end, sizeof(end), _("one column: %s s\n"), buf);
        out_puts(end);
        /* What a block means: the count of a full one, on every row. */
        if (scale > 0) {
                char legend[160];

                if (t->by_problem)
                        snprintf(legend, sizeof(legend),
                                 P_("%s = %" PRIu64 " problem in a column, every row on this scale\n",
                                    "%s = %" PRIu64 " problems in a column, every row on this scale\n", scale),
                                 t->utf8 ? blocks[7] : "@", scale);
                else
                        snprintf(legend, sizeof(legend),
                                 P_("%s = %" PRIu64 " message in a column, every row on this scale\n",
                                    "%s = %" PRIu64 " messages in a column, every row on this scale\n", scale),
                                 t->utf8 ? blocks[7] : "@", scale);
                pad(label + 1);
                out_puts(legend);
        }
        return 0;
}

static int add_json(struct json_object *o, const char *key, struct json_object *v) {
        if (!v)
                return -ENOMEM;
        return json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW) < 0 ? -ENOMEM : 0;
}

/* One object per column: time_start, time_end and counts, keyed by row name. */
static int write_json(struct timeline_sink *t) {
        struct layout lo;
        size_t c;

        lay_out(t, t->width, &lo);
        for (c = 0; c < lo.ncols; c++) {
                struct json_object *o = json_object_new_object(), *counts = json_object_new_object();
                unsigned r;
                int e;

                if (!o || !counts) {
                        json_object_put(o);
                        json_object_put(counts);
                        return -ENOMEM;
                }
                e = add_json(o, "time_start", json_usec_new(column_start(t, &lo, c)));
                if (e >= 0)
                        e = add_json(o, "time_end", json_usec_new(column_start(t, &lo, c + 1)));
                for (r = 0; r < t->nrows + 2 && e >= 0; r++)
                        if (row_shown(t, r, row_total(t, r)))
                                e = add_json(counts, row_name(t, r), json_object_new_uint64(column_sum(t, r, &lo, c)));
                if (e >= 0)
                        e = add_json(o, "counts", counts);
                else
                        json_object_put(counts);
                if (e < 0) {
                        json_object_put(o);
                        return -ENOMEM;
                }
                if (report_json_line(o) < 0)
                        return -ENOMEM;
        }
        return 0;
}

int timeline_strip(struct sink *s) {
        struct timeline_sink *t = (struct timeline_sink *)s;

        if (!t->any_loss)
                return 0;
        t->only_lost = true;
        out_putc('\n');
        return draw(t);
}

static int timeline_finish(struct sink *s) {
        struct timeline_sink *t = (struct timeline_sink *)s;

        int e = s->settings->json ? write_json(t) : draw(t);

        if (e >= 0 && t->untimed > 0) {
                char line[160];

                if (s->settings->json)
                        snprintf(line, sizeof(line), "{\"untimed\":%llu}\n", (unsigned long long)t->untimed);
                else
                        snprintf(line, sizeof(line),
                                 P_("Not drawn: %llu record without a time stamp.\n",
                                    "Not drawn: %llu records without a time stamp.\n", t->untimed),
                                 (unsigned long long)t->untimed);
                out_puts(line);
                sink_end_item(s);
        }
        if (e >= 0)
                report_unread_line(s, false);
        return e;
}

/* The width to fill: the terminal's, else COLUMNS, else 80. */
static unsigned line_width(void) {
        size_t w = term_width();

        if (!w)
                return 80;
        return w < MAX_WIDTH ? (unsigned)w : MAX_WIDTH;
}

int timeline_set_chars(struct output_settings *s, const char *arg) {
        if (!arg || strcmp(arg, "auto") == 0)
                s->chars = TIMELINE_AUTO;
        else if (strcmp(arg, "utf8") == 0)
                s->chars = TIMELINE_UTF8;
        else if (strcmp(arg, "ascii") == 0)
                s->chars = TIMELINE_ASCII;
        else
                return -EINVAL;
        return 0;
}

static int timeline_init(struct sink *s) {
        struct timeline_sink *t = (struct timeline_sink *)s;

        t->by_problem = s->settings->by_problem;
        /* Decided here, before a pager takes standard output. */
        t->width = line_width();
        switch (s->settings->chars) {
        case TIMELINE_UTF8:
                t->utf8 = true;
                break;
        case TIMELINE_ASCII:
                t->utf8 = false;
                break;
        default:
                t->utf8 = isatty(STDOUT_FILENO) && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
        }
        t->nrows = t->by_problem ? _PROBLEM_MAX : LEVEL_ROWS;
        t->nb = (size_t)SUBDIV * (t->width > MIN_COLUMNS ? t->width : MIN_COLUMNS);
        t->counts = calloc((t->nrows + 2) * t->nb, sizeof(*t->counts));
        t->tmp = calloc(t->nb, sizeof(*t->tmp));
        return t->counts && t->tmp ? 0 : -ENOMEM;
}

static void timeline_free(struct sink *s) {
        struct timeline_sink *t = (struct timeline_sink *)s;

        free(t->counts);
        free(t->tmp);
}

const struct sink_ops sink_timeline_ops = {
        .size = sizeof(struct timeline_sink),
        .init = timeline_init,
        .record = timeline_record,
        .loss = timeline_loss,
        .boot = timeline_boot,
        .finish = timeline_finish,
        .free = timeline_free,
};
