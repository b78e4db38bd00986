/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --lost: the lost-message report instead of the records.  One row per
 * loss (FIRST_SEQ, LAST_SEQ, COUNT, TIME_BEFORE, TIME_AFTER, CAUSE, and
 * BOOT first when the input holds more than one boot), then the totals and,
 * for the live log, how much of what the kernel wrote since boot the ring
 * still holds; for a dump of several boots, what each boot's records cover.
 * A table, or JSON Lines with --json: one object per loss with its "boot",
 * then a summary object with lost_total and boots.
 *
 * The table takes constant memory however many losses there are: it
 * keeps the first LOST_ROWS_HEAD losses and the last LOST_ROWS_TAIL (in a
 * ring), and sums up those in between in one row that says how many gaps
 * and messages they were.  JSON is written as it comes.
 */
#include <errno.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/device.h"
#include "base/i18n.h"
#include "output/loss.h"
#include "text/json.h"
#include "text/writer.h"
#include "output/report.h"
#include "output/sink.h"

/* The table's rows: the first and the last this many losses. */
#define LOST_ROWS_HEAD 5000
#define LOST_ROWS_TAIL 5000

/* Boots whose coverage is listed one by one; the rest are counted together. */
#define BOOTS_LISTED 1000

/* A loss (a copy) and the boot it belongs to. */
struct row {
        struct kmsg_loss *loss;
        uint64_t boot;
};

/* The losses between the head and the tail, summed up. */
struct lost_middle {
        uint64_t gaps, count;
        bool unknown;        /* one had no known size */
        struct row first, last; /* last.loss NULL while there is one */
};

/* Coverage: the records that were there, filtered or not, read before the cursor or not. */
struct coverage {
        uint64_t records;
        bool have_first;
        uint64_t first_seq, first_usec, last_seq, last_usec;
};

struct lost_sink {
        struct sink sink;
        bool json;
        bool live;
        struct row head[LOST_ROWS_HEAD]; /* the first losses */
        size_t n_head;
        struct row tail[LOST_ROWS_TAIL]; /* a ring of the last ones after them */
        size_t n_tail, tail_start;
        struct lost_middle middle;
        struct loss_stats stats;
        struct coverage all;
        uint64_t boot;          /* the boot being read: 1 from the first record on */
        struct coverage *boots; /* per boot, up to BOOTS_LISTED */
        size_t n_boots;
        struct coverage rest;   /* the boots past BOOTS_LISTED, together */
        struct sink *strip;     /* on a terminal: the timeline of the losses, drawn last */
        uint64_t rotated_before; /* records gone before the input began (lost_coverage()): no loss of this read */
        bool noseq;             /* a record without a sequence number: losses next to it cannot be known */
};

enum { COL_BOOT, COL_FIRST, COL_LAST, COL_COUNT, COL_BEFORE, COL_AFTER, COL_CAUSE };

static const struct report_column columns[] = {
        [COL_BOOT] = { "BOOT", 0, SCOLS_FL_RIGHT },
        [COL_FIRST] = { "FIRST_SEQ", 0, SCOLS_FL_RIGHT },
        [COL_LAST] = { "LAST_SEQ", 0, SCOLS_FL_RIGHT },
        [COL_COUNT] = { "COUNT", 0, SCOLS_FL_RIGHT },
        [COL_BEFORE] = { "TIME_BEFORE", 0, SCOLS_FL_RIGHT },
        [COL_AFTER] = { "TIME_AFTER", 0, SCOLS_FL_RIGHT },
        [COL_CAUSE] = { "CAUSE", 0, 0 },
};

/* A time in the report: in the time format of the run (-T, --time-format, --boot-time). */
static void fmt_usec(const struct timefmt *tf, char *buf, size_t size, uint64_t usec) {
        timefmt_point(tf, usec, buf, size);
}

