/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sinks by name: one row per output format (--format=NAME, in the
 * order of enum output_format, so the row is also the format's name) and
 * report (--lost, --devices, --problems, --timeline), with what main() needs to know of it.  A new
 * format is its file (output-NAME.c, defining sink_NAME_ops, declared in
 * sink.h), a FORMAT_ value in format.h and a row here.
 */
#include <errno.h>
#include <string.h>

#include "output/format.h"
#include "output/sink.h"

static const struct sink_info sinks[] = {
        [FORMAT_SHORT] = { "short", &sink_short_ops,
                           SINK_PAGER | SINK_COLORS | SINK_LOST | SINK_DEVICES | SINK_MARKS_INFERRED },
        [FORMAT_TABLE] = { "table", &sink_table_ops,
                           SINK_PAGER | SINK_COLORS | SINK_LOST | SINK_DEVICES | SINK_MATCH_COLUMN },
        [FORMAT_JSON] = { "json", &sink_json_ops, SINK_LOST | SINK_DEVICES | SINK_MARKS_INFERRED },
        [FORMAT_JSON_DMESG] = { "json-dmesg", &sink_json_dmesg_ops, 0 },
        [FORMAT_SYSLOG] = { "syslog", &sink_syslog_ops, SINK_COLORS },
        [FORMAT_KMSG] = { "kmsg", &sink_kmsg_ops, SINK_WRITES_SEQ },
        [FORMAT_EXPORT] = { "export", &sink_export_ops, SINK_BOOT_TIME },
        [FORMAT_CAT] = { "cat", &sink_cat_ops, SINK_COLORS },
        /* The reports, which --format does not name. */
        [_FORMAT_MAX] = { "lost", &sink_lost_ops, 0 },
        [_FORMAT_MAX + 1] = { "devices", &sink_devices_ops, SINK_MARKS_INFERRED },
        [_FORMAT_MAX + 2] = { "problems", &sink_problems_ops, 0 },
        [_FORMAT_MAX + 3] = { "timeline", &sink_timeline_ops, 0 },
};

#define N_SINKS (sizeof(sinks) / sizeof(sinks[0]))
_Static_assert(N_SINKS == _FORMAT_MAX + 4, "sinks.c: one row per output format, then the reports");

const struct sink_info *sink_lookup(const char *name) {
        size_t i;

        for (i = 0; name && i < N_SINKS; i++)
                if (sinks[i].name && strcmp(sinks[i].name, name) == 0)
                        return &sinks[i];
        return NULL;
}

const struct sink_info *sink_of_format(enum output_format f) {
        return (unsigned)f < _FORMAT_MAX ? &sinks[f] : NULL;
}

int output_format_from_name(const char *name) {
        int i;

        for (i = 0; i < _FORMAT_MAX; i++)
                if (sinks[i].name && strcmp(name, sinks[i].name) == 0)
                        return i;
        return -EINVAL;
}

const char *output_format_to_name(enum output_format f) {
        return (unsigned)f < _FORMAT_MAX ? sinks[f].name : NULL;
}
