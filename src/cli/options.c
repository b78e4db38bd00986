/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: parsing and the checks of option combinations (--help: usage.c). */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/bootid.h"
#include "input/console.h"
#include "base/i18n.h"
#include "cli/options.h"
#include "time/suspend.h"
#include "time/timefmt.h"
#include "text/util.h"

enum options_result options_fail(struct options *o, enum options_result r, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(o->error, sizeof(o->error), fmt, ap);
        va_end(ap);
        return r;
}

/*
 * getopt_long() runs with opterr = 0 so that its complaints carry our
 * program name and not argv[0]; this says what went wrong, in one line.
 */
static enum options_result bad_option(struct options *o, int c, char **argv, const char *shortopts) {
        const char *arg = argv[optind - 1];
        bool is_long = arg && strncmp(arg, "--", 2) == 0;
        size_t n = is_long ? strcspn(arg, "=") : 0;
        bool known = optopt >= 0x100 || (optopt > 0 && strchr(shortopts + 1, optopt));

        if (c == ':' && is_long)
                return options_fail(o, OPTIONS_BAD_USAGE, _("option '%.*s' requires an argument"), (int)n, arg);
        else if (c == ':')
                return options_fail(o, OPTIONS_BAD_USAGE, _("option requires an argument -- '%c'"), optopt);
        else if (optopt == 0)
                return options_fail(o, OPTIONS_BAD_USAGE,
                            _("unrecognized option '%.*s'"), (int)(is_long ? n : strlen(arg)), arg);
        else if (known)
                return options_fail(o, OPTIONS_BAD_USAGE, _("option '%.*s' doesn't allow an argument"), (int)n, arg);
        else
                return options_fail(o, OPTIONS_BAD_USAGE, _("invalid option -- '%c'"), optopt);
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
        OPT_BOOT_ID,
        OPT_HOSTNAME,
        OPT_MACHINE_ID,
        OPT_UPLOAD,
        OPT_TRUST,
        OPT_KEY,
        OPT_CERT,
};

static enum options_result set_format(struct options *o, const char *name) {
        int f = output_format_from_name(name);

        if (f < 0) {
                return options_fail(o, OPTIONS_BAD_USAGE, _("unknown output format '%s'"), name);
        }
        o->format = (enum output_format)f;
        o->format_set = true;
        o->json_option = false;
        return OPTIONS_RUN;
}

static enum options_result add_source(struct options *o, const char *path, bool syslog_file) {
        struct source *s = realloc(o->sources, (o->n_sources + 1) * sizeof(*o->sources));

        if (!s)
                return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        o->sources = s;
        s[o->n_sources++] = (struct source){ .path = path, .syslog_file = syslog_file };
        return OPTIONS_RUN;
}

/*
 * -K /dev/kmsg, or any node of the kmsg device: the device itself,
 * read without blocking to its end (or followed).  Given alone, it is the
 * live log, with all that goes with it (--cursor-file, -W, -c).
 */
