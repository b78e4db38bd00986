/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg: print the kernel log, exactly.  Parse, check, build the run, dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/caller.h"
#include "text/color.h"
#include "text/columns.h"
#include "input/console.h"
#include "pipeline/cursor.h"
#include "select/device.h"
#include "base/bootid.h"
#include "select/filter.h"
#include "output/format.h"
#include "base/i18n.h"
#include "libkmsg.h"
#include "output/loss-text.h"
#include "cli/options.h"
#include "text/writer.h"
#include "text/pager.h"
#include "input/pstore-read.h"
#include "pipeline/run.h"
#include "output/sink.h"
#include "input/source.h"
#include "time/suspend.h"
#include "time/timefmt.h"
#include "pipeline/upload.h"
#include "text/util.h"


/* -C, -D, -E, -n: change the kernel's state, print nothing. */
static int console_action(const struct options *o) {
        int e = 0;

        switch (o->action) {
        case ACTION_CLEAR:
                e = console_clear();
                if (e < 0)
                        warnx_(_("cannot clear the kernel ring buffer: %s"), strerror(-e));
                break;
        case ACTION_CONSOLE_OFF:
        case ACTION_CONSOLE_ON:
                e = console_enable(o->action == ACTION_CONSOLE_ON);
                if (e < 0 && o->action == ACTION_CONSOLE_ON)
                        warnx_(_("cannot enable printing messages to the console: %s"), strerror(-e));
                else if (e < 0)
                        warnx_(_("cannot disable printing messages to the console: %s"), strerror(-e));
                break;
        case ACTION_CONSOLE_LEVEL:
                e = console_set_level(o->console_level);
                if (e < 0)
                        warnx_(_("cannot set the console level: %s"), strerror(-e));
                break;
        default:
                break;
        }
        return e < 0 ? EXIT_BAD_INPUT : EXIT_SUCCESS;
}

