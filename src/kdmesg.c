/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg: print the kernel log, exactly. */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "device.h"
#include "export-boot.h"
#include "format.h"
#include "i18n.h"
#include "libkmsg.h"
#include "output.h"
#include "sink.h"

#define EXIT_BAD_INPUT 1
/* Error messages for one source beyond this many are counted, not printed. */
#define MAX_ERRORS_SHOWN 10

static const char *program = "kdmesg";

struct options {
        const char **files;
        size_t n_files;
        struct output_settings out;
        struct devctx dev;
        enum output_format format;
        bool format_set;
        struct columns columns;
};

static void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warnx_(const char *fmt, ...) {
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
                "    malformed or skipped records), or the output could not be written\n"),
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
        static const char shortopts[] = ":K:Jro:hV";
        static const struct option longopts[] = {
                { "kmsg-file", required_argument, NULL, 'K' },
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
        if (o->columns.n == 0 && columns_add_defaults(&o->columns) < 0) {
                warnx_("%s", strerror(ENOMEM));
                exit(EXIT_BAD_INPUT);
        }
        o->out.columns = &o->columns;
}

/* Per-run state shared by all sources. */
struct run {
        struct sink *sink;
        struct devfilter *devfilter; /* NULL: no device selection */
        struct kmsg_seqtrack *track;
        uint64_t bad_records;
        int status;
};

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

static int emit(struct run *run, const struct kmsg_record *r) {
        struct kmsg_loss loss;
        int f;

        f = kmsg_seqtrack_feed(run->track, r, &loss);
        if (f < 0)
                return f;
        if (f & KMSG_SEQ_DUPLICATE)
                return 0;
        /* What rotated out of the ring before reading began is not news. */
        if ((f & KMSG_SEQ_LOSS) && loss.cause != KMSG_LOSS_ROTATED) {
                int e = run->sink->loss(run->sink, &loss);

                if (e < 0)
                        return e;
        }
        if (run->devfilter && !devfilter_match(run->devfilter, r))
                return 0;
        return run->sink->record(run->sink, r);
}

/* Read one source to its end.  Returns 0, or -errno when it could not go on. */
static int drain(struct run *run, struct kmsg_reader *rd) {
        uint64_t shown = 0;
        int e;

        for (;;) {
                struct kmsg_record *r;

                e = kmsg_reader_next(rd, &r);
                if (e == 1) {
                        e = emit(run, r);
                        if (e < 0)
                                return e;
                        continue;
                }
                if (e == 0 || e == -EAGAIN)
                        break;
                switch (e) {
                case -EPIPE:
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
        return 0;
}

static int open_device(struct kmsg_reader **ret) {
        int e = kmsg_reader_new_device(NULL, KMSG_SEEK_CLEAR, ret);

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

int main(int argc, char **argv) {
        struct options o = {};
        struct run run = {};
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

        if (o.n_files == 0) {
                if (open_device(&rd) < 0)
                        run.status = EXIT_BAD_INPUT;
                else {
                        drain(&run, rd);
                        rd = kmsg_reader_unref(rd);
                }
        }
        for (i = 0; i < o.n_files; i++) {
                e = kmsg_reader_new_path(o.files[i], KMSG_FORMAT_AUTO, &rd);
                if (e < 0) {
                        warnx_(_("cannot open %s: %s"), o.files[i], strerror(-e));
                        run.status = EXIT_BAD_INPUT;
                        continue;
                }
                drain(&run, rd);
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
        run.sink->free(run.sink);
        kmsg_seqtrack_unref(run.track);
        devctx_done(&o.dev);
        free(o.files);
        columns_free(&o.columns);
        return run.status;
}
