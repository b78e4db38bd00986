/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg: print the kernel log, exactly. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "columns.h"
#include "cursor.h"
#include "device.h"
#include "export-boot.h"
#include "format.h"
#include "i18n.h"
#include "libkmsg.h"
#include "output.h"
#include "run.h"
#include "sink.h"

/* Error messages for one source beyond this many are counted, not printed. */
#define MAX_ERRORS_SHOWN 10
/* Following or keeping a cursor, output is written in whole records before the buffer fills. */
#define RECORD_FLUSH_AT (OUT_BUF_SIZE / 2)

static const char *program = "kdmesg";
volatile sig_atomic_t run_quit;
static int quit_pipe[2] = { -1, -1 };

struct options {
        const char **files;
        size_t n_files;
        struct output_settings out;
        struct devctx dev;
        enum output_format format;
        bool format_set;
        struct columns columns;
        bool follow;
        bool follow_new;
        bool quiet;
        bool fail_on_loss;
        const char *cursor_file;
};

void warnx_(const char *fmt, ...) {
        va_list ap;

        out_flush();
        fprintf(stderr, "%s: ", program);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}

static void __attribute__((noreturn)) usage(void) {
        FILE *o = stdout;

        fputs(_("\nUsage:\n"), o);
        fprintf(o, _(" %s [options]\n"), program);
        fputs(_("\nDisplay or follow the kernel ring buffer, with sequence numbers, dictionaries\n"
                "and lost messages.\n"),
              o);
        fputs(_("\nOptions:\n"), o);
        fputs(_(" -K, --kmsg-file <file>      read a /dev/kmsg dump or export-form file\n"
                "                               (repeatable; '-' is standard input)\n"),
              o);
        fputs(_(" -w, --follow                wait for new messages (with -K: follow the file\n"
                "                               as it grows, like tail -F)\n"),
              o);
        fputs(_(" -W, --follow-new            wait and print only new messages\n"), o);
        fputs(_("     --cursor-file <file>    continue after the last message a previous run\n"
                "                               wrote, and remember the last one written\n"),
              o);
        fputs(_("     --fail-on-loss          exit with status 3 when messages were lost\n"), o);
        fputs(_(" -q, --quiet                 no summary of lost messages on stderr\n"), o);
        fputs(_("     --noescape              print message bytes unchanged\n"), o);
        fputs(_("     --format <format>       output format: short, table, json, json-dmesg,\n"
                "                               syslog, kmsg, export or cat\n"),
              o);
        fputs(_(" -J, --json[=dmesg]          JSON Lines (--format=json); with 'dmesg' the\n"
                "                               util-linux dmesg --json document\n"),
              o);
        fputs(_(" -r, --raw                   syslog form <PRI>[time] message (--format=syslog)\n"), o);
        fputs(_(" -o, --output <list>         table columns ('+list' adds to the default ones);\n"
                "                               implies --format=table\n"),
              o);
        fputs(_("     --list-columns          list the columns and their JSON types\n"), o);
        fputs(_("     --noheadings            table without a heading line\n"), o);
        fputs(devctx_help(), o);
        fputs("\n", o);
        fputs(_(" -h, --help                  display this help\n"), o);
        fputs(_(" -V, --version               display version\n"), o);
        columns_print_help(o);
        fputs(_("\nExit status:\n"
                " 0  success\n"
                " 1  bad usage, or the input could not be read in full (unreadable source,\n"
                "    malformed or skipped records), or the output or the cursor file could\n"
                "    not be written\n"
                " 3  messages were lost and --fail-on-loss was given\n"),
              o);
        fprintf(o, _("\nFor more details see %s(1).\n"), program);
        exit(EXIT_SUCCESS);
}

static void __attribute__((noreturn)) bad_usage(void) {
        fprintf(stderr, _("Try '%s --help' for more information.\n"), program);
        exit(EXIT_BAD_INPUT);
}

/*
 * getopt_long() runs with opterr = 0 so that its complaints carry our
 * program name and not argv[0]; this says what went wrong, in one line.
 */
