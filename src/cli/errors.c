/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line's errors: one line in o->error, which main prints (with
 * "Try --help" for a usage error).  Used by options.c and checks.c.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "cli/options.h"

enum options_result options_fail(struct options *o, enum options_result r, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(o->error, sizeof(o->error), fmt, ap);
        va_end(ap);
        return r;
}

enum options_result options_fail_with(struct options *o, enum options_result r, const char *msg, const char *arg) {
        const char *p = strstr(msg, "%s");

        if (!p)
                return options_fail(o, r, "%s", msg);
        return options_fail(o, r, "%.*s%s%s", (int)(p - msg), msg, arg, p + 2);
}

/*
 * getopt_long() runs with opterr = 0 so that its complaints carry our
 * program name and not argv[0]; this says what went wrong, in one line.
 */
enum options_result options_bad_option(struct options *o, int c, char **argv, const char *shortopts) {
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

/*
 * Whether the command line asks for --upload (or an abbreviation of it,
 * as getopt_long() takes one), looked at before it is parsed: a usage
 * error of a shipper is a configuration error, also when the bad option
 * comes before --upload or is its URL.
 */
bool options_name_upload(int argc, char **argv) {
        int i;

        for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
                size_t n = strcspn(argv[i], "=");

                if (n >= strlen("--up") && strncmp(argv[i], "--upload", n) == 0 && n <= strlen("--upload"))
                        return true;
        }
        return false;
}
