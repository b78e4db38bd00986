/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Record filters: levels, facilities, time range, regex, sequence range. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/filter.h"
#include "base/i18n.h"
#include "select/regex-cost.h"
#include "time/timefmt.h"
#include "text/util.h"

/* What was wrong, for filter_get_error(); the caller prints it. */
static void __attribute__((format(printf, 2, 3))) set_error(struct filter *f, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(f->error, sizeof(f->error), fmt, ap);
        va_end(ap);
}

/* A level or facility: a name, or a number up to max. */
static int parse_name_or_number(const char *s, int (*from_name)(const char *), uint64_t max) {
        uint64_t v;

        if (parse_u64(s, &v) == 0)
                return v <= max ? (int)v : -ERANGE;
        return from_name(s);
}

int filter_parse_levels(struct filter *f, const char *list) {
        char *copy = strdup(list), *save = NULL, *item;
        int e = 0;

        if (!copy) {
                set_error(f, "%s", strerror(ENOMEM));
                return -ENOMEM;
        }
        if (!*list) {
                set_error(f, _("empty level list"));
                e = -EINVAL;
        }
        for (item = strtok_r(copy, ",", &save); item && e == 0; item = strtok_r(NULL, ",", &save)) {
                size_t n = strlen(item);
                bool up = false, down = false;
                int lvl, i;

                if (n > 1 && item[n - 1] == '+') {
                        item[n - 1] = '\0';
                        up = true; /* this level and every more severe one */
                } else if (n > 1 && item[0] == '+') {
                        item++;
                        down = true; /* this level and every less severe one */
                }
                lvl = parse_name_or_number(item, kmsg_level_from_name, 7);
                if (lvl < 0) {
                        set_error(f,
                                  _("unknown level '%s' (expected emerg, alert, crit, err, warn, notice, info, "
                                    "debug or 0-7; LEVEL+ or +LEVEL for a range)"),
                                  item);
                        e = -EINVAL;
                        break;
                }
                for (i = 0; i < 8; i++)
                        if (i == lvl || (up && i < lvl) || (down && i > lvl))
                                f->levels |= (uint8_t)(1u << i);
        }
        free(copy);
        if (e == 0)
                f->have_levels = f->active = true;
        return e;
}

static void set_facility(struct filter *f, unsigned fac) {
        f->facilities[fac / 32] |= 1u << (fac % 32);
        f->have_facilities = f->active = true;
}

int filter_parse_facilities(struct filter *f, const char *list) {
        char *copy = strdup(list), *save = NULL, *item;
        int e = 0;

        if (!copy) {
                set_error(f, "%s", strerror(ENOMEM));
                return -ENOMEM;
        }
        if (!*list) {
                set_error(f, _("empty facility list"));
                e = -EINVAL;
        }
        for (item = strtok_r(copy, ",", &save); item && e == 0; item = strtok_r(NULL, ",", &save)) {
                int fac = parse_name_or_number(item, kmsg_facility_from_name, 255);

                if (fac < 0) {
                        set_error(f,
                                  _("unknown facility '%s' (expected kern, user, mail, daemon, auth, syslog, lpr, "
                                    "news, uucp, cron, authpriv, ftp, local0-local7 or 0-255)"),
                                  item);
                        e = -EINVAL;
                        break;
                }
                set_facility(f, (unsigned)fac);
        }
        free(copy);
        return e;
}

void filter_add_kernel(struct filter *f) {
        set_facility(f, 0);
}

void filter_add_userspace(struct filter *f) {
        unsigned i;

        for (i = 1; i < 256; i++)
                set_facility(f, i);
}

int filter_set_grep(struct filter *f, const char *regex) {
        const char *costly;
        int e;

        if (f->have_grep) {
                regfree(&f->grep);
                f->have_grep = false;
        }
        costly = regex_cost_check(regex);
        if (costly) {
                set_error(f, _("regular expression '%s' too costly: %s"), regex, costly);
                return -EINVAL;
        }
        e = regcomp(&f->grep, regex, REG_EXTENDED | REG_NOSUB);
        if (e != 0) {
                char why[256];

                regerror(e, &f->grep, why, sizeof(why));
                set_error(f, _("bad regular expression '%s': %s"), regex, why);
                return -EINVAL;
        }
        f->have_grep = f->active = true;
        return 0;
}