static void __attribute__((noreturn)) bad_option(int c, char **argv, const char *shortopts) {
        const char *arg = argv[optind - 1];
        bool is_long = arg && strncmp(arg, "--", 2) == 0;
        size_t n = is_long ? strcspn(arg, "=") : 0;
        bool known = optopt >= 0x100 || (optopt > 0 && strchr(shortopts + 1, optopt));

        if (c == ':' && is_long)
                warnx_(_("option '%.*s' requires an argument"), (int)n, arg);
        else if (c == ':')
                warnx_(_("option requires an argument -- '%c'"), optopt);
        else if (optopt == 0)
                warnx_(_("unrecognized option '%.*s'"), (int)(is_long ? n : strlen(arg)), arg);
        else if (known)
                warnx_(_("option '%.*s' doesn't allow an argument"), (int)n, arg);
        else
                warnx_(_("invalid option -- '%c'"), optopt);
        bad_usage();
}

enum {
        OPT_NOESCAPE = 0x100,
        OPT_FORMAT,
        OPT_LIST_COLUMNS,
        OPT_NOHEADINGS,
        OPT_CURSOR_FILE,
        OPT_FAIL_ON_LOSS,
};

static void set_format(struct options *o, const char *name) {
        int f = output_format_from_name(name);

        if (f < 0) {
                warnx_(_("unknown output format '%s'"), name);
                bad_usage();
        }
        o->format = (enum output_format)f;
        o->format_set = true;
}

static void parse_options(int argc, char **argv, struct options *o) {
        static const char shortopts[] = ":K:wWqJro:hV";
        static const struct option longopts[] = {
                { "kmsg-file", required_argument, NULL, 'K' },
                { "follow", no_argument, NULL, 'w' },
                { "follow-new", no_argument, NULL, 'W' },
                { "cursor-file", required_argument, NULL, OPT_CURSOR_FILE },
                { "fail-on-loss", no_argument, NULL, OPT_FAIL_ON_LOSS },
                { "quiet", no_argument, NULL, 'q' },
                { "noescape", no_argument, NULL, OPT_NOESCAPE },
                { "format", required_argument, NULL, OPT_FORMAT },
                { "json", optional_argument, NULL, 'J' },
                { "raw", no_argument, NULL, 'r' },
                { "output", required_argument, NULL, 'o' },
                { "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
                { "noheadings", no_argument, NULL, OPT_NOHEADINGS },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                DEVCTX_LONGOPTS,
                {},
        };
        int c;

        opterr = 0;
        while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) >= 0) {
                switch (c) {
                case 'K':
                        o->files = realloc(o->files, (o->n_files + 1) * sizeof(*o->files));
                        if (!o->files) {
                                warnx_("%s", strerror(ENOMEM));
                                exit(EXIT_BAD_INPUT);
                        }
                        o->files[o->n_files++] = optarg;
                        break;
                case 'w':
                        o->follow = true;
                        break;
                case 'W':
                        o->follow = o->follow_new = true;
                        break;
                case OPT_CURSOR_FILE:
                        o->cursor_file = optarg;
                        break;
                case OPT_FAIL_ON_LOSS:
                        o->fail_on_loss = true;
                        break;
                case 'q':
                        o->quiet = true;
                        break;
                case OPT_NOESCAPE:
                        o->out.noescape = true;
                        break;
                case OPT_FORMAT:
                        set_format(o, optarg);
                        break;
                case 'J':
                        if (optarg && strcmp(optarg, "dmesg") != 0) {
                                warnx_(_("unknown --json variant '%s' (only 'dmesg')"), optarg);
                                bad_usage();
                        }
                        set_format(o, optarg ? "json-dmesg" : "json");
                        break;
                case 'r':
                        set_format(o, "syslog");
                        break;
                case 'o': {
                        const char *bad = NULL;
                        int e = columns_parse(&o->columns, optarg, &bad);

                        if (e == -EINVAL) {
                                warnx_(_("unknown column '%s'"), bad);
                                bad_usage();
                        }
                        if (e < 0) {
                                warnx_("%s", strerror(-e));
                                exit(EXIT_BAD_INPUT);
                        }
                        if (!o->format_set)
                                o->format = FORMAT_TABLE;
                        break;
                }
                case OPT_LIST_COLUMNS:
                        columns_print_list(stdout);
                        exit(EXIT_SUCCESS);
                case OPT_NOHEADINGS:
                        o->out.noheadings = true;
                        break;
                case DEVOPT_FIRST ... DEVOPT_LAST:
                        if (devctx_option(&o->dev, c, optarg) < 0) {
                                warnx_(_("invalid argument for --%s: '%s'"), "match", optarg);
                                bad_usage();
                        }
                        break;
                case 'h':
                        usage();
                case 'V':
                        printf(_("%s %s (libkmsg %s)\n"), program, PACKAGE_VERSION, kmsg_version());
                        exit(EXIT_SUCCESS);
                default:
                        bad_option(c, argv, shortopts);
                }
        }
        if (optind < argc) {
                warnx_(_("unexpected argument '%s'"), argv[optind]);
                bad_usage();
        }
        if (o->follow_new && o->n_files > 0) {
                warnx_(_("--follow-new reads the live log; it cannot be combined with --kmsg-file"));
                bad_usage();
        }
        if (o->cursor_file && o->n_files > 0) {
                warnx_(_("--cursor-file keeps the place in the live log; it cannot be combined with "
                         "--kmsg-file"));
                bad_usage();
        }
        if (o->columns.n == 0 && columns_add_defaults(&o->columns) < 0) {
                warnx_("%s", strerror(ENOMEM));
                exit(EXIT_BAD_INPUT);
        }
        o->out.columns = &o->columns;
}

