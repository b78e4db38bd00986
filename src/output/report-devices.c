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
 *
 * One device can log under several DEVICE values: a USB device as c189:130
 * and as +usb:2-1.4, a serial port as c188:0 and as +usb-serial:ttyUSB0.
 * At the end, rows whose name is the same are one row, where the name
 * bridges a numeric value (bMAJ:MIN, cMAJ:MIN, nIFINDEX) to another
 * value: the name from sysfs, from a +subsystem:name value, or from the
 * message's dev_printk() prefix ("usb 2-1.4: ..." names 2-1.4).  Two
 * +subsystem:name values of different subsystems stay apart (+drm:card0 is
 * not +sound:card0).  The NAME column comes first and whole; the raw
 * values, in DEVICE, give way first on a narrow terminal.
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
        char *name;          /* the name its messages' prefix gives (prefix_name()), or NULL */
        char *also;          /* the other DEVICE values of rows merged into this one, ", "-separated */
        struct devrow *into; /* merged into that row (at the end) */
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

static bool name_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
               c == ':' || c == '-' || c == '+' || c == '@';
}

/*
 * The device name a dev_printk()-style message starts with: the last word
 * before the first ": " of a head of two or three words ("usb 2-1.4: ",
 * "e1000e 0000:00:19.0 eth0: "), or the one word of a block or network
 * device's own messages ("sda1: ", own).  Returns its length (*ret: where
 * it starts), or 0.
 */
