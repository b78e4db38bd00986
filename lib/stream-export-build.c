/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fields of one complete entry of the journal export form mapped onto
 * a record (stream-export.c finds where the entry ends).
 *
 * KMSG_MERGED is the field kdmesg --format=export writes the fields past
 * the collector's limit of fields per entry into (journald takes 1024):
 * one NAME=VALUE line each, separated by newlines, usually in the binary
 * form; \xNN in a value is the byte NN (the writer escapes a value's
 * newlines and backslashes so, and a newline must not start a field).  It is opened where it stands, each line taken as that field of
 * the entry would be, in order: the writer merges the last fields of the
 * dictionary (and of the device links and carried fields) and writes
 * KMSG_MERGED after those it did not merge, so the dictionary comes back
 * in its order.  A line that is not NAME=VALUE with NAME a field name, or
 * is KMSG_MERGED again (no entry kdmesg writes has that), is an error that
 * names the line.  Nothing here recurses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader-private.h"

/* What the fields said so far, for the end of the entry. */
struct build {
        struct kmsg_record *r;
        size_t max_record;
        uint64_t level, facility, mono, src_mono;
        bool has_level, has_fac, has_msg, has_mono, has_src, is_mark, has_exact;
        const char *ident, *pid;
        size_t ident_len, pid_len;
        const char *why; /* -EBADMSG: the reason */
        /* Where the entry starts, and the buffer for an error naming a line of KMSG_MERGED. */
        const char *entry;
        uint64_t line;
        char *err;
        size_t err_size;
};

/* A field value that is all one unsigned decimal; *ret untouched on failure. */
static int parse_u64_field(const char *v, size_t len, uint64_t *ret) {
        uint64_t x;

        if (len == 0 || scan_u64(v, v + len, &x) != len)
                return -EINVAL;
        *ret = x;
        return 0;
}

static bool key_is(const char *k, size_t klen, const char *name) {
        return strlen(name) == klen && memcmp(k, name, klen) == 0;
}

static int bad(struct build *b, const char *why) {
        b->why = why;
        return -EBADMSG;
}

/* KMSG_DICT=KEY=VALUE: a dictionary pair whose key is not a journal field name ('=' and '\' in KEY as \x3d, \x5c). */
static int kmsg_dict(struct build *b, const char *val, size_t vlen) {
        const char *deq = memchr(val, '=', vlen);
        size_t kl;
        char *k;
        int e;

        if (!deq || deq == val)
                return bad(b, "KMSG_DICT is not KEY=VALUE");
        kl = (size_t)(deq - val);
        /*
         * A key is a C string: a NUL byte in a binary field's KEY would cut
         * it (to nothing, or to a part that --format=kmsg then writes as the
         * whole key), so the entry is refused.  An escaped one (\x00) is text.
         */
        if (memchr(val, '\0', kl))
                return bad(b, "KMSG_DICT's KEY holds a NUL byte");
        k = malloc(kl);
        if (!k)
                return -ENOMEM;
        kl = kmsg_unescape(k, val, kl);
        /* A key is a C string: one that would hold a NUL stays as written. */
        if (memchr(k, '\0', kl))
                e = record_add_dict(b->r, val, (size_t)(deq - val), deq + 1, (size_t)(val + vlen - deq - 1), false);
        else
                e = record_add_dict(b->r, k, kl, deq + 1, (size_t)(val + vlen - deq - 1), false);
        free(k);
        return e;
}

