/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --help: the options by section, as util-linux lays them out. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/i18n.h"
#include "cli/options.h"
#include "text/util.h"

/* Columns of text s on a terminal: its bytes but UTF-8 continuation bytes. */
static size_t columns_of(const char *s) {
        size_t n = 0;

        for (; *s; s++)
                n += ((unsigned char)*s & 0xc0) != 0x80;
        return n;
}

/* The name of the i-th output format, or NULL past the last (sink table). */
static const char *format_at(size_t i) {
        const struct sink_info *si = sink_format_at(i);

        return si ? si->name : NULL;
}

/* The name of the i-th input form, or NULL past the last (libkmsg's table). */
static const char *input_form_at(size_t i) {
        enum kmsg_format f = kmsg_format_nth((unsigned)i);

        return f == KMSG_FORMAT_AUTO ? NULL : kmsg_format_to_name(f);
}

/* One word of an option's description, on a new line (under the descriptions) past 78 columns. */
static void put_word(FILE *o, const char *word, size_t *width) {
        if (*width + 1 + columns_of(word) > 78) {
                fputs("\n                              ", o);
                *width = 30;
        }
        fprintf(o, " %s", word);
        *width += 1 + columns_of(word);
}

/*
 * An option's lines that list names from a table: head, the names ("a, b,
 * c", or "a, b or c" with or), then tail (or NULL).
 */
static void names_line(FILE *o, const char *head, const char *(*name_at)(size_t i), bool or, const char *tail) {
        size_t width = columns_of(head), i;
        const char *name;
        char word[128];

        fputs(head, o);
        for (i = 0; (name = name_at(i)) != NULL; i++) {
                bool last = !name_at(i + 1);

                if (or && i > 0 && last)
                        snprintf(word, sizeof(word), "%s %s", _("or"), name);
                else
                        snprintf(word, sizeof(word), "%s%s", name, last || (or && !name_at(i + 2)) ? "" : ",");
                put_word(o, word, &width);
        }
        if (tail)
                put_word(o, tail, &width);
        fputc('\n', o);
}

