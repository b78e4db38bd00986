/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SINK_H
#define KDMESG_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "libkmsg.h"
#include "timefmt.h"

struct columns;
struct devctx;

/* Settings every output format may read. */
struct output_settings {
        bool noescape; /* write message bytes unchanged */
        bool decode;       /* -x: "facility:level: " before the message */
        bool force_prefix; /* -p: repeat the prefix on every line of a message */
        /* Time format and boot time (timefmt.h); a sink copies it to keep its state. */
        struct timefmt time;
        struct devctx *devices; /* device options: tags, names (device.h) */
        /*
         * Flush the output after each record and loss event, so that a
         * reader of a pipe sees whole lines at once (set when following).
         */
        bool flush_each;
        bool noheadings;            /* table: no header line */
        const struct columns *columns; /* table: the columns to show (-o) */
        /* The boot id ("0f2c...", 32 hex digits, no dashes) when known, for --format=export. */
        const char *boot_id;
};

/*
 * An output format.  record() gets each record that passed the filters,
 * loss() each loss event where it happened in the stream, finish() the end
 * of input.  Each returns 0 or -errno.
 */
struct sink {
        const char *name;
        int (*record)(struct sink *s, const struct kmsg_record *r);
        int (*loss)(struct sink *s, const struct kmsg_loss *l);
        int (*finish)(struct sink *s);
        void (*free)(struct sink *s);
        const struct output_settings *settings;
};

struct sink *sink_short_new(const struct output_settings *settings);
struct sink *sink_table_new(const struct output_settings *settings);
struct sink *sink_json_new(const struct output_settings *settings);
struct sink *sink_json_dmesg_new(const struct output_settings *settings);
struct sink *sink_syslog_new(const struct output_settings *settings);
struct sink *sink_kmsg_new(const struct output_settings *settings);
struct sink *sink_export_new(const struct output_settings *settings);
struct sink *sink_cat_new(const struct output_settings *settings);

/* Call at the end of each record or loss event: flushes when settings->flush_each. */
void sink_end_item(const struct sink *s);

/* --lost: the lost-message report (report-lost.c); live: coverage of the ring. */
struct sink *sink_lost_new(const struct output_settings *settings, bool json, bool live);
/*
 * For the coverage line of --lost: every record the input held, before
 * filters, including those a --cursor-file run skips (not duplicates).
 */
void sink_lost_seen(struct sink *s, const struct kmsg_record *r);

/* --devices: the per-device report (report-devices.c). */
struct sink *sink_devices_new(const struct output_settings *settings, struct devctx *dev);

#endif