/* A loss whose end or times are not known: a reboot's tail, or an interrupted write. */
static bool has_after(const struct kmsg_loss *l) {
        return kmsg_loss_get_count(l) > 0 && kmsg_loss_get_cause(l) != KMSG_LOSS_INTERRUPTED;
}

static int add(struct json_object *o, const char *key, struct json_object *v) {
        return json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static void cover(struct coverage *c, uint64_t seq, uint64_t usec) {
        c->records++;
        if (!c->have_first) {
                c->have_first = true;
                c->first_seq = seq;
                c->first_usec = usec;
        }
        c->last_seq = seq;
        c->last_usec = usec;
}

/* The coverage of the boot being read. */
static struct coverage *boot_coverage(struct lost_sink *t) {
        if (t->boot <= t->n_boots)
                return &t->boots[t->boot - 1];
        if (t->n_boots < BOOTS_LISTED) {
                /* Room doubles at each power of two: a copy per boot was quadratic in boots. */
                struct coverage *v = t->boots;

                if ((t->n_boots & (t->n_boots - 1)) == 0)
                        v = realloc(t->boots, (t->n_boots ? 2 * t->n_boots : 1) * sizeof(*v));
                if (v) {
                        t->boots = v;
                        v[t->n_boots] = (struct coverage){};
                        return &v[t->n_boots++];
                }
        }
        return &t->rest;
}

static void lost_seen(struct sink *s, const struct kmsg_record *r) {
        struct lost_sink *t = (struct lost_sink *)s;
        uint64_t seq, usec;

        if (!kmsg_record_has_seqnum(r)) {
                t->noseq = true;
                return;
        }
        if (t->boot == 0)
                t->boot = 1;
        /* Each a call into the library: once. */
        seq = kmsg_record_get_seqnum(r);
        usec = kmsg_record_get_timestamp(r);
        cover(&t->all, seq, usec);
        cover(boot_coverage(t), seq, usec);
        if (t->strip)
                t->strip->ops->record(t->strip, r, &(struct match){ .problem.kind = PROBLEM_NONE });
}

static int lost_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        struct lost_sink *t = (struct lost_sink *)s;

        t->boot = n;
        return t->strip ? t->strip->ops->boot(t->strip, n, r) : 0;
}

/* The oldest loss of the tail ring, pushed out by a newer one, joins the middle. */
static void middle_add(struct lost_middle *m, struct row row) {
        m->gaps++;
        m->count += kmsg_loss_get_count(row.loss);
        if (kmsg_loss_get_count(row.loss) == 0)
                m->unknown = true;
        if (!m->first.loss)
                m->first = row;
        else {
                kmsg_loss_unref(m->last.loss);
                m->last = row;
        }
}

/* A loss of this read, or (coverage) records gone before it began: a row either way. */
static int add_row(struct lost_sink *t, const struct kmsg_loss *l, bool coverage) {
        /* A loss before the first record is the first boot's. */
        struct row copy = { .boot = t->boot ? t->boot : 1 };
        int e;

        if (coverage)
                t->rotated_before += kmsg_loss_get_count(l);
        else
                loss_stats_add(&t->stats, l);
        if (t->strip && (e = t->strip->ops->loss(t->strip, l)) < 0)
                return e;
        if (t->json) {
                /* Written as it comes: JSON needs no memory per loss. */
                struct json_object *o = json_loss_new(l);

                if (o)
                        add(o, "boot", json_object_new_uint64(copy.boot));
                return report_json_line(o);
        }
        e = loss_copy(l, &copy.loss);
        if (e < 0)
                return e;
        if (t->n_head < LOST_ROWS_HEAD)
                t->head[t->n_head++] = copy;
        else if (t->n_tail < LOST_ROWS_TAIL)
                t->tail[(t->tail_start + t->n_tail++) % LOST_ROWS_TAIL] = copy;
        else {
                middle_add(&t->middle, t->tail[t->tail_start]);
                t->tail[t->tail_start] = copy;
                t->tail_start = (t->tail_start + 1) % LOST_ROWS_TAIL;
        }
        return 0;
}

