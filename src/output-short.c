/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classic dmesg view: "[    1.234567] message". */
#include <stdlib.h>

#include "output.h"
#include "sink.h"

static int short_record(struct sink *s, const struct kmsg_record *r) {
        const char *msg;
        size_t len;

        if (kmsg_record_has_timestamp(r)) {
                out_putc('[');
                out_usec(kmsg_record_get_timestamp(r), 5);
                out_write("] ", 2);
        }
        msg = kmsg_record_get_message(r, &len);
        out_text(msg, len, s->settings->noescape);
        out_putc('\n');
        return 0;
}

static void out_range(const struct kmsg_loss *l) {
        out_u64(l->first_seq);
        if (l->count > 1) {
                out_putc('-');
                out_u64(l->first_seq + l->count - 1);
        }
}

/*
 * The marker line where records are missing:
 *   -- 23 messages lost (seq 1200-1222, between 12.345678 and 12.400001, overrun) --
 *   -- unknown number of messages lost (seq 1235 and later of the previous boot, reboot) --
 */
static int short_loss(struct sink *s, const struct kmsg_loss *l) {
        if (l->count == 0) {
                out_puts("-- unknown number of messages lost (seq ");
                out_u64(l->first_seq);
                out_puts(" and later of the previous boot");
        } else {
                out_write("-- ", 3);
                out_u64(l->count);
                if (l->cause == KMSG_LOSS_INTERRUPTED)
                        out_puts(l->count == 1 ? " message possibly lost (seq " : " messages possibly lost (seq ");
                else
                        out_puts(l->count == 1 ? " message lost (seq " : " messages lost (seq ");
                out_range(l);
                if (l->has_before && l->cause != KMSG_LOSS_INTERRUPTED) {
                        out_puts(", between ");
                        out_usec(l->usec_before, 0);
                        out_puts(" and ");
                        out_usec(l->usec_after, 0);
                } else if (l->has_before) {
                        out_puts(", after ");
                        out_usec(l->usec_before, 0);
                } else if (l->cause != KMSG_LOSS_INTERRUPTED) {
                        out_puts(", before ");
                        out_usec(l->usec_after, 0);
                }
        }
        out_puts(", ");
        out_puts(kmsg_loss_cause_to_name(l->cause));
        out_write(") --\n", 5);
        return 0;
}

static int short_finish(struct sink *s) {
        return 0;
}

static void short_free(struct sink *s) {
        free(s);
}

struct sink *sink_short_new(const struct output_settings *settings) {
        struct sink *s = calloc(1, sizeof(*s));

        if (!s)
                return NULL;
        s->name = "short";
        s->record = short_record;
        s->loss = short_loss;
        s->finish = short_finish;
        s->free = short_free;
        s->settings = settings;
        return s;
}
