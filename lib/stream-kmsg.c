/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stream splitter for the /dev/kmsg text form, as "cat /dev/kmsg"
 * writes it: a record ends at a newline that is not followed by a
 * dictionary line (" KEY=").  NUL bytes, CR and blank lines between
 * records are skipped; a 6.3+ record cut at 2048 bytes that runs into
 * the next header is split there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reader-private.h"

enum { SKIP_NONE, SKIP_LINE, SKIP_AFTER_NL };

struct kmsg_state {
        int skip; /* SKIP_*: passing a record over the size limit */
        /*
         * Separators skipped since the last record (NUL bytes, blank
         * lines): past the record limit, next() returns to its caller with
         * an error, so that an endless run (/dev/zero) cannot hold it.
         */
        uint64_t junk;
        uint64_t junk_line;
        /* A 6.3+ cut record was split from the next one: said at the next call. */
        bool split_note;
        /*
         * A NUL byte separated records (util-linux's -K form): empty lines at
         * the end of the input are then the last record's, as before a NUL.
         */
        bool nul_separated;
        uint64_t split_line, split_seq;
};

/*
 * How far the time stamp of the record that follows a cut one may be from
 * the cut one's, for the two to be split: an hour.  Far more than SMP
 * jitter or a burst of messages, far less than what attacker text picks.
 */
#define SPLIT_MAX_USEC (3600ull * 1000000ull)

/* The seq and time stamp of a header at p.  Returns false if it is none. */
static bool header_seq_usec(const char *p, const char *end, uint64_t *ret_seq, uint64_t *ret_usec) {
        size_t n;

        if (!header_check(p, (size_t)(end - p)))
                return false;
        /* The priority, then the seq and the time stamp, each checked: a number that does not parse is no header. */
        if (!(n = scan_u64(p, end, ret_seq)))
                return false;
        p += n + 1;
        if (!(n = scan_u64(p, end, ret_seq)))
                return false;
        p += n + 1;
        return scan_u64(p, end, ret_usec) > 0;
}

/*
 * The 6.3+ rule: a line whose byte 2048 starts a header is two records.
 * Text can look like a header there, so split only where that header is
 * the very next record: seq + 1, time stamp within SPLIT_MAX_USEC.  The
 * kernel cut its text, never its header, which is short: a header that
 * runs to the cut (fields of JSON or export input, written back by
 * kdmesg --format=kmsg, can) is one record's.
 */
static bool split_here(const char *h, const char *cut, const char *lim, uint64_t *ret_seq) {
        uint64_t seq, usec, next_seq, next_usec;

        if (!memchr(h, ';', (size_t)(cut - h)) || !header_seq_usec(h, lim, &seq, &usec) ||
            !header_seq_usec(cut, lim, &next_seq, &next_usec))
                return false;
        if (seq == UINT64_MAX || next_seq != seq + 1)
                return false;
        if ((next_usec > usec ? next_usec - usec : usec - next_usec) > SPLIT_MAX_USEC)
                return false;
        *ret_seq = next_seq;
        return true;
}

/* Skip separators and blank lines.  Returns 1 at a record, 0 if more input is needed. */
static int skip_separators(struct kmsg_reader *rd) {
        while (rd->start < rd->end) {
                char c = rd->buf[rd->start];
                size_t j;

                if (c == '\n') {
                        rd->line++;
                        rd->start++;
                } else if (c == '\0' || c == '\r') {
                        if (c == '\0')
                                ((struct kmsg_state *)rd->state)->nul_separated = true;
                        rd->start++;
                } else if (c == ' ' || c == '\t') {
                        /* A line of white space only is blank. */
                        for (j = rd->start; j < rd->end && (rd->buf[j] == ' ' || rd->buf[j] == '\t' ||
                                                            rd->buf[j] == '\r');
                             j++)
                                ;
                        if (j == rd->end) {
                                if (!rd->eof && j - rd->start < rd->max_record)
                                        return 0;
                                rd->start = j;
                        } else if (rd->buf[j] == '\n' || rd->buf[j] == '\0')
                                rd->start = j;
                        else
                                return 1;
                } else
                        return 1;
        }
        return 0;
}

/*
 * Find the end of the record at buf[start].  Returns 1 and sets *ret_end
 * (end of the record's bytes) and *ret_next (where the next one starts),
 * *ret_lines (newlines inside); 0 when more input is needed.
 */
