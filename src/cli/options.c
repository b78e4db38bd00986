/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line into struct options: the getopt loop, with one handler
 * per option or family of options.  The checks of their combinations are
 * in checks.c, their set-up in setup.c, --help in usage.c, the one-line
 * errors in errors.c.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bootid.h"
#include "input/console.h"
#include "base/i18n.h"
#include "cli/options.h"
#include "ship/upload-relp.h"
#include "ship/upload.h"
#include "time/timefmt.h"
#include "text/diag.h"
#include "text/util.h"

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
        OPT_WRAP,
        OPT_CURSOR_FILE,
        OPT_FAIL_ON_LOSS,
        OPT_BOOT_ID,
        OPT_HOSTNAME,
        OPT_MACHINE_ID,
        OPT_UPLOAD,
        OPT_TRUST,
        OPT_KEY,
        OPT_CERT,
        OPT_PSTORE,
        OPT_LIST,
        OPT_BOOT,
        OPT_LIST_BOOTS,
        OPT_REPORT = 0x200, /* + enum sink_report */
};

/* How the option that chose a format is named in errors: "--json", "--raw", "--format=table". */
static const char *format_option(const char *via, enum output_format f, char *buf, size_t size) {
        if (strcmp(via, "--format") != 0)
                return via;
        snprintf(buf, size, "--format=%s", output_format_to_name(f));
        return buf;
}

/*
 * An output format chosen by via ("--format", "--json", "--json=dmesg",
 * "--raw"); json: by -J or --json without a variant, which only says JSON.
 * A second choice of another format is refused where the first one's row
 * in the sink table excludes it; -J beside json or json-dmesg by name is
 * no second choice, the last one counts.
 */
static enum options_result set_format(struct options *o, const char *name, const char *via, bool json) {
        int f = output_format_from_name(name);

        if (f < 0) {
                return options_fail(o, OPTIONS_BAD_USAGE, _("unknown output format '%s'"), name);
        }
        if (o->format_via && (enum output_format)f != o->format &&
            !((json || o->json_option) && (sink_of_format(o->format)->flags & SINK_JSON) &&
              (sink_of_format((enum output_format)f)->flags & SINK_JSON)) &&
            (sink_of_format(o->format)->excludes & SINK_BIT(f))) {
                char a[64], b[64];

                return options_fail(o, OPTIONS_BAD_USAGE, _("%s and %s cannot be used together"),
                                    format_option(o->format_via, o->format, a, sizeof(a)),
                                    format_option(via, (enum output_format)f, b, sizeof(b)));
        }
        o->format = (enum output_format)f;
        o->format_set = true;
        o->format_via = via;
        o->json_option = json;
        return OPTIONS_RUN;
}

static enum options_result add_source(struct options *o, const char *path, bool syslog_file) {
        struct source *s = realloc(o->in.sources, (o->in.n_sources + 1) * sizeof(*o->in.sources));

        if (!s)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        o->in.sources = s;
        s[o->in.n_sources++] = (struct source){ .path = path, .syslog_file = syslog_file };
        return OPTIONS_RUN;
}

static enum options_result set_action(struct options *o, enum action a, const char *name) {
        if (o->action != ACTION_PRINT && o->action != a) {
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("%s and %s cannot be used together"), o->action_option, name);
        }
        o->action = a;
        o->action_option = name;
        return OPTIONS_RUN;
}

/* Note the first of -T, -e, -t, -d and -H, for the check against -r. */
static void stamp_option(struct options *o, const char *name) {
        if (!o->stamp_option) {
                o->stamp_option = name;
                o->stamp_first = !o->raw_option;
        }
}

static enum options_result set_time_format(struct options *o, const char *word) {
        if (timefmt_parse_word(&o->out.time, word) < 0)
                return options_fail(o, OPTIONS_FAILED,
                            _("unknown time format '%s' (expected delta, reltime, ctime, notime, iso or raw)"),
                      word);
        return OPTIONS_RUN;
}

/* -C, -c, -D, -E, -n: one of them, the kernel's buffer or console instead of (or after) printing. */
static enum options_result opt_action(struct options *o, int c, const char *arg) {
        enum options_result r;

