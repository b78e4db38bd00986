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
 * wrote, and is passed over.  KMSG_MERGED, the fields kdmesg wrote past
 * the collector's limit of fields per entry, is opened where it stands
 * (stream-export-build.c maps the fields onto the record).
 *
 * The extent of a record is found by an incremental scanner, so that a
 * record over the size limit is passed without being held in memory and a
 * length field is only ever checked against the bytes that are there.  A
 * binary field's value is the record's bytes as they are, so its length
 * is at most the record limit (max_record).  KMSG_MERGED's is not (its
 * lines lose their names and '=' to the record): it may take up to the
 * entry's limit, stream_raw_limit(), and what it decodes to is held to
 * max_record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader-private.h"

enum { XS_FIELD, XS_LINE, XS_LEN, XS_DATA, XS_DATA_NL };

/* The one field whose binary value may be longer than a record. */
static const char merged_name[] = "KMSG_MERGED";
#define MERGED_NAME_LEN (sizeof(merged_name) - 1)

/* Incremental scanner state: the reader's state for this format. */
struct export_scan {
        bool active;       /* inside a record */
        int state;
        size_t off;        /* scan position, relative to the buffer */
        uint64_t remaining; /* bytes of binary data still to pass */
        bool line_has_eq;
        bool line_not_name; /* before any '=', a byte that no field name holds */
        size_t name_len;    /* bytes of the line before any '=' so far */
        bool name_merged;   /* and they are the head of "KMSG_MERGED" */
        bool len_merged;    /* the binary field whose length comes next is KMSG_MERGED */
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
        size_t bad_limit;   /* the limit it passed */
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
                        xs->name_len = 0;
                        xs->name_merged = true;
                        break;
                case XS_LINE: {
                        const char *eq;

                        nl = memchr(p, '\n', avail);
                        if (!xs->line_has_eq) {
                                size_t seg = nl ? (size_t)(nl - p) : avail, k, i;

                                eq = memchr(p, '=', seg);
                                k = eq ? (size_t)(eq - p) : seg;
                                if (!export_name_chars(p, k))
                                        xs->line_not_name = true;
                                for (i = 0; i < k && xs->name_merged; i++)
                                        xs->name_merged = xs->name_len + i < MERGED_NAME_LEN &&
                                                          p[i] == merged_name[xs->name_len + i];
                                xs->name_len += k;
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
                        xs->len_merged = !xs->line_has_eq && xs->name_merged && xs->name_len == MERGED_NAME_LEN;
                        /* Resynchronising: no line starts a binary field. */
                        xs->state = xs->line_has_eq || xs->broken ? XS_FIELD : XS_LEN;
                        break;
                }
                case XS_LEN: {
                        size_t limit;

                        if (avail < 8)
                                return 0;
                        xs->remaining = export_le64((const unsigned char *)p);
                        limit = xs->len_merged ? stream_raw_limit(rd) : rd->max_record;
                        if (xs->remaining > limit) {
                                /*
                                 * No record can hold it: the length is wrong
                                 * (or text).  Pass the rest of the entry, up
                                 * to the next blank line, and count it.
                                 */
                                xs->bad_len = xs->broken = true;
                                xs->bad_line = key_line(rd, p);
                                xs->bad_value = xs->remaining;
                                xs->bad_limit = limit;
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
                }
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
                        char why[200];

                        xs->active = false;
                        if (xs->bad_len) {
                                uint64_t n = xs->dropped + (rec_end - rd->start);

                                stream_consume(rd, rec_end);
                                reader_set_error(rd,
                                                 "line %" PRIu64 ": binary field length %" PRIu64
                                                 " is over the %zu-byte %s limit: %" PRIu64
                                                 " bytes skipped to %s",
                                                 xs->bad_line, xs->bad_value, xs->bad_limit,
                                                 xs->bad_limit > rd->max_record ? "entry" : "record", n,
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
                                e = export_build(r, rd->buf + rd->start, rec_end - rd->start, rd->pos,
                                                 rd->max_record, why, sizeof(why), &err);
                        stream_consume(rd, rec_end);
                        if (e == -E2BIG)
                                reader_set_error(rd, "record larger than %zu bytes skipped", rd->max_record);
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

/* "KEY=value", or "KEY" alone before a binary value, in the first column. */
static bool export_detect(const char *p, const char *end) {
        const char *q;

        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z')))
                return false;
        for (q = p + 1; q < end && *q != '='; q++)
                if (!(*q == '_' || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
                        return false;
        return true;
}

const struct stream_ops stream_export_ops = {
        .format = KMSG_FORMAT_EXPORT,
        .name = "export",
        .detect = export_detect,
        .next = export_next,
        .free = free,
};