static size_t prefix_name(const char *msg, size_t len, bool own, const char **ret) {
        size_t i, words = 1, start = 0;

        for (i = 0; i < len && i < 96; i++) {
                if (msg[i] == ':' && i + 1 < len && msg[i + 1] == ' ')
                        break;
                if (msg[i] == ' ') {
                        if (i == start)
                                return 0;
                        words++;
                        start = i + 1;
                } else if (!name_char(msg[i]))
                        return 0;
        }
        if (i == len || i == 96 || i == start || words > 3 || (words == 1 && !own))
                return 0;
        *ret = msg + start;
        return i - start;
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
        if (!inferred && !w->name && w != d->others) {
                const char *nm;
                size_t n = prefix_name(msg, len, device[0] == 'b' || device[0] == 'n', &nm);

                if (n > 0 && !(w->name = strndup(nm, n)))
                        return -ENOMEM;
        }
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

enum { COL_DEVNAME, COL_DEVICE, COL_SUBSYSTEM, COL_COUNT, COL_INFERRED, COL_LEVEL, COL_FIRST, COL_LAST, COL_MESSAGE };

static const struct report_column columns[] = {
        /* The name first and whole, as lsblk has it: the raw value where none is known. */
        [COL_DEVNAME] = { "NAME", 0.1, 0, SCOLS_JSON_STRING },
        /* On a narrow terminal: the raw values give way first, LAST says more than FIRST. */
        [COL_DEVICE] = { "DEVICE", 0.1, 0, SCOLS_JSON_STRING, false, 1 },
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

/* The device's name: from sysfs or its +subsystem:name value, else its messages' prefix; NULL: none. */
static const char *row_name(const struct devices_sink *d, const struct devrow *w) {
        const char *name;

        if (w == d->others)
                return NULL;
        name = devnames_get(d->dev ? d->dev->names : NULL, w->device);
        return name ? name : w->name;
}

static int fill_line(struct devices_sink *d, struct libscols_line *ln, const struct devrow *w) {
        const char *name = row_name(d, w);
        char buf[32];
        char *text, *ids = NULL;
        int e;

        /* DEVICE: its values, the row's own first. */
        if (w->also && asprintf(&ids, "%s, %s", w->device, w->also) < 0)
                return -ENOMEM;
        text = text_safe_dup(ids ? ids : w->device, strlen(ids ? ids : w->device), false);
        free(ids);
        if (!text)
                return -ENOMEM;
        if ((e = scols_line_refer_data(ln, COL_DEVICE, text)) < 0) {
                free(text);
                return e;
        }
        if (!name)
                name = w->device;
        if ((text = text_safe_dup(name, strlen(name), false)) == NULL)
                return -ENOMEM;
        if ((e = scols_line_refer_data(ln, COL_DEVNAME, text)) < 0) {
                free(text);
                return e;
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

/* A merged row's DEVICE values, its own first, as a JSON array (NULL: out of memory). */
static struct json_object *devices_array(const struct devrow *w) {
        struct json_object *a = json_object_new_array();
        const char *p = w->also, *q;

        if (!a || json_object_array_add(a, json_bytes_new(w->device, strlen(w->device))) < 0) {
                json_object_put(a);
                return NULL;
        }
        for (; p; p = q ? q + 2 : NULL) {
                q = strstr(p, ", ");
                if (json_object_array_add(a, json_bytes_new(p, q ? (size_t)(q - p) : strlen(p))) < 0) {
                        json_object_put(a);
                        return NULL;
                }
        }
        return a;
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
                const char *name = row_name(d, w);
                struct json_object *o = json_object_new_object();
                int e;

                if (!o)
                        return -ENOMEM;
                e = others ? json_add(o, "others", json_object_new_boolean(1))
                           : json_add(o, "device", json_bytes_new(w->device, strlen(w->device)));
                if (e >= 0 && name)
                        e = json_add(o, "devname", json_bytes_new(name, strlen(name)));
                if (e >= 0 && w->also)
                        e = json_add(o, "devices", devices_array(w));
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

/* A DEVICE value of the kernel's numeric forms: b8:1, c189:130, n2. */
static bool numeric_id(const char *device) {
        return (device[0] == 'b' || device[0] == 'c' || device[0] == 'n') && device[1] >= '0' && device[1] <= '9';
}

/* Whether rows a and b, of one name, are one device (see the top of this file). */
static bool one_device(const struct devrow *a, const struct devrow *b) {
        if (numeric_id(a->device) || numeric_id(b->device))
                return true;
        return a->subsystem && b->subsystem && strcmp(a->subsystem, b->subsystem) == 0;
}

/* Add w's counts, times and last message to into, and its DEVICE value to into's others. */
static int merge_row(struct devrow *into, struct devrow *w) {
        char *also;

        if (asprintf(&also, "%s%s%s", into->also ? into->also : "", into->also ? ", " : "", w->device) < 0)
                return -ENOMEM;
        free(into->also);
        into->also = also;
        into->count += w->count;
        into->inferred += w->inferred;
        if (w->worst < into->worst)
                into->worst = w->worst;
        if (w->has_first && (!into->has_first || w->first < into->first)) {
                into->has_first = true;
                into->first = w->first;
        }
        if (w->has_last && (!into->has_last || w->last > into->last)) {
                char *m = into->message;

                into->has_last = true;
                into->last = w->last;
                into->message = w->message;
                into->message_len = w->message_len;
                into->message_cap = w->message_cap;
                w->message = m;
        }
        if (!into->subsystem && w->subsystem) {
                into->subsystem = w->subsystem;
                w->subsystem = NULL;
        }
        w->into = into;
        return 0;
}

/* A named row, for merge_rows(). */
struct named {
        const char *name;
        struct devrow *row;
};

/* By name; of one name, the +subsystem:name rows first; then by DEVICE value. */
static int named_cmp(const void *a, const void *b) {
        const struct named *x = a, *y = b;
        int c = strcmp(x->name, y->name);
        bool nx = numeric_id(x->row->device), ny = numeric_id(y->row->device);

        if (c)
                return c;
        if (nx != ny)
                return nx ? 1 : -1;
        return strcmp(x->row->device, y->row->device);
}

/*
 * Rows of one device made one: the rows sorted by name (looked up once),
 * each numeric row of a name joined to the first +subsystem:name row of it
 * (a numeric value is one device with any row of its name: one_device()).
 * O(n log n) in the rows, up to DEVICES_ROWS_MAX of them.
 */
static int merge_rows(struct devices_sink *d) {
        struct devrow **rows = (struct devrow **)report_sorted(d->rows, 0, row_cmp, &(size_t){ 0 });
        size_t n = d->rows->n, k = 0, i, j;
        struct named *v;
        int e = 0;

        if (!rows)
                return -ENOMEM;
        v = calloc(n ? n : 1, sizeof(*v));
        if (!v) {
                free(rows);
                return -ENOMEM;
        }
        for (i = 0; i < n; i++)
                if ((v[k].name = row_name(d, rows[i])) != NULL)
                        v[k++].row = rows[i];
        qsort(v, k, sizeof(*v), named_cmp);
        for (i = 0; i < k; i = j) {
                struct devrow *anchor = numeric_id(v[i].row->device) ? NULL : v[i].row;

                for (j = i + 1; j < k && strcmp(v[j].name, v[i].name) == 0; j++)
                        if (anchor && e >= 0 && numeric_id(v[j].row->device) && one_device(anchor, v[j].row))
                                e = merge_row(anchor, v[j].row);
        }
        free(v);
        free(rows);
        return e;
}

static int devices_finish(struct sink *s) {
        struct devices_sink *d = (struct devices_sink *)s;
        struct devrow **rows;
        size_t n;
        int e;

        e = merge_rows(d);
        if (e < 0)
                return e;
        /* The rows, sorted, then the "(others)" row; those merged into another are not rows of their own. */
        rows = (struct devrow **)report_sorted(d->rows, 1, row_cmp, &n);
        if (!rows)
                return -ENOMEM;
        {
                size_t i, k = 0;

                for (i = 0; i < n; i++)
                        if (!rows[i]->into)
                                rows[k++] = rows[i];
                n = k;
        }
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
        free(w->name);
        free(w->also);
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