        switch (c) {
        case 'C':
                return set_action(o, ACTION_CLEAR, "--clear");
        case 'c':
                return set_action(o, ACTION_READ_CLEAR, "--read-clear");
        case 'D':
                return set_action(o, ACTION_CONSOLE_OFF, "--console-off");
        case 'E':
                return set_action(o, ACTION_CONSOLE_ON, "--console-on");
        default:
                r = set_action(o, ACTION_CONSOLE_LEVEL, "--console-level");
                if (r != OPTIONS_RUN)
                        return r;
                o->console_level = console_parse_level(arg);
                if (o->console_level < 0)
                        return options_fail(o, OPTIONS_FAILED,
                                            _("unknown console level '%s' (expected 1 to 8 or a level name)"), arg);
                return OPTIONS_RUN;
        }
}

static enum options_result opt_buffer_size(struct options *o, const char *arg) {
        uint64_t v;

        if (parse_u64(arg, &v) < 0 || v > INT_MAX)
                return options_fail(o, OPTIONS_FAILED, _("invalid buffer size '%s' (expected a number of bytes)"),
                                    arg);
        o->in.buffer_size = (unsigned)v;
        return OPTIONS_RUN;
}

/* --input-format: the names of libkmsg's input forms, or "auto". */
static enum options_result opt_input_format(struct options *o, const char *arg) {
        char list[256] = "";
        enum kmsg_format f;
        int e = kmsg_format_from_name(arg);
        unsigned i;

        if (e >= 0) {
                o->in.format = (enum kmsg_format)e;
                return OPTIONS_RUN;
        }
        /* "kmsg, syslog, export or json" */
        for (i = 0; (f = kmsg_format_nth(i)) != KMSG_FORMAT_AUTO; i++) {
                size_t n = strlen(list);

                if (i > 0 && kmsg_format_nth(i + 1) == KMSG_FORMAT_AUTO)
                        snprintf(list + n, sizeof(list) - n, " %s %s", _("or"), kmsg_format_to_name(f));
                else
                        snprintf(list + n, sizeof(list) - n, "%s%s", i > 0 ? ", " : "", kmsg_format_to_name(f));
        }
        return options_fail(o, OPTIONS_FAILED, _("unknown input format '%s' (expected %s)"), arg, list);
}

/* --pstore[=N]: read a crash dump, the newest or the N-th. */
static enum options_result opt_pstore(struct options *o, const char *arg) {
        uint64_t n;

        o->in.pstore = true;
        o->in.pstore_pick = 0;
        if (!arg)
                return OPTIONS_RUN;
        if (parse_u64(arg, &n) < 0 || n == 0 || n > 100000)
                return options_fail(o, OPTIONS_BAD_USAGE,
                                    _("invalid argument for --pstore: '%s' (expected a dump's number, 1 the newest)"),
                                    arg);
        o->in.pstore_pick = (unsigned)n;
        return OPTIONS_RUN;
}

/* -l, -f, -k, -u, -g, --seq: the record filters (filter.h). */
static enum options_result opt_filter(struct options *o, int c, const char *arg) {
        int e = 0;

        switch (c) {
        case 'l':
                e = filter_parse_levels(&o->filter, arg);
                break;
        case 'f':
                e = filter_parse_facilities(&o->filter, arg);
                break;
        case 'k':
                filter_add_kernel(&o->filter);
                break;
        case 'u':
                filter_add_userspace(&o->filter);
                break;
        case 'g':
                e = filter_set_grep(&o->filter, arg);
                break;
        default:
                e = filter_parse_seq(&o->filter, arg);
                break;
        }
        return e < 0 ? options_fail(o, OPTIONS_FAILED, "%s", o->filter.error) : OPTIONS_RUN;
}

/* -d, -e, -H, -T, -t, --time-format: the time stamps. */
static enum options_result opt_stamp(struct options *o, int c, const char *arg) {
        enum options_result r = OPTIONS_RUN;

        switch (c) {
        case 'd':
                stamp_option(o, "--show-delta");
                /* Not the same as --time-format delta (timefmt.h). */
                timefmt_add(&o->out.time, TIME_SHOW_DELTA);
                break;
        case 'e':
                stamp_option(o, "--reltime");
                r = set_time_format(o, "reltime");
                o->wall_option = "--reltime";
                break;
        case 'H':
                stamp_option(o, "--human");
                r = set_time_format(o, "reltime");
                o->wall_option = "--human";
                o->pager = true;
                break;
        case 'T':
                stamp_option(o, "--ctime");
                r = set_time_format(o, "ctime");
                o->wall_option = "--ctime";
                break;
        case 't':
                stamp_option(o, "--notime");
                r = set_time_format(o, "notime");
                break;
        default:
                r = set_time_format(o, arg);
                if (r == OPTIONS_RUN && timefmt_needs_wall(&o->out.time))
                        o->wall_option = "--time-format";
                break;
        }
        return r;
}