static int lost_loss(struct sink *s, const struct kmsg_loss *l) {
        return add_row((struct lost_sink *)s, l, false);
}

int lost_coverage(struct sink *s, const struct kmsg_loss *l) {
        return add_row((struct lost_sink *)s, l, true);
}

static int fill_row(struct libscols_line *ln, const struct row *row, bool boots, const struct timefmt *tf) {
        const struct kmsg_loss *l = row->loss;
        /* Without the BOOT column, every column is one to the left. */
        const int skip = boots ? 0 : -1;
        char buf[48];
        int e;
        const char *cause_name = kmsg_loss_cause_to_name(kmsg_loss_get_cause(l));
        uint64_t first = kmsg_loss_get_first_seq(l);
        uint64_t count = kmsg_loss_get_count(l);
        uint64_t before = kmsg_loss_get_usec_before(l);
        uint64_t after = kmsg_loss_get_usec_after(l);
        bool has_before = kmsg_loss_has_before(l);

        snprintf(buf, sizeof(buf), "%" PRIu64, row->boot);
        if (boots && (e = scols_line_set_data(ln, COL_BOOT, buf)) < 0)
                return e;
        snprintf(buf, sizeof(buf), "%" PRIu64, first);
        if ((e = scols_line_set_data(ln, skip + COL_FIRST, buf)) < 0)
                return e;
        if (count)
                snprintf(buf, sizeof(buf), "%" PRIu64, first + count - 1);
        if ((e = scols_line_set_data(ln, skip + COL_LAST, count ? buf : "?")) < 0)
                return e;
        if (count)
                snprintf(buf, sizeof(buf), "%" PRIu64, count);
        if ((e = scols_line_set_data(ln, skip + COL_COUNT, count ? buf : "?")) < 0)
                return e;
        if (has_before)
                fmt_usec(tf, buf, sizeof(buf), before);
        if ((e = scols_line_set_data(ln, skip + COL_BEFORE, has_before ? buf : "-")) < 0)
                return e;
        if (has_after(l))
                fmt_usec(tf, buf, sizeof(buf), after);
        if ((e = scols_line_set_data(ln, skip + COL_AFTER, has_after(l) ? buf : "-")) < 0)
                return e;
        return scols_line_set_data(ln, skip + COL_CAUSE, cause_name);
}

/*
 * The row that stands for the losses between the head and the tail: from
 * the first seq of the first to the last seq of the last, how many
 * messages (at least, if one had no known size), the time before the
 * first and after the last, and in CAUSE how many gaps they were.
 */
static int fill_middle_row(struct libscols_line *ln, const struct lost_middle *m, bool boots,
                           const struct timefmt *tf) {
        const struct row *last_row = m->last.loss ? &m->last : &m->first;
        const struct kmsg_loss *first = m->first.loss, *last = last_row->loss;
        const int skip = boots ? 0 : -1;
        char buf[160];
        int e;

        /* The boots they span: "2", or "2-5". */
        if (m->first.boot == last_row->boot)
                snprintf(buf, sizeof(buf), "%" PRIu64, m->first.boot);
        else
                snprintf(buf, sizeof(buf), "%" PRIu64 "-%" PRIu64, m->first.boot, last_row->boot);
        if (boots && (e = scols_line_set_data(ln, COL_BOOT, buf)) < 0)
                return e;
        snprintf(buf, sizeof(buf), "%" PRIu64, kmsg_loss_get_first_seq(first));
        if ((e = scols_line_set_data(ln, skip + COL_FIRST, buf)) < 0)
                return e;
        if (kmsg_loss_get_count(last))
                snprintf(buf, sizeof(buf), "%" PRIu64, kmsg_loss_get_first_seq(last) + kmsg_loss_get_count(last) - 1);
        if ((e = scols_line_set_data(ln, skip + COL_LAST, kmsg_loss_get_count(last) ? buf : "?")) < 0)
                return e;
        snprintf(buf, sizeof(buf), m->unknown ? "%" PRIu64 "+" : "%" PRIu64, m->count);
        if ((e = scols_line_set_data(ln, skip + COL_COUNT, buf)) < 0)
                return e;
        if (kmsg_loss_has_before(first))
                fmt_usec(tf, buf, sizeof(buf), kmsg_loss_get_usec_before(first));
        if ((e = scols_line_set_data(ln, skip + COL_BEFORE, kmsg_loss_has_before(first) ? buf : "-")) < 0)
                return e;
        if (has_after(last))
                fmt_usec(tf, buf, sizeof(buf), kmsg_loss_get_usec_after(last));
        if ((e = scols_line_set_data(ln, skip + COL_AFTER, has_after(last) ? buf : "-")) < 0)
                return e;
        snprintf(buf, sizeof(buf),
                 m->gaps == 1 ? _("(%" PRIu64 " gap in between)") : _("(%" PRIu64 " gaps in between)"), m->gaps);
        return scols_line_set_data(ln, skip + COL_CAUSE, buf);
}