int main(int argc, char **argv) {
        struct options o = {};
        struct run run = { .quit_fd = -1 };
        pid_t pager = -1;
        const struct sink_info *si;
        bool live;
        int e;

        setlocale(LC_ALL, "");
        out_init_locale();
        i18n_init();
        /* "kdmesg | head": end quietly when the reader goes away. */
        signal(SIGPIPE, SIG_DFL);
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
                run.status = EXIT_BAD_INPUT;
                goto out;
        case OPTIONS_FAILED:
                if (o.error[0])
                        warnx_("%s", o.error);
                run.status = EXIT_BAD_INPUT;
                goto out;
        }

        if (o.action != ACTION_PRINT && o.action != ACTION_READ_CLEAR) {
                run.status = console_action(&o);
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
                run.status = EXIT_BAD_INPUT;
                goto out;
        }
        live = input_is_live(&o.in);
        si = sink_of_format(o.format);
        if (options_setup_export(&o, live) != OPTIONS_RUN) {
                warnx_("%s", o.error);
                run.status = EXIT_BAD_INPUT;
                goto out;
        }
        if (devctx_setup(&o.dev, live, warnx_) < 0) {
                run.status = EXIT_BAD_INPUT;
                goto out;
        }
        o.in.root = o.dev.root.dir;
        if (o.in.pstore_list) {
                run.status = pstore_list(o.in.root);
                if (out_close() < 0)
                        run.status = EXIT_BAD_INPUT;
                goto out;
        }
        o.out.devices = &o.dev.namer;
        if (devfilter_active(&o.dev.filter))
                run.devfilter = &o.dev.filter;
        if (problem_options_setup(&o.problems) < 0) {
                run.status = EXIT_BAD_INPUT;
                goto out;
        }
        /* --timeline and --problems get each record's problem in its struct match, and what was classified. */
        o.out.problems = &o.problems.sel.tally;
        o.out.by_problem = o.problems.report;
        if (problem_options_active(&o.problems))
                run.problems = &o.problems.sel;

        /*
         * Machine-readable formats get neither colors nor a pager; the
         * syslog and cat views color their loss lines only.
         */
        if (!(si->flags & SINK_COLORS))
                o.color = COLOR_NEVER;
        if (color_init(o.color) < 0) {
                run.status = EXIT_BAD_INPUT;
                goto out;
        }

        run.filter = &o.filter;
        run.suspends = o.suspends;
        run.device_path = o.in.device_path;
        run.counts_losses = o.sink->flags & SINK_LOSSES ? o.sink->option : o.fail_on_loss ? "--fail-on-loss" : NULL;
        run.writes_seq = si->flags & SINK_WRITES_SEQ;
        run.following = o.in.follow;
        run.quiet_clashes = o.as_dmesg;
        /* util-linux pads caller ids to pid_max's width for the live log only. */
        o.out.caller_width = live && !o.in.use_syslog ? caller_width_from_pid_max("/proc/sys/kernel/pid_max")
                                                                : CALLER_WIDTH_DEFAULT;
        /* The reports print JSON Lines with --json; --lost reports the live ring's coverage. */
        o.out.json = o.format == FORMAT_JSON;
        o.out.live = live;
        run.sink = sink_new(o.sink, &o.out);
        if (o.sink->flags & SINK_LOSSES)
                run.lost = run.sink;
        if (!run.sink || kmsg_seqtrack_new(&run.track) < 0 ||
            kmsg_seqtrack_set_reorder_window(run.track, REORDER_WINDOW) < 0)
                errx_("%s", strerror(ENOMEM));

        /*
         * Following or uploading, records go out as they come, never through
         * a pager.  Following, the output is flushed before each wait and
         * within FOLLOW_FLUSH_USEC while records keep coming; an upload
         * without --follow may block in a read: its output goes per record.
         */
        o.out.stream = o.in.follow || o.upload;
        o.out.flush_usec = o.in.follow ? FOLLOW_FLUSH_USEC : 0;
        run.stream_out = o.in.follow || o.cursor_file || o.upload;
        /* In every mode: what was read before a SIGINT or SIGTERM is written out. */
        if (run_setup_signals(&run) < 0)
                errx_(_("cannot set up signal handling: %s"), strerror(errno));
        if (o.cursor_file) {
                char err[128] = "";

                e = cursor_load(o.cursor_file, &run.cursor, err, sizeof(err));
                if (e == -EBADMSG)
                        errx_(_("%s: %s"), o.cursor_file, err);
                if (e < 0)
                        errx_(_("cannot read the cursor file %s: %s"), o.cursor_file, strerror(-e));
                /* With --upload the cursor moves when the collector has the records, not at a write. */
                if (!o.upload)
                        run_set_cursor_hooks(&run);
        }
        if (o.upload) {
                struct upload_config uc;

                if (options_upload_config(&o, &uc) != OPTIONS_RUN)
                        errx_("%s", o.error);
                e = upload_new(&uc, run.cursor, &run_quit, &run.upload);
                if (e == -ELIBACC || e == -ELIBBAD)
                        errx_(_("--upload needs libcurl (%s), which cannot be loaded: install libcurl4"),
                              UPLOAD_LIBCURL);
                if (e < 0)
                        errx_(_("cannot set up --upload: %s"), strerror(-e));
                out_set_writer(upload_write, run.upload);
        }

        if (o.pager && !o.nopager && !o.in.follow && (si->flags & SINK_PAGER))
                pager = pager_open();

        read_input(&run, &o.in);

        /* Records still held matched to the end: they were duplicates. */
        kmsg_seqtrack_finish(run.track);
        o.out.input_missing = run.unopened > 0;
        sink_finish(run.sink);
        /* A filter that let nothing through says so on a terminal; the reports have their own line for it. */
        if (run.delivered > 0 && run.shown == 0 && run.status == 0 && !o.quiet && !o.in.follow &&
            o.sink->kind == SINK_FORMAT && isatty(STDOUT_FILENO))
                warnx_plain(P_("-- No messages selected: the filters let none of the %llu message read through --",
                               "-- No messages selected: the filters let none of the %llu messages read through --",
                               run.delivered),
                            (unsigned long long)run.delivered);
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
        e = out_close();
        if (run.upload) {
                /* Everything to the collector (unless SIGINT/SIGTERM came); it reported what failed. */
                if (upload_finish(run.upload, run_quit != 0) < 0 || e < 0) {
                        run.status = EXIT_BAD_INPUT;
                        run.fatal = true;
                }
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
out:
        filter_done(&o.filter);
        suspends_free(o.suspends);
        devctx_done(&o.dev);
        problem_options_done(&o.problems);
        free(o.in.sources);
        columns_free(&o.columns);
        return run.status;
}