static enum options_result opt_color(struct options *o, const char *arg) {
        int e;

        /* util-linux takes -L=always too (getopt leaves the '='). */
        if (arg && *arg == '=')
                arg++;
        e = color_mode_from_name(arg);
        if (e < 0)
                return options_fail(o, OPTIONS_FAILED, _("unknown color mode '%s' (expected auto, always or never)"),
                                    arg);
        o->color = (enum color_mode)e;
        return OPTIONS_RUN;
}

static enum options_result opt_json(struct options *o, const char *arg) {
        if (arg && strcmp(arg, "dmesg") != 0)
                return options_fail(o, OPTIONS_BAD_USAGE, _("unknown --json variant '%s' (only 'dmesg')"), arg);
        /* Under the name dmesg, -J is util-linux's document, as scripts expect. */
        return set_format(o, arg || o->as_dmesg ? "json-dmesg" : "json", arg ? "--json=dmesg" : "--json", !arg);
}

static enum options_result opt_output(struct options *o, char *arg) {
        const char *bad = NULL;
        int e;

        /* The last -o counts, as with lsblk. */
        columns_free(&o->columns);
        e = columns_parse(&o->columns, arg, &bad);
        if (e == -EINVAL)
                return options_fail(o, OPTIONS_BAD_USAGE, _("unknown column '%s'"), bad);
        if (e < 0)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(-e));
        if (!o->format_set)
                o->format = FORMAT_TABLE;
        return OPTIONS_RUN;
}

/* --boot-id, --machine-id, --hostname: what --format=export says of the records. */
static enum options_result opt_machine(struct options *o, int c, const char *arg) {
        const char *name = c == OPT_BOOT_ID ? "--boot-id" : c == OPT_MACHINE_ID ? "--machine-id" : "--hostname";

        if (c == OPT_HOSTNAME) {
                if (!*arg || strlen(arg) > 255 ||
                    strcspn(arg, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12"
                                 "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f ") != strlen(arg))
                        return options_fail(o, OPTIONS_FAILED,
                                            _("bad host name for --hostname (1 to 255 bytes, no spaces or control "
                                              "characters)"));
                o->hostname = arg;
        } else if (id128_parse(arg, c == OPT_BOOT_ID ? o->boot_id : o->machine_id) < 0)
                return options_fail(o, OPTIONS_FAILED, _("bad id '%s' for %s (expected 32 hex digits)"), arg, name);
        if (!o->machine_option)
                o->machine_option = name;
        return OPTIONS_RUN;
}

/* --upload, --trust, --key, --cert. */
static enum options_result opt_upload(struct options *o, int c, const char *arg) {
        if (c == OPT_UPLOAD) {
                char shown[512];

                /* A user:password in it is never repeated. */
                struct relp_url ru;

                o->upload_bad_url = true;
                if (!*arg)
                        return options_fail(o, OPTIONS_FAILED,
                                            _("--upload: the collector's URL is empty (expected http://, https://, "
                                              "relp:// or relp+tls://)"));
                if (strncmp(arg, "http://", 7) != 0 && strncmp(arg, "https://", 8) != 0 &&
                    !upload_url_is_relp(arg))
                        return options_fail(o, OPTIONS_FAILED,
                                            _("bad URL '%s' for --upload (expected http://, https://, relp:// or relp+tls://)"),
                                            upload_url_shown(arg, shown, sizeof(shown)));
                if (upload_url_is_relp(arg) && upload_relp_parse_url(arg, &ru) < 0)
                        return options_fail(o, OPTIONS_FAILED,
                                            _("bad URL '%s' for --upload (expected relp://HOST:PORT or relp+tls://HOST:PORT)"),
                                            upload_url_shown(arg, shown, sizeof(shown)));
                o->upload = arg;
                o->upload_bad_url = false;
                return OPTIONS_RUN;
        }
        *(c == OPT_TRUST ? &o->trust : c == OPT_KEY ? &o->key : &o->cert) = arg;
        if (!o->tls_option)
                o->tls_option = c == OPT_TRUST ? "--trust" : c == OPT_KEY ? "--key" : "--cert";
        return OPTIONS_RUN;
}

