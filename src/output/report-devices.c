/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --devices: which hardware is complaining.  One row per DEVICE value that
 * logged anything (after the filters): its name, subsystem, how many
 * messages, the worst level, the first and last time stamps in input order
 * and the last message.  Sorted by worst level, then count.  Memory grows
 * with the number of devices, not of records, and only up to
 * DEVICES_ROWS_MAX of them: the first that many devices seen get a row
 * each, and the records of all the devices after them are summed up in
 * one "(others)" row, last (JSON: "others":true, and no "device").  How
 * many devices that row holds is not counted: that would take memory for
 * each of them.
 *
 * A record without a DEVICE that --device-text selected by its message
 * counts in the row of the device it names (the DEVICE value the kernel
 * writes for that device), so the report covers the records a listing with
 * the same options shows; the INFERRED column ("inferred" in JSON, only
 * with --device-text) says how many of COUNT were selected that way.
 */
#include <errno.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/device.h"
#include "base/i18n.h"
#include "text/json.h"
#include "text/writer.h"
#include "output/report.h"
#include "output/sink.h"
#include "base/strmap.h"

#define N_BUCKETS 256
/* The most devices with a row of their own. */
#define DEVICES_ROWS_MAX 10000
#define NO_LEVEL 8 /* records without a priority sort last */

struct devrow {
        struct strmap_node node; /* keyed by device */
        char *subsystem;
        uint64_t count;
        uint64_t inferred; /* of count, selected by their text */
        unsigned worst;
        bool has_first;
        uint64_t first, last;
        bool has_last;
        char *message;
        size_t message_len, message_cap;
        char device[];
};

struct devices_sink {
        struct sink sink;
        const struct devnamer *dev;
        struct strmap *rows;
        struct devrow *others; /* the devices after the first DEVICES_ROWS_MAX; NULL: none */
};

static struct devrow *row_new(const char *device) {
        size_t len = strlen(device);
        struct devrow *w = calloc(1, sizeof(*w) + len + 1);

        if (!w)
                return NULL;
        memcpy(w->device, device, len + 1);
        w->worst = NO_LEVEL;
        w->node.key = w->device;
        return w;
}

/* The device's row; once there are DEVICES_ROWS_MAX rows, a new device's records go to the "(others)" row. */
static struct devrow *row_get(struct devices_sink *d, const char *device) {
        struct devrow *w = (struct devrow *)strmap_find(d->rows, device);

        if (w)
                return w;
        if (d->rows->n >= DEVICES_ROWS_MAX) {
                if (!d->others)
                        d->others = row_new("(others)");
                return d->others;
        }
        w = row_new(device);
        if (w)
                strmap_add(d->rows, &w->node);
        return w;
}

static int devices_record(struct sink *s, const struct kmsg_record *r, const struct match *found) {
        struct devices_sink *d = (struct devices_sink *)s;
        const char *device = kmsg_record_get_device(r), *msg, *subsys = kmsg_record_get_subsystem(r);
        bool inferred = found->how == DEVMATCH_TEXT;
        struct devrow *w;
        size_t len;

        if (inferred) {
                device = found->device;
                subsys = found->subsystem;
        }
        if (!device)
                return 0;
        w = row_get(d, device);
        if (!w)
                return -ENOMEM;
        if (w != d->others && !w->subsystem && subsys && !(w->subsystem = strdup(subsys)))
                return -ENOMEM;
        w->count++;
        if (inferred)
                w->inferred++;
        if (kmsg_record_has_priority(r) && kmsg_record_get_level(r) < w->worst)
                w->worst = kmsg_record_get_level(r);
        if (kmsg_record_has_timestamp(r)) {
                if (!w->has_first) {
                        w->has_first = true;
                        w->first = kmsg_record_get_timestamp(r);
                }
                w->has_last = true;
                w->last = kmsg_record_get_timestamp(r);
        }
        msg = kmsg_record_get_message(r, &len);
        if (len + 1 > w->message_cap) {
                char *m = realloc(w->message, len + 1);

                if (!m)
                        return -ENOMEM;
                w->message = m;
                w->message_cap = len + 1;
        }
        memcpy(w->message, msg, len);
        w->message[len] = '\0';
        w->message_len = len;
        return 0;
}

