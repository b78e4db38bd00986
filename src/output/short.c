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

#include "output/caller.h"
#include "text/color.h"
#include "select/device.h"
#include "text/escape.h"
#include "output/loss-text.h"
#include "text/writer.h"
#include "output/sink.h"

#define PREFIX_TIME_MAX 224 /* the longest time stamp prefix (every format at once), with room to spare */
#define PREFIX_MAX (48 + PREFIX_TIME_MAX + CALLER_PREFIX_MAX)
#define DECODE_MAX 32 /* the longest --decode prefix, 11 + 1 + 11 + 2 bytes, with room to copy it at once */

struct short_sink {
        struct sink s;
        struct timefmt time;
        bool line_open;              /* a fragment line waits for its '+' records */
        char prefix[PREFIX_MAX];     /* the last record's prefix: --decode, time stamp, caller id */
        size_t prefix_len;
        size_t decode_len;           /* of which the --decode prefix */
        size_t caller_len;           /* and the caller id, last */
        enum color_slot time_slot;   /* the time stamp's color: time or timebreak */
        unsigned tag_cols;           /* the device tag's width (--show-device, inferred) */
        bool indent_last;            /* indent the blank line of a newline that ends the message (syslog-form input) */
        /* --decode: the prefix of each priority below 256, made when first needed (len 0: not yet). */
        struct {
                unsigned char len;
                char text[DECODE_MAX];
        } decoded[256];
};

static void close_line(struct short_sink *ss) {
        if (ss->line_open) {
                out_putc('\n');
                ss->line_open = false;
        }
}

/*
 * Length of the message's "subsystem: " head, to color it as util-linux
 * 2.43 does: up to the first ':' followed by a blank that is not the last
 * byte, the blank included; 0 if none.
 */
static size_t head_length(const char *msg, size_t len) {
        const char *p = msg, *c;

        while ((c = memchr(p, ':', len - (size_t)(p - msg)))) {
                size_t i = (size_t)(c - msg);

                if (i + 2 < len && (msg[i + 1] == ' ' || msg[i + 1] == '\t'))
                        return i + 2;
                p = c + 1;
        }
        return 0;
}

/* Whether the message says "segfault at", which util-linux highlights. */
static bool is_segfault(const char *msg, size_t len) {
        return len >= 11 && memmem(msg, len, "segfault at", 11) != NULL;
}

/*
 * The lines of a span after its first, from the newline at msg[0]: each
 * under the first, indented or prefixed.
 */
static void write_more_lines(struct short_sink *ss, const char *msg, size_t len) {
        while (len > 0) {
                size_t n;

                out_putc('\n');
                if (ss->s.settings->force_prefix)
                        out_write(ss->prefix, ss->prefix_len);
                else if (len > 1 || ss->indent_last)
                        /*
                         * The blank line of a newline that ends the message:
                         * empty for a record of the kmsg form, indented for
                         * one of the syslog form, as util-linux prints them
                         * (from /dev/kmsg or -K, from the syslog buffer or -F).
                         */
                        for (size_t i = text_width(ss->prefix, ss->prefix_len, SIZE_MAX, NULL) + ss->tag_cols; i; i--)
                                out_putc(' ');
                /* --noescape writes the bytes as they are, but lines still go under the first. */
                n = out_text_line(msg + 1, len - 1, ss->s.settings->noescape);
                msg += n + 1;
                len -= n + 1;
        }
}

/*
 * Part of the message in one color slot (-1: none): the color spans its
 * lines, each line after a newline indented or prefixed.
 */
static inline void write_span(struct short_sink *ss, const char *msg, size_t len, int slot) {
        size_t n;

        if (slot >= 0)
                color_on((enum color_slot)slot);
        n = out_text_line(msg, len, ss->s.settings->noescape);
        if (n < len)
                write_more_lines(ss, msg + n, len - n);
        if (slot >= 0)
                color_off((enum color_slot)slot);
}

/*
 * Part of a message: its subsystem head in its color, then the rest in the
 * level's color, or the segfault color where the level has none.
 */
static void write_piece(struct short_sink *ss, const char *msg, size_t len, int level_slot, bool head) {
        size_t h = 0;

        if (color_enabled()) {
                h = head ? head_length(msg, len) : 0;
                if (h > 0)
                        write_span(ss, msg, h, COLOR_SUBSYSTEM);
                msg += h;
                len -= h;
                if (level_slot < 0 || !color_slot_set((enum color_slot)level_slot))
                        level_slot = is_segfault(msg, len) ? COLOR_SEGFAULT : -1;
        }
        write_span(ss, msg, len, level_slot);
}

/* The --decode prefix and the time stamp of ss->prefix, each in its color, then the caller id. */
static void put_prefix_colored(const struct short_sink *ss) {
        size_t dlen = ss->decode_len, tlen = ss->prefix_len - ss->decode_len - ss->caller_len;

        if (dlen > 0) {
                color_on(COLOR_PREFIX);
                out_write(ss->prefix, dlen);
                color_off(COLOR_PREFIX);
        }
        if (tlen > 0) {
                /* The stamp and the space after it, as util-linux colors them. */
                color_on(ss->time_slot);
                out_write(ss->prefix + dlen, tlen);
                color_off(ss->time_slot);
        }
        out_write(ss->prefix + dlen + tlen, ss->caller_len);
}

/* ss->prefix, in its colors when they are on. */
static inline void put_prefix(const struct short_sink *ss) {
        if (color_enabled())
                put_prefix_colored(ss);
        else
                out_write_from64(ss->prefix, ss->prefix_len);
}

/*
 * The message in colored pieces.  With --force-prefix each line is on its
 * own, as util-linux prints it: the prefix again, and its own head and
 * colors.
 */