/* A report's option (--lost, --devices, --timeline, --problems): its row in the sink table. */
static enum options_result opt_report(struct options *o, const struct sink_info *si, const char *arg) {
        o->reports |= SINK_BIT(si - sink_report(0));
        if (si->set_arg && si->set_arg(&o->out, arg) < 0)
                return options_fail_with(o, OPTIONS_BAD_USAGE, _(si->bad_arg), arg);
        return OPTIONS_RUN;
}

/* One option of the command line, c as getopt_long() returns it. */
static enum options_result opt_one(struct options *o, int c, char *arg) {
        char err[400];

        switch (c) {
        case 'C':
        case 'c':
        case 'D':
        case 'E':
        case 'n':
                return opt_action(o, c, arg);
        case 'S':
                o->in.use_syslog = true;
                return OPTIONS_RUN;
        case 's':
                return opt_buffer_size(o, arg);
        case 'K':
        case 'F':
                return add_source(o, arg, c == 'F');
        case OPT_INPUT_FORMAT:
                return opt_input_format(o, arg);
        case OPT_PSTORE:
                return opt_pstore(o, arg);
        case OPT_LIST:
                o->in.pstore_list = true;
                return OPTIONS_RUN;
        case 'l':
        case 'f':
        case 'k':
        case 'u':
        case 'g':
        case OPT_SEQ:
                return opt_filter(o, c, arg);
        case OPT_SINCE:
                o->since = arg;
                return OPTIONS_RUN;
        case OPT_UNTIL:
                o->until = arg;
                return OPTIONS_RUN;
        case 'd':
        case 'e':
        case 'H':
        case 'T':
        case 't':
        case OPT_TIME_FORMAT:
                return opt_stamp(o, c, arg);
        case OPT_BOOT_TIME:
                o->boot_time = arg;
                return OPTIONS_RUN;
        case OPT_BOOT:
                return options_boot(o, arg);
        case OPT_LIST_BOOTS:
                o->list_boots = true;
                return OPTIONS_RUN;
        case 'x':
                o->out.decode = true;
                return OPTIONS_RUN;
        case 'p':
                o->out.force_prefix = true;
                return OPTIONS_RUN;
        case 'L':
                return opt_color(o, arg);
        case 'P':
                o->nopager = true;
                return OPTIONS_RUN;
        case OPT_NOESCAPE:
                o->out.noescape = true;
                return OPTIONS_RUN;
        case OPT_FORMAT:
                return set_format(o, arg, "--format", false);
        case 'J':
                return opt_json(o, arg);
        case 'r':
                o->raw_option = true;
                return set_format(o, "syslog", "--raw", false);
        case 'o':
                return opt_output(o, arg);
        case OPT_LIST_COLUMNS:
                return OPTIONS_LIST_COLUMNS;
        case OPT_NOHEADINGS:
                o->out.noheadings = true;
                return OPTIONS_RUN;
        case OPT_WRAP:
                o->out.wrap = true;
                return OPTIONS_RUN;
        case OPT_BOOT_ID:
        case OPT_MACHINE_ID:
        case OPT_HOSTNAME:
                return opt_machine(o, c, arg);
        case OPT_UPLOAD:
        case OPT_TRUST:
        case OPT_KEY:
        case OPT_CERT:
                return opt_upload(o, c, arg);
        case DEVOPT_FIRST ... DEVOPT_LAST:
                if (devctx_option(&o->dev, c, arg) < 0)
                        return options_fail(o, OPTIONS_BAD_USAGE, _("invalid argument for --%s: '%s' (expected KEY=GLOB, e.g. SUBSYSTEM=usb)"),
                                            "match", arg);
                return OPTIONS_RUN;
        case METOPT_FIRST ... METOPT_LAST:
                /* The metrics count problems by kind: the records are classified. */
                o->problems.counted |= c == METOPT_METRICS;
                if (metrics_options_add(&o->metrics, c, arg, err, sizeof(err)) < 0)
                        return options_fail(o, OPTIONS_BAD_USAGE, "%s", err);
                return OPTIONS_RUN;
        case PROBOPT_FIRST ... PROBOPT_LAST:
                if (problem_options_add(&o->problems, c, arg, err, sizeof(err)) < 0)
                        return options_fail(o, OPTIONS_BAD_USAGE, "%s", err);
                return OPTIONS_RUN;
        case 'w':
                o->in.follow = true;
                return OPTIONS_RUN;
        case 'W':
                o->in.follow = o->in.follow_new = true;
                return OPTIONS_RUN;
        case OPT_CURSOR_FILE:
                o->cursor_file = arg;
                return OPTIONS_RUN;
        case OPT_FAIL_ON_LOSS:
                o->fail_on_loss = true;
                return OPTIONS_RUN;
        case 'q':
                o->quiet = true;
                return OPTIONS_RUN;
        case OPT_REPORT ... OPT_REPORT + _REPORT_MAX - 1:
                return opt_report(o, sink_report((unsigned)(c - OPT_REPORT)), arg);
        case 'h':
                return OPTIONS_HELP;
        case 'V':
                return OPTIONS_VERSION;
        default: /* not in shortopts or longopts */
                return options_fail(o, OPTIONS_BAD_USAGE, _("invalid option -- '%c'"), c);
        }
}

