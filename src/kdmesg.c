/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg: print the kernel log, exactly. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "columns.h"
#include "console.h"
#include "cursor.h"
#include "device.h"
#include "bootid.h"
#include "filter.h"
#include "format.h"
#include "i18n.h"
#include "libkmsg.h"
#include "output.h"
#include "pager.h"
#include "run.h"
#include "sink.h"
#include "timefmt.h"
#include "util.h"

/* Error messages for one source beyond this many are counted, not printed. */
#define MAX_ERRORS_SHOWN 10
/*
 * Following or keeping a cursor, output is written in whole records: a
 * record begins with at least this much room in the buffer (the largest
 * record from /dev/kmsg, 8 KiB, takes at most about 40 KiB in any format).
 */
#define RECORD_FLUSH_AT (OUT_BUF_SIZE / 4)

volatile sig_atomic_t run_quit;
static int quit_pipe[2] = { -1, -1 };

/* One -K or -F argument. */
struct source {
        const char *path;
        enum kmsg_format format;
        bool syslog_file; /* -F: must be text in the syslog form */
};

/* What to do besides (or instead of) printing the log. */
enum action {
        ACTION_PRINT = 0,
        ACTION_CLEAR,        /* -C */
        ACTION_READ_CLEAR,   /* -c: print, then clear */
        ACTION_CONSOLE_OFF,  /* -D */
        ACTION_CONSOLE_ON,   /* -E */
        ACTION_CONSOLE_LEVEL /* -n */
};

struct options {
        struct source *sources;
        size_t n_sources;
        enum kmsg_format input_format; /* --input-format, for -K */
        enum action action;
        const char *action_option;
        int console_level;
        bool use_syslog;               /* -S */
        bool nopager;
        enum color_mode color;
        const char *boot_time;         /* --boot-time */
        const char *since, *until;
        const char *wall_option;       /* the option that asked for wall-clock times */
        struct filter filter;
        struct output_settings out;
        struct devctx dev;
        enum output_format format;
        bool format_set;
        struct columns columns;
        bool follow;
        bool follow_new;
        bool quiet;
        bool fail_on_loss;
        bool lost;
        const char *cursor_file;
};