static void report_bad(struct run *run, struct kmsg_reader *rd, uint64_t *shown, int e) {
        const char *name = kmsg_reader_get_name(rd);
        uint64_t pos = kmsg_reader_get_position(rd);

        run->bad_records++;
        run->status = EXIT_BAD_INPUT;
        if (++*shown > MAX_ERRORS_SHOWN)
                return;
        if (kmsg_reader_is_device(rd))
                warnx_(_("%s: record %llu: %s"), name, (unsigned long long)pos, kmsg_reader_get_error(rd));
        else
                warnx_("%s:%llu: %s", name, (unsigned long long)pos, kmsg_reader_get_error(rd));
}

int run_loss(struct run *run, const struct kmsg_loss *l) {
        loss_stats_add(&run->loss, l);
        return run->sink->loss(run->sink, l);
}

/* The first record read from the device: what came before it? */
static int judge_start(struct run *run, const struct kmsg_record *r) {
        uint64_t seq = kmsg_record_get_seqnum(r);

        run->started = true;
        switch (run->start) {
        case START_NEW:
                /*
                 * Only what was written after the start is wanted.  Overrun
                 * before the first read, what was lost starts after the newest
                 * record seen just before opening (a few records written
                 * between that look and the open may be counted too).
                 */
                if (run->overrun_at_start)
                        kmsg_seqtrack_expect(run->track, run->have_newest ? run->newest_seq + 1 : 0);
                else
                        kmsg_seqtrack_expect(run->track, seq);
                break;
        case START_PROBED:
                /* Records between the oldest and the last clear were cleared, not lost. */
                if (run->overrun_at_start || !run->have_oldest)
                        break;
                kmsg_seqtrack_expect(run->track, seq);
                if (run->oldest_seq > 0) {
                        struct kmsg_loss l = {
                                .first_seq = 0,
                                .count = run->oldest_seq,
                                .usec_after = run->oldest_usec,
                                .cause = KMSG_LOSS_ROTATED,
                        };

                        return run_loss(run, &l);
                }
                break;
        case START_PLAIN:
                break;
        }
        return 0;
}

static int emit(struct run *run, const struct kmsg_record *r) {
        bool has_seq = kmsg_record_has_seqnum(r);
        struct kmsg_loss loss;
        int f, e;

        if (!run->started && has_seq) {
                e = judge_start(run, r);
                if (e < 0)
                        return e;
        }
        f = kmsg_seqtrack_feed(run->track, r, &loss);
        if (f < 0)
                return f;
        if (f & KMSG_SEQ_DUPLICATE)
                return 0;
        if (f & KMSG_SEQ_LOSS) {
                e = run_loss(run, &loss);
                if (e < 0)
                        return e;
        }
        if (run->cursor && has_seq)
                cursor_record_begin(run->cursor, kmsg_record_get_seqnum(r));
        if (!run->devfilter || devfilter_match(run->devfilter, r)) {
                e = run->sink->record(run->sink, r);
                if (e < 0)
                        return e;
        }
        if (run->cursor && has_seq)
                cursor_record_end(run->cursor, kmsg_record_get_seqnum(r), kmsg_record_get_timestamp(r));
        if (run->stream_out && out_pending() >= RECORD_FLUSH_AT && out_flush() < 0)
                run->fatal = true;
        return 0;
}