static const char shortopts[] = ":CcDdEeF:f:g:HhJK:kL::l:n:o:PpqrSs:TtuVWwx";
/* The options but the reports', which options_parse() adds from the sink table. */
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
        { "buffer-size", required_argument, NULL, 's' },
        { "ctime", no_argument, NULL, 'T' },
        { "notime", no_argument, NULL, 't' },
        { "userspace", no_argument, NULL, 'u' },
        { "decode", no_argument, NULL, 'x' },
        { "since", required_argument, NULL, OPT_SINCE },
        { "until", required_argument, NULL, OPT_UNTIL },
        { "seq", required_argument, NULL, OPT_SEQ },
        { "time-format", required_argument, NULL, OPT_TIME_FORMAT },
        { "boot-time", required_argument, NULL, OPT_BOOT_TIME },
        { "boot", required_argument, NULL, OPT_BOOT },
        { "list-boots", no_argument, NULL, OPT_LIST_BOOTS },
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
        { "wrap", no_argument, NULL, OPT_WRAP },
        { "boot-id", required_argument, NULL, OPT_BOOT_ID },
        { "hostname", required_argument, NULL, OPT_HOSTNAME },
        { "machine-id", required_argument, NULL, OPT_MACHINE_ID },
        { "upload", required_argument, NULL, OPT_UPLOAD },
        { "trust", required_argument, NULL, OPT_TRUST },
        { "key", required_argument, NULL, OPT_KEY },
        { "cert", required_argument, NULL, OPT_CERT },
        { "pstore", optional_argument, NULL, OPT_PSTORE },
        { "list", no_argument, NULL, OPT_LIST },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        DEVCTX_LONGOPTS,
        PROBLEM_LONGOPTS,
        METRICS_LONGOPTS,
        {},
};

enum options_result options_parse(int argc, char **argv, struct options *o) {
        struct option all[sizeof(longopts) / sizeof(longopts[0]) + _REPORT_MAX];
        size_t n = sizeof(longopts) / sizeof(longopts[0]) - 1;
        enum options_result r;
        size_t i;
        int c;

        memcpy(all, longopts, n * sizeof(longopts[0]));
        for (i = 0; i < _REPORT_MAX; i++)
                all[n++] = (struct option){ sink_report((unsigned)i)->option + 2, sink_report((unsigned)i)->has_arg, NULL,
                                            OPT_REPORT + (int)i };
        all[n] = (struct option){ 0 };

        if (argc > 0 && argv[0]) {
                const char *base = strrchr(argv[0], '/');

                o->as_dmesg = strcmp(base ? base + 1 : argv[0], "dmesg") == 0;
                /* Run as dmesg, its messages say dmesg: (and "Try 'dmesg --help'"), as the user typed it. */
                if (o->as_dmesg)
                        program = "dmesg";
        }
        opterr = 0;
        while ((c = getopt_long(argc, argv, shortopts, all, NULL)) >= 0) {
                r = c == '?' || c == ':' ? options_bad_option(o, c, argv, shortopts) : opt_one(o, c, optarg);
                if (r != OPTIONS_RUN)
                        return r;
        }
        if (optind < argc)
                o->stray = argv[optind];
        input_resolve(&o->in);
        return OPTIONS_RUN;
}
