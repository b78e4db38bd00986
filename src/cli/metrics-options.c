/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --metrics FILE, --metrics-interval SECONDS: parsing and set-up (the file itself: output/metrics.c). */
#include <errno.h>
#include <string.h>

#include "base/bootid.h"
#include "base/i18n.h"
#include "base/parse-u64.h"
#include "cli/metrics-options.h"
#include "cli/options.h"
#include "output/metrics.h"
#include "pipeline/cursor.h"
#include "pipeline/run.h"
#include "text/diag.h"

const char *metrics_options_help(void) {
        return _("     --metrics <file>        write counters of records, losses, problems and\n"
                 "                               --upload in Prometheus' text format to the file\n"
                 "                               (at the end; following, every 15 s and at exit)\n"
                 "     --metrics-interval <s>  following, write the metrics every s seconds\n");
}

int metrics_options_add(struct metrics_options *mo, int opt, const char *arg) {
        if (opt == METOPT_METRICS)
                mo->path = arg;
        else
                mo->interval = arg;
        return 0;
}

int metrics_options_setup(struct options *o, struct run *run, struct metrics *m, bool live) {
        const struct metrics_options *mo = &o->metrics;
        const char *cur_boot;
        uint64_t v = METRICS_INTERVAL_S, seq, usec;

        *m = (struct metrics){ 0 };
        if (!mo->path && mo->interval) {
                warnx_(_("--metrics-interval needs --metrics"));
                return -EINVAL;
        }
        if (!mo->path)
                return 0;
        if (mo->interval && (parse_u64(mo->interval, &v) < 0 || v < 1 || v > METRICS_INTERVAL_MAX_S)) {
                warnx_(_("bad number '%s' for --metrics-interval (seconds, 1 to %u)"), mo->interval,
                       METRICS_INTERVAL_MAX_S);
                return -EINVAL;
        }
        if (mo->interval && !o->in.follow) {
                warnx_(_("--metrics-interval is for --follow: without it the metrics are written once, at the end"));
                return -EINVAL;
        }
        m->path = mo->path;
        m->interval_s = o->in.follow ? (unsigned)v : 0;
        /* The last record's wall clock needs the boot time: the live log's, or --boot-time's. */
        m->time = o->out.time.have_boot ? &o->out.time : NULL;
        m->problems_on = run->problems != NULL;
        m->upload_on = o->upload != NULL;
        /* The boot: --boot-id's, or this machine's for the live log and a dump of the running boot. */
        if (o->boot_id[0])
                memcpy(m->boot_id, o->boot_id, sizeof(m->boot_id));
        else if ((live || o->this_boot) && boot_id_read(m->boot_id) < 0)
                m->boot_id[0] = '\0';
        /*
         * The cursor file names the last record of this boot a previous run
         * wrote: the gauge starts there.  The counters start at 0 (kdmesg(1)).
         */
        cur_boot = run->cursor ? cursor_get_boot_id(run->cursor) : NULL;
        if (cur_boot && m->boot_id[0] && strcmp(cur_boot, m->boot_id) == 0 &&
            cursor_get_seq(run->cursor, &seq, &usec)) {
                m->has_seq = true;
                m->last_seq = seq;
        }
        run->metrics = m;
        return 0;
}
