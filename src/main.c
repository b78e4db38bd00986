/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg: print the kernel log, exactly.  Parse, set up, run, exit status. */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "cli/options.h"
#include "input/boots.h"
#include "input/pstore-read.h"
#include "input/source.h"
#include "libkmsg.h"
#include "output/format.h"
#include "output/loss-text.h"
#include "output/metrics.h"
#include "output/sink.h"
#include "ship/cursor.h"
#include "pipeline/metrics-run.h"
#include "pipeline/missing.h"
#include "pipeline/run.h"
#include "ship/service.h"
#include "ship/upload-relp.h"
#include "ship/upload.h"
#include "select/device.h"
#include "select/filter.h"
#include "select/problems.h"
#include "text/color.h"
#include "text/columns.h"
#include "text/diag.h"
#include "text/pager.h"
#include "text/util.h"
#include "text/writer.h"
#include "time/suspend.h"

/*
 * An error found before reading starts, with status: EXIT_CONFIG (a
 * shipper's configuration) adds what to edit where systemd runs kdmesg.
 */
static void __attribute__((noreturn, format(printf, 3, 4)))
setup_fail(int status, bool url_missing, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vwarnx_(fmt, ap);
        va_end(ap);
        if (status == EXIT_CONFIG)
                service_config_hint(url_missing);
        exit(status);
}

/*
 * A one-shot --upload on a terminal says what the collector took (a
 * cron job's output, not a terminal, stays silent); a failure was said.
 */
static void say_uploaded(struct upload *u, const char *url) {
        struct metrics_upload m;
        char shown[512];

        upload_get_metrics(u, &m);
        upload_url_shown(url, shown, sizeof(shown));
        if (m.acked == 0)
                warnx_plain(_("-- Nothing new to send to %s --"), shown);
        else
                warnx_plain(P_("-- %llu record sent to %s: the collector has it --",
                               "-- %llu records sent to %s: the collector has them --", m.acked),
                            (unsigned long long)m.acked, shown);
}