static int print_table(struct lost_sink *t) {
        struct libscols_table *tb;
        bool boots = t->boot > 1;
        size_t i;
        int e = 0;

        if (t->n_head == 0)
                return 0;
        /* BOOT only when there is more than one. */
        tb = report_table_new(columns + !boots, sizeof(columns) / sizeof(columns[0]) - !boots, 0, false);
        if (!tb)
                return -ENOMEM;
        for (i = 0; i < t->n_head && e >= 0; i++) {
                struct libscols_line *ln = scols_table_new_line(tb, NULL);

                e = ln ? fill_row(ln, &t->head[i], boots, &t->sink.settings->time) : -ENOMEM;
        }
        if (t->middle.gaps > 0 && e >= 0) {
                struct libscols_line *ln = scols_table_new_line(tb, NULL);

                e = ln ? fill_middle_row(ln, &t->middle, boots, &t->sink.settings->time) : -ENOMEM;
        }
        for (i = 0; i < t->n_tail && e >= 0; i++) {
                struct libscols_line *ln = scols_table_new_line(tb, NULL);

                e = ln ? fill_row(ln, &t->tail[(t->tail_start + i) % LOST_ROWS_TAIL], boots,
                                  &t->sink.settings->time) : -ENOMEM;
        }
        return report_table_print(&t->sink, tb, columns + !boots, sizeof(columns) / sizeof(columns[0]) - !boots, e);
}

/* Several boots: what the records of each cover, one line per boot. */
static void print_boots(struct lost_sink *t) {
        char a[48], b[48], buf[320];
        size_t i;

        snprintf(buf, sizeof(buf), _("Read: %" PRIu64 " records in %" PRIu64 " boots\n"), t->all.records, t->boot);
        out_puts(buf);
        for (i = 0; i < t->n_boots; i++) {
                const struct coverage *c = &t->boots[i];

                if (!c->have_first) {
                        snprintf(buf, sizeof(buf), _("Boot %zu: no records\n"), i + 1);
                        out_puts(buf);
                        continue;
                }
                fmt_usec(&t->sink.settings->time, a, sizeof(a), c->first_usec);
                fmt_usec(&t->sink.settings->time, b, sizeof(b), c->last_usec);
                snprintf(buf, sizeof(buf),
                         _("Boot %zu: %" PRIu64 " records (seq %" PRIu64 "-%" PRIu64 "), %s to %s\n"), i + 1,
                         c->records, c->first_seq, c->last_seq, a, b);
                out_puts(buf);
        }
        if (t->rest.records > 0) {
                snprintf(buf, sizeof(buf), _("Boots %zu-%" PRIu64 ": %" PRIu64 " records\n"), t->n_boots + 1, t->boot,
                         t->rest.records);
                out_puts(buf);
        }
}

