/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counting what was lost, and the summary printed at exit. */
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
        *ret = c;
        return 0;
}

void loss_stats_summary(const struct loss_stats *s, FILE *f, const char *program, uint64_t boots) {
        const char *sep = " (";
        unsigned c;

        fprintf(f, "%s: ", program);
        if (s->total > 0 && s->unknown)
                fprintf(f, _("%llu messages lost, and an unknown number before a reboot"),
                        (unsigned long long)s->total);
        else if (s->total > 0)
                fprintf(f, s->total == 1 ? _("%llu message lost") : _("%llu messages lost"),
                        (unsigned long long)s->total);
        else if (s->unknown_parts)
                fputs(_("an unknown number of messages lost (parts of the pstore dump are missing)"), f);
        else
                fputs(_("an unknown number of messages lost before a reboot"), f);
        for (c = 0; c < LOSS_CAUSES; c++) {
                if (!s->by_cause[c])
                        continue;
                if (s->by_cause[c] == s->total && !s->unknown)
                        /* One cause: "23 messages lost (overrun)". */
                        fprintf(f, "%s%s", sep, kmsg_loss_cause_to_name((enum kmsg_loss_cause)c));
                else
                        fprintf(f, "%s%llu %s", sep, (unsigned long long)s->by_cause[c],
                                kmsg_loss_cause_to_name((enum kmsg_loss_cause)c));
                sep = ", ";
        }
        if (*sep == ',')
                fputc(')', f);
        if (boots > 1)
                fprintf(f, _(" in %llu boots"), (unsigned long long)boots);
        fputc('\n', f);
}
