/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=cat: the message only, one line per record.  As in the short
 * view, a record flagged 'c' stays open and the '+' records that follow it
 * are appended: fragments print as the one line the kernel meant.
 */
#include <stdlib.h>

#include "output/loss-text.h"
#include "text/writer.h"
#include "output/sink.h"

struct cat_sink {
        struct sink s;
        bool line_open; /* a fragment line waits for its '+' records */
};

static void close_line(struct cat_sink *cs) {
        if (cs->line_open) {
                out_putc('\n');
                cs->line_open = false;
        }
}

static int cat_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct cat_sink *cs = (struct cat_sink *)s;
        const char *msg;
        size_t len;

        msg = kmsg_record_get_message(r, &len);
        if (!(cs->line_open && kmsg_record_is_fragment(r) == '+'))
                close_line(cs);
        out_text(msg, len, s->settings->noescape);
        if (kmsg_record_is_fragment(r))
                cs->line_open = true;
        else
                out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int cat_loss(struct sink *s, const struct kmsg_loss *l) {
        close_line((struct cat_sink *)s);
        out_loss_line(l, &s->settings->time);
        sink_end_item(s);
        return 0;
}

static int cat_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        close_line((struct cat_sink *)s);
        out_boot_line(n);
        sink_end_item(s);
        return 0;
}

static int cat_finish(struct sink *s) {
        close_line((struct cat_sink *)s);
        return 0;
}

const struct sink_ops sink_cat_ops = {
        .size = sizeof(struct cat_sink),
        .record = cat_record,
        .loss = cat_loss,
        .boot = cat_boot,
        .finish = cat_finish,
};
