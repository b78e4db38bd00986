/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_METRICS_OPTIONS_H
#define KDMESG_METRICS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* --metrics FILE and --metrics-interval SECONDS (metrics-options.c; the file: output/metrics.h). */
struct metrics_options {
        const char *path;    /* NULL: no metrics */
        unsigned interval_s; /* --metrics-interval; 0: not given */
};

enum {
        METOPT_METRICS = 0x600,
        METOPT_INTERVAL,
};

#define METRICS_LONGOPTS                                                     \
        { "metrics", required_argument, NULL, METOPT_METRICS },               \
        { "metrics-interval", required_argument, NULL, METOPT_INTERVAL }

#define METOPT_FIRST METOPT_METRICS
#define METOPT_LAST METOPT_INTERVAL

/* Take one option (getopt's argument); 0, or -EINVAL with the error in err. */
int metrics_options_add(struct metrics_options *mo, int opt, const char *arg, char *err, size_t size);
/* After the options: --metrics-interval needs --metrics and --follow.  0, or -EINVAL with the error in err. */
int metrics_options_check(const struct metrics_options *mo, bool follow, char *err, size_t size);
/* The --help lines of --metrics and --metrics-interval. */
const char *metrics_options_help(void);

struct options;
struct run;
struct metrics;
/*
 * The run counts into m (zeroed here) and writes it (pipeline/metrics-run.h):
 * after the options were set up (options_setup_run(), the export's boot
 * id) and the cursor file loaded.
 */
void metrics_options_setup(struct options *o, struct run *run, struct metrics *m, bool live);

#endif
