/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counting what was lost, and the summary main() prints at exit. */
#include <stdarg.h>
#include <stdio.h>

#include "base/i18n.h"
#include "output/loss.h"

void loss_stats_add(struct loss_stats *s, const struct kmsg_loss *l) {
        s->events++;
        if (kmsg_loss_get_count(l) == 0) {
                s->unknown = true;
                /* Only a dump without sequence numbers (pstore) makes a gap of unknown size. */
                if (kmsg_loss_get_cause(l) == KMSG_LOSS_GAP)
                        s->unknown_parts = true;
                return;
        }
        s->total += kmsg_loss_get_count(l);
        if ((unsigned)kmsg_loss_get_cause(l) < LOSS_CAUSES)
                s->by_cause[kmsg_loss_get_cause(l)] += kmsg_loss_get_count(l);
}

int loss_copy(const struct kmsg_loss *l, struct kmsg_loss **ret) {
        struct kmsg_loss *c;
        int e;

        e = kmsg_loss_new(kmsg_loss_get_first_seq(l), kmsg_loss_get_count(l), kmsg_loss_get_cause(l), &c);
        if (e < 0)
                return e;
        if (kmsg_loss_has_before(l))
                kmsg_loss_set_before(c, kmsg_loss_get_usec_before(l));
        kmsg_loss_set_after(c, kmsg_loss_get_usec_after(l));
        if (kmsg_loss_before_newest(l))
                kmsg_loss_set_before_newest(c);
        *ret = c;
        return 0;
}

/* Append what fmt makes to buf at *pos, cut to size (buf stays NUL-terminated). */
static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...) {
        va_list ap;
        int n;

        if (*pos >= size)
                return;
        va_start(ap, fmt);
        n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
        va_end(ap);
        if (n > 0)
                *pos = *pos + (size_t)n < size ? *pos + (size_t)n : size - 1;
}

void loss_stats_describe(const struct loss_stats *s, uint64_t boots, char *buf, size_t size) {
        const char *sep = " (";
        size_t pos = 0;
        unsigned c;

        buf[0] = '\0';
        if (s->total > 0 && s->unknown)
                append(buf, size, &pos, _("%llu messages lost; the previous boot's records after the last one read, if any, were not read"),
                       (unsigned long long)s->total);
        else if (s->total > 0)
                append(buf, size, &pos, s->total == 1 ? _("%llu message lost") : _("%llu messages lost"),
                       (unsigned long long)s->total);
        else if (s->unknown_parts)
                append(buf, size, &pos, "%s",
                       _("an unknown number of messages lost (parts of the pstore dump are missing)"));
        else
                append(buf, size, &pos, "%s", _("the previous boot's records after the last one read, if any, were not read"));
        for (c = 0; c < LOSS_CAUSES; c++) {
                if (!s->by_cause[c])
                        continue;
                if (s->by_cause[c] == s->total && !s->unknown)
                        /* One cause: "23 messages lost (overrun)". */
                        append(buf, size, &pos, "%s%s", sep, kmsg_loss_cause_to_name((enum kmsg_loss_cause)c));
                else
                        append(buf, size, &pos, "%s%llu %s", sep, (unsigned long long)s->by_cause[c],
                               kmsg_loss_cause_to_name((enum kmsg_loss_cause)c));
                sep = ", ";
        }
        if (*sep == ',')
                append(buf, size, &pos, ")");
        if (boots > 1)
                append(buf, size, &pos, _(" in %llu boots"), (unsigned long long)boots);
}
