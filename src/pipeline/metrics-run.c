/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --metrics in the run: counting, and when the file is written (metrics-run.h). */
#include "output/metrics.h"
#include "pipeline/metrics-run.h"
#include "ship/upload.h"

int run_metrics_write(struct run *run) {
        struct metrics *m = run->metrics;

        if (!m)
                return 0;
        if (run->upload)
                upload_get_metrics(run->upload, &m->up);
        return metrics_write(m);
}

void run_metrics_record(struct run *run, const struct kmsg_record *r, const struct problem_hit *hit) {
        struct metrics *m = run->metrics;

        metrics_record(m, r, hit);
        if (m->interval_s > 0 && metrics_due(m, false))
                run_metrics_write(run);
}

int run_metrics_idle(struct run *run) {
        struct metrics *m = run->metrics;

        if (!m || m->interval_s == 0)
                return -1;
        if (metrics_due(m, true))
                run_metrics_write(run);
        return metrics_wait_ms(m);
}