static void print_totals(struct lost_sink *t) {
        char a[48], b[48];
        const char *sep = " (";
        unsigned c;

        if (t->stats.events == 0 && t->noseq)
                /* Records were read, none with a number: whether any was lost cannot be known. */
                out_puts(_("Total: unknown, the input has no sequence numbers"));
        else if (t->stats.events == 0 && t->all.records == 0 && t->rotated_before == 0) {
                /* No record and no loss: nothing to count in (as every report says it when it has nothing). */
                out_puts(_("-- No messages --\n"));
                return;
        } else if (t->stats.events == 0)
                out_puts(_("Total: no messages lost"));
        else if (t->stats.total == 0 && !t->stats.unknown_parts)
                /* Only an earlier boot's tail after the last record read: nothing is known to be lost. */
                out_puts(_("Total: none known lost; the previous boot's records after the last one read, if any, "
                           "were not read"));
        else {
                char buf[160];

                bool one = t->stats.total == 1, one_gap = t->stats.events == 1;

                snprintf(buf, sizeof(buf),
                         one && one_gap ? _("Total: %" PRIu64 " message lost in %" PRIu64 " gap")
                         : one          ? _("Total: %" PRIu64 " message lost in %" PRIu64 " gaps")
                         : one_gap      ? _("Total: %" PRIu64 " messages lost in %" PRIu64 " gap")
                                        : _("Total: %" PRIu64 " messages lost in %" PRIu64 " gaps"),
                         t->stats.total, t->stats.events);
                out_puts(buf);
                for (c = 0; c < LOSS_CAUSES; c++) {
                        if (!t->stats.by_cause[c])
                                continue;
                        snprintf(buf, sizeof(buf), "%s%" PRIu64 " %s", sep, t->stats.by_cause[c],
                                 kmsg_loss_cause_to_name((enum kmsg_loss_cause)c));
                        out_puts(buf);
                        sep = ", ";
                }
                if (t->stats.unknown) {
                        out_puts(sep);
                        out_puts(t->stats.unknown_parts ? _("an unknown number where parts of the dump are missing")
                                                        : _("the previous boot's records after the last one read, "
                                                            "if any, not read"));
                        sep = ", ";
                }
                if (*sep == ',')
                        out_putc(')');
                if (t->noseq)
                        out_puts(_("; unknown next to the records without sequence numbers"));
        }
        out_putc('\n');
        if (t->rotated_before > 0) {
                char buf[160];

                snprintf(buf, sizeof(buf),
                         t->rotated_before == 1
                                 ? _("Before the input: %" PRIu64 " older record rotated out (not lost by this read)\n")
                                 : _("Before the input: %" PRIu64 " older records rotated out (not lost by this read)\n"),
                         t->rotated_before);
                out_puts(buf);
        }
        if (!t->all.have_first)
                return;
        if (t->boot > 1 && !t->live) {
                print_boots(t);
                return;
        }
        fmt_usec(&t->sink.settings->time, a, sizeof(a), t->all.first_usec);
        fmt_usec(&t->sink.settings->time, b, sizeof(b), t->all.last_usec);
        {
                char buf[320];

                if (t->live)
                        snprintf(buf, sizeof(buf),
                                 _("Ring: %" PRIu64 " of %" PRIu64 " records since boot (seq %" PRIu64 "-%" PRIu64
                                   "), %s to %s\n"),
                                 t->all.records, t->all.last_seq + 1, t->all.first_seq, t->all.last_seq, a, b);
                else
                        snprintf(buf, sizeof(buf),
                                 _("Read: %" PRIu64 " records (seq %" PRIu64 "-%" PRIu64 "), %s to %s\n"),
                                 t->all.records, t->all.first_seq, t->all.last_seq, a, b);
                out_puts(buf);
        }
}

