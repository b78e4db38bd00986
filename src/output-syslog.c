/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=syslog (-r, --raw): "<PRI>[    1.234567] message", one line per
 * record, as "dmesg -r" prints it and as -F reads it back.
 */
#include <stdlib.h>

#include "loss-text.h"
#include "output.h"
#include "sink.h"

static int syslog_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        const char *msg;
        size_t len;

        if (kmsg_record_has_priority(r)) {
                out_putc('<');
                out_u64(kmsg_record_get_priority(r));
                out_putc('>');
        }
        if (kmsg_record_has_timestamp(r)) {
                out_putc('[');
                out_usec(kmsg_record_get_timestamp(r), 5);
                out_write("] ", 2);
        }
        msg = kmsg_record_get_message(r, &len);
        out_text(msg, len, s->settings->noescape);
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int syslog_loss(struct sink *s, const struct kmsg_loss *l) {
        out_loss_line(l);
        sink_end_item(s);
        return 0;
}

static int syslog_finish(struct sink *s) {
        return 0;
}

static void syslog_free(struct sink *s) {
        free(s);
}

const struct sink_ops sink_syslog_ops = {
        .size = sizeof(struct sink),
        .record = syslog_record,
        .loss = syslog_loss,
        .finish = syslog_finish,
        .free = syslog_free,
};
