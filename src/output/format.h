/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_FORMAT_H
#define KDMESG_FORMAT_H

#include "output/sink.h"

/*
 * Output formats, chosen with --format=FMT: the format rows of the sink
 * table (sinks.c), in its order.  A format that no code names needs no
 * value here.
 */
enum output_format {
        FORMAT_SHORT = 0, /* the classic view (default) */
        FORMAT_TABLE,     /* libsmartcols table, columns from -o */
        FORMAT_JSON,      /* JSON Lines, one object per record */
        FORMAT_JSON_DMESG, /* the util-linux "dmesg --json" document */
        FORMAT_SYSLOG,    /* "<PRI>[    1.234567] message" */
        FORMAT_KMSG,      /* the /dev/kmsg text form, re-escaped */
        FORMAT_EXPORT,    /* the journal export format */
};

/* The format for a name, or -EINVAL; and back (sinks.c). */
int output_format_from_name(const char *name);
const char *output_format_to_name(enum output_format f);
/* The sink for the format (NULL for none). */
const struct sink_info *sink_of_format(enum output_format f);

#endif