static void __attribute__((noreturn)) usage(void) {
        FILE *o = stdout;

        fputs(_("\nUsage:\n"), o);
        fprintf(o, _(" %s [options]\n"), program);
        fputs(_("\nPrint the kernel log with sequence numbers, dictionaries and lost messages,\n"
                "or control the kernel's log buffer and console.\n"),
              o);

        fputs(_("\nInput:\n"), o);
        fputs(_(" -K, --kmsg-file <file>      read a /dev/kmsg dump or export-form file\n"
                "                               (repeatable; '-' is standard input)\n"),
              o);
        fputs(_(" -F, --file <file>           read a syslog-form dump, '<6>[ 1.0] text' lines\n"
                "                               (repeatable; they carry no sequence numbers)\n"),
              o);
        fputs(_("     --input-format <fmt>    force the format of -K input: kmsg, syslog,\n"
                "                               export, json (default: detect)\n"),
              o);
        fputs(_(" -S, --syslog                read through syslog(2) instead of /dev/kmsg\n"), o);

        fputs(_("\nFilters:\n"), o);
        fputs(_(" -l, --level <list>          only these levels (comma-separated)\n"), o);
        fputs(_(" -f, --facility <list>       only these facilities (comma-separated)\n"), o);
        fputs(_(" -k, --kernel                only messages of the kernel\n"), o);
        fputs(_(" -u, --userspace             only messages written from userspace\n"), o);
        fputs(_("     --since <time>          only messages from this time on\n"), o);
        fputs(_("     --until <time>          only messages up to this time\n"), o);
        fputs(_(" -g, --grep <regex>          only messages matching an extended regex\n"), o);
        fputs(_("     --seq <from-to>         only records with these sequence numbers\n"), o);

        fputs(devctx_help(), o);
        fputs(devctx_help_devices(), o);

        fputs(_("\nOutput formats:\n"), o);
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

        fputs(_("\nTime stamps and decoration:\n"), o);
        fputs(_(" -t, --notime                no time stamps\n"), o);
        fputs(_(" -T, --ctime                 wall-clock time stamps\n"), o);
        fputs(_(" -d, --show-delta            add the time since the previous message shown\n"), o);
        fputs(_(" -e, --reltime               the minute on the wall clock, then offsets\n"), o);
        fputs(_(" -H, --human                 the view for people: relative times\n"), o);
        fputs(_("     --time-format <format>  delta, reltime, ctime, notime, iso or raw\n"
                "                               (repeatable: delta adds to the others)\n"),
              o);
        fputs(_("     --boot-time <time>      when the machine a dump comes from booted\n"), o);
        fputs(_(" -x, --decode                facility and level names before messages\n"), o);
        fputs(_(" -p, --force-prefix          repeat the prefix on every line of a message\n"), o);
        fputs(_("     --noescape              print message bytes unchanged\n"), o);
        fputs(_(" -L, --color[=<when>]        colors: auto (the default), always or never\n"), o);
        fputs(_(" -P, --nopager               never send the output through a pager\n"), o);

        fputs(_("\nFollowing and lost messages:\n"), o);
        fputs(_(" -w, --follow                wait for new messages (with -K: follow the file\n"
                "                               as it grows, like tail -F)\n"),
              o);
        fputs(_(" -W, --follow-new            wait and print only new messages\n"), o);
        fputs(_("     --cursor-file <file>    continue after the last message a previous run\n"
                "                               wrote, and remember the last one written\n"),
              o);
        fputs(_("     --fail-on-loss          exit with status 3 when messages were lost\n"), o);
        fputs(_(" -q, --quiet                 no summary of lost messages on stderr\n"), o);
        fputs(_("     --lost                  report the lost messages instead of the records\n"
                "                               (a table, or JSON with --json)\n"),
              o);

        fputs(_("\nKernel control (needs root):\n"), o);
        fputs(_(" -C, --clear                 empty the kernel's log buffer\n"), o);
        fputs(_(" -c, --read-clear            print the log, then empty the buffer\n"), o);
        fputs(_(" -D, --console-off           stop printing messages on the console\n"), o);
        fputs(_(" -E, --console-on            print messages on the console again\n"), o);
        fputs(_(" -n, --console-level <level> the least severe level the console shows, by\n"
                "                               name, or 1 (emerg only) to 8 (all)\n"),
              o);

        fputs("\n", o);
        fputs(_(" -h, --help                  display this help\n"), o);
        fputs(_(" -V, --version               display version\n"), o);
        columns_print_help(o);

        fputs(_("\nLevels, most severe first: emerg alert crit err warn notice info debug,\n"
                "or 0 to 7.  LEVEL+ adds every more severe level, +LEVEL every less severe.\n"),
              o);
        fputs(_("\nFacilities: kern user mail daemon auth syslog lpr news uucp cron authpriv\n"
                "ftp local0 to local7, or 0 to 255.\n"),
              o);
        fputs(_("\nTimes: 'YYYY-MM-DD [HH:MM[:SS]]', 'HH:MM', '@EPOCH', 'now', 'today',\n"
                "'yesterday', '-10min', '+1h'; for --since and --until a plain number is\n"
                "seconds since boot.\n"),
              o);
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
        OPT_INPUT_FORMAT,
        OPT_SINCE,
        OPT_UNTIL,
        OPT_SEQ,
        OPT_TIME_FORMAT,
        OPT_BOOT_TIME,
        OPT_FORMAT,
        OPT_LIST_COLUMNS,
        OPT_NOHEADINGS,
        OPT_CURSOR_FILE,
        OPT_FAIL_ON_LOSS,
        OPT_LOST,
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

static void add_source(struct options *o, const char *path, bool syslog_file) {
        struct source *s = realloc(o->sources, (o->n_sources + 1) * sizeof(*o->sources));

        if (!s)
                errx_("%s", strerror(ENOMEM));
        o->sources = s;
        s[o->n_sources++] = (struct source){ .path = path, .syslog_file = syslog_file };
}

static void set_action(struct options *o, enum action a, const char *name) {
        if (o->action != ACTION_PRINT && o->action != a) {
                warnx_(_("%s and %s cannot be used together"), o->action_option, name);
                bad_usage();
        }
        o->action = a;
        o->action_option = name;
}

static void set_time_format(struct options *o, const char *word) {
        if (timefmt_parse_word(&o->out.time, word) < 0)
                errx_(_("unknown time format '%s' (expected delta, reltime, ctime, notime, iso or raw)"),
                      word);
}

static void parse_options(int argc, char **argv, struct options *o) {
        static const char shortopts[] = ":CcDdEeF:f:g:HhJK:kL::l:n:o:PpqrSTtuVWwx";
        static const struct option longopts[] = {
                { "clear", no_argument, NULL, 'C' },
                { "read-clear", no_argument, NULL, 'c' },
                { "console-off", no_argument, NULL, 'D' },
                { "show-delta", no_argument, NULL, 'd' },
                { "console-on", no_argument, NULL, 'E' },
                { "reltime", no_argument, NULL, 'e' },
                { "file", required_argument, NULL, 'F' },
                { "facility", required_argument, NULL, 'f' },
                { "grep", required_argument, NULL, 'g' },
                { "human", no_argument, NULL, 'H' },
                { "kmsg-file", required_argument, NULL, 'K' },
                { "input-format", required_argument, NULL, OPT_INPUT_FORMAT },
                { "kernel", no_argument, NULL, 'k' },
                { "color", optional_argument, NULL, 'L' },
                { "colour", optional_argument, NULL, 'L' },
                { "level", required_argument, NULL, 'l' },
                { "console-level", required_argument, NULL, 'n' },
                { "nopager", no_argument, NULL, 'P' },
                { "force-prefix", no_argument, NULL, 'p' },
                { "syslog", no_argument, NULL, 'S' },
                { "ctime", no_argument, NULL, 'T' },
                { "notime", no_argument, NULL, 't' },
                { "userspace", no_argument, NULL, 'u' },
                { "decode", no_argument, NULL, 'x' },
                { "since", required_argument, NULL, OPT_SINCE },
                { "until", required_argument, NULL, OPT_UNTIL },
                { "seq", required_argument, NULL, OPT_SEQ },
                { "time-format", required_argument, NULL, OPT_TIME_FORMAT },
                { "boot-time", required_argument, NULL, OPT_BOOT_TIME },
                { "follow", no_argument, NULL, 'w' },
                { "follow-new", no_argument, NULL, 'W' },
                { "cursor-file", required_argument, NULL, OPT_CURSOR_FILE },
                { "fail-on-loss", no_argument, NULL, OPT_FAIL_ON_LOSS },
                { "lost", no_argument, NULL, OPT_LOST },
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
        int c, e;

        opterr = 0;
        while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) >= 0) {
                switch (c) {
                case 'C':
                        set_action(o, ACTION_CLEAR, "--clear");
                        break;
                case 'c':
                        set_action(o, ACTION_READ_CLEAR, "--read-clear");
                        break;
                case 'D':
                        set_action(o, ACTION_CONSOLE_OFF, "--console-off");
                        break;
                case 'E':
                        set_action(o, ACTION_CONSOLE_ON, "--console-on");
                        break;
                case 'n':
                        set_action(o, ACTION_CONSOLE_LEVEL, "--console-level");
                        o->console_level = console_parse_level(optarg);
                        if (o->console_level < 0)
                                errx_(_("unknown console level '%s' (expected 1 to 8 or a level name)"),
                                      optarg);
                        break;
                case 'S':
                        o->use_syslog = true;
                        break;
                case 'K':
                        add_source(o, optarg, false);
                        break;
                case 'F':
                        add_source(o, optarg, true);
                        break;
                case OPT_INPUT_FORMAT:
                        if (strcmp(optarg, "kmsg") == 0)
                                o->input_format = KMSG_FORMAT_KMSG;
                        else if (strcmp(optarg, "syslog") == 0)
                                o->input_format = KMSG_FORMAT_SYSLOG;
                        else if (strcmp(optarg, "export") == 0)
                                o->input_format = KMSG_FORMAT_EXPORT;
                        else if (strcmp(optarg, "json") == 0)
                                o->input_format = KMSG_FORMAT_JSON;
                        else if (strcmp(optarg, "auto") == 0)
                                o->input_format = KMSG_FORMAT_AUTO;
                        else
                                errx_(_("unknown input format '%s' (expected kmsg, syslog, export or json)"), optarg);
                        break;
                case 'l':
                        if (filter_parse_levels(&o->filter, optarg) < 0)
                                exit(EXIT_BAD_INPUT);
                        break;
                case 'f':
                        if (filter_parse_facilities(&o->filter, optarg) < 0)
                                exit(EXIT_BAD_INPUT);
                        break;
                case 'k':
                        filter_add_kernel(&o->filter);
                        break;
                case 'u':
                        filter_add_userspace(&o->filter);
                        break;
                case 'g':
                        if (filter_set_grep(&o->filter, optarg) < 0)
                                exit(EXIT_BAD_INPUT);
                        break;
                case OPT_SEQ:
                        if (filter_parse_seq(&o->filter, optarg) < 0)
                                exit(EXIT_BAD_INPUT);
                        break;
                case OPT_SINCE:
                        o->since = optarg;
                        break;
                case OPT_UNTIL:
                        o->until = optarg;
                        break;
                case 'd':
                        set_time_format(o, "delta");
                        break;
                case 'e':
                        set_time_format(o, "reltime");
                        o->wall_option = "--reltime";
                        break;
                case 'H':
                        set_time_format(o, "reltime");
                        o->wall_option = "--human";
                        break;
                case 'T':
                        set_time_format(o, "ctime");
                        o->wall_option = "--ctime";
                        break;
                case 't':
                        set_time_format(o, "notime");
                        break;
                case OPT_TIME_FORMAT:
                        set_time_format(o, optarg);
                        if (timefmt_needs_wall(&o->out.time))
                                o->wall_option = "--time-format";
                        break;
                case OPT_BOOT_TIME:
                        o->boot_time = optarg;
                        break;
                case 'x':
                        o->out.decode = true;
                        break;
                case 'p':
                        o->out.force_prefix = true;
                        break;
                case 'L':
                        e = color_mode_from_name(optarg);
                        if (e < 0)
                                errx_(_("unknown color mode '%s' (expected auto, always or never)"), optarg);
                        o->color = (enum color_mode)e;
                        break;
                case 'P':
                        o->nopager = true;
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

                        /* The last -o counts, as with lsblk. */
                        columns_free(&o->columns);
                        e = columns_parse(&o->columns, optarg, &bad);
                        if (e == -EINVAL) {
                                warnx_(_("unknown column '%s'"), bad);
                                bad_usage();
                        }
                        if (e < 0)
                                errx_("%s", strerror(-e));
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
                case 'w':
                        o->follow = true;
                        break;
                case 'W':
                        o->follow = o->follow_new = true;
                        break;
                case OPT_CURSOR_FILE:
                        o->cursor_file = optarg;
                        break;
                case OPT_LOST:
                        o->lost = true;
                        break;
                case OPT_FAIL_ON_LOSS:
                        o->fail_on_loss = true;
                        break;
                case 'q':
                        o->quiet = true;
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
        if (o->follow_new && o->n_sources > 0) {
                warnx_(_("--follow-new reads the live log; it cannot be combined with --kmsg-file"));
                bad_usage();
        }
        if (o->cursor_file && (o->n_sources > 0 || o->use_syslog)) {
                warnx_(_("--cursor-file keeps the place in /dev/kmsg; it cannot be combined with %s"),
                       o->use_syslog ? "--syslog" : "--kmsg-file");
                bad_usage();
        }
        if (o->follow && (o->use_syslog || o->action == ACTION_READ_CLEAR)) {
                warnx_(_("--follow cannot be combined with %s"), o->use_syslog ? "--syslog" : "--read-clear");
                bad_usage();
        }
        for (size_t i = 0; i < o->n_sources; i++)
                o->sources[i].format = o->sources[i].syslog_file ? KMSG_FORMAT_SYSLOG : o->input_format;
        if (o->n_sources > 0 && (o->use_syslog || o->action != ACTION_PRINT)) {
                warnx_(_("%s works on the kernel's buffer, not on files given with -K or -F"),
                       o->use_syslog && o->action == ACTION_PRINT ? "--syslog" : o->action_option);
                bad_usage();
        }
        if (o->columns.n > 0 && o->format != FORMAT_TABLE) {
                warnx_(_("-o chooses the columns of --format=table, not of --format=%s"),
                       output_format_to_name(o->format));
                bad_usage();
        }
        if (o->columns.n == 0 && columns_add_defaults(&o->columns) < 0)
                errx_("%s", strerror(ENOMEM));
        /* The table marks inferred matches in its MATCH column: shown by default with --device-text. */
        if (o->dev.filter.text && columns_add_match(&o->columns) < 0)
                errx_("%s", strerror(ENOMEM));
        o->out.columns = &o->columns;
}

/*
 * Wall-clock times need the boot time: this machine's for the live log,
 * the one given with --boot-time for dumps.  Then --since and --until
 * become monotonic bounds.
 */
static void setup_time(struct options *o) {
        struct timefmt *t = &o->out.time;
        struct time_point since = {}, until = {};
        const char *wall = timefmt_needs_wall(t) ? o->wall_option : NULL;
        int e;

        if (t->format == TIME_ISO && t->delta)
                warnx_(_("--show-delta is ignored with the iso time format"));
        if (o->since && time_parse_point(o->since, &since) < 0)
                errx_(_("bad time '%s' for --since"), o->since);
        if (o->until && time_parse_point(o->until, &until) < 0)
                errx_(_("bad time '%s' for --until"), o->until);
        if (!wall && o->since && !since.monotonic)
                wall = "--since";
        if (!wall && o->until && !until.monotonic)
                wall = "--until";

        if (o->boot_time) {
                if (time_parse_absolute(o->boot_time, &t->boot_usec) < 0)
                        errx_(_("bad time '%s' for --boot-time"), o->boot_time);
                t->have_boot = true;
        } else {
                /* KDMESG_BOOT_TIME pins it for any input; the clocks know only this boot. */
                e = boot_time_find(o->n_sources == 0, &t->boot_usec);
                if (e == -EINVAL)
                        errx_(_("bad time '%s' in KDMESG_BOOT_TIME"), getenv("KDMESG_BOOT_TIME"));
                t->have_boot = e == 0;
                if (e < 0 && wall && o->n_sources > 0)
                        errx_(_("%s needs the boot time of the machine the dump comes from: give it with "
                                "--boot-time"),
                              wall);
                if (e < 0 && wall)
                        errx_(_("%s needs the boot time, which is not known: %s"), wall, strerror(-e));
        }

        if (o->since)
                filter_set_since(&o->filter, since.monotonic ? since.usec : since.usec - t->boot_usec);
        if (o->until)
                filter_set_until(&o->filter, until.monotonic ? until.usec : until.usec - t->boot_usec);
        if (o->since && o->until && o->filter.since_usec > o->filter.until_usec)
                errx_(_("--since %s is after --until %s: no record can match"), o->since, o->until);
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
        return run->sink->ops->loss(run->sink, l);
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

/* Show a record the sequence tracker let through, with the loss before it. */
static int deliver(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r, int fl,
                   const struct kmsg_loss *l) {
        bool has_seq = kmsg_record_has_seqnum(r);
        struct filter *flt = run->filter;
        struct kmsg_loss loss = *l;
        struct match m = {};
        bool in_window;
        int e;

        if (run->lost && (!(fl & KMSG_SEQ_DUPLICATE) || kmsg_reader_is_device(rd)))
                /* The device gives no duplicates: what it skips is before the cursor, still in the ring. */
                run->lost->ops->seen(run->lost, r);
        if (fl & KMSG_SEQ_DUPLICATE)
                return 0;
        if (flt->have_seq && !flt->seq_warned && !has_seq) {
                warnx_(_("%s: syslog-form input has no sequence numbers: --seq matches none of its records"),
                       kmsg_reader_get_name(rd));
                flt->seq_warned = true;
        }
        if ((run->counts_losses || run->writes_seq) && !run->noseq_warned && !has_seq) {
                if (run->counts_losses)
                        warnx_(_("%s: syslog-form input has no sequence numbers: %s cannot find lost messages in it"),
                               kmsg_reader_get_name(rd), run->counts_losses);
                else
                        warnx_(_("%s: syslog-form input has no sequence numbers: --format=kmsg writes 0 for them"),
                               kmsg_reader_get_name(rd));
                run->noseq_warned = true;
        }
        in_window = !flt->active || filter_in_window(flt, r);
        if ((fl & KMSG_SEQ_LOSS) && run->have_resume && loss.first_seq == run->resume_seq && !loss.has_before) {
                /* Resuming: the record before the gap is the cursor's. */
                loss.has_before = true;
                loss.usec_before = run->resume_usec;
        }
        if ((fl & KMSG_SEQ_LOSS) && in_window) {
                e = run_loss(run, &loss);
                if (e < 0)
                        return e;
        }
        if (run->cursor && has_seq) {
                /*
                 * The cursor counts this record as written with the next
                 * write(2): leave room for all of it in the buffer first.
                 */
                if (out_pending() >= RECORD_FLUSH_AT)
                        out_flush();
                cursor_record(run->cursor, kmsg_record_get_seqnum(r), kmsg_record_get_timestamp(r));
        }
        if (in_window && (!flt->active || filter_match(flt, r)) &&
            (!run->devfilter || devfilter_match(run->devfilter, r, &m))) {
                e = run->sink->ops->record(run->sink, r, &m);
                if (e < 0)
                        return e;
        }
        if (run->stream_out && out_pending() >= RECORD_FLUSH_AT)
                out_flush();
        /* Once standard output failed, reading on would only discard. */
        return out_failed();
}

/* Records the tracker held and has now released, in input order. */
static int deliver_released(struct run *run, struct kmsg_reader *rd) {
        struct kmsg_record *r;
        struct kmsg_loss loss;
        int fl, e = 0;

        while ((fl = kmsg_seqtrack_pop(run->track, &r, &loss)) >= 0) {
                if (e >= 0)
                        e = deliver(run, rd, r, fl, &loss);
                kmsg_record_unref(r);
        }
        return e;
}

static int emit(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r) {
        struct kmsg_loss loss = {};
        int fl, e;

        if (!run->started && kmsg_record_has_seqnum(r)) {
                e = judge_start(run, r);
                if (e < 0)
                        return e;
        }
        fl = kmsg_seqtrack_feed(run->track, r, &loss);
        if (fl < 0)
                return fl;
        if (fl & KMSG_SEQ_HELD)
                return deliver_released(run, rd);
        return deliver(run, rd, r, fl, &loss);
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
                        e = emit(run, rd, r);
                        if (e < 0) {
                                /* A write error is reported once, at exit. */
                                if (!out_failed())
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

/* Say why /dev/kmsg could not be opened (e < 0 from kmsg_reader_new_device()). */
static void report_device_error(int e) {
        if (e == -EPERM || e == -EACCES)
                warnx_(_("cannot open /dev/kmsg: %s (reading the kernel log needs CAP_SYSLOG when "
                         "kernel.dmesg_restrict=1)"),
                       strerror(-e));
        else if (e == -ENODEV)
                warnx_(_("/dev/kmsg is not a kmsg character device"));
        else
                warnx_(_("cannot open /dev/kmsg: %s"), strerror(-e));
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
                        run->newest_usec = kmsg_record_get_timestamp(r);
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
        uint64_t seq = 0, usec = 0, from = 0, to = 0;
        char boot[BOOT_ID_MAX];
        const char *old;
        bool pending;
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
                        uint64_t next = has_seq ? seq + 1 : 0, to_usec = usec, before_usec = usec;

                        pending = cursor_get_pending(c, &from, &to);
                        if (pending) {
                                /*
                                 * The file may name records beyond what was
                                 * written (cursor.c); those that did not exist
                                 * when this run started were never read.
                                 */
                                probe_newest(run);
                                if (run->have_newest && to > run->newest_seq) {
                                        to = run->newest_seq;
                                        to_usec = run->newest_usec;
                                }
                        }
                        if (pending && from <= to) {
                                struct kmsg_loss l = {
                                        .first_seq = from,
                                        .count = to - from + 1,
                                        .has_before = has_seq,
                                        .usec_before = usec,
                                        .cause = KMSG_LOSS_INTERRUPTED,
                                };

                                run_loss(run, &l);
                                next = to + 1;
                                before_usec = to_usec;
                        }
                        cursor_resume(c, next, before_usec);
                        kmsg_seqtrack_expect(run->track, next);
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_ROTATED);
                        run->have_resume = has_seq;
                        run->resume_seq = next;
                        run->resume_usec = before_usec;
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
        if (o->lost) {
                /* The whole ring: what rotated out before its oldest record counts. */
                run->start = START_PLAIN;
                return KMSG_SEEK_START;
        }
        if (o->follow_new) {
                run->start = START_NEW;
                probe_newest(run);
                /*
                 * A cursor with nothing of this boot: what is in the ring now
                 * is skipped on purpose, so the cursor starts after it.
                 */
                if (c && !run->fatal && run->have_newest)
                        cursor_start_after(c, run->newest_seq, run->newest_usec);
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

/* A file given to -F must be text: refuse one with NUL bytes in its first block. */
static bool looks_binary(int fd) {
        char buf[4096];
        ssize_t n = pread(fd, buf, sizeof(buf), 0);

        return n > 0 && memchr(buf, '\0', (size_t)n) != NULL;
}

static void read_source(struct run *run, const struct source *src, bool follow) {
        struct kmsg_reader *rd = NULL;
        int fd = -1, e;

        if (strcmp(src->path, "-") == 0)
                e = kmsg_reader_new_fd(STDIN_FILENO, "<stdin>", src->format, &rd);
        else {
                fd = open(src->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                if (fd < 0) {
                        warnx_(_("cannot open %s: %s"), src->path, strerror(errno));
                        run->status = EXIT_BAD_INPUT;
                        return;
                }
                if (src->syslog_file && looks_binary(fd)) {
                        warnx_(_("%s: binary data, not a syslog-form dump"), src->path);
                        run->status = EXIT_BAD_INPUT;
                        close(fd);
                        return;
                }
                e = kmsg_reader_new_fd(fd, src->path, src->format, &rd);
        }
        if (e < 0) {
                warnx_(_("cannot read %s: %s"), src->path, strerror(-e));
                run->status = EXIT_BAD_INPUT;
        } else if (follow) {
                kmsg_reader_unref(rd);
                follow_stream(run, src->path, src->format);
        } else {
                run_drain(run, rd);
                kmsg_reader_unref(rd);
        }
        if (fd >= 0)
                close(fd);
}

static void read_live(struct run *run, const struct options *o) {
        struct kmsg_reader *rd = NULL;
        bool use_syslog = o->use_syslog;
        int fd = -1, e;

        if (!use_syslog) {
                enum kmsg_seek where = plan_device_start(run, o);

                if (run->fatal)
                        return;
                /*
                 * A kernel without /dev/kmsg (before 3.5): read through
                 * syslog(2) instead, as -S does and as util-linux dmesg does
                 * by itself.  Not when following or keeping a cursor, which
                 * need the device.
                 */
                e = kmsg_reader_new_device(NULL, where, &rd);
                if (e == -ENOENT && !o->follow && !o->cursor_file)
                        use_syslog = true;
                else if (e < 0) {
                        report_device_error(e);
                        run->status = EXIT_BAD_INPUT;
                        return;
                }
        }
        if (use_syslog) {
                e = syslog_reader_new(o->action == ACTION_READ_CLEAR, &rd, &fd);
                if (e < 0) {
                        warnx_(_("cannot read the kernel log through syslog(2): %s"), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        return;
                }
        }
        if (o->follow)
                follow_device(run, rd);
        else
                run_drain(run, rd);
        kmsg_reader_unref(rd);
        if (fd >= 0)
                close(fd);
        /*
         * With syslog(2), READ_CLEAR cleared as it read.  Otherwise clear
         * only what was read in full and written out.
         */
        if (o->action == ACTION_READ_CLEAR && !use_syslog && run->status == 0 && out_flush() == 0) {
                e = console_clear();
                if (e < 0) {
                        warnx_(_("cannot clear the kernel ring buffer: %s"), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                }
        }
}

/*
 * Whether the output marks records that --device-text selected by their
 * message: the classic view (<name?>), JSON ("match":"text"), the table
 * with its MATCH column and the --devices report (INFERRED).  The others
 * are record formats read back by programs (syslog, kmsg, export,
 * json-dmesg) or the bare message (cat), which a mark would change.
 */
static bool output_marks_inferred(const struct options *o) {
        const struct sink_info *si = sink_lookup(o->dev.report ? "devices" : output_format_to_name(o->format));

        return (si->flags & SINK_MARKS_INFERRED) ||
               ((si->flags & SINK_MATCH_COLUMN) && columns_have(&o->columns, COL_MATCH));
}

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
        const struct sink_info *si;
        size_t i;
        int e;

        setlocale(LC_ALL, "");
        i18n_init();
        /* "kdmesg | head": end quietly when the reader goes away. */
        signal(SIGPIPE, SIG_DFL);
        parse_options(argc, argv, &o);

        if (o.action != ACTION_PRINT && o.action != ACTION_READ_CLEAR) {
                run.status = console_action(&o);
                goto out;
        }

        if (devctx_setup(&o.dev, o.n_sources == 0, warnx_) < 0) {
                run.status = EXIT_BAD_INPUT;
                goto out;
        }
        o.out.devices = &o.dev;
        if (devfilter_active(&o.dev.filter))
                run.devfilter = &o.dev.filter;

        setup_time(&o);
        si = sink_lookup(output_format_to_name(o.format));
        if (si->flags & SINK_BOOT_TIME) {
                static char boot_id[33];

                /* __REALTIME_TIMESTAMP needs the boot time setup_time() found. */
                if (!o.out.time.have_boot) {
                        warnx_(_("--format=export needs the boot time of the machine the dump comes from: "
                                 "give it with --boot-time"));
                        run.status = EXIT_BAD_INPUT;
                        goto out;
                }
                if (o.n_sources == 0 && boot_id_read(boot_id) == 0)
                        o.out.boot_id = boot_id;
        }
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
        run.counts_losses = o.lost ? "--lost" : o.fail_on_loss ? "--fail-on-loss" : NULL;
        run.writes_seq = si->flags & SINK_WRITES_SEQ;
        if (o.dev.report) {
                /* The report is a table, or JSON Lines with --json. */
                if (o.format == FORMAT_JSON)
                        o.dev.report_json = true;
                else if (!(si->flags & SINK_DEVICES)) {
                        warnx_(_("--devices prints a table, or JSON with --json; not --format=%s"),
                               output_format_to_name(o.format));
                        bad_usage();
                }
        }
        if (o.lost) {
                if (o.dev.report || o.follow ||
                    !(si->flags & SINK_LOST)) {
                        warnx_(_("--lost prints a table, or JSON with --json; not with %s"),
                               o.dev.report ? "--devices" : o.follow ? "--follow" : output_format_to_name(o.format));
                        bad_usage();
                }
                o.out.json = o.format == FORMAT_JSON;
                o.out.live = o.n_sources == 0;
                run.sink = run.lost = sink_new(sink_lookup("lost"), &o.out);
        } else
                run.sink = sink_new(o.dev.report ? sink_lookup("devices") : si, &o.out);
        if (!run.sink || kmsg_seqtrack_new(&run.track) < 0)
                errx_("%s", strerror(ENOMEM));

        /* Following, output is flushed per record; never through a pager. */
        o.out.flush_each = o.follow;
        run.stream_out = o.follow || o.cursor_file;
        if (run.stream_out && setup_signals(&run) < 0)
                errx_(_("cannot set up signal handling: %s"), strerror(errno));
        if (o.cursor_file) {
                char err[128] = "";

                e = cursor_load(o.cursor_file, &run.cursor, err, sizeof(err));
                if (e == -EBADMSG)
                        errx_(_("%s: %s"), o.cursor_file, err);
                if (e < 0)
                        errx_(_("cannot read the cursor file %s: %s"), o.cursor_file, strerror(-e));
                out_set_write_hooks(cursor_before, cursor_after, &run);
        }

        if (!o.nopager && !o.follow && (si->flags & SINK_PAGER))
                pager_open();

        if (o.n_sources == 0)
                read_live(&run, &o);
        for (i = 0; i < o.n_sources && !run_quit && !run.fatal; i++)
                read_source(&run, &o.sources[i], o.follow && i == o.n_sources - 1);

        /* Records still held matched to the end: they were duplicates. */
        kmsg_seqtrack_finish(run.track);
        run.sink->ops->finish(run.sink);
        /* Inferred matches are never silent: where the output cannot mark them, say so. */
        if (o.dev.filter.n_text > 0 && !o.lost && !output_marks_inferred(&o)) {
                if (o.format == FORMAT_TABLE)
                        warnx_(_("records selected by their message (--device-text): %llu; "
                                 "the MATCH column marks them"),
                               (unsigned long long)o.dev.filter.n_text);
                else
                        warnx_(_("records selected by their message (--device-text): %llu, "
                                 "not marked in --format=%s"),
                               (unsigned long long)o.dev.filter.n_text, output_format_to_name(o.format));
        }
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
        pager_close();
        if (loss_stats_any(&run.loss)) {
                /* --lost is the report itself. */
                if (!o.quiet && !o.lost)
                        loss_stats_summary(&run.loss, stderr, program);
                if (o.fail_on_loss && run.status == 0)
                        run.status = EXIT_LOSS;
        }
        run.sink = sink_free(run.sink);
        kmsg_seqtrack_unref(run.track);
        cursor_free(run.cursor);
out:
        filter_done(&o.filter);
        devctx_done(&o.dev);
        free(o.sources);
        columns_free(&o.columns);
        return run.status;
}