static int scan_record(struct kmsg_reader *rd, size_t *ret_end, size_t *ret_next, uint64_t *ret_lines,
                       uint64_t *ret_split_seq, size_t *ret_eol, size_t *ret_newlines) {
        const char *buf = rd->buf, *p = buf + rd->start, *end = buf + rd->end, *nl, *nul, *lim, *h, *q;
        uint64_t lines = 0;

        nl = memchr(p, '\n', (size_t)(end - p));
        lim = nl ? nl : end;
        nul = stream_next_nul(rd, p);
        if (nul && nul >= lim)
                nul = NULL;
        if (nul)
                lim = nul;

        /*
         * A 6.3+ record cut at 2048 bytes runs into the next header.  Look
         * before the line is complete: a run of cut records has no newline
         * and can be longer than the size limit.
         */
        for (h = p; h < lim && (*h == ' ' || *h == '\t'); h++)
                ;
        *ret_split_seq = 0;
        if ((size_t)(lim - h) > KMSG_TRUNCATED_RECORD &&
            split_here(h, h + KMSG_TRUNCATED_RECORD, lim, ret_split_seq)) {
                *ret_end = *ret_next = *ret_eol = (size_t)(h + KMSG_TRUNCATED_RECORD - buf);
                *ret_lines = 0;
                return 1;
        }
        if (!nl && !nul && !rd->eof)
                return 0;
        nl = lim;
        if (nl == end || *nl == '\0') {
                *ret_end = *ret_next = *ret_eol = (size_t)(nl - buf);
                *ret_lines = 0;
                return 1;
        }
        /* The header line ends here: the parser need not look for it again. */
        *ret_eol = (size_t)(nl - buf);

        /* Dictionary lines follow the header, one leading space each. */
        q = nl + 1;
        lines = 1;
        *ret_newlines = 0;
        if (q < end && *q == '\n') {
                /*
                 * Empty lines between the text and the NUL that ends the
                 * record (util-linux's -K form): each is a newline at the end
                 * of the message, as util-linux reads them.  Elsewhere they
                 * separate records.
                 */
                const char *b = q;

                while (b < end && *b == '\n')
                        b++;
                if (b == end && !rd->eof)
                        return 0;
                if ((b < end && *b == '\0') ||
                    (b == end && rd->eof && ((struct kmsg_state *)rd->state)->nul_separated)) {
                        *ret_newlines = (size_t)(b - q);
                        *ret_end = *ret_next = (size_t)(b - buf);
                        *ret_lines = 1 + (uint64_t)(b - q);
                        return 1;
                }
        }
        for (;;) {
                int c = dict_line_check(q, (size_t)(end - q));

                /* Following: a record whose last line ended when the data paused is complete. */
                if (c < 0 && q == end && rd->paused)
                        c = 0;
                if (c < 0 && !rd->eof)
                        return 0;
                if (c <= 0)
                        break;
                nl = memchr(q, '\n', (size_t)(end - q));
                /* A NUL ends the record here too. */
                nul = stream_next_nul(rd, q);
                if (nul && nul >= (nl ? nl : end))
                        nul = NULL;
                if (nul) {
                        q = nul;
                        break;
                }
                if (!nl) {
                        if (!rd->eof)
                                return 0;
                        q = end;
                        break;
                }
                lines++;
                q = nl + 1;
        }
        *ret_end = *ret_next = (size_t)(q - buf);
        *ret_lines = lines;
        return 1;
}

/* Discard a record over the size limit.  Returns 1 when it is passed, 0 if more input is needed. */
static int skip_record(struct kmsg_reader *rd, struct kmsg_state *st) {
        while (rd->start < rd->end) {
                const char *p = rd->buf + rd->start;
                size_t avail = rd->end - rd->start;

                if (st->skip == SKIP_LINE) {
                        const char *nl = memchr(p, '\n', avail);
                        const char *nul = memchr(p, '\0', nl ? (size_t)(nl - p) : avail);

                        /* A NUL ends a record, as in scan_record(). */
                        if (nul) {
                                rd->start += (size_t)(nul - p);
                                st->skip = SKIP_NONE;
                                return 1;
                        }
                        if (!nl) {
                                rd->start = rd->end;
                                break;
                        }
                        rd->line++;
                        rd->start += (size_t)(nl - p) + 1;
                        st->skip = SKIP_AFTER_NL;
                } else {
                        int c = dict_line_check(p, avail);

                        if (c < 0 && avail > 4096)
                                c = 0;
                        if (c < 0)
                                break;
                        if (c == 0) {
                                st->skip = SKIP_NONE;
                                return 1;
                        }
                        st->skip = SKIP_LINE;
                }
        }
        if (rd->eof) {
                st->skip = SKIP_NONE;
                return 1;
        }
        return 0;
}

static int too_big(struct kmsg_reader *rd) {
        reader_set_error(rd, "record larger than %zu bytes skipped", rd->max_record);
        return -E2BIG;
}

/* skip_separators(), counting what it skips. */
static int junk_skip(struct kmsg_reader *rd, struct kmsg_state *st) {
        size_t before = rd->start;
        uint64_t line = rd->line;
        int found = skip_separators(rd);

        if (st->junk == 0)
                st->junk_line = line;
        st->junk += rd->start - before;
        if (found)
                st->junk = 0;
        return found;
}

/* End the message with newlines more newlines (empty lines of a NUL-separated record); 0 or -ENOMEM. */
static int record_end_message(struct kmsg_record *r, size_t newlines) {
        size_t len = r->msg_len, off;
        int e;

        if (newlines > SIZE_MAX / 4)
                return -ENOMEM;
        /* A copy at the end: the message need not be the last thing in the data. */
        e = record_reserve(r, len + newlines);
        if (e < 0)
                return e;
        off = r->data_len;
        memcpy(r->data + off, r->data + r->msg_off, len);
        memset(r->data + off + len, '\n', newlines);
        r->data[off + len + newlines] = '\0';
        r->data_len += len + newlines + 1;
        r->msg_off = off;
        r->msg_len = len + newlines;
        return 0;
}