static int print_summary_json(struct lost_sink *t) {
        struct json_object *o = json_object_new_object(), *by = json_object_new_object();
        unsigned c;

        if (!o || !by) {
                json_object_put(o);
                json_object_put(by);
                return -ENOMEM;
        }
        add(o, "lost_total", json_object_new_uint64(t->stats.total));
        add(o, "lost_unknown", json_object_new_boolean(t->stats.unknown || t->noseq));
        add(o, "rotated_before", json_object_new_uint64(t->rotated_before));
        add(o, "gaps", json_object_new_uint64(t->stats.events));
        for (c = 0; c < LOSS_CAUSES; c++)
                if (t->stats.by_cause[c])
                        add(by, kmsg_loss_cause_to_name((enum kmsg_loss_cause)c),
                            json_object_new_uint64(t->stats.by_cause[c]));
        add(o, "lost_by_cause", by);
        add(o, "records", json_object_new_uint64(t->all.records));
        add(o, "boots", json_object_new_uint64(t->boot));
        if (t->all.have_first) {
                add(o, "first_seq", json_object_new_uint64(t->all.first_seq));
                add(o, "last_seq", json_object_new_uint64(t->all.last_seq));
                if (t->live)
                        add(o, "next_seq", json_object_new_uint64(t->all.last_seq + 1));
                add(o, "time_first", json_usec_new(t->all.first_usec));
                add(o, "time_last", json_usec_new(t->all.last_usec));
        }
        if (t->boot > 1) {
                struct json_object *v = json_object_new_array();
                size_t i;

                for (i = 0; v && i < t->n_boots; i++) {
                        const struct coverage *bc = &t->boots[i];
                        struct json_object *b = json_object_new_object();

                        if (!b)
                                break;
                        add(b, "boot", json_object_new_uint64(i + 1));
                        add(b, "records", json_object_new_uint64(bc->records));
                        if (bc->have_first) {
                                add(b, "first_seq", json_object_new_uint64(bc->first_seq));
                                add(b, "last_seq", json_object_new_uint64(bc->last_seq));
                                add(b, "time_first", json_usec_new(bc->first_usec));
                                add(b, "time_last", json_usec_new(bc->last_usec));
                        }
                        json_object_array_add(v, b);
                }
                add(o, "by_boot", v);
        }
        return report_json_line(o);
}

static int lost_finish(struct sink *s) {
        struct lost_sink *t = (struct lost_sink *)s;
        int e;

        /* Totals would speak for input that was not read: the error about it said enough. */
        if (s->settings->unread && s->settings->unread->sources > 0)
                return t->json ? 0 : print_table(t);
        if (t->json)
                return print_summary_json(t);
        e = print_table(t);
        if (e < 0)
                return e;
        print_totals(t);
        /* Where the losses were, so that bursts show (--timeline's strip). */
        return t->strip ? timeline_strip(t->strip) : 0;
}

static void lost_free(struct sink *s) {
        struct lost_sink *t = (struct lost_sink *)s;
        size_t i;

        for (i = 0; i < t->n_head; i++)
                kmsg_loss_unref(t->head[i].loss);
        for (i = 0; i < t->n_tail; i++)
                kmsg_loss_unref(t->tail[i].loss);
        kmsg_loss_unref(t->middle.first.loss);
        kmsg_loss_unref(t->middle.last.loss);
        free(t->boots);
        sink_free(t->strip);
}

static int lost_init(struct sink *s) {
        struct lost_sink *t = (struct lost_sink *)s;

        t->json = s->settings->json;
        t->live = s->settings->live;
        if (!t->json && isatty(STDOUT_FILENO)) {
                /* The companion of its row in the sink table: --timeline's strip. */
                t->strip = sink_new(s->info->companion, s->settings);
                if (!t->strip)
                        return -ENOMEM;
        }
        return 0;
}

const struct sink_ops sink_lost_ops = {
        .size = sizeof(struct lost_sink),
        .init = lost_init,
        .loss = lost_loss,
        .boot = lost_boot,
        .seen = lost_seen,
        .finish = lost_finish,
        .free = lost_free,
};
