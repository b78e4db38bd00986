/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The checks of option combinations, after the getopt loop (options.c) and
 * before anything runs: what cannot go together is said in one line.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "base/i18n.h"
#include "cli/options.h"

/* Whether the sink of --format has flag (SINK_LOST, ...: sink.h). */
static bool format_has(const struct options *o, unsigned flag) {
        return sink_of_format(o->format)->flags & flag;
}

enum options_result options_check(struct options *o) {
        if (o->raw_option && o->stamp_option && o->format == FORMAT_SYSLOG) {
                /* As util-linux: -r has its own stamps; the options are named in the order given. */
                return options_fail(o, OPTIONS_BAD_USAGE, _("%s and %s cannot be combined"),
                            o->stamp_first ? o->stamp_option : "--raw", o->stamp_first ? "--raw" : o->stamp_option);
        }
        if (o->out.decode && o->format == FORMAT_SYSLOG) {
                /* util-linux refuses them too: the raw form has the priority as a number. */
                return options_fail(o, OPTIONS_BAD_USAGE, _("--raw and --decode cannot be combined"));
        }
        if (o->stray)
                return options_fail(o, OPTIONS_BAD_USAGE, _("unexpected argument '%s'"), o->stray);
        if (o->follow_new && o->n_sources > 0) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("--follow-new reads the live log; it cannot be combined with --kmsg-file"));
        }
        if (o->cursor_file && (o->n_sources > 0 || o->use_syslog)) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("--cursor-file keeps the place in /dev/kmsg; it cannot be combined with %s"),
                       o->use_syslog ? "--syslog" : "--kmsg-file");
        }
        if (o->follow && (o->use_syslog || o->action == ACTION_READ_CLEAR)) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("--follow cannot be combined with %s"),
                            o->use_syslog ? "--syslog" : "--read-clear");
        }
        if (o->n_sources > 0 && (o->use_syslog || o->action != ACTION_PRINT)) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("%s works on the kernel's buffer, not on files given with -K or -F"),
                       o->use_syslog && o->action == ACTION_PRINT ? "--syslog" : o->action_option);
        }
        if (o->tls_option && !o->upload)
                return options_fail(o, OPTIONS_BAD_USAGE, _("%s is for --upload"), o->tls_option);
        if (o->upload) {
                if (o->format_set && o->format != FORMAT_EXPORT)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--upload sends the export form, not --format=%s"),
                                    output_format_to_name(o->format));
                if (o->lost || o->dev.report || o->problems.report || o->problems.timeline ||
                    o->action != ACTION_PRINT)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--upload cannot be combined with %s"),
                                    o->lost ? "--lost" : o->dev.report ? "--devices"
                                    : o->problems.timeline ? "--timeline" : o->problems.report ? "--problems"
                                    : o->action_option);
                o->format = FORMAT_EXPORT;
        }
        if (o->machine_option && (o->format != FORMAT_EXPORT || o->lost || o->dev.report)) {
                return options_fail(o, OPTIONS_BAD_USAGE, _("%s names the records of --format=export, not of %s"),
                            o->machine_option,
                            o->lost ? "--lost" : o->dev.report ? "--devices" : output_format_to_name(o->format));
        }
        if (o->columns.n > 0 && o->format != FORMAT_TABLE) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("-o chooses the columns of --format=table, not of --format=%s"),
                       output_format_to_name(o->format));
        }
        /* util-linux has no such reports: their --json stays JSON Lines under any name. */
        if (o->as_dmesg && o->json_option && o->format == FORMAT_JSON_DMESG && (o->dev.report || o->lost))
                o->format = FORMAT_JSON;
        if (o->dev.report) {
                /* The report is a table, or JSON Lines with --json. */
                if (o->format == FORMAT_JSON)
                        o->dev.report_json = true;
                else if (!format_has(o, SINK_DEVICES)) {
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--devices prints a table, or JSON with --json; not --format=%s"),
                               output_format_to_name(o->format));
                }
        }
        if (o->lost) {
                if (o->dev.report || o->follow || !format_has(o, SINK_LOST)) {
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--lost prints a table, or JSON with --json; not with %s"),
                               o->dev.report ? "--devices" : o->follow ? "--follow" : output_format_to_name(o->format));
                }
        }
        if (o->problems.list && !o->problems.pstore)
                return options_fail(o, OPTIONS_BAD_USAGE, _("--list lists the dumps of --pstore: add --pstore"));
        if (o->problems.pstore && (o->n_sources > 0 || o->use_syslog || o->follow || o->cursor_file ||
                                   o->action != ACTION_PRINT))
                return options_fail(o, OPTIONS_BAD_USAGE, _("--pstore reads a saved crash dump; it cannot be combined with %s"),
                            o->n_sources > 0 ? "--kmsg-file" : o->use_syslog ? "--syslog"
                            : o->follow ? "--follow" : o->cursor_file ? "--cursor-file" : o->action_option);
        if (o->problems.timeline) {
                /* A picture, or JSON Lines with --json; with --problems, its rows are the kinds. */
                if (o->lost || o->dev.report || o->follow)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--timeline and %s cannot be used together"),
                                    o->lost ? "--lost" : o->dev.report ? "--devices" : "--follow");
                if (o->format != FORMAT_JSON && o->format != FORMAT_SHORT)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--timeline draws a picture, or JSON with --json; not --format=%s"),
                                    output_format_to_name(o->format));
        } else if (o->problems.report) {
                /* The report is a table, or JSON Lines with --json; following, only JSON. */
                if (o->format == FORMAT_TABLE && !o->format_set)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--problems has columns of its own; -o chooses those of --format=table"));
                if (o->lost || o->dev.report)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--problems and %s cannot be used together"),
                                    o->lost ? "--lost" : "--devices");
                if (o->format != FORMAT_JSON && o->format != FORMAT_SHORT && o->format != FORMAT_TABLE)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--problems prints a table, or JSON with --json; not --format=%s"),
                                    output_format_to_name(o->format));
                if (o->follow && o->format != FORMAT_JSON)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--problems --follow writes JSON Lines as problems come: add --json"));
        }
        if (o->columns.n == 0 && columns_add_defaults(&o->columns) < 0)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        /* The table marks inferred matches in its MATCH column: shown by default with --device-text. */
        if (o->dev.filter.text && columns_add_match(&o->columns) < 0)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        o->out.columns = &o->columns;
        return OPTIONS_RUN;
}
