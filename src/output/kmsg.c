/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=kmsg: the canonical /dev/kmsg text form, escaped as the kernel
 * escapes it (bytes below 0x20, the backslash and bytes from 0x7f on as
 * \xNN with lower-case digits), header fields and dictionary kept (a key
 * that is not [A-Za-z0-9._-] gets its other bytes escaped too).  Reading
 * it back gives the same records; for canonical input the bytes are the
 * same.  Losses go to standard error so the stream stays parseable.
 *
 * The header fields are not escaped by the kernel, which writes only
 * printable ASCII there, and readers take them as written; but records
 * read from export, JSON or a hostile dump can hold anything in their
 * flags and fields: a newline or a ';' written raw would end the header or
 * the record and forge another, an ESC or a C1 control (0x9b, or U+009B
 * as UTF-8) would reach a terminal.  Their control bytes (below 0x20,
 * 0x7f), C1 and bidirectional controls in either form (header_keeps()),
 * ';' and, within the flags, ',' are written as \xNN (read back as that
 * text), so reading the output back gives as many records, never more;
 * other bytes stay as they are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text/escape.h"
#include "output/loss-text.h"
#include "text/writer.h"
#include "output/sink.h"

/*
 * A dictionary key: bytes other than [A-Za-z0-9._-] as \xNN.  Keys the
 * kernel writes rarely have any, so their bytes stay the same; keys read
 * from JSON or export, or decoded from \xNN in kmsg input, can hold
 * anything, and a newline or '=' written raw would break the line or the
 * record.
 */
static void out_kmsg_key(const char *key) {
        out_escaped(key, strlen(key), ESC_KMSG_KEY);
}

/* The flags ("-" nearly always): see above. */
static void out_kmsg_flags(const char *flags) {
        if (flags[0] == '-' && flags[1] == '\0')
                out_putc('-');
        else
                out_escaped(flags, strlen(flags), ESC_KMSG_HEADER);
}

struct kmsg_sink {
        struct sink s;
        bool too_large_said; /* a record too large to read back was said (once) */
};

/*
 * A 6.3+ kernel cuts a record's line at 2048 bytes without a newline, so
 * that the next record's header follows at once, and the readers split a
 * line whose byte 2048 starts a header (lib/stream-kmsg.c, which also
 * checks its numbers).  A longer line of ours (a record read from JSON,
 * export or an old kernel's dump) must not look so, or reading it back
 * would forge a record out of its text.
 */
#define KMSG_CUT 2048

/* Whether p starts "DIGITS,DIGITS,DIGITS" and ',' or ';': what the readers could take for a header. */
static bool header_at(const char *p, const char *end) {
        for (int i = 0; i < 3; i++) {
                const char *s = p;

                while (p < end && *p >= '0' && *p <= '9')
                        p++;
                if (p == s || p == end)
                        return false;
                if (i < 2 && *p++ != ',')
                        return false;
        }
        return *p == ',' || *p == ';';
}

/*
 * The first line of a record that may pass KMSG_CUT bytes, made in memory:
 * head (PRI,SEQ,USEC) and the fields as they are written, then the
 * escaped message.  Where byte KMSG_CUT starts a header, the message byte
 * written as itself nearest before it is written as \xNN (read back as the
 * same byte): the text after it moves on by three, until the cut falls in
 * an escape.  A line whose cut is in the header fields is left as it is:
 * their text is read back as written, so no byte of it may change.
 * Returns 0, or -ENOMEM.
 */