static void write_pieces(struct short_sink *ss, const char *msg, size_t len, int level_slot, bool head) {
        const char *nl;

        if (!ss->s.settings->force_prefix || ss->s.settings->noescape) {
                write_piece(ss, msg, len, level_slot, head);
                return;
        }
        while ((nl = memchr(msg, '\n', len))) {
                write_piece(ss, msg, (size_t)(nl - msg), level_slot, head);
                if (nl + 1 == msg + len)
                        /* A newline that ends the message starts no line of its own, as util-linux prints it. */
                        return;
                out_putc('\n');
                put_prefix(ss);
                len -= (size_t)(nl - msg) + 1;
                msg = nl + 1;
                head = true;
        }
        write_piece(ss, msg, len, level_slot, head);
}

/* The message: without colors and with the prefix not repeated, one span. */
static inline void write_text(struct short_sink *ss, const char *msg, size_t len, int level_slot, bool head) {
        if (!color_enabled() && (!ss->s.settings->force_prefix || ss->s.settings->noescape))
                write_span(ss, msg, len, -1);
        else
                write_pieces(ss, msg, len, level_slot, head);
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
 * The --decode prefix of priority pri, "kern  :info  : " as util-linux
 * dmesg -x writes it, into p; returns its length.
 */
static size_t decode_prefix(char *p, uint32_t pri) {
        const char *fac = kmsg_facility_to_name(pri >> 3);
        char num[12];
        size_t n;

        if (!fac) {
                snprintf(num, sizeof(num), "%u", pri >> 3);
                fac = num;
        }
        n = put_padded(p, fac, 6);
        p[n++] = ':';
        n += put_padded(p + n, kmsg_level_to_name(pri & 7), 6);
        p[n++] = ':';
        p[n++] = ' ';
        return n;
}

/*
 * The --decode prefix (for a record with a priority, pri >= 0), the time
 * stamp and the caller id, in that order as util-linux dmesg -x writes
 * them ("kern  :info  : [    1.000000] [  T12] "), kept in ss->prefix for
 * later lines.
 */
static void write_prefix(struct short_sink *ss, const struct kmsg_record *r, int64_t pri) {
        const struct output_settings *set = ss->s.settings;
        size_t tlen = 0, dlen = 0, clen;
        uint64_t usec;
        bool brk = false;

        if (set->decode && pri >= 0) {
                if (pri < 256) {
                        /* Made once per priority: this runs for every record with -x. */
                        if (!ss->decoded[pri].len)
                                ss->decoded[pri].len =
                                        (unsigned char)decode_prefix(ss->decoded[pri].text, (uint32_t)pri);
                        memcpy(ss->prefix, ss->decoded[pri].text, DECODE_MAX);
                        dlen = ss->decoded[pri].len;
                } else
                        dlen = decode_prefix(ss->prefix, (uint32_t)pri);
        }
        /* Its time stamp, or the wall clock a "dmesg -T" paste printed or the input carried (timefmt.h). */
        if (timefmt_record(&ss->time, r, &usec))
                tlen = timefmt_prefix(&ss->time, usec, ss->prefix + dlen, PREFIX_TIME_MAX, &brk);
        clen = caller_prefix(r, set->caller_width, ss->prefix + dlen + tlen);
        ss->prefix_len = dlen + tlen + clen;
        ss->decode_len = dlen;
        ss->caller_len = clen;
        ss->time_slot = brk ? COLOR_TIMEBREAK : COLOR_TIME;
        put_prefix(ss);
}

/* kmsg_record_is_fragment(), without the call for the flags nearly every record has, "-". */
static int fragment(const struct kmsg_record *r) {
        const char *f = kmsg_record_get_flags(r);

        return f[0] == '-' && f[1] == '\0' ? 0 : kmsg_record_is_fragment(r);
}

/* Whether devnamer_write_tag() will write a tag for the record ("<sda> ", "<sda?> "). */
static bool has_tag(const struct devnamer *d, const struct kmsg_record *r, const struct match *m) {
        return d && (m->how == DEVMATCH_TEXT || (d->show_device && kmsg_record_get_device(r)));
}

static int short_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct short_sink *ss = (struct short_sink *)s;
        int64_t pri = kmsg_record_has_priority(r) ? (int64_t)kmsg_record_get_priority(r) : -1;
        int level_slot = pri >= 0 ? COLOR_EMERG + (int)(pri & 7) : -1;
        const char *msg;
        size_t len;

        msg = kmsg_record_get_message(r, &len);
        if (ss->line_open && fragment(r) == '+') {
                /* The next fragment of the open line. */
                write_text(ss, msg, len, level_slot, false);
                sink_end_item(s);
                return 0;
        }
        close_line(ss);
        write_prefix(ss, r, pri);
        ss->indent_last = !kmsg_record_has_seqnum(r);
        /* Continuation lines go under the message, after the device tag too. */
        ss->tag_cols = 0;
        if (has_tag(s->settings->devices, r, m)) {
                color_on(COLOR_DEVICE);
                ss->tag_cols = (unsigned)devnamer_write_tag(s->settings->devices, r, m);
                color_off(COLOR_DEVICE);
        }
        write_text(ss, msg, len, level_slot, true);
        if (fragment(r))
                ss->line_open = true;
        else
                out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int short_loss(struct sink *s, const struct kmsg_loss *l) {
        close_line((struct short_sink *)s);
        out_loss_line(l, &s->settings->time);
        sink_end_item(s);
        return 0;
}

static int short_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        close_line((struct short_sink *)s);
        out_boot_line(n);
        sink_end_item(s);
        return 0;
}

static int short_finish(struct sink *s) {
        close_line((struct short_sink *)s);
        return 0;
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
        .boot = short_boot,
        .finish = short_finish,
};
