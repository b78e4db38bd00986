/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --format=cat: the message only, one line per record. */
#include <stdlib.h>

#include "loss-text.h"
#include "output.h"
#include "sink.h"

static int cat_record(struct sink *s, const struct kmsg_record *r) {
        const char *msg;
        size_t len;

        msg = kmsg_record_get_message(r, &len);
        out_text(msg, len, s->settings->noescape);
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int cat_loss(struct sink *s, const struct kmsg_loss *l) {
        out_loss_line(l);
        sink_end_item(s);
        return 0;
}

static int cat_finish(struct sink *s) {
        return 0;
}

static void cat_free(struct sink *s) {
        free(s);
}

struct sink *sink_cat_new(const struct output_settings *settings) {
        struct sink *s = calloc(1, sizeof(*s));

        if (!s)
                return NULL;
        s->name = "cat";
        s->record = cat_record;
        s->loss = cat_loss;
        s->finish = cat_finish;
        s->free = cat_free;
        s->settings = settings;
        return s;
}