static int write_long_line(const char *head, size_t head_len, const char *flags, const char *fields,
                           const char *msg, size_t len) {
        size_t flags_len = strlen(flags), fields_len = strlen(fields), cap, n, body;
        char *line, *q;

        cap = head_len + 2 + flags_len * 4 + fields_len * 4 + 1 + len * 4 + 4 + 1;
        line = malloc(cap);
        if (!line)
                return -ENOMEM;
        memcpy(line, head, head_len);
        q = line + head_len;
        if (*flags) {
                *q++ = ',';
                q += escape_into(q, flags, flags_len, ESC_KMSG_HEADER);
        }
        if (*fields) {
                *q++ = ',';
                q += escape_into(q, fields, fields_len, ESC_KMSG_FIELDS);
        }
        *q++ = ';';
        body = (size_t)(q - line);
        n = body + escape_into(q, msg, len, ESC_KMSG);
        while (n > KMSG_CUT && body <= KMSG_CUT && header_at(line + KMSG_CUT, line + n)) {
                /* The message byte written as itself nearest at or before the cut: no '\\' in the 3 bytes before it. */
                size_t at = KMSG_CUT + 1, k;

                while (at-- > body)
                        if (line[at] != '\\' && (at < body + 1 || line[at - 1] != '\\') &&
                            (at < body + 2 || line[at - 2] != '\\') && (at < body + 3 || line[at - 3] != '\\'))
                                break;
                if (at < body || at > KMSG_CUT)
                        break;
                /* Room: each pass adds three bytes, and a pass only runs while the line passes the cut. */
                if (n + 3 + 1 > cap) {
                        char *more = realloc(line, cap + 64);

                        if (!more) {
                                free(line);
                                return -ENOMEM;
                        }
                        line = more;
                        cap += 64;
                }
                k = (unsigned char)line[at];
                memmove(line + at + 4, line + at + 1, n - at - 1);
                hex_escape(line + at, (unsigned char)k);
                n += 3;
        }
        out_write(line, n);
        free(line);
        return 0;
}

static int kmsg_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        const char *flags = kmsg_record_get_flags(r), *fields = kmsg_record_get_fields(r), *msg;
        uint64_t start = out_position();
        bool has_seqnum = kmsg_record_has_seqnum(r);
        char head[64];
        size_t len, i, n;

        /*
         * "PRI,SEQ,USEC" made in head and written at once.  Input without
         * these (the syslog form) gets the kernel's defaults: level 6, seq
         * and time 0.
         */
        n = put_decimal(head, kmsg_record_has_priority(r) ? kmsg_record_get_priority(r) : 6);
        head[n++] = ',';
        n += put_decimal(head + n, has_seqnum ? kmsg_record_get_seqnum(r) : 0);
        head[n++] = ',';
        n += put_decimal(head + n, kmsg_record_has_timestamp(r) ? kmsg_record_get_timestamp(r) : 0);
        /*
         * No flags field at all is the 3.5-rc header "PRI,SEQ,USEC;": keep it
         * so.  Input without sequence numbers (the syslog form) had no header
         * to keep: write the kernel's "-".
         */
        if (!*flags && (*fields || !has_seqnum))
                flags = "-";
        msg = kmsg_record_get_message(r, &len);
        /* Longer than KMSG_CUT at the most (every byte escaped): made whole in memory, see there. */
        if (n + 2 + (strlen(flags) + strlen(fields) + len) * 4 > KMSG_CUT) {
                if (write_long_line(head, n, flags, fields, msg, len) < 0)
                        return -ENOMEM;
        } else {
                out_write_from64(head, n);
                if (*flags) {
                        out_putc(',');
                        out_kmsg_flags(flags);
                }
                if (*fields) {
                        /* The fields' commas separate them and stay; see above. */
                        out_putc(',');
                        out_escaped(fields, strlen(fields), ESC_KMSG_FIELDS);
                }
                out_putc(';');
                out_escaped(msg, len, ESC_KMSG);
        }
        out_putc('\n');
        n = kmsg_record_get_dict_count(r);
        for (i = 0; i < n; i++) {
                const char *key, *val;

                if (kmsg_record_get_dict_entry(r, i, &key, &val, &len) < 0)
                        continue;
                out_putc(' ');
                out_kmsg_key(key);
                out_putc('=');
                out_escaped(val, len, ESC_KMSG);
                out_putc('\n');
        }
        sink_check_readback(r, start, &((struct kmsg_sink *)s)->too_large_said);
        sink_end_item(s);
        return 0;
}

static int kmsg_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l, &s->settings->time);
        return 0;
}

static int kmsg_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        err_boot_line(n);
        return 0;
}

const struct sink_ops sink_kmsg_ops = {
        .size = sizeof(struct kmsg_sink),
        .record = kmsg_record,
        .loss = kmsg_loss,
        .boot = kmsg_boot,
};
