/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rows of kdmesg's sink table (src/output/sinks.c), one per line, for
 * the tests that keep --help, the man page and the completions true to it
 * (tests/cli/consistency.bats):
 *
 *   sink-rows formats   the --format names, in the table's order
 *   sink-rows reports   the report options ("--lost"), in the table's order
 *   sink-rows inputs    the names --input-format takes: "auto", then
 *                       libkmsg's input forms in its order
 */
#include <stdio.h>
#include <string.h>

#include "libkmsg.h"
#include "output/format.h"
#include "output/sink.h"

int main(int argc, char **argv) {
        const struct sink_info *si;
        unsigned i;

        if (argc == 2 && strcmp(argv[1], "formats") == 0) {
                for (i = 0; (si = sink_format_at(i)) != NULL; i++)
                        printf("%s\n", si->name);
                return 0;
        }
        if (argc == 2 && strcmp(argv[1], "reports") == 0) {
                for (i = 0; (si = sink_report(i)) != NULL; i++)
                        printf("%s\n", si->option);
                return 0;
        }
        if (argc == 2 && strcmp(argv[1], "inputs") == 0) {
                enum kmsg_format f;

                printf("%s\n", kmsg_format_to_name(KMSG_FORMAT_AUTO));
                for (i = 0; (f = kmsg_format_nth(i)) != KMSG_FORMAT_AUTO; i++)
                        printf("%s\n", kmsg_format_to_name(f));
                return 0;
        }
        fprintf(stderr, "usage: sink-rows formats|reports|inputs\n");
        return 2;
}
