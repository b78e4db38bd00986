/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sinks by name: one row per output format (--format=NAME) and report
 * (--lost, --devices), with what main() needs to know of it.  A new format
 * is its file (output-NAME.c, defining sink_NAME_ops, declared in sink.h)
 * and a row here.
 */
#include <string.h>

#include "sink.h"

static const struct sink_info sinks[] = {
        { "short", &sink_short_ops, SINK_PAGER | SINK_COLORS | SINK_LOST | SINK_DEVICES | SINK_MARKS_INFERRED },
        { "table", &sink_table_ops, SINK_PAGER | SINK_COLORS | SINK_LOST | SINK_DEVICES | SINK_MATCH_COLUMN },
        { "json", &sink_json_ops, SINK_LOST | SINK_DEVICES | SINK_MARKS_INFERRED },
        { "json-dmesg", &sink_json_dmesg_ops, 0 },
        { "syslog", &sink_syslog_ops, SINK_COLORS },
        { "kmsg", &sink_kmsg_ops, SINK_WRITES_SEQ },
        { "export", &sink_export_ops, SINK_BOOT_TIME },
        { "cat", &sink_cat_ops, SINK_COLORS },
        { "lost", &sink_lost_ops, 0 },
        { "devices", &sink_devices_ops, SINK_MARKS_INFERRED },
};

const struct sink_info *sink_lookup(const char *name) {
        size_t i;

        for (i = 0; name && i < sizeof(sinks) / sizeof(sinks[0]); i++)
                if (strcmp(sinks[i].name, name) == 0)
                        return &sinks[i];
        return NULL;
}
