/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output format names and the sink for each. */
#include <errno.h>
#include <string.h>

#include "format.h"
#include "output.h"

static const char *const format_names[_FORMAT_MAX] = {
        [FORMAT_SHORT] = "short",   [FORMAT_TABLE] = "table",   [FORMAT_JSON] = "json",
        [FORMAT_JSON_DMESG] = "json-dmesg", [FORMAT_SYSLOG] = "syslog", [FORMAT_KMSG] = "kmsg",
        [FORMAT_EXPORT] = "export", [FORMAT_CAT] = "cat",
};

int output_format_from_name(const char *name) {
        int i;

        for (i = 0; i < _FORMAT_MAX; i++)
                if (strcmp(name, format_names[i]) == 0)
                        return i;
        return -EINVAL;
}

const char *output_format_to_name(enum output_format f) {
        return (unsigned)f < _FORMAT_MAX ? format_names[f] : NULL;
}

bool output_format_is_machine(enum output_format f) {
        return f != FORMAT_SHORT && f != FORMAT_TABLE;
}

struct sink *sink_new(enum output_format f, const struct output_settings *settings) {
        switch (f) {
        case FORMAT_TABLE:
                return sink_table_new(settings);
        case FORMAT_JSON:
                return sink_json_new(settings);
        case FORMAT_JSON_DMESG:
                return sink_json_dmesg_new(settings);
        case FORMAT_SYSLOG:
                return sink_syslog_new(settings);
        case FORMAT_KMSG:
                return sink_kmsg_new(settings);
        case FORMAT_EXPORT:
                return sink_export_new(settings);
        case FORMAT_CAT:
                return sink_cat_new(settings);
        default:
                return sink_short_new(settings);
        }
}