static int row_cmp(const void *a, const void *b) {
        const struct devrow *x = *(const struct devrow *const *)a, *y = *(const struct devrow *const *)b;

        if (x->worst != y->worst)
                return x->worst < y->worst ? -1 : 1;
        if (x->count != y->count)
                return x->count > y->count ? -1 : 1;
        return strcmp(x->device, y->device);
}

enum { COL_DEVICE, COL_DEVNAME, COL_SUBSYSTEM, COL_COUNT, COL_INFERRED, COL_LEVEL, COL_FIRST, COL_LAST, COL_MESSAGE };

static const struct report_column columns[] = {
        [COL_DEVICE] = { "DEVICE", 0.1, 0, SCOLS_JSON_STRING },
        /* On a narrow terminal: DEVNAME repeats most of DEVICE, LAST says more than FIRST. */
        [COL_DEVNAME] = { "DEVNAME", 0.1, 0, SCOLS_JSON_STRING, false, 1 },
        [COL_SUBSYSTEM] = { "SUBSYSTEM", 0.1, 0, SCOLS_JSON_STRING },
        [COL_COUNT] = { "COUNT", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER },
        [COL_INFERRED] = { "INFERRED", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER },
        [COL_LEVEL] = { "LEVEL", 0.05, 0, SCOLS_JSON_STRING },
        [COL_FIRST] = { "FIRST", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, false, 2 },
        [COL_LAST] = { "LAST", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER },
        [COL_MESSAGE] = { "MESSAGE", 0.5, SCOLS_FL_NOEXTREMES, SCOLS_JSON_STRING, true },
};

/* FIRST and LAST in the time format of the run (-T, --time-format, --boot-time). */
static int set_usec(const struct devices_sink *d, struct libscols_line *ln, int col, bool has, uint64_t usec) {
        char buf[64];

        if (!has)
                return 0;
        timefmt_point(&d->sink.settings->time, usec, buf, sizeof(buf));
        return scols_line_set_data(ln, col, buf);
}

static int fill_line(struct devices_sink *d, struct libscols_line *ln, const struct devrow *w) {
        const char *name = w == d->others ? NULL : devnames_get(d->dev ? d->dev->names : NULL, w->device);
        char buf[32];
        char *text;
        int e;

        if ((text = text_safe_dup(w->device, strlen(w->device), false)) == NULL)
                return -ENOMEM;
        if ((e = scols_line_refer_data(ln, COL_DEVICE, text)) < 0) {
                free(text);
                return e;
        }
        if (name) {
                if ((text = text_safe_dup(name, strlen(name), false)) == NULL)
                        return -ENOMEM;
                if ((e = scols_line_refer_data(ln, COL_DEVNAME, text)) < 0) {
                        free(text);
                        return e;
                }
        }
        if (w->subsystem) {
                if ((text = text_safe_dup(w->subsystem, strlen(w->subsystem), false)) == NULL)
                        return -ENOMEM;
                if ((e = scols_line_refer_data(ln, COL_SUBSYSTEM, text)) < 0) {
                        free(text);
                        return e;
                }
        }
        snprintf(buf, sizeof(buf), "%" PRIu64, w->count);
        if ((e = scols_line_set_data(ln, COL_COUNT, buf)) < 0)
                return e;
        snprintf(buf, sizeof(buf), "%" PRIu64, w->inferred);
        if ((e = scols_line_set_data(ln, COL_INFERRED, buf)) < 0)
                return e;
        if (w->worst < NO_LEVEL && (e = scols_line_set_data(ln, COL_LEVEL, kmsg_level_to_name(w->worst))) < 0)
                return e;
        if ((e = set_usec(d, ln, COL_FIRST, w->has_first, w->first)) < 0 ||
            (e = set_usec(d, ln, COL_LAST, w->has_last, w->last)) < 0)
                return e;
        if ((text = text_safe_dup(w->message, w->message_len, d->sink.settings->noescape)) == NULL)
                return -ENOMEM;
        if ((e = scols_line_refer_data(ln, COL_MESSAGE, text)) < 0)
                free(text);
        return e;
}

