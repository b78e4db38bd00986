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
 * the record and forge another, an ESC would reach a terminal.  Their
 * control bytes (below 0x20, 0x7f), ';' and, within the flags, ',' are
 * written as \xNN (read back as that text), so reading the output back
 * gives as many records, never more; other bytes stay as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "loss-text.h"
#include "output.h"
#include "sink.h"

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

/* A record too large to read back was said (once). */
static bool kmsg_too_large_said;

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
        len = put_decimal(head, kmsg_record_has_priority(r) ? kmsg_record_get_priority(r) : 6);
        head[len++] = ',';
        len += put_decimal(head + len, has_seqnum ? kmsg_record_get_seqnum(r) : 0);
        head[len++] = ',';
        len += put_decimal(head + len, kmsg_record_has_timestamp(r) ? kmsg_record_get_timestamp(r) : 0);
        out_write_from64(head, len);
        /*
         * No flags field at all is the 3.5-rc header "PRI,SEQ,USEC;": keep it
         * so.  Input without sequence numbers (the syslog form) had no header
         * to keep: write the kernel's "-".
         */
        if (*flags || *fields || !has_seqnum) {
                out_putc(',');
                out_kmsg_flags(*flags ? flags : "-");
        }
        if (*fields) {
                /* The fields' commas separate them and stay; see above. */
                out_putc(',');
                out_escaped(fields, strlen(fields), ESC_KMSG_FIELDS);
        }
        out_putc(';');
        msg = kmsg_record_get_message(r, &len);
        out_escaped(msg, len, ESC_KMSG);
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
        sink_check_readback(r, start, &kmsg_too_large_said);
        sink_end_item(s);
        return 0;
}

static int kmsg_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l);
        return 0;
}

static int kmsg_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        err_boot_line(n);
        return 0;
}

static int kmsg_finish(struct sink *s) {
        return 0;
}

static void kmsg_free(struct sink *s) {
        free(s);
}

const struct sink_ops sink_kmsg_ops = {
        .size = sizeof(struct sink),
        .record = kmsg_record,
        .loss = kmsg_loss,
        .boot = kmsg_boot,
        .finish = kmsg_finish,
        .free = kmsg_free,
};
