/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Filters on what the input does not carry: a level (--level, --facility,
 * -k, -u) on "[time] msg" lines without a priority, a time (--since,
 * --until) on records without one, SUBSYSTEM and DEVICE (--device,
 * --subsystem, --match; not with --device-text, which reads the text
 * too) on input without dictionaries.  Such a filter
 * matches none of those records; said once on stderr, naming the field
 * and the input, so that an empty result does not read as "none of them".
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "pipeline/missing.h"
#include "select/device.h"
#include "select/filter.h"
#include "text/diag.h"

enum {
        MISSING_LEVEL = 1 << 0,
        MISSING_TIME = 1 << 1,
        MISSING_DICT = 1 << 2,
};


/* The device options given: --device first, as it is the one most used. */
static const char *device_option(const struct devfilter *d) {
        if (d->n_dev_args > 0)
                return "--device";
        return d->n_subsystems > 0 ? "--subsystem" : "--match";
}

/* A subsystem seen in the input, kept while fewer than SUBSYSTEMS_NOTED are (names printable ASCII only). */
static void note_subsystem(struct run *run, const char *s) {
        size_t i;

        if (!s)
                return;
        for (i = 0; i < run->devfilter->n_subsystems && i < 64; i++)
                if (strcmp(run->devfilter->subsystems[i], s) == 0)
                        run->subsystems_asked_seen |= UINT64_C(1) << i;
        if (run->n_subsystems == SUBSYSTEMS_NOTED)
                return;
        for (i = 0; s[i]; i++)
                if (s[i] <= ' ' || s[i] > '~')
                        return;
        for (i = 0; i < run->n_subsystems; i++)
                if (strcmp(run->subsystems[i], s) == 0)
                        return;
        run->subsystems[run->n_subsystems] = strdup(s);
        if (run->subsystems[run->n_subsystems])
                run->n_subsystems++;
}

void missing_check(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r) {
        const struct filter *f = run->filter;
        const char *name = kmsg_reader_get_name(rd);
        unsigned long long line = (unsigned long long)kmsg_reader_get_position(rd);

        if ((f->have_levels || f->have_facilities) && !(run->missing_warned & MISSING_LEVEL) &&
            !kmsg_record_has_priority(r)) {
                warnx_(_("%s:%llu: a record without a level: %s matches no such record"), name, line,
                       f->have_levels ? "--level" : "--facility");
                run->missing_warned |= MISSING_LEVEL;
        }
        if ((f->have_since || f->have_until) && !(run->missing_warned & MISSING_TIME) && !filter_has_time(f, r)) {
                int64_t printed;

                if (kmsg_record_get_printed_time(r, &printed) == 0)
                        warnx_(_("%s:%llu: a record with only the wall clock of a dmesg -T paste: seconds since boot "
                                 "match no such record"),
                               name, line);
                else if (f->have_since && f->have_until)
                        warnx_(_("%s:%llu: a record without a time stamp: --since and --until match no such record"),
                               name, line);
                else
                        warnx_(_("%s:%llu: a record without a time stamp: %s matches no such record"), name, line,
                               f->have_since ? "--since" : "--until");
                run->missing_warned |= MISSING_TIME;
        }
        if (run->devfilter && kmsg_record_get_dict_count(r) > 0) {
                run->with_dict++;
                if (run->devfilter->n_subsystems > 0)
                        note_subsystem(run, kmsg_record_get_subsystem(r));
        }
        /* The syslog form has no dictionaries at all: said at its first record. */
        if (run->devfilter && !run->devfilter->text && !(run->missing_warned & MISSING_DICT) &&
            kmsg_reader_get_format(rd) == KMSG_FORMAT_SYSLOG) {
                warnx_(_("%s: syslog-form input has no SUBSYSTEM or DEVICE: %s matches none of its records"), name,
                       device_option(run->devfilter));
                run->missing_warned |= MISSING_DICT;
        }
}

/* A --subsystem that no record had: the subsystems the input has, a few. */
static void say_subsystems(struct run *run) {
        char list[SUBSYSTEMS_NOTED * 24 + 16] = "";
        size_t i, n = 0;

        for (i = 0; i < run->n_subsystems && n + 24 < sizeof(list); i++)
                n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%.20s", i ? ", " : "", run->subsystems[i]);
        if (run->n_subsystems == SUBSYSTEMS_NOTED && n + 6 < sizeof(list))
                snprintf(list + n, sizeof(list) - n, ", ...");
        for (i = 0; i < run->devfilter->n_subsystems && i < 64; i++)
                if (run->n_subsystems > 0 && !(run->subsystems_asked_seen & (UINT64_C(1) << i)))
                        warnx_(_("--subsystem %s: no record read has it (the input's: %s)"), run->devfilter->subsystems[i],
                               list);
}

void missing_finish(struct run *run) {
        size_t i;

        if (run->devfilter && run->devfilter->n_subsystems > 0 && run->with_dict > 0 &&
            !(run->missing_warned & MISSING_DICT))
                say_subsystems(run);
        for (i = 0; i < run->n_subsystems; i++)
                free(run->subsystems[i]);
        run->n_subsystems = 0;
        /* With --device-text, records are matched by their text too: that is not nothing. */
        if (!run->devfilter || run->devfilter->text || run->with_dict > 0 || run->delivered == 0 ||
            (run->missing_warned & MISSING_DICT))
                return;
        warnx_(_("no record read carries SUBSYSTEM or DEVICE: %s matched none of them"), device_option(run->devfilter));
        run->missing_warned |= MISSING_DICT;
}
