/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PLACE_H
#define KDMESG_PLACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "libkmsg.h"
#include "output/sink.h"

/*
 * Where a record is placed for a reader of another machine: the boot it
 * comes from and its wall-clock time, where they are known.  Each has its
 * sources, the record's own first:
 *
 * - the wall clock: the time the input carried for the record (the time a
 *   "dmesg -T" paste printed, read in the local zone as kdmesg reads it
 *   everywhere: record_printed_wall(); export's and kdmesg JSON's
 *   __REALTIME_TIMESTAMP, realtime_usec), else the boot
 *   time of the output settings + the time slept before it + its stamp,
 *   when that boot time is the record's boot's;
 * - the boot id: the record's own (export's _BOOT_ID, JSON's boot_id),
 *   else the settings' (the live log's, a dump of the running boot's),
 *   on the same condition.
 */
struct place {
        bool have_wall;
        int64_t wall_usec;   /* µs since the epoch, 0 to PLACE_WALL_MAX */
        const char *boot_id; /* as the input or the settings give it; NULL: not known */
};

/* The first µs of the year 10000: later wall-clock times (a hostile dump's) are not known. */
#define PLACE_WALL_MAX INT64_C(253402300800000000)

/*
 * r's place.  The settings' boot is r's unless r names another boot than
 * the settings' id.  (The settings hold the running boot's time and id
 * only for the live log and for a dump of that boot alone: options_setup_time()
 * asks for --boot-time where an earlier boot comes first in the dump.)
 */
void place_of(const struct output_settings *set, const struct kmsg_record *r, struct place *ret);
/* The same, for a caller that holds r's view already (inline: --json calls it for every record). */
static inline void place_of_view(const struct output_settings *set, const struct kmsg_record *r,
                                 const struct kmsg_record_view *v, struct place *ret) {
        const char *own = v->boot_id;

        ret->boot_id = own ? own : set->boot_id;
        /* A "dmesg -T" paste's record has no time stamp but the wall clock it printed (time/timefmt.h). */
        ret->have_wall = !v->has_timestamp && v->has_printed_time && record_printed_wall(r, &ret->wall_usec);
        /* Only export and JSON input carry journal fields, among them the wall clock. */
        if (!ret->have_wall && v->n_journal)
                ret->have_wall = record_carried_wall(r, &ret->wall_usec);
        /* A record of another boot than the settings' gets neither their time nor their id. */
        if (!ret->have_wall && v->has_timestamp && set->time.have_boot &&
            (!own || !set->boot_id || strcmp(own, set->boot_id) == 0)) {
                ret->wall_usec = timefmt_wall(&set->time, v->usec);
                ret->have_wall = true;
        }
        if (ret->have_wall && (ret->wall_usec < 0 || ret->wall_usec >= PLACE_WALL_MAX))
                ret->have_wall = false;
}

/*
 * The wall-clock time usec (0 to PLACE_WALL_MAX) in ISO 8601, UTC, with
 * microseconds: "2026-12-07T01:25:24.123456Z" (PLACE_ISO_LEN bytes, no NUL).
 * cache_second/cache_text keep the date and time of the last second
 * formatted (cache_second -1: none yet).
 */
#define PLACE_ISO_LEN 27
void place_iso(int64_t usec, int64_t *cache_second, char cache_text[20], char *out);

#endif