int run_drain(struct run *run, struct kmsg_reader *rd) {
        uint64_t shown = 0;
        int e;

        for (;;) {
                struct kmsg_record *r;

                if (run_quit || run->fatal) {
                        e = -EINTR;
                        break;
                }
                e = kmsg_reader_next(rd, &r);
                if (e == 1) {
                        e = emit(run, r);
                        if (e < 0) {
                                warnx_(_("%s: %s"), kmsg_reader_get_name(rd), strerror(-e));
                                run->status = EXIT_BAD_INPUT;
                                run->fatal = true;
                                return e;
                        }
                        continue;
                }
                if (e == 0 || e == -EAGAIN)
                        break;
                switch (e) {
                case -EPIPE:
                        if (!run->started)
                                run->overrun_at_start = true;
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_OVERRUN);
                        continue;
                case -EMSGSIZE:
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_TOOBIG);
                        continue;
                case -EBADMSG:
                case -E2BIG:
                        report_bad(run, rd, &shown, e);
                        continue;
                default:
                        warnx_(_("%s: read failed: %s"), kmsg_reader_get_name(rd), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        return e;
                }
        }
        if (shown > MAX_ERRORS_SHOWN)
                warnx_(_("%s: %llu malformed or oversized records skipped in all"), kmsg_reader_get_name(rd),
                       (unsigned long long)shown);
        return e;
}

static int open_device(enum kmsg_seek where, struct kmsg_reader **ret) {
        int e = kmsg_reader_new_device(NULL, where, ret);

        if (e == -EPERM || e == -EACCES)
                warnx_(_("cannot open /dev/kmsg: %s (reading the kernel log needs CAP_SYSLOG when "
                         "kernel.dmesg_restrict=1)"),
                       strerror(-e));
        else if (e == -ENODEV)
                warnx_(_("/dev/kmsg is not a kmsg character device"));
        else if (e < 0)
                warnx_(_("cannot open /dev/kmsg: %s"), strerror(-e));
        return e;
}

/* The oldest record in the ring: what is before it has rotated out. */
static void probe_oldest(struct run *run) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        int e;

        if (kmsg_reader_new_device(NULL, KMSG_SEEK_START, &rd) < 0)
                return;
        do
                e = kmsg_reader_next(rd, &r);
        while (e == -EPIPE || e == -EMSGSIZE || e == -EBADMSG);
        if (e == 1 && kmsg_record_has_seqnum(r)) {
                run->have_oldest = true;
                run->oldest_seq = kmsg_record_get_seqnum(r);
                run->oldest_usec = kmsg_record_get_timestamp(r);
        }
        kmsg_reader_unref(rd);
}

/* The newest record in the ring, before --follow-new opens at the end. */
static void probe_newest(struct run *run) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        int e;

        if (kmsg_reader_new_device(NULL, KMSG_SEEK_START, &rd) < 0)
                return;
        while ((e = kmsg_reader_next(rd, &r)) != -EAGAIN && e != 0) {
                if (e == 1 && kmsg_record_has_seqnum(r)) {
                        run->have_newest = true;
                        run->newest_seq = kmsg_record_get_seqnum(r);
                } else if (e < 0 && e != -EPIPE && e != -EMSGSIZE && e != -EBADMSG)
                        break;
        }
        kmsg_reader_unref(rd);
}

/*
 * Where reading the device starts, and what is reported as lost before the
 * first record: with a cursor of this boot, right after it; after a
 * reboot, from the beginning with the previous boot's tail reported.
 */
static enum kmsg_seek plan_device_start(struct run *run, const struct options *o) {
        struct cursor *c = run->cursor;
        uint64_t seq, usec, from, to;
        char boot[BOOT_ID_MAX];
        const char *old;
        bool has_seq;
        int e;

