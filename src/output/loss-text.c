/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a loss event reads in the text views and on standard error. */
#include <inttypes.h>
#include <stdio.h>

#include "text/color.h"
#include "text/diag.h"
#include "base/i18n.h"
#include "output/loss-text.h"
#include "text/writer.h"
#include "time/timefmt.h"

int loss_describe(const struct kmsg_loss *l, const struct timefmt *t, char *buf, size_t size) {
        char range[48], when[160], before_text[64], after_text[64];
        enum kmsg_loss_cause cause = kmsg_loss_get_cause(l);
        const char *cause_name = kmsg_loss_cause_to_name(cause);
        uint64_t first = kmsg_loss_get_first_seq(l);
        uint64_t count = kmsg_loss_get_count(l);
        uint64_t before = kmsg_loss_get_usec_before(l);
        uint64_t after = kmsg_loss_get_usec_after(l);
        bool has_before = kmsg_loss_has_before(l);
        uint64_t last = first + count - 1;

        if (count == 0 && cause == KMSG_LOSS_GAP) {
                /* Missing from a dump without sequence numbers (a pstore part): how many is not known. */
                timefmt_point(t, before, before_text, sizeof(before_text));
                timefmt_point(t, after, after_text, sizeof(after_text));
                if (has_before && after)
                        snprintf(when, sizeof(when), _("between %s and %s"), before_text, after_text);
                else if (has_before)
                        snprintf(when, sizeof(when), _("after %s"), before_text);
                else
                        snprintf(when, sizeof(when), _("before %s"), after_text);
                return snprintf(buf, size, _("-- unknown number of messages lost (%s, %s) --"), when, cause_name);
        }
        if (count == 0 && kmsg_loss_before_newest(l) && first > 0)
                /* The last record read was the newest then: only what came later, if anything, was not read. */
                return snprintf(buf, size,
                                _("-- seq %" PRIu64 " was the newest record of the previous boot when it was "
                                  "read; any written after it were not read (%s) --"),
                                first - 1, cause_name);
        if (count == 0)
                /* The previous boot's tail after the last record read: whether it had one is not known. */
                return snprintf(buf, size,
                                _("-- records of the previous boot from seq %" PRIu64
                                  " on, if it had any, were not read (%s) --"),
                                first, cause_name);
        if (count > 1)
                snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, first, last);
        else
                snprintf(range, sizeof(range), "%" PRIu64, first);
        if (cause == KMSG_LOSS_INTERRUPTED)
                /* Being written when kdmesg was killed: they may have reached the reader. */
                return snprintf(buf, size,
                                count == 1 ? _("-- %" PRIu64 " message possibly lost (seq %s, %s) --")
                                              : _("-- %" PRIu64 " messages possibly lost (seq %s, %s) --"),
                                count, range, cause_name);
        timefmt_point(t, before, before_text, sizeof(before_text));
        timefmt_point(t, after, after_text, sizeof(after_text));
        if (has_before)
                snprintf(when, sizeof(when), _("between %s and %s"), before_text, after_text);
        else
                snprintf(when, sizeof(when), _("before %s"), after_text);
        return snprintf(buf, size,
                        count == 1 ? _("-- %" PRIu64 " message lost (seq %s, %s, %s) --")
                                      : _("-- %" PRIu64 " messages lost (seq %s, %s, %s) --"),
                        count, range, when, cause_name);
}

void out_loss_line(const struct kmsg_loss *l, const struct timefmt *t) {
        char buf[320];
        int n = loss_describe(l, t, buf, sizeof(buf));

        if (n < 0)
                return;
        color_on(COLOR_LOSS);
        out_write(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
        color_off(COLOR_LOSS);
        out_putc('\n');
}

void err_loss_line(const struct kmsg_loss *l, const struct timefmt *t) {
        char buf[320];

        if (loss_describe(l, t, buf, sizeof(buf)) < 0)
                return;
        warnx_("%s", buf);
}

int boot_describe(uint64_t n, char *buf, size_t size) {
        return snprintf(buf, size, _("-- boot %" PRIu64 " --"), n);
}

void out_boot_line(uint64_t n) {
        char buf[64];
        int len = boot_describe(n, buf, sizeof(buf));

        if (len < 0)
                return;
        color_on(COLOR_LOSS);
        out_write(buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
        color_off(COLOR_LOSS);
        out_putc('\n');
}

void err_boot_line(uint64_t n) {
        char buf[64];

        if (boot_describe(n, buf, sizeof(buf)) < 0)
                return;
        warnx_("%s", buf);
}
