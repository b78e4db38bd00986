/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --metrics FILE, --metrics-interval SECONDS: parsing and set-up (the file itself: output/metrics.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/bootid.h"
#include "base/i18n.h"
#include "base/parse-u64.h"
#include "cli/metrics-options.h"
#include "cli/options.h"
#include "output/metrics.h"
#include "ship/cursor.h"
#include "pipeline/run.h"

const char *metrics_options_help(void) {
        return _("     --metrics <file>        write Prometheus counters: records, losses, ...\n"
                 "     --metrics-interval <s>  following, write them every s seconds (15)\n");
}

int metrics_options_add(struct metrics_options *mo, int opt, const char *arg, char *err, size_t size) {
        uint64_t v;

        if (opt == METOPT_METRICS) {
                if (!*arg) {
                        snprintf(err, size, "%s", _("--metrics needs the name of a file"));
                        return -EINVAL;
                }
                mo->path = arg;
                return 0;
        }
        if (parse_u64(arg, &v) < 0 || v < 1 || v > METRICS_INTERVAL_MAX_S) {
                snprintf(err, size, _("bad number '%s' for --metrics-interval (seconds, 1 to %u)"), arg,
                         METRICS_INTERVAL_MAX_S);
                return -EINVAL;
        }
        mo->interval_s = (unsigned)v;
        return 0;
}

int metrics_options_check(const struct metrics_options *mo, bool follow, char *err, size_t size) {
        if (mo->interval_s && !mo->path) {
                snprintf(err, size, "%s", _("--metrics-interval needs --metrics"));
                return -EINVAL;
        }
        if (mo->interval_s && !follow) {
                snprintf(err, size, "%s",
                         _("--metrics-interval is for --follow: without it the metrics are written once, at the end"));
                return -EINVAL;
        }
        return 0;
}

void metrics_options_setup(struct options *o, struct run *run, struct metrics *m, bool live) {
        const struct metrics_options *mo = &o->metrics;
        const char *cur_boot;
        uint64_t seq, usec;

        *m = (struct metrics){ 0 };
        if (!mo->path)
                return;
        m->path = mo->path;
        m->interval_s = !o->in.follow ? 0 : mo->interval_s ? mo->interval_s : METRICS_INTERVAL_S;
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
         * wrote: the gauge starts there.  The counters start at 0 (kdmesg-upload(8)).
         */
        cur_boot = run->cursor ? cursor_get_boot_id(run->cursor) : NULL;
        if (cur_boot && m->boot_id[0] && strcmp(cur_boot, m->boot_id) == 0 &&
            cursor_get_seq(run->cursor, &seq, &usec)) {
                m->has_seq = true;
                m->last_seq = seq;
        }
        run->metrics = m;
}
