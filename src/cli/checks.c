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
#include "ship/upload-relp.h"

/* The first of the reports (a SINK_BIT mask) in the table. */
static const struct sink_info *first_report(unsigned reports) {
        unsigned r = 0;

        while (r + 1 < _REPORT_MAX && !(reports & SINK_BIT(r)))
                r++;
        return sink_report(r);
}

/*
 * The reports asked for, each as its row in the sink table says, in the
 * order of the table: the reports and --follow it excludes, the formats it
 * prints in.  A report that another one combines (--timeline --problems)
 * is part of that one and not checked on its own.
 */
static enum options_result check_reports(struct options *o) {
        unsigned combined = 0, r, x;

        for (r = 0; r < _REPORT_MAX; r++)
                if (o->reports & SINK_BIT(r))
                        combined |= sink_report(r)->combines;
        /* util-linux has no such reports: their --json stays JSON Lines under any name. */
        for (r = 0; r < _REPORT_MAX; r++)
                if ((o->reports & SINK_BIT(r)) && (sink_report(r)->flags & SINK_JSON_LINES) && o->as_dmesg &&
                    o->json_option && o->format == FORMAT_JSON_DMESG)
                        o->format = FORMAT_JSON;
        for (r = 0; r < _REPORT_MAX; r++) {
                const struct sink_info *si = sink_report(r);

                if (!(o->reports & SINK_BIT(r)) || (combined & SINK_BIT(r)))
                        continue;
                if (si->bad_columns && o->format == FORMAT_TABLE && !o->format_set)
                        return options_fail(o, OPTIONS_BAD_USAGE, "%s", _(si->bad_columns));
                for (x = 0; x < _REPORT_MAX; x++)
                        if ((si->excludes & o->reports & SINK_BIT(x)))
                                return options_fail_with(o, OPTIONS_BAD_USAGE, _(si->conflict), sink_report(x)->option);
                if ((si->excludes & SINK_X_FOLLOW) && o->in.follow)
                        return options_fail_with(o, OPTIONS_BAD_USAGE, _(si->conflict), "--follow");
                if (!(si->formats & SINK_BIT(o->format)))
                        return options_fail_with(o, OPTIONS_BAD_USAGE, _(si->bad_format),
                                                 output_format_to_name(o->format));
                if (si->bad_follow && o->in.follow && o->format != FORMAT_JSON)
                        return options_fail(o, OPTIONS_BAD_USAGE, "%s", _(si->bad_follow));
        }
        return OPTIONS_RUN;
}

enum options_result options_boot(struct options *o, const char *arg) {
        const char *p = arg;
        uint64_t n = 0;

        o->boot_back = *p == '-' || strcmp(p, "0") == 0;
        if (*p == '-' || *p == '+')
                p++;
        if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 9)
                return options_fail(o, OPTIONS_FAILED,
                                    _("bad boot '%s' for --boot (1 the first boot of the input, 0 the last, -1 the one "
                                      "before it)"),
                                    arg);
        for (; *p; p++)
                n = n * 10 + (uint64_t)(*p - '0');
        if (n == 0 && !o->boot_back)
                o->boot_back = true;
        o->boot_arg = arg;
        o->boot_n = n;
        return OPTIONS_RUN;
}