        if (c) {
                e = boot_id_read(boot);
                if (e < 0) {
                        warnx_(_("cannot read the boot id: %s"), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        run->fatal = true;
                        return KMSG_SEEK_START;
                }
                cursor_set_boot_id(c, boot);
                old = cursor_get_boot_id(c);
                has_seq = cursor_get_seq(c, &seq, &usec);
                if (old && strcmp(old, boot) == 0) {
                        uint64_t next = has_seq ? seq + 1 : 0;

                        if (cursor_get_pending(c, &from, &to)) {
                                struct kmsg_loss l = {
                                        .first_seq = from,
                                        .count = to - from + 1,
                                        .has_before = has_seq,
                                        .usec_before = usec,
                                        .cause = KMSG_LOSS_INTERRUPTED,
                                };

                                run_loss(run, &l);
                                next = to + 1;
                        }
                        kmsg_seqtrack_expect(run->track, next);
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_ROTATED);
                        run->start = START_PLAIN;
                        return KMSG_SEEK_START;
                }
                if (old) {
                        struct kmsg_loss l = {
                                .first_seq = has_seq ? seq + 1 : 0,
                                .count = 0,
                                .has_before = has_seq,
                                .usec_before = usec,
                                .cause = KMSG_LOSS_REBOOT,
                        };

                        if (cursor_get_pending(c, &from, &to) && from < l.first_seq)
                                l.first_seq = from;
                        run_loss(run, &l);
                        run->start = START_PLAIN;
                        return KMSG_SEEK_START;
                }
        }
        if (o->follow_new) {
                run->start = START_NEW;
                probe_newest(run);
                return KMSG_SEEK_END;
        }
        run->start = START_PROBED;
        probe_oldest(run);
        return KMSG_SEEK_CLEAR;
}

static void on_quit(int sig) {
        int saved = errno;

        run_quit = sig;
        if (quit_pipe[1] >= 0 && write(quit_pipe[1], "q", 1) < 0) {
                /* The pipe is full: a wake-up is already pending. */
        }
        errno = saved;
}

