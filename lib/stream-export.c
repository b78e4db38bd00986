/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The journal export form (also the seed patch's structured form), as
 * kdmesg --format=export and journalctl -o export write it:
 *
 *   KEY=VALUE\n            text field
 *   KEY\n<le64 len><bytes>\n   binary field
 *   \n                     end of record
 *
 * Dictionary entries come from _KERNEL_KEY (journald's name for each
 * dictionary line), from bare SUBSYSTEM and DEVICE (the seed form) and from
 * KMSG_DICT=KEY=VALUE, a pair whose key is not a journal field name ('='
 * and '\' in KEY escaped as \x3d and \x5c).  Every other field that is not
 * the record's own is kept as a journal field (kmsg_record_get_journal_field()).
 * An entry with KDMESG_LOST or KDMESG_BOOT is a loss or a new boot kdmesg
 * wrote, and is passed over.
 *
 * The extent of a record is found by an incremental scanner, so that a
 * record over the size limit is passed without being held in memory and a
 * length field is only ever checked against the bytes that are there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader-private.h"

enum { XS_FIELD, XS_LINE, XS_LEN, XS_DATA, XS_DATA_NL };

/* Incremental scanner state: the reader's state for this format. */
struct export_scan {
        bool active;       /* inside a record */
        int state;
        size_t off;        /* scan position, relative to the buffer */
        uint64_t remaining; /* bytes of binary data still to pass */
        bool line_has_eq;
        bool line_not_name; /* before any '=', a byte that no field name holds */
        bool skipping;     /* the record is too big: discard as we go */
        bool broken;       /* the record is malformed: report at its end */
        const char *why;
        /*
         * A binary length over the record limit (or 8 bytes of text read as
         * one after a line without '='): the entry is passed to the next
         * blank line without reading lengths, and counted.
         */
        bool bad_len;
        uint64_t bad_line;  /* the line of the field's name */
        uint64_t bad_value;
        uint64_t dropped;   /* bytes already consumed while skipping */
        /* The last binary length read: where it is, what it says, where its data starts. */
        uint64_t len_line, len_value;
        size_t data_rel;    /* relative to the reader's start */
        bool past_end;      /* that length ran past the end: resynchronised after it */
        /*
         * A line that is neither KEY=VALUE nor a field name (before a
         * binary value), as every line of a kmsg dump is: not the export
         * form.  Passed to the next blank line like a bad length.
         */
        bool bad_name;
        uint64_t bad_name_line;
};

/* Bytes of a field name: journal fields are upper case, digits and '_'; lower case is taken too. */
static bool name_chars(const char *p, size_t n) {
        size_t i;

        for (i = 0; i < n; i++) {
                char c = p[i];

                if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
                        return false;
        }
        return true;
}

/* The line number of the field name that ends just before p (p is past its newline). */
static uint64_t key_line(const struct kmsg_reader *rd, const char *p) {
        const char *q = rd->buf + rd->start;
        uint64_t nls = 0;

        while (q < p && (q = memchr(q, '\n', (size_t)(p - q)))) {
                nls++;
                q++;
        }
        return rd->line + nls - 1;
}

static uint64_t le64(const unsigned char *p) {
        uint64_t v = 0;
        int i;

        for (i = 7; i >= 0; i--)
                v = v << 8 | p[i];
        return v;
}

/*
 * Advance the scanner.  Returns 1 at the end of a record (xs->off is just
 * past it), 0 when more input is needed.
 */
static int scan(struct kmsg_reader *rd, struct export_scan *xs) {
        for (;;) {
                const char *p = rd->buf + xs->off;
                size_t avail = rd->end - xs->off;
                const char *nl;

                if (avail == 0)
                        return 0;
                switch (xs->state) {
                case XS_FIELD:
                        if (*p == '\n') {
                                xs->off++;
                                return 1;
                        }
                        xs->state = XS_LINE;
                        xs->line_has_eq = false;
                        xs->line_not_name = false;
                        break;
                case XS_LINE: {
                        const char *eq;

                        nl = memchr(p, '\n', avail);
                        if (!xs->line_has_eq) {
                                size_t seg = nl ? (size_t)(nl - p) : avail;

                                eq = memchr(p, '=', seg);
                                if (!name_chars(p, eq ? (size_t)(eq - p) : seg))
                                        xs->line_not_name = true;
                                if (eq)
                                        xs->line_has_eq = true;
                        }
                        if (!nl) {
                                xs->off = rd->end;
                                return 0;
                        }
                        xs->off += (size_t)(nl - p) + 1;
                        if (!xs->line_has_eq && xs->line_not_name && !xs->broken) {
                                /* Read as a length, the next 8 bytes would only mislead. */
                                xs->bad_name = xs->broken = xs->skipping = true;
                                xs->bad_name_line = key_line(rd, rd->buf + xs->off);
                        }
                        /* Resynchronising: no line starts a binary field. */
                        xs->state = xs->line_has_eq || xs->broken ? XS_FIELD : XS_LEN;
                        break;
                }
                case XS_LEN:
                        if (avail < 8)
                                return 0;
                        xs->remaining = le64((const unsigned char *)p);
                        if (xs->remaining > rd->max_record) {
                                /*
                                 * No record can hold it: the length is wrong
                                 * (or text).  Pass the rest of the entry, up
                                 * to the next blank line, and count it.
                                 */
                                xs->bad_len = xs->broken = true;
                                xs->bad_line = key_line(rd, p);
                                xs->bad_value = xs->remaining;
                                xs->remaining = 0;
                                xs->skipping = true;
                                xs->state = XS_FIELD;
                                break;
                        }
                        if (!xs->skipping) {
                                xs->len_line = key_line(rd, p);
                                xs->len_value = xs->remaining;
                                xs->data_rel = xs->off + 8 - rd->start;
                        }
                        xs->off += 8;
                        xs->state = XS_DATA;
                        break;
                case XS_DATA:
                        if (avail < xs->remaining) {
                                xs->remaining -= avail;
                                xs->off = rd->end;
                                return 0;
                        }
                        xs->off += (size_t)xs->remaining;
                        xs->remaining = 0;
                        xs->state = XS_DATA_NL;
                        break;
                case XS_DATA_NL:
                        if (*p == '\n') {
                                xs->off++;
                                xs->state = XS_FIELD;
                        } else {
                                /* The length does not match the data: resynchronise at a blank line. */
                                if (!xs->broken)
                                        xs->why = "binary field length does not match its data";
                                xs->broken = true;
                                xs->state = XS_LINE;
                                xs->line_has_eq = true;
                        }
                        break;
                }
        }
}

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

/* Map the fields of one complete record in p[0..len) onto r (1: a loss or new-boot entry, not a record). */
static int build(struct kmsg_record *r, const char *p, size_t len, const char **ret_err) {
        const char *end = p + len;
        uint64_t level = 6, facility = 0, mono = 0, src_mono = 0;
        bool has_level = false, has_fac = false, has_msg = false, has_mono = false, has_src = false;
        bool is_mark = false, has_exact = false;
        const char *ident = NULL, *pid = NULL;
        size_t ident_len = 0, pid_len = 0;
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
                        vlen = (size_t)le64((const unsigned char *)nl + 1);
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

                if (key_is(p, klen, "MESSAGE")) {
                        if (has_exact) {
                                p = nl + 1;
                                continue;
                        }
                        e = record_append(r, val, vlen, &r->msg_off);
                        if (e < 0)
                                return e;
                        r->msg_len = vlen;
                        has_msg = true;
                } else if (key_is(p, klen, "PRIORITY")) {
                        if (parse_u64_field(val, vlen, &level) < 0 || level > 7) {
                                *ret_err = "PRIORITY is not a number from 0 to 7";
                                return -EBADMSG;
                        }
                        has_level = true;
                } else if (key_is(p, klen, "SYSLOG_FACILITY")) {
                        if (parse_u64_field(val, vlen, &facility) < 0 || facility > 255) {
                                *ret_err = "SYSLOG_FACILITY is not a number from 0 to 255";
                                return -EBADMSG;
                        }
                        has_fac = true;
                } else if (key_is(p, klen, "SEQNUM")) {
                        uint64_t seq;

                        if (parse_u64_field(val, vlen, &seq) < 0) {
                                *ret_err = "SEQNUM is not a number";
                                return -EBADMSG;
                        }
                        /* Two numbers for one entry: neither is taken (a phantom gap or boot either way). */
                        if (r->has_seqnum && seq != r->seqnum) {
                                *ret_err = "SEQNUM twice in one entry, with two values";
                                return -EBADMSG;
                        }
                        r->seqnum = seq;
                        r->has_seqnum = true;
                } else if (key_is(p, klen, "TIMESTAMP")) {
                        uint64_t usec;

                        if (parse_u64_field(val, vlen, &usec) < 0) {
                                *ret_err = "TIMESTAMP is not a number";
                                return -EBADMSG;
                        }
                        if (r->has_timestamp && usec != r->usec) {
                                *ret_err = "TIMESTAMP twice in one entry, with two values";
                                return -EBADMSG;
                        }
                        r->usec = usec;
                        r->has_timestamp = true;
                } else if (key_is(p, klen, "_SOURCE_MONOTONIC_TIMESTAMP")) {
                        has_src = parse_u64_field(val, vlen, &src_mono) == 0;
                } else if (key_is(p, klen, "_BOOT_ID")) {
                        /* Which boot wrote the record: a change starts a new boot (seqtrack). */
                        if (vlen == 0 || memchr(val, '\0', vlen)) {
                                *ret_err = "_BOOT_ID is empty or holds a NUL byte";
                                return -EBADMSG;
                        }
                        if (r->boot_id_off != SIZE_MAX &&
                            (strlen(r->data + r->boot_id_off) != vlen || memcmp(r->data + r->boot_id_off, val, vlen) != 0)) {
                                *ret_err = "_BOOT_ID twice in one entry, with two values";
                                return -EBADMSG;
                        }
                        e = record_append(r, val, vlen, &r->boot_id_off);
                        if (e < 0)
                                return e;
                } else if (key_is(p, klen, "KDMESG_LOST") || key_is(p, klen, "KDMESG_BOOT")) {
                        /*
                         * A loss or new-boot entry (kdmesg --format=export):
                         * the gap and the boot are found again from the records.
                         */
                        is_mark = true;
                } else if (klen > 8 && memcmp(p, "_KERNEL_", 8) == 0) {
                        /* journald's name for every dictionary line: _KERNEL_KEY.  A key is a C string. */
                        if (memchr(p + 8, '\0', klen - 8)) {
                                *ret_err = "dictionary key (a _KERNEL_ field's name) holds a NUL byte";
                                return -EBADMSG;
                        }
                        e = record_add_dict(r, p + 8, klen - 8, val, vlen, false);
                        if (e < 0)
                                return e;
                } else if (key_is(p, klen, "SUBSYSTEM") || key_is(p, klen, "DEVICE")) {
                        /* The seed patch's structured form names them bare. */
                        e = record_add_dict(r, p, klen, val, vlen, false);
                        if (e < 0)
                                return e;
                } else if (key_is(p, klen, "KMSG_MESSAGE")) {
                        /* The exact message, where MESSAGE lost white space to journald's rule. */
                        e = record_append(r, val, vlen, &r->msg_off);
                        if (e < 0)
                                return e;
                        r->msg_len = vlen;
                        has_msg = has_exact = true;
                } else if (key_is(p, klen, "KMSG_FLAGS")) {
                        e = record_append(r, val, vlen, &r->flags_off);
                        if (e < 0)
                                return e;
                } else if (key_is(p, klen, "KMSG_FIELDS")) {
                        e = record_set_fields(r, val, vlen);
                        if (e < 0)
                                return e;
                } else if (key_is(p, klen, "KMSG_DICT")) {
                        /*
                         * A dictionary pair whose key is not a journal field name: KEY=VALUE,
                         * with '=' and '\' in KEY escaped as \x3d and \x5c (as kmsg escapes).
                         */
                        const char *deq = memchr(val, '=', vlen);
                        size_t kl;
                        char *k;

                        if (!deq || deq == val) {
                                *ret_err = "KMSG_DICT is not KEY=VALUE";
                                return -EBADMSG;
                        }
                        kl = (size_t)(deq - val);
                        k = malloc(kl);
                        if (!k)
                                return -ENOMEM;
                        kl = kmsg_unescape(k, val, kl);
                        /* A key is a C string: one that would hold a NUL stays as written. */
                        if (memchr(k, '\0', kl))
                                e = record_add_dict(r, val, (size_t)(deq - val), deq + 1,
                                                    (size_t)(val + vlen - deq - 1), false);
                        else
                                e = record_add_dict(r, k, kl, deq + 1, (size_t)(val + vlen - deq - 1), false);
                        free(k);
                        if (e < 0)
                                return e;
                } else {
                        /*
                         * Every other field is the journal's (kmsg_record_get_journal_field()),
                         * kept as it was: _HOSTNAME, _BOOT_ID, _UDEV_*, SYSLOG_IDENTIFIER, ...
                         */
                        if (key_is(p, klen, "__MONOTONIC_TIMESTAMP")) {
                                uint64_t m = 0;
                                bool ok = parse_u64_field(val, vlen, &m) == 0;

                                if (has_mono && ok && m != mono) {
                                        *ret_err = "__MONOTONIC_TIMESTAMP twice in one entry, with two values";
                                        return -EBADMSG;
                                }
                                if (ok) {
                                        mono = m;
                                        has_mono = true;
                                }
                        }
                        else if (key_is(p, klen, "SYSLOG_IDENTIFIER"))
                                ident = val, ident_len = vlen;
                        else if (key_is(p, klen, "SYSLOG_PID"))
                                pid = val, pid_len = vlen;
                        e = record_add_journal(r, p, klen, val, vlen);
                        if (e < 0)
                                return e;
                }
                p = nl + 1;
        }
        if (is_mark)
                return 1;
        if (!has_msg) {
                *ret_err = "record has no MESSAGE field";
                return -EBADMSG;
        }
        if (has_fac && facility != 0 && ident && !has_exact) {
                e = export_restore_prefix(r, facility, ident, ident_len, pid, pid_len);
                if (e < 0)
                        return e;
        }
        if (!r->has_timestamp && (has_src || has_mono)) {
                r->usec = has_src ? src_mono : mono;
                r->has_timestamp = true;
        }
        r->priority = (unsigned)(facility << 3 | level);
        r->has_priority = has_level || has_fac;
        if (!has_level)
                r->priority = (unsigned)(facility << 3 | 6);
        return 0;
}

static int export_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        struct export_scan *xs = rd->state;
        bool stopping = false; /* interrupted: an entry whose last field is complete ends there */
        int e, done;

        if (!xs) {
                xs = rd->state = calloc(1, sizeof(*xs));
                if (!xs)
                        return -ENOMEM;
        }
        for (;;) {
                if (!xs->active) {
                        /* Start of a record: skip blank lines before it. */
                        while (rd->start < rd->end && (rd->buf[rd->start] == '\n' || rd->buf[rd->start] == '\0')) {
                                if (rd->buf[rd->start] == '\n')
                                        rd->line++;
                                rd->start++;
                        }
                        if (rd->start == rd->end) {
                                if (rd->eof)
                                        return 0;
                                e = stream_fill(rd);
                                if (e < 0)
                                        return e;
                                continue;
                        }
                        memset(xs, 0, sizeof(*xs));
                        xs->active = true;
                        xs->off = rd->start;
                        rd->pos = rd->line;
                }

                done = scan(rd, xs);
                if (!done && stopping && xs->state == XS_FIELD && xs->off == rd->end && !xs->skipping &&
                    !xs->broken && !xs->bad_len)
                        done = 1;
                if (!done && rd->eof && !xs->broken && !xs->skipping &&
                    (xs->state == XS_DATA || xs->state == XS_DATA_NL)) {
                        /*
                         * A length within the limit that runs past the end:
                         * the entry ends at the first blank line after the
                         * length, and the entries after that are read.
                         */
                        xs->broken = xs->past_end = true;
                        xs->why = "truncated binary field at the end of the input";
                        xs->off = rd->start + xs->data_rel;
                        xs->remaining = 0;
                        xs->state = XS_FIELD;
                        done = scan(rd, xs);
                }
                if (!done && rd->eof && xs->state == XS_LINE && !xs->line_has_eq && xs->line_not_name &&
                    !xs->broken) {
                        /* The last line, without a newline, is no field either. */
                        xs->bad_name = xs->broken = true;
                        xs->bad_name_line = key_line(rd, rd->buf + rd->end) + 1;
                }
                if (done || rd->eof) {
                        /* Cut at the end (even inside a length field): the rest is this record. */
                        size_t rec_end = done ? xs->off : rd->end;
                        bool eof_cut = !done && (xs->state == XS_LEN || xs->state == XS_DATA ||
                                                 xs->state == XS_DATA_NL);
                        struct kmsg_record *r;
                        const char *err = NULL;

                        xs->active = false;
                        if (xs->bad_len) {
                                uint64_t n = xs->dropped + (rec_end - rd->start);

                                stream_consume(rd, rec_end);
                                reader_set_error(rd,
                                                 "line %" PRIu64 ": binary field length %" PRIu64
                                                 " is over the %zu-byte record limit: %" PRIu64
                                                 " bytes skipped to %s",
                                                 xs->bad_line, xs->bad_value, rd->max_record, n,
                                                 done ? "the next blank line" : "the end of the input");
                                return -EBADMSG;
                        }
                        if (xs->bad_name) {
                                uint64_t n = xs->dropped + (rec_end - rd->start);

                                stream_consume(rd, rec_end);
                                reader_set_error(rd,
                                                 "line %" PRIu64 " is neither a KEY=VALUE field nor the name of a"
                                                 " binary one: not the export form; %" PRIu64 " bytes skipped to %s",
                                                 xs->bad_name_line, n,
                                                 done ? "the next blank line" : "the end of the input");
                                return -EBADMSG;
                        }
                        /* The same limit whether the record came in one read() or many. */
                        if (xs->skipping || rec_end - rd->start > stream_raw_limit(rd)) {
                                stream_consume(rd, rec_end);
                                reader_set_error(rd, "entry longer than %zu bytes skipped", stream_raw_limit(rd));
                                return -E2BIG;
                        }
                        r = reader_record(rd);
                        if (!r)
                                return -ENOMEM;
                        if (xs->past_end && done) {
                                reader_set_error(rd,
                                                 "line %" PRIu64 ": binary field length %" PRIu64
                                                 " runs past the end of the input: %zu bytes skipped to the"
                                                 " next blank line",
                                                 xs->len_line, xs->len_value, rec_end - rd->start);
                                stream_consume(rd, rec_end);
                                return -EBADMSG;
                        } else if (xs->broken) {
                                err = xs->why;
                                e = -EBADMSG;
                        } else if (eof_cut) {
                                err = "truncated binary field at the end of the input";
                                e = -EBADMSG;
                        } else
                                e = build(r, rd->buf + rd->start, rec_end - rd->start, &err);
                        stream_consume(rd, rec_end);
                        if (e == 1)
                                continue; /* a loss entry */
                        return stream_take(rd, r, e, "", err, ret);
                }

                if (xs->off - rd->start > stream_raw_limit(rd))
                        xs->skipping = true;
                if (xs->skipping) {
                        /* Drop what was scanned; keep counting lines. */
                        xs->dropped += xs->off - rd->start;
                        stream_consume(rd, xs->off);
                }
                {
                        size_t rel = xs->off - rd->start;

                        e = stream_fill(rd); /* moves data to the front */
                        xs->off = rd->start + rel;
                        if (e == -EINTR && !stopping) {
                                stopping = true;
                                continue;
                        }
                        if (e < 0)
                                return e;
                }
        }
}

const struct stream_ops stream_export_ops = {
        .next = export_next,
        .free = free,
};