enum options_result options_check(struct options *o) {
        enum options_result r;

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
        if (o->in.follow_new && o->in.n_sources > 0) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("--follow-new reads the live log; it cannot be combined with --kmsg-file"));
        }
        if (o->cursor_file && (o->in.n_sources > 0 || o->in.use_syslog)) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("--cursor-file keeps the place in /dev/kmsg; it cannot be combined with %s"),
                       o->in.use_syslog ? "--syslog" : "--kmsg-file");
        }
        if (o->in.follow && (o->in.use_syslog || o->action == ACTION_READ_CLEAR)) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("--follow cannot be combined with %s"),
                            o->in.use_syslog ? "--syslog" : "--read-clear");
        }
        if (o->in.n_sources > 0 && (o->in.use_syslog || o->action != ACTION_PRINT)) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("%s works on the kernel's buffer, not on files given with -K or -F"),
                       o->in.use_syslog && o->action == ACTION_PRINT ? "--syslog" : o->action_option);
        }
        if (o->in.pstore_list && !o->in.pstore)
                return options_fail(o, OPTIONS_BAD_USAGE, _("--list lists the dumps of --pstore: add --pstore"));
        if (o->in.pstore && (o->in.n_sources > 0 || o->in.use_syslog || o->in.follow || o->cursor_file ||
                                   o->action != ACTION_PRINT))
                return options_fail(o, OPTIONS_BAD_USAGE, _("--pstore reads a saved crash dump; it cannot be combined with %s"),
                            o->in.n_sources > 0 ? "--kmsg-file" : o->in.use_syslog ? "--syslog"
                            : o->in.follow ? "--follow" : o->cursor_file ? "--cursor-file" : o->action_option);
        if (o->tls_option && !o->upload)
                return options_fail(o, OPTIONS_BAD_USAGE, _("%s is for --upload"), o->tls_option);
        if (o->tls_option && upload_url_is_relp(o->upload) && !upload_url_is_relp_tls(o->upload))
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("%s is for --upload https:// or relp+tls://; relp:// has no TLS"), o->tls_option);
        if (o->trust && strcmp(o->trust, "all") == 0 && upload_url_is_relp_tls(o->upload))
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--trust all is for https://: relp+tls:// always checks the server's certificate "
                                      "(give the file of its CA)"));
        if (o->key && !o->cert && upload_url_is_relp_tls(o->upload))
                return options_fail(o, OPTIONS_BAD_USAGE, _("--key is the key of --cert: add --cert"));
        /* librelp without a certificate of its own speaks anonymous TLS, which an imrelp with one refuses. */
        if (o->upload && !o->cert && upload_url_is_relp_tls(o->upload))
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("relp+tls:// needs --cert: without a client certificate librelp speaks "
                                      "anonymous TLS, which imrelp refuses"));
        if (o->upload) {
                if (o->format_set && o->format != FORMAT_EXPORT)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--upload sends the export form, not --format=%s"),
                                    output_format_to_name(o->format));
                if (o->reports || o->action != ACTION_PRINT)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--upload cannot be combined with %s"),
                                            o->reports ? first_report(o->reports)->option : o->action_option);
                o->format = FORMAT_EXPORT;
        }
        if (o->machine_option && (o->format != FORMAT_EXPORT || o->reports)) {
                return options_fail(o, OPTIONS_BAD_USAGE, _("%s names the records of --format=export, not of %s"),
                                    o->machine_option,
                                    o->reports ? first_report(o->reports)->option : output_format_to_name(o->format));
        }
        if (o->columns.n > 0 && o->format != FORMAT_TABLE) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("-o chooses the columns of --format=table, not of --format=%s"),
                       output_format_to_name(o->format));
        }
        if (o->problems.group) {
                /* --problem N: the --problems sink, printing the records of its row N. */
                if (o->problems.sel.kinds)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                            _("--problem N is a row of --problems; not with --problem KIND"));
                if (o->reports)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("--problem N cannot be used with %s"),
                                            first_report(o->reports)->option);
                if (o->in.follow)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                            _("--problem N numbers the rows of the whole input; not with --follow"));
                if (o->format_set && o->format != FORMAT_SHORT)
                        return options_fail(o, OPTIONS_BAD_USAGE,
                                            _("--problem N prints the records as the default view; not --format=%s"),
                                            output_format_to_name(o->format));
                o->reports |= SINK_BIT(REPORT_PROBLEMS);
                o->out.problem_group = o->problems.group;
        }
        r = check_reports(o);
        if (r != OPTIONS_RUN)
                return r;
        if (o->list_boots && (o->in.follow || o->upload || o->reports || o->boot_arg || o->action != ACTION_PRINT))
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--list-boots lists the boots of the input and ends; it cannot be combined with %s"),
                                    o->in.follow ? "--follow" : o->upload ? "--upload" : o->boot_arg ? "--boot"
                                    : o->reports ? first_report(o->reports)->option : o->action_option);
        /* util-linux has no --list-boots: its -J stays JSON Lines under the name dmesg too. */
        if (o->list_boots && o->format == FORMAT_JSON_DMESG && o->as_dmesg && o->json_option)
                o->format = FORMAT_JSON;
        if (o->list_boots && o->columns.n > 0)
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--list-boots prints columns of its own; -o chooses those of the records' table"));
        if (o->list_boots && o->format != FORMAT_SHORT && o->format != FORMAT_JSON)
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--list-boots prints a table, or JSON with --json; not --format=%s"),
                                    output_format_to_name(o->format));
        /* Counted from the last, the boots are counted first: the input is read twice. */
        if (o->boot_arg && o->boot_back)
                for (size_t i = 0; i < o->in.n_sources; i++)
                        if (strcmp(o->in.sources[i].path, "-") == 0)
                                return options_fail(o, OPTIONS_BAD_USAGE,
                                                    _("--boot %s counts from the last boot: the input is read twice, "
                                                      "which standard input cannot be (give a file, or count from the "
                                                      "first: --boot 1)"),
                                                    o->boot_arg);
        /* JSON Lines has its time keys in one form each, for programs: a time format would go unseen. */
        if (o->format == FORMAT_JSON && !o->reports && (o->stamp_option || o->out.time.n > 0))
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("%s does not apply to --json, which writes both times in fixed forms: \"time\" "
                                      "(seconds since boot) and, where known, \"realtime\" (ISO 8601, UTC) and "
                                      "\"realtime_usec\""),
                                    o->stamp_option ? o->stamp_option : "--time-format");
        o->sink = sink_choose(o->format, o->reports);
        /* The export stream (and so --upload) names the problems its records belong to: KDMESG_PROBLEM. */
        if (o->sink == sink_of_format(FORMAT_EXPORT))
                o->problems.fields = true;
        /* --problems, also as the rows of --timeline, classifies the records. */
        for (unsigned i = 0; i < _REPORT_MAX; i++)
                if ((o->reports & SINK_BIT(i)) && (sink_report(i)->flags & SINK_CLASSIFIES))
                        o->problems.report = true;
        if (o->columns.n == 0 && columns_add_defaults(&o->columns) < 0)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        /* The table marks inferred matches in its MATCH column: shown by default with --device-text. */
        if (o->dev.filter.text && columns_add_match(&o->columns) < 0)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        o->out.columns = &o->columns;
        /* What reading needs to know of the rest (input/source.h). */
        o->in.read_clear = o->action == ACTION_READ_CLEAR;
        o->in.cursor = o->cursor_file != NULL;
        o->in.lost = o->sink->flags & SINK_LOSSES;
        /* --metrics counts what a read read: an action that reads nothing would leave its file unwritten, unsaid. */
        bool reads = o->action == ACTION_PRINT || o->action == ACTION_READ_CLEAR;

        if (o->metrics.path && (!reads || o->in.pstore_list || o->list_boots || o->problems.list_rules))
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("--metrics counts the records a run reads; it cannot be combined with %s"),
                                    !reads ? o->action_option : o->in.pstore_list ? "--list"
                                    : o->list_boots ? "--list-boots" : "--list-problem-rules");
        if (metrics_options_check(&o->metrics, o->in.follow, o->error, sizeof(o->error)) < 0)
                return OPTIONS_BAD_USAGE;
        return OPTIONS_RUN;
}
