/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_OPTIONS_H
#define KDMESG_OPTIONS_H

#include <stdbool.h>

#include "text/color.h"
#include "text/columns.h"
#include "cli/device-options.h"
#include "cli/metrics-options.h"
#include "cli/problem-options.h"
#include "select/filter.h"
#include "output/format.h"
#include "libkmsg.h"
#include "input/source.h"
#include "output/sink.h"

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
        struct input in;               /* what to read: -K, -F, -S, -s, -w, -W, --input-format, --pstore, --list */
        enum action action;
        const char *action_option;
        int console_level;
        bool as_dmesg;                 /* run as "dmesg": -J is util-linux's --json document */
        bool json_option;              /* the last format option was -J/--json without a variant */
        struct suspends *suspends;     /* the time slept before each record (suspend.h) */
        bool pager;                    /* -H: through the pager, as util-linux */
        bool nopager;
        enum color_mode color;
        const char *boot_time;         /* --boot-time */
        /* --boot N: the boot of the input to show, N from 1 (boot_n), or from the last (0, -1: boot_back). */
        const char *boot_arg;
        bool boot_back;
        uint64_t boot_n;
        bool list_boots;               /* --list-boots */
        bool this_boot;                /* the -K dumps are of the running boot (options_setup_time()) */
        const char *since, *until;
        const char *wall_option;       /* the option that asked for wall-clock times */
        const char *boot_missing;      /* it, where the dumps' boot time is not known (options_setup_time()) */
        /* The first of -T, -e, -t, -d, -H (util-linux refuses them with -r), and whether it came before -r. */
        const char *stamp_option;
        bool raw_option, stamp_first;
        struct filter filter;
        struct output_settings out;
        struct devctx dev;
        struct problem_options problems; /* --problems, --problem, --fail-on-problem */
        struct metrics_options metrics;  /* --metrics, --metrics-interval */
        enum output_format format;
        bool format_set;
        const char *format_via;        /* the option that chose it: "--format", "--json", "--json=dmesg", "--raw" */
        unsigned reports;              /* the reports asked for: SINK_BIT(REPORT_...) (sink.h) */
        const struct sink_info *sink;  /* what prints: a report's row, or the format's (options_check()) */
        struct columns columns;
        bool quiet;
        bool fail_on_loss;
        const char *cursor_file;
        /* --boot-id, --machine-id (normalised: 32 hex digits) and --hostname; "" / NULL: not given. */
        char boot_id[33];
        char machine_id[33];
        const char *hostname;
        char host[256];             /* this machine's name, for the live log's export */
        const char *machine_option; /* the first of them given, for the error of a wrong format */
        /* --upload URL, --trust, --key, --cert */
        const char *upload;
        bool upload_bad_url; /* the --upload argument was empty or no URL */
        const char *trust, *key, *cert;
        const char *tls_option; /* the first of --trust, --key, --cert given */
        const char *stray;      /* the first argument that is no option, or NULL */

        char error[512];     /* what options_parse() or options_setup_time() found wrong */
        const char *warning; /* a note for stderr that does not stop the run, or NULL */
};

/* What options_parse() found: run, or what main() prints before it exits. */
enum options_result {
        OPTIONS_RUN = 0,
        OPTIONS_HELP,         /* --help: usage(), exit 0 */
        OPTIONS_VERSION,      /* --version */
        OPTIONS_LIST_COLUMNS, /* --list-columns */
        OPTIONS_BAD_USAGE,    /* o->error, then "Try --help", exit 1 */
        OPTIONS_FAILED,       /* o->error (without "Try --help"), exit 1 */
};

/* --help on standard output, then exit 0 (usage.c). */
void __attribute__((noreturn)) usage(void);
/* c is '?' or ':' from getopt_long() (run with opterr = 0): the one-line error for argv[optind - 1] (errors.c). */
enum options_result options_bad_option(struct options *o, int c, char **argv, const char *shortopts);
/* Whether argv names --upload (or an abbreviation of it), looked at before parsing (errors.c). */
bool options_name_upload(int argc, char **argv);
/*
 * Parse the command line into o, before anything else happens.  Prints
 * nothing: o->error says what is wrong.
 */
enum options_result options_parse(int argc, char **argv, struct options *o);
/* Put the message into o->error; returns r. */
enum options_result options_fail(struct options *o, enum options_result r, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* The same for a message from a table (not a literal), its one "%s" replaced by arg. */
enum options_result options_fail_with(struct options *o, enum options_result r, const char *msg, const char *arg);
/*
 * After options_parse() returned OPTIONS_RUN: check every combination of
 * options, and complete what they leave open (the default columns).
 * Prints nothing either (checks.c).
 */
enum options_result options_check(struct options *o);
/* checks.c: take --boot's argument (1 the first boot, 0 or -0 the last, -1 the one before it). */
enum options_result options_boot(struct options *o, const char *arg);
/*
 * Wall-clock times need the boot time: this machine's for the live log,
 * the one given with --boot-time for dumps.  Then --since and --until
 * become monotonic bounds (setup.c, as the rest of the set-up).
 */
enum options_result options_setup_time(struct options *o);
/*
 * --format=export: the boot time must be known; the boot id, machine id and
 * host name are the options' or, for the live log, this machine's.
 */
enum options_result options_setup_export(struct options *o, bool live);
struct upload_config;
/* --upload: what the sender needs, from the options and the KDMESG_UPLOAD_* variables. */
enum options_result options_upload_config(struct options *o, struct upload_config *ret);
struct run;
/*
 * The run the options ask for (pipeline/run.h): its filters, the sink that
 * prints, the sequence tracker, how the output is flushed; live: the input
 * is this machine's ring.  0, or -ENOMEM.
 */
int options_setup_run(struct options *o, struct run *run, bool live);
/* -C, -D, -E, -n: change the kernel's state, print nothing but why it failed; the exit status. */
int options_console_action(const struct options *o);
/* Whether the output marks records that --device-text selected by their message. */
bool options_marks_inferred(const struct options *o);

#endif
