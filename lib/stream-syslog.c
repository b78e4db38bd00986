/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syslog form, one record per line, as "dmesg -r" and /proc/kmsg
 * print it:  "<6>[    1.234567] message", "[    1.234567] message" or
 * "<6>message".  These lines carry no sequence numbers.  \xNN escapes in
 * the message are decoded as in the kmsg form.
 */
#include <errno.h>
#include <string.h>

#include "reader-private.h"

static int parse_line(struct kmsg_record *r, const char *p, size_t len, const char **ret_err) {
        const char *end = p + len, *q;
        uint64_t v, frac;
        size_t digits;

        record_reset(r);
        if (memchr(p, '\0', len)) {
                *ret_err = "binary data (NUL byte) in a syslog-form line";
                return -EBADMSG;
        }
        if (p < end && *p == '<') {
                v = 0;
                for (q = p + 1; q < end && *q >= '0' && *q <= '9' && q - p <= 5; q++)
                        v = v * 10 + (uint64_t)(*q - '0');
                if (q > p + 1 && q < end && *q == '>' && v <= 2047) {
                        r->priority = (unsigned)v;
                        r->has_priority = true;
                        p = q + 1;
                }
        }
        if (p < end && *p == '[') {
                q = p + 1;
                while (q < end && *q == ' ')
                        q++;
                v = 0;
                for (digits = 0; q < end && *q >= '0' && *q <= '9'; q++, digits++)
                        if (digits < 12)
                                v = v * 10 + (uint64_t)(*q - '0');
                if (digits > 0 && digits <= 12 && q < end && *q == '.') {
                        const char *fs = ++q;

                        frac = 0;
                        for (digits = 0; q < end && *q >= '0' && *q <= '9'; q++, digits++)
                                if (digits < 6)
                                        frac = frac * 10 + (uint64_t)(*q - '0');
                        for (; digits < 6; digits++)
                                frac *= 10;
                        if (q > fs && q < end && *q == ']') {
                                r->usec = v * 1000000 + frac;
                                r->has_timestamp = true;
                                p = q + 1;
                                if (p < end && *p == ' ')
                                        p++;
                        }
                }
        }
        if (!r->has_priority && !r->has_timestamp) {
                *ret_err = "not a syslog-form line: expected \"<PRI>\" or \"[SECONDS]\"";
                return -EBADMSG;
        }
        return record_append_unescaped(r, p, (size_t)(end - p), &r->msg_off, &r->msg_len);
}

/* A line of white space only carries nothing, as in the kmsg form. */
static bool blank_line(const char *p, size_t len) {
        size_t i;

        for (i = 0; i < len; i++)
                if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                        return false;
        return true;
}

static int syslog_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        for (;;) {
                const char *p = rd->buf + rd->start, *nl;
                size_t avail = rd->end - rd->start, len;
                int e;

                /* Blank lines carry nothing. */
                if (avail > 0 && (*p == '\n' || (*p == '\r' && avail > 1 && p[1] == '\n'))) {
                        stream_consume(rd, rd->start + (*p == '\n' ? 1 : 2));
                        continue;
                }
                nl = avail ? memchr(p, '\n', avail) : NULL;
                if (nl || (rd->eof && avail > 0)) {
                        struct kmsg_record *r;
                        const char *err = NULL;

                        len = nl ? (size_t)(nl - p) : avail;
                        if (len <= rd->max_record && blank_line(p, len)) {
                                stream_consume(rd, (size_t)((nl ? nl + 1 : p + avail) - rd->buf));
                                continue;
                        }
                        rd->pos = rd->line;
                        if (len > rd->max_record) {
                                stream_consume(rd, rd->start + len + (nl ? 1 : 0));
                                reader_set_error(rd, "line longer than %zu bytes skipped", rd->max_record);
                                return -E2BIG;
                        }
                        if (len > 0 && p[len - 1] == '\r')
                                len--;
                        r = reader_record(rd);
                        if (!r)
                                return -ENOMEM;
                        e = parse_line(r, p, len, &err);
                        stream_consume(rd, (size_t)((nl ? nl + 1 : p + avail) - rd->buf));
                        return stream_take(rd, r, e, "", err, ret);
                }
                if (rd->eof)
                        return 0;
                if (avail > rd->max_record)
                        return stream_skip_long_line(rd);
                e = stream_fill(rd);
                if (e < 0)
                        return e;
        }
}

const struct stream_ops stream_syslog_ops = {
        .next = syslog_next,
};