/* Every field but KMSG_MERGED: 0, -EBADMSG (b->why), -ENOMEM. */
static int field(struct build *b, const char *key, size_t klen, const char *val, size_t vlen) {
        struct kmsg_record *r = b->r;
        int e;

        if (key_is(key, klen, "MESSAGE")) {
                if (b->has_exact)
                        return 0;
                e = record_append(r, val, vlen, &r->msg_off);
                if (e < 0)
                        return e;
                r->msg_len = vlen;
                b->has_msg = true;
        } else if (key_is(key, klen, "PRIORITY")) {
                if (parse_u64_field(val, vlen, &b->level) < 0 || b->level > 7)
                        return bad(b, "PRIORITY is not a number from 0 to 7");
                b->has_level = true;
        } else if (key_is(key, klen, "SYSLOG_FACILITY")) {
                if (parse_u64_field(val, vlen, &b->facility) < 0 || b->facility > 255)
                        return bad(b, "SYSLOG_FACILITY is not a number from 0 to 255");
                b->has_fac = true;
        } else if (key_is(key, klen, "SEQNUM")) {
                uint64_t seq;

                if (parse_u64_field(val, vlen, &seq) < 0)
                        return bad(b, "SEQNUM is not a number");
                /* Two numbers for one entry: neither is taken (a phantom gap or boot either way). */
                if (r->has_seqnum && seq != r->seqnum)
                        return bad(b, "SEQNUM twice in one entry, with two values");
                r->seqnum = seq;
                r->has_seqnum = true;
        } else if (key_is(key, klen, "TIMESTAMP")) {
                uint64_t usec;

                if (parse_u64_field(val, vlen, &usec) < 0)
                        return bad(b, "TIMESTAMP is not a number");
                if (r->has_timestamp && usec != r->usec)
                        return bad(b, "TIMESTAMP twice in one entry, with two values");
                r->usec = usec;
                r->has_timestamp = true;
        } else if (key_is(key, klen, "_SOURCE_MONOTONIC_TIMESTAMP")) {
                b->has_src = parse_u64_field(val, vlen, &b->src_mono) == 0;
        } else if (key_is(key, klen, "_BOOT_ID")) {
                /* Which boot wrote the record: a change starts a new boot (seqtrack). */
                if (vlen == 0 || memchr(val, '\0', vlen))
                        return bad(b, "_BOOT_ID is empty or holds a NUL byte");
                if (r->boot_id_off != SIZE_MAX &&
                    (strlen(r->data + r->boot_id_off) != vlen || memcmp(r->data + r->boot_id_off, val, vlen) != 0))
                        return bad(b, "_BOOT_ID twice in one entry, with two values");
                return record_append(r, val, vlen, &r->boot_id_off);
        } else if (key_is(key, klen, "KDMESG_LOST") || key_is(key, klen, "KDMESG_BOOT")) {
                /*
                 * A loss or new-boot entry (kdmesg --format=export):
                 * the gap and the boot are found again from the records.
                 */
                b->is_mark = true;
        } else if (klen > 8 && memcmp(key, "_KERNEL_", 8) == 0) {
                /* journald's name for every dictionary line: _KERNEL_KEY.  A key is a C string. */
                if (memchr(key + 8, '\0', klen - 8))
                        return bad(b, "dictionary key (a _KERNEL_ field's name) holds a NUL byte");
                return record_add_dict(r, key + 8, klen - 8, val, vlen, false);
        } else if (key_is(key, klen, "SUBSYSTEM") || key_is(key, klen, "DEVICE")) {
                /* The seed patch's structured form names them bare. */
                return record_add_dict(r, key, klen, val, vlen, false);
        } else if (key_is(key, klen, "KMSG_MESSAGE")) {
                /* The exact message, where MESSAGE lost white space to journald's rule. */
                e = record_append(r, val, vlen, &r->msg_off);
                if (e < 0)
                        return e;
                r->msg_len = vlen;
                b->has_msg = b->has_exact = true;
        } else if (key_is(key, klen, "KMSG_FLAGS")) {
                return record_append(r, val, vlen, &r->flags_off);
        } else if (key_is(key, klen, "KMSG_FIELDS")) {
                return record_set_fields(r, val, vlen);
        } else if (key_is(key, klen, "KMSG_DICT")) {
                return kmsg_dict(b, val, vlen);
        } else {
                /*
                 * Every other field is the journal's (kmsg_record_get_journal_field()),
                 * kept as it was: _HOSTNAME, _BOOT_ID, _UDEV_*, SYSLOG_IDENTIFIER, ...
                 */
                if (key_is(key, klen, "__MONOTONIC_TIMESTAMP")) {
                        uint64_t m = 0;
                        bool ok = parse_u64_field(val, vlen, &m) == 0;

                        if (b->has_mono && ok && m != b->mono)
                                return bad(b, "__MONOTONIC_TIMESTAMP twice in one entry, with two values");
                        if (ok) {
                                b->mono = m;
                                b->has_mono = true;
                        }
                } else if (key_is(key, klen, "SYSLOG_IDENTIFIER"))
                        b->ident = val, b->ident_len = vlen;
                else if (key_is(key, klen, "SYSLOG_PID"))
                        b->pid = val, b->pid_len = vlen;
                return record_add_journal(r, key, klen, val, vlen);
        }
        return 0;
}

/* -EBADMSG for line n of KMSG_MERGED, which starts at q: the entry's line and the reason. */
static int merged_bad(struct build *b, const char *q, size_t n, const char *why) {
        uint64_t line = b->line;
        const char *s = b->entry;

        /* Every newline byte before it counts, those of a binary length too (key_line() in stream-export.c). */
        while (s < q && (s = memchr(s, '\n', (size_t)(q - s)))) {
                line++;
                s++;
        }
        snprintf(b->err, b->err_size, "line %" PRIu64 " (line %zu of KMSG_MERGED): %s", line, n, why);
        b->why = b->err;
        return -EBADMSG;
}

