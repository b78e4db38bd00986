/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a loss event reads in the text views and on standard error. */
#include <inttypes.h>
#include <stdio.h>

#include "color.h"
#include "i18n.h"
#include "loss-text.h"
#include "output.h"

int loss_describe(const struct kmsg_loss *l, char *buf, size_t size) {
        char range[48], when[80], before[28], after[28];
        uint64_t last = l->first_seq + l->count - 1;

        if (l->count == 0)
                /* The unread tail of a previous boot: how much is not known. */
                return snprintf(buf, size,
                                _("-- unknown number of messages lost (seq %" PRIu64
                                  " and later of the previous boot, %s) --"),
                                l->first_seq, kmsg_loss_cause_to_name(l->cause));
        if (l->count > 1)
                snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, l->first_seq, last);
        else
                snprintf(range, sizeof(range), "%" PRIu64, l->first_seq);
        if (l->cause == KMSG_LOSS_INTERRUPTED)
                /* Being written when kdmesg was killed: they may have reached the reader. */
                return snprintf(buf, size,
                                l->count == 1 ? _("-- %" PRIu64 " message possibly lost (seq %s, %s) --")
                                              : _("-- %" PRIu64 " messages possibly lost (seq %s, %s) --"),
                                l->count, range, kmsg_loss_cause_to_name(l->cause));
        put_seconds(before, l->usec_before, 0);
        put_seconds(after, l->usec_after, 0);
        if (l->has_before)
                snprintf(when, sizeof(when), _("between %s and %s"), before, after);
        else
                snprintf(when, sizeof(when), _("before %s"), after);
        return snprintf(buf, size,
                        l->count == 1 ? _("-- %" PRIu64 " message lost (seq %s, %s, %s) --")
                                      : _("-- %" PRIu64 " messages lost (seq %s, %s, %s) --"),
                        l->count, range, when, kmsg_loss_cause_to_name(l->cause));
}

void out_loss_line(const struct kmsg_loss *l) {
        char buf[256];
        int n = loss_describe(l, buf, sizeof(buf));

        if (n < 0)
                return;
        color_on(COLOR_LOSS);
        out_write(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
        color_off(COLOR_LOSS);
        out_putc('\n');
}

void err_loss_line(const struct kmsg_loss *l) {
        char buf[256];

        if (loss_describe(l, buf, sizeof(buf)) < 0)
                return;
        out_flush();
        fprintf(stderr, "kdmesg: %s\n", buf);
}
