/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output format names (--format); sinks.c has the sink for each name. */
#include <errno.h>
#include <string.h>

#include "format.h"

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
