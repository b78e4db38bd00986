/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classic dmesg view: "[    1.234567] message". */
#include <stdlib.h>

#include "device.h"
#include "loss-text.h"
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
        devctx_write_tag(s->settings->devices, r);
        msg = kmsg_record_get_message(r, &len);
        out_text(msg, len, s->settings->noescape);
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int short_loss(struct sink *s, const struct kmsg_loss *l) {
        out_loss_line(l);
        sink_end_item(s);
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