int filter_parse_seq(struct filter *f, const char *range) {
        const char *dash = strchr(range, '-');
        uint64_t from = 0, to = UINT64_MAX;
        char buf[32];
        int e = 0;

        if (!dash) {
                e = parse_u64(range, &from);
                to = from;
        } else {
                size_t n = (size_t)(dash - range);

                if (n >= sizeof(buf) || (n == 0 && !dash[1]))
                        e = -EINVAL;
                if (e == 0 && n > 0) {
                        memcpy(buf, range, n);
                        buf[n] = '\0';
                        e = parse_u64(buf, &from);
                }
                if (e == 0 && dash[1])
                        e = parse_u64(dash + 1, &to);
        }
        if (e < 0) {
                set_error(f, _("bad sequence range '%s' (expected FROM-TO, FROM-, -TO or N)"), range);
                return -EINVAL;
        }
        if (from > to) {
                set_error(f, _("empty sequence range '%s': %llu is after %llu"), range, (unsigned long long)from,
                       (unsigned long long)to);
                return -EINVAL;
        }
        f->seq_from = from;
        f->seq_to = to;
        f->have_seq = f->active = true;
        return 0;
}

void filter_set_since(struct filter *f, int64_t usec) {
        f->since_usec = usec;
        f->have_since = f->active = true;
}

void filter_set_until(struct filter *f, int64_t usec) {
        f->until_usec = usec;
        f->have_until = f->active = true;
}

void filter_set_since_wall(struct filter *f, int64_t usec, const struct timefmt *t) {
        filter_set_since(f, usec);
        f->since_wall = t;
}

void filter_set_until_wall(struct filter *f, int64_t usec, const struct timefmt *t) {
        filter_set_until(f, usec);
        f->until_wall = t;
}

/*
 * A "dmesg -T" paste's record: its printed wall clock (*ret) is compared
 * with wall-clock bounds; a bound in seconds since boot has nothing to
 * compare.
 */
static bool printed_comparable(const struct filter *f, const struct kmsg_record *r, int64_t *ret) {
        return !(f->have_since && !f->since_wall) && !(f->have_until && !f->until_wall) && record_printed_wall(r, ret);
}

bool filter_has_time(const struct filter *f, const struct kmsg_record *r) {
        int64_t w;

        return kmsg_record_has_timestamp(r) || printed_comparable(f, r, &w);
}

bool filter_in_window(const struct filter *f, const struct kmsg_record *r) {
        if (f->have_since || f->have_until) {
                int64_t from, to; /* the record's time on the clock of each bound */

                if (kmsg_record_has_timestamp(r)) {
                        uint64_t usec = kmsg_record_get_timestamp(r);

                        from = f->since_wall ? timefmt_wall(f->since_wall, usec) : (int64_t)usec;
                        to = f->until_wall ? timefmt_wall(f->until_wall, usec) : (int64_t)usec;
                } else if (printed_comparable(f, r, &from))
                        to = from;
                else
                        return false;
                if ((f->have_since && from < f->since_usec) || (f->have_until && to > f->until_usec))
                        return false;
        }
        if (f->have_seq) {
                uint64_t s;

                if (!kmsg_record_has_seqnum(r))
                        return false;
                s = kmsg_record_get_seqnum(r);
                if (s < f->seq_from || s > f->seq_to)
                        return false;
        }
        return true;
}

bool filter_match(struct filter *f, const struct kmsg_record *r) {
        if (!f->active)
                return true;
        if (f->have_levels || f->have_facilities) {
                unsigned fac;

                /* Plain "[time] msg" lines carry no priority: no level, no facility to match. */
                if (!kmsg_record_has_priority(r))
                        return false;
                if (f->have_levels && !(f->levels & (1u << kmsg_record_get_level(r))))
                        return false;
                fac = kmsg_record_get_facility(r);
                if (f->have_facilities && (fac > 255 || !(f->facilities[fac / 32] & (1u << (fac % 32)))))
                        return false;
        }
        if (!filter_in_window(f, r))
                return false;
        if (f->have_grep) {
                size_t len;
                const char *msg = kmsg_record_get_message(r, &len);
                regmatch_t m = { .rm_so = 0, .rm_eo = (regoff_t)len };

                if (regexec(&f->grep, msg, 1, &m, REG_STARTEND) != 0)
                        return false;
        }
        return true;
}

void filter_done(struct filter *f) {
        if (f->have_grep)
                regfree(&f->grep);
        f->have_grep = false;
}
