/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The classic dmesg view: "[    1.234567] message".  A message that holds
 * newlines goes on under its first line, indented to where the text
 * started (or, with --force-prefix, with the prefix repeated); with
 * --noescape its bytes are written as they are, its lines indented alike.  A record
 * flagged 'c' (the start of a line printed in fragments, kernels 3.5-4.x)
 * stays open, and the records flagged '+' that follow are appended to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caller.h"
#include "color.h"
#include "device.h"
#include "escape.h"
#include "loss-text.h"
#include "output.h"
#include "sink.h"

#define PREFIX_TIME_MAX 112 /* the longest time stamp prefix, with room to spare */
#define PREFIX_MAX (160 + CALLER_PREFIX_MAX)

struct short_sink {
        struct sink s;
        struct timefmt time;
        bool line_open;              /* a fragment line waits for its '+' records */
        char prefix[PREFIX_MAX];     /* the last record's prefix: --decode, time stamp, caller id */
        size_t prefix_len;
        unsigned tag_cols;           /* the device tag's width (--show-device, inferred) */
};

static void close_line(struct short_sink *ss) {
        if (ss->line_open) {
                out_putc('\n');
                ss->line_open = false;
        }
}

/* Length of "subsystem:" at the head of the text, to color it; 0 if none. */
static size_t head_length(const char *msg, size_t len) {
        size_t i;

        for (i = 0; i < len && i < 64; i++) {
                if (msg[i] == '\n' || msg[i] == '[')
                        return 0;
                if (msg[i] == ':' && i > 0 && msg[i - 1] != ' ' && (i + 1 == len || msg[i + 1] == ' '))
                        return i + 1;
        }
        return 0;
}

/* The message, line by line; every line after the first indented or prefixed. */
static void write_text(struct short_sink *ss, const char *msg, size_t len, int level_slot, bool head) {
        bool noescape = ss->s.settings->noescape;
        size_t h = head && color_enabled() ? head_length(msg, len) : 0;

        if (h > 0) {
                color_on(COLOR_SUBSYSTEM);
                out_text(msg, h, noescape);
                color_off(COLOR_SUBSYSTEM);
                msg += h;
                len -= h;
        }
        for (;;) {
                /* --noescape writes the bytes as they are, but lines still go under the first. */
                const char *nl = memchr(msg, '\n', len);
                size_t n = nl ? (size_t)(nl - msg) : len;

                if (level_slot >= 0)
                        color_on((enum color_slot)level_slot);
                out_text(msg, n, noescape);
                if (level_slot >= 0)
                        color_off((enum color_slot)level_slot);
                if (!nl)
                        break;
                out_putc('\n');
                if (ss->s.settings->force_prefix)
                        out_write(ss->prefix, ss->prefix_len);
                else
                        for (size_t i = text_width(ss->prefix, ss->prefix_len, SIZE_MAX, NULL) + ss->tag_cols; i; i--)
                                out_putc(' ');
                msg = nl + 1;
                len -= n + 1;
        }
}

/* s (at most 11 bytes), padded with spaces to width; returns the length written. */
static size_t put_padded(char *p, const char *s, size_t width) {
        size_t n = strnlen(s, 11);

        memcpy(p, s, n);
        for (; n < width; n++)
                p[n] = ' ';
        return n;
}

/*
 * The --decode prefix, the time stamp and the caller id, in that order as
 * util-linux dmesg -x writes them ("kern  :info  : [    1.000000] [  T12] "),
 * kept in ss->prefix for later lines.
 */
static void write_prefix(struct short_sink *ss, const struct kmsg_record *r) {
        const struct output_settings *set = ss->s.settings;
        size_t tlen = 0, dlen = 0, clen;
        bool brk = false;

        if (set->decode && kmsg_record_has_priority(r)) {
                const char *fac = kmsg_facility_to_name(kmsg_record_get_facility(r));
                char num[12];

                if (!fac) {
                        snprintf(num, sizeof(num), "%u", kmsg_record_get_facility(r));
                        fac = num;
                }
                /* "kern  :info  : " by hand: this runs for every record with -x. */
                dlen = put_padded(ss->prefix, fac, 6);
                ss->prefix[dlen++] = ':';
                dlen += put_padded(ss->prefix + dlen, kmsg_level_to_name(kmsg_record_get_level(r)), 6);
                ss->prefix[dlen++] = ':';
                ss->prefix[dlen++] = ' ';
        }
        if (kmsg_record_has_timestamp(r))
                tlen = timefmt_prefix(&ss->time, kmsg_record_get_timestamp(r), ss->prefix + dlen, PREFIX_TIME_MAX,
                                      &brk);
        clen = caller_prefix(r, set->caller_width, ss->prefix + dlen + tlen);
        ss->prefix_len = dlen + tlen + clen;

        if (dlen > 0) {
                color_on(COLOR_PREFIX);
                out_write(ss->prefix, dlen);
                color_off(COLOR_PREFIX);
        }
        if (tlen > 0) {
                /* Color the stamp, not the space after it. */
                color_on(brk ? COLOR_TIMEBREAK : COLOR_TIME);
                out_write(ss->prefix + dlen, tlen - 1);
                color_off(brk ? COLOR_TIMEBREAK : COLOR_TIME);
                out_putc(' ');
        }
        if (clen > 0)
                out_write(ss->prefix + dlen + tlen, clen);
}

/* Whether devctx_write_tag() will write a tag for the record ("<sda> ", "<sda?> "). */
static bool has_tag(const struct devctx *d, const struct kmsg_record *r, const struct match *m) {
        return d && (m->how == DEVMATCH_TEXT || (d->show_device && kmsg_record_get_device(r)));
}

static int short_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct short_sink *ss = (struct short_sink *)s;
        int level_slot = kmsg_record_has_priority(r) ? COLOR_EMERG + (int)kmsg_record_get_level(r) : -1;
        const char *msg;
        size_t len;

        msg = kmsg_record_get_message(r, &len);
        if (ss->line_open && kmsg_record_is_fragment(r) == '+') {
                /* The next fragment of the open line. */
                write_text(ss, msg, len, level_slot, false);
                sink_end_item(s);
                return 0;
        }
        close_line(ss);
        write_prefix(ss, r);
        /* Continuation lines go under the message, after the device tag too. */
        if (color_enabled() && has_tag(s->settings->devices, r, m)) {
                color_on(COLOR_DEVICE);
                ss->tag_cols = (unsigned)devctx_write_tag(s->settings->devices, r, m);
                color_off(COLOR_DEVICE);
        } else
                ss->tag_cols = (unsigned)devctx_write_tag(s->settings->devices, r, m);
        write_text(ss, msg, len, level_slot, true);
        if (kmsg_record_is_fragment(r))
                ss->line_open = true;
        else
                out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int short_loss(struct sink *s, const struct kmsg_loss *l) {
        close_line((struct short_sink *)s);
        out_loss_line(l);
        sink_end_item(s);
        return 0;
}

static int short_finish(struct sink *s) {
        close_line((struct short_sink *)s);
        return 0;
}

static void short_free(struct sink *s) {
        free(s);
}

static int short_init(struct sink *s) {
        ((struct short_sink *)s)->time = s->settings->time;
        return 0;
}

const struct sink_ops sink_short_ops = {
        .size = sizeof(struct short_sink),
        .init = short_init,
        .record = short_record,
        .loss = short_loss,
        .finish = short_finish,
        .free = short_free,
};
