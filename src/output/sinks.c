/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of sinks: one row per report (--lost, --devices, --timeline,
 * --problems: the first rows, in the order of enum sink_report, which is
 * the order their combinations are checked in) and per output format
 * (--format=NAME, in the order of enum output_format).  Each row carries
 * what --help, the checks of option combinations and main() need to know
 * of it.  A new format is its file (NAME.c, defining sink_NAME_ops) and a
 * row at the end of the formats, with its ops declared above the table; a
 * format that no code names needs no FORMAT_ value.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "base/i18n.h"
#include "output/format.h"
#include "output/sink.h"

extern const struct sink_ops sink_lost_ops, sink_devices_ops, sink_timeline_ops, sink_problems_ops;
extern const struct sink_ops sink_short_ops, sink_table_ops, sink_json_ops, sink_json_dmesg_ops, sink_syslog_ops,
        sink_kmsg_ops, sink_export_ops;
extern const struct sink_ops sink_cat_ops;

#define F(f) SINK_BIT(FORMAT_##f)
#define OTHERS (~0u) /* a format's excludes: every other format */
#define R(r) SINK_BIT(REPORT_##r)

static const struct sink_info sinks[] = {
        [REPORT_LOST] = {
                "lost", SINK_REPORT, &sink_lost_ops, SINK_LOSSES | SINK_JSON_LINES,
                .option = "--lost",
                .help = N_("     --lost                  the lost messages: where, how many, why\n"),
                .formats = F(SHORT) | F(TABLE) | F(JSON),
                .excludes = R(DEVICES) | SINK_X_FOLLOW,
                .conflict = N_("--lost prints a table, or JSON with --json; not with %s"),
                .bad_format = N_("--lost prints a table, or JSON with --json; not with %s"),
                /* On a terminal, the strip of the losses under the table. */
                .companion = &sinks[REPORT_TIMELINE],
        },
        [REPORT_DEVICES] = {
                "devices", SINK_REPORT, &sink_devices_ops, SINK_MARKS_INFERRED | SINK_JSON_LINES,
                .option = "--devices",
                .help = N_("     --devices               one line per device that logged messages\n"),
                .formats = F(SHORT) | F(TABLE) | F(JSON),
                /* Its table is made at the end of the input, which following never reaches. */
                .excludes = SINK_X_FOLLOW,
                .conflict = N_("--devices prints its table at the end of the input: not with %s"),
                .bad_format = N_("--devices prints a table, or JSON with --json; not --format=%s"),
        },
        [REPORT_TIMELINE] = {
                "timeline", SINK_REPORT, &sink_timeline_ops, 0,
                .option = "--timeline",
                .has_arg = optional_argument,
                .set_arg = timeline_set_chars,
                .bad_arg = N_("unknown --timeline characters '%s' (expected auto, utf8 or ascii)"),
                .help = N_("     --timeline[=<chars>]    message counts over time (chars: utf8, ascii)\n"),
                .formats = F(SHORT) | F(JSON),
                .excludes = R(LOST) | R(DEVICES) | SINK_X_FOLLOW,
                .conflict = N_("--timeline and %s cannot be used together"),
                .bad_format = N_("--timeline draws a picture, or JSON with --json; not --format=%s"),
                /* With --problems, its rows are the kinds. */
                .combines = R(PROBLEMS),
        },
        [REPORT_PROBLEMS] = {
                "problems", SINK_REPORT, &sink_problems_ops, SINK_CLASSIFIES,
                .option = "--problems",
                .help = N_("     --problems              known problems by kind and subject, first on top\n"),
                .formats = F(SHORT) | F(TABLE) | F(JSON),
                .excludes = R(LOST) | R(DEVICES),
                .conflict = N_("--problems and %s cannot be used together"),
                .bad_format = N_("--problems prints a table, or JSON with --json; not --format=%s"),
                .bad_columns = N_("--problems has columns of its own; -o chooses those of --format=table"),
                .bad_follow = N_("--problems --follow writes JSON Lines as problems come: add --json"),
        },
        /* The formats: any other format named beside one is an error (--json --format=table). */
        [_REPORT_MAX + FORMAT_SHORT] = { "short", SINK_FORMAT, &sink_short_ops,
                                         SINK_PAGER | SINK_COLORS | SINK_MARKS_INFERRED, .excludes = OTHERS },
        [_REPORT_MAX + FORMAT_TABLE] = { "table", SINK_FORMAT, &sink_table_ops,
                                         SINK_PAGER | SINK_COLORS | SINK_MATCH_COLUMN, .excludes = OTHERS },
        [_REPORT_MAX + FORMAT_JSON] = { "json", SINK_FORMAT, &sink_json_ops, SINK_MARKS_INFERRED | SINK_JSON,
                                        .excludes = OTHERS },
        [_REPORT_MAX + FORMAT_JSON_DMESG] = { "json-dmesg", SINK_FORMAT, &sink_json_dmesg_ops, SINK_JSON,
                                              .excludes = OTHERS },
        [_REPORT_MAX + FORMAT_SYSLOG] = { "syslog", SINK_FORMAT, &sink_syslog_ops, SINK_COLORS, .excludes = OTHERS },
        [_REPORT_MAX + FORMAT_KMSG] = { "kmsg", SINK_FORMAT, &sink_kmsg_ops, SINK_WRITES_SEQ, .excludes = OTHERS },
        [_REPORT_MAX + FORMAT_EXPORT] = { "export", SINK_FORMAT, &sink_export_ops, SINK_BOOT_TIME, .excludes = OTHERS },
        /* The formats no code names by a FORMAT_ value: a row is all they need. */
        { "cat", SINK_FORMAT, &sink_cat_ops, SINK_COLORS, .excludes = OTHERS },
};

#define N_SINKS (sizeof(sinks) / sizeof(sinks[0]))
#define N_FORMATS (N_SINKS - _REPORT_MAX)

const struct sink_info *sink_lookup(const char *name) {
        size_t i;

        for (i = 0; name && i < N_SINKS; i++)
                if (strcmp(sinks[i].name, name) == 0)
                        return &sinks[i];
        return NULL;
}

const struct sink_info *sink_report(unsigned r) {
        return r < _REPORT_MAX ? &sinks[r] : NULL;
}

const struct sink_info *sink_format_at(size_t i) {
        return i < N_FORMATS ? &sinks[_REPORT_MAX + i] : NULL;
}

const struct sink_info *sink_of_format(enum output_format f) {
        return sink_format_at((size_t)f);
}

const struct sink_info *sink_choose(unsigned format, unsigned reports) {
        unsigned combined = 0, r;

        for (r = 0; r < _REPORT_MAX; r++)
                if (reports & SINK_BIT(r))
                        combined |= sinks[r].combines;
        for (r = 0; r < _REPORT_MAX; r++)
                if ((reports & ~combined) & SINK_BIT(r))
                        return &sinks[r];
        return sink_format_at(format);
}

int output_format_from_name(const char *name) {
        size_t i;

        for (i = 0; i < N_FORMATS; i++)
                if (strcmp(name, sinks[_REPORT_MAX + i].name) == 0)
                        return (int)i;
        return -EINVAL;
}

const char *output_format_to_name(enum output_format f) {
        const struct sink_info *si = sink_of_format(f);

        return si ? si->name : NULL;
}