void __attribute__((noreturn)) usage(void) {
        FILE *o = stdout;

        fputs(_("\nUsage:\n"), o);
        fprintf(o, _(" %s [options]\n"), program);
        fputs(_("\nPrint the kernel log, its dictionaries and what was lost; or control it.\n"), o);

        fputs(_("\nInput:\n"), o);
        fputs(_(" -K, --kmsg-file <file>      read a dump: kmsg, export, syslog, JSON; - stdin\n"), o);
        fputs(_(" -F, --file <file>           read a syslog-form dump ('<6>[ 1.0] text' lines)\n"), o);
        names_line(o, _("     --input-format <fmt>    the -K form:"), input_form_at, false, NULL);
        fputs(_(" -S, --syslog                read through syslog(2) instead of /dev/kmsg\n"), o);
        fputs(_("     --pstore[=<n>]          read what a crash left in pstore (n: see --list)\n"
                "     --list                  with --pstore: list the dumps, newest first\n"),
              o);
        fputs(_(" -s, --buffer-size <size>    bytes to read with -S (no effect on /dev/kmsg)\n"), o);
        fputs(_("     --boot <n>              only boot n: 1 the first, 0 the last, -1 before\n"
                "     --list-boots            list the boots of the input\n"),
              o);

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
        fputs(problem_options_help(), o);

        fputs(_("\nReports, instead of the messages:\n"), o);
        fputs(_(sink_report(REPORT_DEVICES)->help), o);
        fputs(_(sink_report(REPORT_PROBLEMS)->help), o);
        fputs(_(sink_report(REPORT_TIMELINE)->help), o);
        fputs(_(sink_report(REPORT_LOST)->help), o);

        fputs(_("\nOutput formats:\n"), o);
        names_line(o, _("     --format <format>       output format:"), format_at, true, NULL);
        fputs(_(" -J, --json[=dmesg]          JSON Lines; 'dmesg': util-linux's --json document\n"), o);
        fputs(_(" -r, --raw                   syslog form <PRI>[time] message (--format=syslog)\n"), o);
        fputs(_(" -o, --output <list>         table columns ('+list' adds); implies a table\n"), o);
        fputs(_("     --list-columns          list the columns and their JSON types\n"), o);
        fputs(_("     --noheadings            table without a heading line\n"), o);
        fputs(_("     --wrap                  on a terminal, wrap long text, not cut it\n"), o);
        fputs(_("     --boot-id <id>          export: the _BOOT_ID of the records (a dump's)\n"), o);
        fputs(_("     --hostname <name>       export: the _HOSTNAME of the records\n"), o);
        fputs(_("     --machine-id <id>       export: the _MACHINE_ID of the records\n"), o);

        fputs(_(" -t, --notime                no time stamps\n"), o);
        fputs(_(" -T, --ctime                 wall-clock time stamps\n"), o);
        fputs(_(" -d, --show-delta            add the time since the previous message shown\n"), o);
        fputs(_(" -e, --reltime               the minute on the wall clock, then offsets\n"), o);
        fputs(_(" -H, --human                 the view for people: relative times, a pager\n"), o);
        fputs(_("     --time-format <format>  delta, reltime, ctime, notime, iso or raw\n"), o);
        fputs(_("     --boot-time <time>      when a dump's machine booted (this: this boot's)\n"), o);
        fputs(_(" -x, --decode                facility and level names before messages\n"), o);
        fputs(_(" -p, --force-prefix          repeat the prefix on every line of a message\n"), o);
        fputs(_("     --noescape              print message bytes unchanged\n"), o);
        fputs(_(" -L, --color[=<when>]        colors: auto (the default), always or never\n"), o);
        fputs(_(" -P, --nopager               never send the output through a pager\n"), o);

        fputs(_("\nFollowing and shipping:\n"), o);
        fputs(_(" -w, --follow                wait for new messages (-K: follow the file)\n"), o);
        fputs(_(" -W, --follow-new            wait and print only new messages\n"), o);
        fputs(_("     --cursor-file <file>    resume after the last record a previous run wrote\n"), o);
        fputs(_("     --fail-on-loss          exit with status 3 when messages were lost\n"), o);
        fputs(_(" -q, --quiet                 no summary of lost messages on stderr\n"), o);
        fputs(metrics_options_help(), o);
        fputs(_("     --upload <url>          ship to a collector: http(s)://, relp(+tls)://\n"), o);
        fputs(_("     --trust <file|all>      CA certificate(s) of the server (https, relp+tls)\n"), o);
        fputs(_("     --key <file>            client key in PEM (https, relp+tls)\n"), o);
        fputs(_("     --cert <file>           client certificate in PEM (https, relp+tls)\n"), o);

        fputs(_("\nKernel control (needs root):\n"), o);
        fputs(_(" -C, --clear                 empty the kernel's log buffer\n"), o);
        fputs(_(" -c, --read-clear            print the log, then empty the buffer\n"), o);
        fputs(_(" -D, --console-off           stop printing messages on the console\n"), o);
        fputs(_(" -E, --console-on            print messages on the console again\n"), o);
        fputs(_(" -n, --console-level <level> the least severe level the console shows\n"), o);
        fputs(_(" -h, --help                  display this help\n"), o);
        fputs(_(" -V, --version               display version\n"), o);
        /* The columns, levels, facilities and times are in --list-columns, the errors and the page. */
        fputs(_("\nExit status: 0 success, 1 failure (bad usage, unreadable input or output,\n"
                "undelivered upload), 3 lost messages with --fail-on-loss, 4 a problem with\n"
                "--fail-on-problem, 78 a configuration error of --upload.\n"),
              o);
        /* The page is kdmesg(1) under any name: dmesg(1) is util-linux's.  Its reference is in
         * pages of their own. */
        fprintf(o,
                _("\nColumns: --list-columns.  For more details see %s(1), kdmesg-formats(5),\n"
                  "kdmesg-problems(5), kdmesg-reports(7) and kdmesg-upload(8).\n"),
                "kdmesg");
        exit(EXIT_SUCCESS);
}