int main(int argc, char **argv) {
        struct options o = {};
        struct run run = { .quit_fd = -1 };
        struct metrics metrics;
        pid_t pager = -1;
        const struct sink_info *si;
        bool live;
        int e, setup_error;

        setlocale(LC_ALL, "");
        out_init_locale();
        i18n_init();
        /* "kdmesg | head": end quietly when the reader goes away. */
        signal(SIGPIPE, SIG_DFL);
        /* An error before reading starts is a shipper's configuration error: restarting it cannot help. */
        setup_error = options_name_upload(argc, argv) ? EXIT_CONFIG : EXIT_BAD_INPUT;
        e = options_parse(argc, argv, &o);
        if (e == OPTIONS_RUN)
                e = options_check(&o);
        switch (e) {
        case OPTIONS_RUN:
                break;
        case OPTIONS_HELP:
                usage();
        case OPTIONS_VERSION:
                printf(_("%s %s (libkmsg %s)\n"), program, PACKAGE_VERSION, kmsg_version());
                goto out;
        case OPTIONS_LIST_COLUMNS:
                columns_print_list(stdout);
                goto out;
        case OPTIONS_BAD_USAGE:
                warnx_("%s", o.error);
                warnx_plain(_("Try '%s --help' for more information."), program);
                run.status = setup_error;
                goto out;
        case OPTIONS_FAILED:
                if (o.error[0])
                        warnx_("%s", o.error);
                run.status = setup_error;
                goto out;
        }

        if (o.action != ACTION_PRINT && o.action != ACTION_READ_CLEAR) {
                run.status = options_console_action(&o);
                goto out;
        }

        if (o.problems.list_rules) {
                run.status = problem_options_list_rules(&o.problems);
                goto out;
        }
        /* The time options are checked before the device options search sysfs. */
        e = options_setup_time(&o);
        if (o.warning)
                warnx_("%s", o.warning);
        if (e != OPTIONS_RUN) {
                warnx_("%s", o.error);
                run.status = setup_error;
                goto out;
        }
        live = input_is_live(&o.in);
        si = sink_of_format(o.format);
        if (options_setup_export(&o, live) != OPTIONS_RUN) {
                warnx_("%s", o.error);
                run.status = setup_error;
                goto out;
        }
        if (devctx_setup(&o.dev, live, warnx_) < 0) {
                run.status = setup_error;
                goto out;
        }
        o.in.root = o.dev.root.dir;
        if (o.in.pstore_list) {
                run.status = pstore_list(o.in.root);
                if (out_close() < 0)
                        run.status = EXIT_BAD_INPUT;
                goto out;
        }
        /* --list-boots, and --boot counted from the last: the input's boots are counted first. */
        if (o.list_boots || (o.boot_arg && o.boot_back)) {
                struct boots b;

                if (boots_scan(&o.in, &o.out, &b) < 0) {
                        run.status = EXIT_BAD_INPUT;
                        goto out;
                }
                if (o.list_boots) {
                        run.status = boots_list(&b, o.format == FORMAT_JSON);
                        boots_free(&b);
                        goto out;
                }
                if (o.boot_n >= b.n) {
                        warnx_(P_("--boot %s: the input holds %zu boot", "--boot %s: the input holds %zu boots", b.n),
                               o.boot_arg, b.n);
                        run.status = EXIT_BAD_INPUT;
                        boots_free(&b);
                        goto out;
                }
                run.only_boot = b.n - o.boot_n;
                boots_free(&b);
        } else if (o.boot_arg)
                run.only_boot = o.boot_n;
        if (problem_options_setup(&o.problems) < 0) {
                run.status = setup_error;
                goto out;
        }
        /*
         * Machine-readable formats get neither colors nor a pager; the
         * syslog and cat views color their loss lines only.
         */
        if (!(si->flags & SINK_COLORS))
                o.color = COLOR_NEVER;
        if (color_init(o.color) < 0) {
                run.status = setup_error;
                goto out;
        }

        if (options_setup_run(&o, &run, live) < 0)
                errx_("%s", strerror(ENOMEM));
        /* In every mode: what was read before a SIGINT or SIGTERM is written out. */
        if (run_setup_signals(&run) < 0)
                errx_(_("cannot set up signal handling: %s"), strerror(errno));
        if (o.cursor_file) {
                char err[128] = "";

                e = cursor_load(o.cursor_file, &run.cursor, err, sizeof(err));
                if (e == -EILSEQ)
                        setup_fail(setup_error, false,
                                   _("%s: %s; remove the file to start over from the oldest record in the ring"),
                                   o.cursor_file, err);
                if (e == -EBADMSG)
                        setup_fail(setup_error, false, _("%s: %s"), o.cursor_file, err);
                /* Another kdmesg on it may be on its way out: a restart may find the file free. */
                if (e == -EBUSY && *err)
                        errx_(_("the cursor file %s is in use by another kdmesg (pid %s): one process at a time "
                                "keeps a cursor file"),
                              o.cursor_file, err);
                if (e == -EBUSY)
                        errx_(_("the cursor file %s is in use by another kdmesg: one process at a time keeps a "
                                "cursor file"),
                              o.cursor_file);
                if (e < 0)
                        setup_fail(e == -EACCES || e == -EPERM || e == -EISDIR || e == -ENOTDIR || e == -EROFS
                                           ? setup_error
                                           : EXIT_BAD_INPUT,
                                   false, _("cannot read the cursor file %s: %s"), o.cursor_file, strerror(-e));
                /* With --upload the cursor moves when the collector has the records, not at a write. */
                if (!o.upload)
                        run_set_cursor_hooks(&run);
        }
        if (o.upload) {
                struct upload_config uc;

                if (options_upload_config(&o, &uc) != OPTIONS_RUN)
                        setup_fail(setup_error, false, "%s", o.error);
                e = upload_new(&uc, run.cursor, &run_quit, &run.upload);
                if ((e == -ELIBACC || e == -ELIBBAD) && upload_url_is_relp(o.upload))
                        setup_fail(setup_error, false,
                                   _("--upload relp:// needs librelp (%s), which cannot be loaded: install librelp0"),
                                   UPLOAD_LIBRELP);
                if (e == -EPROTONOSUPPORT)
                        setup_fail(setup_error, false,
                                   _("--upload relp+tls:// needs a librelp built with GnuTLS, which %s is not"),
                                   UPLOAD_LIBRELP);
                if (e == -ELIBACC || e == -ELIBBAD)
                        setup_fail(setup_error, false,
                                   _("--upload needs libcurl (%s), which cannot be loaded: install libcurl4"),
                                   UPLOAD_LIBCURL);
                if (e < 0)
                        errx_(_("cannot set up --upload: %s"), strerror(-e));
                out_set_writer(upload_write, run.upload);
        }

        metrics_options_setup(&o, &run, &metrics, live);

        if (o.pager && !o.nopager && !o.in.follow && (si->flags & SINK_PAGER))
                pager = pager_open();

        read_input(&run, &o.in);
        missing_finish(&run);

        /* Records still held matched to the end: they were duplicates. */
        kmsg_seqtrack_finish(run.track);
        sink_finish(run.sink);
        /* A filter that let nothing through says so on a terminal; the reports have their own line for it. */
        if (run.read > 0 && run.shown == 0 && run.status == 0 && !o.quiet && !o.in.follow &&
            o.sink->kind == SINK_FORMAT && isatty(STDOUT_FILENO))
                warnx_plain(P_("-- No messages selected: the %llu read did not pass the filters --",
                               "-- No messages selected: none of the %llu read passed the filters --",
                               run.read),
                            (unsigned long long)run.read);
        /* A cursor that found nothing new says so on a terminal, as journalctl says "-- No entries --". */
        if (o.cursor_file && !o.upload && run.read == 0 && run.status == 0 && !o.quiet && !o.in.follow &&
            o.sink->kind == SINK_FORMAT && isatty(STDOUT_FILENO))
                warnx_plain(_("-- No new messages since the last run (cursor file %s) --"), o.cursor_file);
        /* Inferred matches are never silent: where the output cannot mark them, say so. */
        if (o.dev.filter.n_text > 0 && !options_marks_inferred(&o)) {
                if (o.format == FORMAT_TABLE)
                        warnx_(_("records selected by their message (--device-text): %llu; "
                                 "the MATCH column marks them"),
                               (unsigned long long)o.dev.filter.n_text);
                else
                        warnx_(_("records selected by their message (--device-text): %llu, "
                                 "not marked in --format=%s"),
                               (unsigned long long)o.dev.filter.n_text, output_format_to_name(o.format));
        }
        if (run.clashes > MAX_CLASHES_SHOWN && !run.quiet_clashes)
                warnx_(_("%llu records in all had the seq of another record before them (all are kept)"),
                       (unsigned long long)run.clashes);
        if (kmsg_seqtrack_get_duplicates(run.track) > 0)
                warnx_(_("%llu duplicate records skipped (overlapping input)"),
                       (unsigned long long)kmsg_seqtrack_get_duplicates(run.track));
        /* --boot N past the input's last boot: nothing shown, and said why. */
        if (run.only_boot > (run.boots ? run.boots : 1) && run.status == 0) {
                size_t n = run.boots ? run.boots : 1;

                warnx_(P_("--boot %s: the input holds %zu boot", "--boot %s: the input holds %zu boots", n), o.boot_arg, n);
                run.status = EXIT_BAD_INPUT;
        }
        e = out_close();
        if (run.upload) {
                /* Everything to the collector (unless SIGINT/SIGTERM came); it reported what failed. */
                if (upload_finish(run.upload, run_quit != 0) < 0 || e < 0) {
                        run.status = EXIT_BAD_INPUT;
                        run.fatal = true;
                } else if (!o.in.follow && !o.quiet && run_quit == 0 && isatty(STDOUT_FILENO))
                        say_uploaded(run.upload, o.upload);
                e = 0;
        }
        /* -ECANCELED: the cursor file could not be updated (reported); the rest was not written. */
        if (e < 0 && e != -ECANCELED)
                warnx_("%s: %s", _("write error"), strerror(-e));
        if (e < 0)
                run.status = EXIT_BAD_INPUT;
        if (run.cursor && !run.fatal && e == 0) {
                e = cursor_sync(run.cursor);
                if (e < 0) {
                        warnx_(_("cannot update the cursor file %s: %s"), o.cursor_file, strerror(-e));
                        run.status = EXIT_BAD_INPUT;
                }
        }
        pager_close(pager);
        /* --metrics: once more at the end, with what --upload delivered; a failure was said. */
        if (run_metrics_write(&run) < 0)
                run.status = EXIT_BAD_INPUT;
        if (loss_stats_any(&run.loss)) {
                /* --lost is the report itself. */
                if (!o.quiet && !(o.sink->flags & SINK_LOSSES)) {
                        char summary[LOSS_SUMMARY_MAX];

                        loss_stats_describe(&run.loss, run.boots, summary, sizeof(summary));
                        warnx_("%s", summary);
                }
                if (o.fail_on_loss && run.status == 0)
                        run.status = EXIT_LOSS;
        }
        if (o.problems.fail && o.problems.sel.tally.found > 0 && run.status == 0)
                run.status = EXIT_PROBLEM;
        run.status = run_exit_status(&run, o.in.follow);
        run.sink = sink_free(run.sink);
        kmsg_seqtrack_unref(run.track);
        upload_free(run.upload);
        cursor_free(run.cursor);
        free(run.unread.first);
out:
        if (run.status == EXIT_CONFIG)
                service_config_hint(o.upload_bad_url);
        filter_done(&o.filter);
        suspends_free(o.suspends);
        devctx_done(&o.dev);
        problem_options_done(&o.problems);
        free(o.in.sources);
        columns_free(&o.columns);
        return run.status;
}