/*
 * The general path: every case, the plain record too (where the scanner
 * left it, or where it is not used).
 */
static int kmsg_next_general(struct kmsg_reader *rd, struct kmsg_record **ret) {
        struct kmsg_state *st = rd->state;
        size_t rec_end, next, eol, newlines = 0;
        uint64_t lines, split_seq;
        bool rescanned = false;
        int e;

        if (!st) {
                st = rd->state = calloc(1, sizeof(*st));
                if (!st)
                        return -ENOMEM;
        }
        if (st->split_note) {
                st->split_note = false;
                rd->pos = st->split_line;
                reader_set_error(rd,
                                 "record cut at %u bytes by the kernel: the record with seq %" PRIu64
                                 " starts there, on the same line, and is read as the next one",
                                 KMSG_TRUNCATED_RECORD, st->split_seq);
                return -EBADMSG;
        }
        for (;;) {
                if (st->skip != SKIP_NONE) {
                        if (skip_record(rd, st))
                                return too_big(rd);
                } else if (junk_skip(rd, st)) {
                        if (scan_record(rd, &rec_end, &next, &lines, &split_seq, &eol, &newlines)) {
                                struct kmsg_record *r;
                                const char *err;

                                rd->pos = rd->line;
                                if (rec_end - rd->start > rd->max_record) {
                                        rd->line += lines;
                                        rd->start = next;
                                        return too_big(rd);
                                }
                                r = reader_record(rd);
                                if (!r)
                                        return -ENOMEM;
                                /* With empty lines before a NUL, the record's own bytes end with its first line. */
                                e = record_parse_lines(r, rd->buf + rd->start,
                                                       (newlines ? eol + 1 : rec_end) - rd->start, eol - rd->start,
                                                       &err);
                                if (e >= 0 && newlines > 0)
                                        e = record_end_message(r, newlines);
                                rd->line += lines;
                                rd->start = next;
                                if (split_seq) {
                                        /* Said after the cut record, before the one that follows. */
                                        st->split_note = true;
                                        st->split_line = rd->pos;
                                        st->split_seq = split_seq;
                                }
                                return stream_take(rd, r, e, "", err, ret);
                        }
                        if (rd->end - rd->start > rd->max_record) {
                                /* Too big: drop what we have and pass the rest. */
                                rd->pos = rd->line;
                                st->skip = SKIP_LINE;
                                continue;
                        }
                } else if (rd->start == rd->end && rd->eof)
                        return 0;
                else if (st->junk >= rd->max_record) {
                        rd->pos = st->junk_line;
                        reader_set_error(rd, "%" PRIu64 " bytes of junk skipped (NUL bytes or blank lines)",
                                         st->junk);
                        st->junk = 0;
                        return -EBADMSG;
                }

                e = stream_fill(rd);
                if ((e == -EAGAIN || e == -EINTR) && !rescanned && rd->start < rd->end) {
                        /* The data paused, or reading was interrupted: a record that ends here is complete. */
                        rescanned = true;
                        continue;
                }
                if (e < 0)
                        return e;
                /* At the end, a record being skipped is still reported. */
                if (e == 0 && rd->start == rd->end && st->skip == SKIP_NONE)
                        return 0;
        }
}

/* The plain record in one pass (kmsg-scan.c), with nothing in its way; anything else by the general path. */
static int kmsg_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        struct kmsg_state *st = rd->state;
        struct kmsg_record *r;
        size_t used;

        if (!st || st->split_note || st->skip != SKIP_NONE || rd->general_only || rd->start == rd->end)
                return kmsg_next_general(rd, ret);
        r = reader_record(rd);
        if (!r)
                return -ENOMEM;
        /* The scanner's end mark: the buffer has a byte more than it holds (stream_fill()). */
        rd->buf[rd->end] = '\0';
        used = kmsg_scan_record(r, rd->buf + rd->start, rd->end - rd->start, rd->eof || rd->paused, rd->max_record);
        if (!used)
                return kmsg_next_general(rd, ret);
        /* rd->state and rd->rec read again, not kept across the call: a frame with fewer registers to save. */
        ((struct kmsg_state *)rd->state)->junk = 0;
        rd->pos = rd->line;
        /* The message line and a line for each dictionary entry. */
        rd->line += 1 + rd->rec->n_dict;
        rd->start += used;
        *ret = rd->rec;
        return 1;
}

/* A header, "6,123,456,-;", after blanks (some pastes indent the records). */
static bool kmsg_detect(const char *p, const char *end) {
        while (p < end && (*p == ' ' || *p == '\t'))
                p++;
        return p < end && header_check(p, (size_t)(end - p));
}

const struct stream_ops stream_kmsg_ops = {
        .format = KMSG_FORMAT_KMSG,
        .name = "kmsg",
        .detect = kmsg_detect,
        .next = kmsg_next,
        .free = free,
};