static void mark_devices(struct options *o) {
        struct stat st;
        size_t i;

        for (i = 0; i < o->n_sources; i++)
                o->sources[i].device = strcmp(o->sources[i].path, "-") != 0 &&
                                       stat(o->sources[i].path, &st) == 0 && is_kmsg_device(&st);
        if (o->n_sources == 1 && o->sources[0].device && !o->sources[0].syslog_file) {
                o->device_path = o->sources[0].path;
                o->n_sources = 0;
        }
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

enum options_result options_parse(int argc, char **argv, struct options *o) {
        static const char shortopts[] = ":CcDdEeF:f:g:HhJK:kL::l:n:o:PpqrSs:TtuVWwx";
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
                { "boot-id", required_argument, NULL, OPT_BOOT_ID },
                { "hostname", required_argument, NULL, OPT_HOSTNAME },
                { "machine-id", required_argument, NULL, OPT_MACHINE_ID },
                { "upload", required_argument, NULL, OPT_UPLOAD },
                { "trust", required_argument, NULL, OPT_TRUST },
                { "key", required_argument, NULL, OPT_KEY },
                { "cert", required_argument, NULL, OPT_CERT },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                DEVCTX_LONGOPTS,
                PROBLEM_LONGOPTS,
                {},
        };
        enum options_result r = OPTIONS_RUN;
        int c, e;

        if (argc > 0 && argv[0]) {
                const char *base = strrchr(argv[0], '/');

                o->as_dmesg = strcmp(base ? base + 1 : argv[0], "dmesg") == 0;
        }
        opterr = 0;
        while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) >= 0) {
                switch (c) {
                case 'C':
                        r = set_action(o, ACTION_CLEAR, "--clear");
                        break;
                case 'c':
                        r = set_action(o, ACTION_READ_CLEAR, "--read-clear");
                        break;
                case 'D':
                        r = set_action(o, ACTION_CONSOLE_OFF, "--console-off");
                        break;
                case 'E':
                        r = set_action(o, ACTION_CONSOLE_ON, "--console-on");
                        break;
                case 'n':
                        r = set_action(o, ACTION_CONSOLE_LEVEL, "--console-level");
                        if (r != OPTIONS_RUN)
                                return r;
                        o->console_level = console_parse_level(optarg);
                        if (o->console_level < 0)
                                return options_fail(o, OPTIONS_FAILED,
                                            _("unknown console level '%s' (expected 1 to 8 or a level name)"),
                                      optarg);
                        break;
                case 'S':
                        o->use_syslog = true;
                        break;
                case 's': {
                        uint64_t v;

                        if (parse_u64(optarg, &v) < 0 || v > INT_MAX)
                                return options_fail(o, OPTIONS_FAILED,
                                            _("invalid buffer size '%s' (expected a number of bytes)"), optarg);
                        o->buffer_size = (unsigned)v;
                        break;
                }
                case 'K':
                        r = add_source(o, optarg, false);
                        break;
                case 'F':
                        r = add_source(o, optarg, true);
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
                                return options_fail(o, OPTIONS_FAILED,
                                            _("unknown input format '%s' (expected kmsg, syslog, export or json)"),
                                            optarg);
                        break;
                case 'l':
                        if (filter_parse_levels(&o->filter, optarg) < 0)
                                return options_fail(o, OPTIONS_FAILED, "%s", o->filter.error);
                        break;
                case 'f':
                        if (filter_parse_facilities(&o->filter, optarg) < 0)
                                return options_fail(o, OPTIONS_FAILED, "%s", o->filter.error);
                        break;
                case 'k':
                        filter_add_kernel(&o->filter);
                        break;
                case 'u':
                        filter_add_userspace(&o->filter);
                        break;
                case 'g':
                        if (filter_set_grep(&o->filter, optarg) < 0)
                                return options_fail(o, OPTIONS_FAILED, "%s", o->filter.error);
                        break;
                case OPT_SEQ:
                        if (filter_parse_seq(&o->filter, optarg) < 0)
                                return options_fail(o, OPTIONS_FAILED, "%s", o->filter.error);
                        break;
                case OPT_SINCE:
                        o->since = optarg;
                        break;
                case OPT_UNTIL:
                        o->until = optarg;
                        break;
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
                case OPT_TIME_FORMAT:
                        r = set_time_format(o, optarg);
                        if (r == OPTIONS_RUN && timefmt_needs_wall(&o->out.time))
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
                        /* util-linux takes -L=always too (getopt leaves the '='). */
                        if (optarg && *optarg == '=')
                                optarg++;
                        e = color_mode_from_name(optarg);
                        if (e < 0)
                                return options_fail(o, OPTIONS_FAILED,
                                            _("unknown color mode '%s' (expected auto, always or never)"),
                                            optarg);
                        o->color = (enum color_mode)e;
                        break;
                case 'P':
                        o->nopager = true;
                        break;
                case OPT_NOESCAPE:
                        o->out.noescape = true;
                        break;
                case OPT_FORMAT:
                        r = set_format(o, optarg);
                        break;
                case 'J':
                        if (optarg && strcmp(optarg, "dmesg") != 0) {
                                return options_fail(o, OPTIONS_BAD_USAGE,
                                            _("unknown --json variant '%s' (only 'dmesg')"), optarg);
                        }
                        /* Under the name dmesg, -J is util-linux's document, as scripts expect. */
                        r = set_format(o, optarg || o->as_dmesg ? "json-dmesg" : "json");
                        o->json_option = !optarg;
                        break;
                case 'r':
                        r = set_format(o, "syslog");
                        o->raw_option = true;
                        break;
                case 'o': {
                        const char *bad = NULL;

                        /* The last -o counts, as with lsblk. */
                        columns_free(&o->columns);
                        e = columns_parse(&o->columns, optarg, &bad);
                        if (e == -EINVAL) {
                                return options_fail(o, OPTIONS_BAD_USAGE, _("unknown column '%s'"), bad);
                        }
                        if (e < 0)
                                return options_fail(o, OPTIONS_FAILED, "%s", strerror(-e));
                        if (!o->format_set)
                                o->format = FORMAT_TABLE;
                        break;
                }
                case OPT_LIST_COLUMNS:
                        return OPTIONS_LIST_COLUMNS;
                case OPT_NOHEADINGS:
                        o->out.noheadings = true;
                        break;
                case OPT_BOOT_ID:
                case OPT_MACHINE_ID:
                        if (id128_parse(optarg, c == OPT_BOOT_ID ? o->boot_id : o->machine_id) < 0)
                                return options_fail(o, OPTIONS_FAILED, _("bad id '%s' for %s (expected 32 hex digits)"),
                                            optarg, c == OPT_BOOT_ID ? "--boot-id" : "--machine-id");
                        if (!o->machine_option)
                                o->machine_option = c == OPT_BOOT_ID ? "--boot-id" : "--machine-id";
                        break;
                case OPT_UPLOAD:
                        if (strncmp(optarg, "http://", 7) != 0 && strncmp(optarg, "https://", 8) != 0)
                                return options_fail(o, OPTIONS_FAILED,
                                            _("bad URL '%s' for --upload (expected http:// or https://)"), optarg);
                        o->upload = optarg;
                        break;
                case OPT_TRUST:
                case OPT_KEY:
                case OPT_CERT:
                        *(c == OPT_TRUST ? &o->trust : c == OPT_KEY ? &o->key : &o->cert) = optarg;
                        if (!o->tls_option)
                                o->tls_option = c == OPT_TRUST ? "--trust" : c == OPT_KEY ? "--key" : "--cert";
                        break;
                case OPT_HOSTNAME:
                        if (!*optarg || strlen(optarg) > 255 ||
                            strcspn(optarg, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12"
                                            "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f ") != strlen(optarg))
                                return options_fail(o, OPTIONS_FAILED,
                                            _("bad host name for --hostname (1 to 255 bytes, no spaces or control characters)"));
                        o->hostname = optarg;
                        if (!o->machine_option)
                                o->machine_option = "--hostname";
                        break;
                case DEVOPT_FIRST ... DEVOPT_LAST:
                        if (devctx_option(&o->dev, c, optarg) < 0) {
                                return options_fail(o, OPTIONS_BAD_USAGE, _("invalid argument for --%s: '%s'"), "match",
                                            optarg);
                        }
                        break;
                case PROBOPT_FIRST ... PROBOPT_LAST: {
                        char err[400];

                        if (problem_options_add(&o->problems, c, optarg, err, sizeof(err)) < 0)
                                return options_fail(o, OPTIONS_BAD_USAGE, "%s", err);
                        break;
                }
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
                        return OPTIONS_HELP;
                case 'V':
                        return OPTIONS_VERSION;
                default:
                        return bad_option(o, c, argv, shortopts);
                }
                if (r != OPTIONS_RUN)
                        return r;
        }
        if (optind < argc)
                o->stray = argv[optind];
        mark_devices(o);
        for (size_t i = 0; i < o->n_sources; i++)
                o->sources[i].format = o->sources[i].syslog_file ? KMSG_FORMAT_SYSLOG : o->input_format;
        return OPTIONS_RUN;
}