/* rows: the n rows to print, in order. */
static int print_table(struct devices_sink *d, struct devrow **rows, size_t n) {
        /* INFERRED only with --device-text. */
        unsigned long hidden = d->dev && d->dev->by_text ? 0 : 1ul << COL_INFERRED;
        struct libscols_table *tb = report_table_new(columns, sizeof(columns) / sizeof(columns[0]), hidden, false);
        size_t i;
        int e = 0;

        if (!tb)
                return -ENOMEM;
        for (i = 0; i < n && e >= 0; i++) {
                struct libscols_line *ln = scols_table_new_line(tb, NULL);

                e = ln ? fill_line(d, ln, rows[i]) : -ENOMEM;
        }
        return report_table_print(&d->sink, tb, columns, sizeof(columns) / sizeof(columns[0]), e);
}

/*
 * --devices --json: JSON Lines like the records', one object per device, in
 * the table's order; text that is not valid UTF-8 is an array of bytes.
 */
static int print_json(struct devices_sink *d, struct devrow **rows, size_t n) {
        size_t i;

        for (i = 0; i < n; i++) {
                const struct devrow *w = rows[i];
                bool others = w == d->others;
                const char *name = others ? NULL : devnames_get(d->dev ? d->dev->names : NULL, w->device);
                struct json_object *o = json_object_new_object();
                int e;

                if (!o)
                        return -ENOMEM;
                e = others ? json_add(o, "others", json_object_new_boolean(1))
                           : json_add(o, "device", json_bytes_new(w->device, strlen(w->device)));
                if (e >= 0 && name)
                        e = json_add(o, "devname", json_bytes_new(name, strlen(name)));
                if (e >= 0 && w->subsystem)
                        e = json_add(o, "subsystem", json_bytes_new(w->subsystem, strlen(w->subsystem)));
                if (e >= 0)
                        e = json_add(o, "count", json_object_new_uint64(w->count));
                if (e >= 0 && d->dev && d->dev->by_text)
                        e = json_add(o, "inferred", json_object_new_uint64(w->inferred));
                if (e >= 0 && w->worst < NO_LEVEL)
                        e = json_add(o, "level", json_object_new_string(kmsg_level_to_name(w->worst)));
                if (e >= 0 && w->has_first)
                        e = json_add(o, "first", json_usec_new(w->first));
                if (e >= 0 && w->has_last)
                        e = json_add(o, "last", json_usec_new(w->last));
                if (e >= 0)
                        e = json_add(o, "msg", json_bytes_new(w->message, w->message_len));
                if (e < 0) {
                        json_object_put(o);
                        return -ENOMEM;
                }
                if (report_json_line(o) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int devices_finish(struct sink *s) {
        struct devices_sink *d = (struct devices_sink *)s;
        struct devrow **rows;
        size_t n;
        int e;

        /* The rows, sorted, then the "(others)" row. */
        rows = (struct devrow **)report_sorted(d->rows, 1, row_cmp, &n);
        if (!rows)
                return -ENOMEM;
        if (d->others)
                rows[n++] = d->others;
        /*
         * Empty: the one line every report has for it (JSON Lines: no
         * object), not a header alone; no verdict over input that was not
         * read in full (report_unread_line()).
         */
        if (n == 0 && !d->sink.settings->json) {
                free(rows);
                if (!report_unread_line(s, false))
                        out_puts(_("-- No messages of a device --\n"));
                return 0;
        }
        e = d->sink.settings->json ? print_json(d, rows, n) : print_table(d, rows, n);
        free(rows);
        if (e >= 0)
                report_unread_line(s, false);
        return e;
}

static void free_row(struct strmap_node *node, void *userdata) {
        struct devrow *w = (struct devrow *)node;

        free(w->subsystem);
        free(w->message);
        free(w);
}

static void devices_free(struct sink *s) {
        struct devices_sink *d = (struct devices_sink *)s;

        report_map_free(d->rows, free_row);
        if (d->others)
                free_row(&d->others->node, NULL);
}

static int devices_init(struct sink *s) {
        struct devices_sink *d = (struct devices_sink *)s;

        d->dev = s->settings->devices;
        d->rows = strmap_new(N_BUCKETS);
        return d->rows ? 0 : -ENOMEM;
}

const struct sink_ops sink_devices_ops = {
        .size = sizeof(struct devices_sink),
        .init = devices_init,
        .record = devices_record,
        .finish = devices_finish,
        .free = devices_free,
};