/* The lines of KMSG_MERGED, each a field of the entry in its place. */
static int merged(struct build *b, const char *mval, size_t mlen) {
        const char *end = mval + mlen, *q = mval, *val;
        size_t n = 0, vlen;
        int e;

        while (q < end) {
                const char *nl = memchr(q, '\n', (size_t)(end - q)), *eq;
                size_t klen;

                if (!nl)
                        nl = end;
                n++;
                eq = memchr(q, '=', (size_t)(nl - q));
                if (!eq)
                        return merged_bad(b, q, n, "not NAME=VALUE");
                klen = (size_t)(eq - q);
                if (klen == 0 || !export_name_chars(q, klen))
                        return merged_bad(b, q, n, "NAME is empty or holds a byte other than A-Z, a-z, 0-9 and _");
                if (key_is(q, klen, "KMSG_MERGED"))
                        return merged_bad(b, q, n, "KMSG_MERGED inside KMSG_MERGED");
                val = eq + 1;
                vlen = (size_t)(nl - val);
                /* The writer's \x0a and \x5c (and any \xNN) decoded: never a line of its own. */
                if (memchr(val, '\\', vlen)) {
                        char *d = malloc(vlen ? vlen : 1);

                        if (!d)
                                return -ENOMEM;
                        vlen = kmsg_unescape(d, val, vlen);
                        e = field(b, q, klen, d, vlen);
                        free(d);
                } else
                        e = field(b, q, klen, val, vlen);
                if (e == -EBADMSG)
                        return merged_bad(b, q, n, b->why);
                if (e < 0)
                        return e;
                /* The decoded record's limit, before thousands of lines more are taken. */
                if (b->r->data_len > b->max_record)
                        return -E2BIG;
                if (nl == end)
                        break;
                q = nl + 1;
        }
        return 0;
}

int export_build(struct kmsg_record *r, const char *p, size_t len, uint64_t line, size_t max_record, char *err,
                 size_t err_size, const char **ret_err) {
        struct build b = {
                .r = r, .max_record = max_record, .level = 6, .entry = p, .line = line, .err = err,
                .err_size = err_size,
        };
        const char *end = p + len;
        int e;

        record_reset(r);
        while (p < end && *p != '\n') {
                const char *nl = memchr(p, '\n', (size_t)(end - p)), *eq, *val;
                size_t klen, vlen;

                if (!nl)
                        nl = end;
                eq = memchr(p, '=', (size_t)(nl - p));
                if (eq) {
                        klen = (size_t)(eq - p);
                        val = eq + 1;
                        vlen = (size_t)(nl - val);
                        if (vlen > 0 && val[vlen - 1] == '\r')
                                vlen--;
                } else {
                        klen = (size_t)(nl - p);
                        if ((size_t)(end - nl) < 9) {
                                *ret_err = "truncated binary field";
                                return -EBADMSG;
                        }
                        vlen = (size_t)export_le64((const unsigned char *)nl + 1);
                        val = nl + 9;
                        if ((size_t)(end - val) < vlen) {
                                *ret_err = "truncated binary field";
                                return -EBADMSG;
                        }
                        nl = val + vlen;
                }
                if (klen == 0) {
                        *ret_err = "field with an empty name";
                        return -EBADMSG;
                }
                e = key_is(p, klen, "KMSG_MERGED") ? merged(&b, val, vlen) : field(&b, p, klen, val, vlen);
                if (e == -EBADMSG)
                        *ret_err = b.why;
                if (e < 0)
                        return e;
                if (r->data_len > max_record)
                        return -E2BIG;
                p = nl + 1;
        }
        if (b.is_mark)
                return 1;
        if (!b.has_msg) {
                *ret_err = "record has no MESSAGE field";
                return -EBADMSG;
        }
        if (b.has_fac && b.facility != 0 && b.ident && !b.has_exact) {
                e = export_restore_prefix(r, b.facility, b.ident, b.ident_len, b.pid, b.pid_len);
                if (e < 0)
                        return e;
        }
        if (!r->has_timestamp && (b.has_src || b.has_mono)) {
                r->usec = b.has_src ? b.src_mono : b.mono;
                r->has_timestamp = true;
        }
        r->priority = (unsigned)(b.facility << 3 | b.level);
        r->has_priority = b.has_level || b.has_fac;
        if (!b.has_level)
                r->priority = (unsigned)(b.facility << 3 | 6);
        return 0;
}
