/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=syslog (-r, --raw): "<PRI>[    1.234567] message", one line per
 * record, as "dmesg -r" prints it (with the caller id, "[    T1] ", after
 * the time stamp) and as -F reads it back.  The message is
 * escaped as in the other views, and a backslash that would read back as
 * the start of an escape ("\x" and two hex digits) is written as \x5c, so
 * that -F gives back the same text.  Losses go to standard error, as in
 * the other formats that programs read back.
 */
#include <stdlib.h>
#include <string.h>

#include "output/caller.h"
#include "output/loss-text.h"
#include "text/writer.h"
#include "output/sink.h"

struct syslog_sink {
        struct sink s;
        bool too_large_said; /* a record too large to read back was said (once) */
};

static int syslog_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        /* "<PRI>", "[    1.234567] " and the caller id: room for the longest of each. */
        char head[2 + 24 + 3 + 28 + CALLER_PREFIX_MAX];
        uint64_t start = out_position();
        const char *msg;
        size_t len = 0;

        if (kmsg_record_has_priority(r)) {
                head[len++] = '<';
                len += put_decimal(head + len, kmsg_record_get_priority(r));
                head[len++] = '>';
        }
        if (kmsg_record_has_timestamp(r)) {
                head[len++] = '[';
                len += put_seconds(head + len, kmsg_record_get_timestamp(r), 5);
                head[len++] = ']';
                head[len++] = ' ';
        }
        len += caller_prefix(r, s->settings->caller_width, head + len);
        out_write_from64(head, len);
        msg = kmsg_record_get_message(r, &len);
        out_text_syslog(msg, len, s->settings->noescape);
        out_putc('\n');
        sink_check_readback(r, start, &((struct syslog_sink *)s)->too_large_said);
        sink_end_item(s);
        return 0;
}

static int syslog_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l, &s->settings->time);
        sink_end_item(s);
        return 0;
}

static int syslog_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        err_boot_line(n);
        sink_end_item(s);
        return 0;
}

const struct sink_ops sink_syslog_ops = {
        .size = sizeof(struct syslog_sink),
        .record = syslog_record,
        .loss = syslog_loss,
        .boot = syslog_boot,
};