/* SIGINT and SIGTERM end the run cleanly: the output flushed, the cursor saved. */
static int setup_signals(struct run *run) {
        struct sigaction sa = { .sa_handler = on_quit };

        if (pipe2(quit_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
                return -errno;
        run->quit_fd = quit_pipe[0];
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
                return -errno;
        return 0;
}

static void cursor_hook(struct run *run, bool before) {
        int e;

        if (run->fatal)
                return;
        e = before ? cursor_before_write(run->cursor) : cursor_after_write(run->cursor);
        if (e < 0) {
                /* Not warnx_(): it flushes, and this runs inside a flush. */
                fprintf(stderr, _("%s: cannot update the cursor file %s: %s\n"), program,
                        cursor_get_path(run->cursor), strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run->fatal = true;
        }
}

static void cursor_before(void *userdata) {
        cursor_hook(userdata, true);
}

static void cursor_after(void *userdata) {
        cursor_hook(userdata, false);
}

static int read_device(struct run *run, const struct options *o) {
        struct kmsg_reader *rd = NULL;
        enum kmsg_seek where;
        int e;

        where = plan_device_start(run, o);
        if (run->fatal)
                return -EIO;
        e = open_device(where, &rd);
        if (e < 0) {
                run->status = EXIT_BAD_INPUT;
                return e;
        }
        if (o->follow)
                e = follow_device(run, rd);
        else {
                e = run_drain(run, rd);
                if (e == -EAGAIN)
                        e = 0;
        }
        kmsg_reader_unref(rd);
        return e;
}

int main(int argc, char **argv) {
        struct options o = {};
        struct run run = { .quit_fd = -1 };
        struct kmsg_reader *rd = NULL;
        size_t i;
        int e;

        setlocale(LC_ALL, "");
        i18n_init();
        parse_options(argc, argv, &o);
        if (devctx_setup(&o.dev, o.n_files == 0, warnx_) < 0) {
                devctx_done(&o.dev);
                free(o.files);
                columns_free(&o.columns);
                return EXIT_BAD_INPUT;
        }
        o.out.devices = &o.dev;
        if (devfilter_active(&o.dev.filter))
                run.devfilter = &o.dev.filter;

        if (o.format == FORMAT_EXPORT) {
                static struct export_boot boot;

                e = export_boot_prepare(&boot, o.n_files == 0);
                if (e == -EINVAL) {
                        warnx_(_("bad KDMESG_BOOT_TIME '%s' (seconds since the epoch)"), getenv("KDMESG_BOOT_TIME"));
                        exit(EXIT_BAD_INPUT);
                }
                if (e < 0) {
                        warnx_(_("--format=export needs the boot time of a dump: set KDMESG_BOOT_TIME"));
                        exit(EXIT_BAD_INPUT);
                }
                o.out.has_boot_time = true;
                o.out.boot_time_usec = boot.boot_time_usec;
                o.out.boot_id = boot.has_boot_id ? boot.boot_id : NULL;
        }

        if (o.dev.report) {
                /* The report is a table, or JSON Lines with --json. */
                if (o.format == FORMAT_JSON)
                        o.dev.report_json = true;
                else if (o.format != FORMAT_SHORT && o.format != FORMAT_TABLE) {
                        warnx_(_("--devices prints a table, or JSON with --json; not --format=%s"),
                               output_format_to_name(o.format));
                        bad_usage();
                }
        }
        run.sink = o.dev.report ? sink_devices_new(&o.out, &o.dev) : sink_new(o.format, &o.out);
        if (!run.sink || kmsg_seqtrack_new(&run.track) < 0) {
                warnx_("%s", strerror(ENOMEM));
                return EXIT_BAD_INPUT;
        }

        o.out.flush_each = o.follow;
        run.stream_out = o.follow || o.cursor_file;
        if (run.stream_out && setup_signals(&run) < 0) {
                warnx_(_("cannot set up signal handling: %s"), strerror(errno));
                return EXIT_BAD_INPUT;
        }
        if (o.cursor_file) {
                char err[128] = "";

                e = cursor_load(o.cursor_file, &run.cursor, err, sizeof(err));
                if (e == -EBADMSG) {
                        warnx_(_("%s: %s"), o.cursor_file, err);
                        return EXIT_BAD_INPUT;
                }
                if (e < 0) {
                        warnx_(_("cannot read the cursor file %s: %s"), o.cursor_file, strerror(-e));
                        return EXIT_BAD_INPUT;
                }
                out_set_write_hooks(cursor_before, cursor_after, &run);
        }

        if (o.n_files == 0)
                read_device(&run, &o);
        for (i = 0; i < o.n_files && !run_quit && !run.fatal; i++) {
                if (o.follow && i == o.n_files - 1) {
                        follow_stream(&run, o.files[i]);
                        break;
                }
                e = kmsg_reader_new_path(o.files[i], KMSG_FORMAT_AUTO, &rd);
                if (e < 0) {
                        warnx_(_("cannot open %s: %s"), o.files[i], strerror(-e));
                        run.status = EXIT_BAD_INPUT;
                        continue;
                }
                run_drain(&run, rd);
                rd = kmsg_reader_unref(rd);
        }

        run.sink->finish(run.sink);
        if (kmsg_seqtrack_get_duplicates(run.track) > 0)
                warnx_(_("%llu duplicate records skipped (overlapping input)"),
                       (unsigned long long)kmsg_seqtrack_get_duplicates(run.track));
        e = out_close();
        if (e < 0) {
                fprintf(stderr, "%s: %s: %s\n", program, _("write error"), strerror(-e));
                run.status = EXIT_BAD_INPUT;
        }
        if (run.cursor && !run.fatal && e == 0) {
                e = cursor_sync(run.cursor);
                if (e < 0) {
                        warnx_(_("cannot update the cursor file %s: %s"), o.cursor_file, strerror(-e));
                        run.status = EXIT_BAD_INPUT;
                }
        }
        if (loss_stats_any(&run.loss)) {
                if (!o.quiet)
                        loss_stats_summary(&run.loss, stderr, program);
                if (o.fail_on_loss && run.status == 0)
                        run.status = EXIT_LOSS;
        }
        run.sink->free(run.sink);
        kmsg_seqtrack_unref(run.track);
        cursor_free(run.cursor);
        devctx_done(&o.dev);
        free(o.files);
        columns_free(&o.columns);
        return run.status;
}
