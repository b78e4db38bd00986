/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syslog form, as "dmesg -r" and /proc/kmsg print it, and the human
 * views util-linux and kdmesg print: "<6>[    1.234567] message",
 * "[    1.234567] message", "<6>message", "dmesg -x"'s names first
 * ("kern  :info  : [    1.234567] message"), "dmesg -T"'s wall-clock stamp
 * ("[Sat Dec  5 23:19:32 2026] message"), each with the caller id after
 * the stamp, if any ("[    1.234567] [  T123] message").
 *
 * A line that starts no record continues the record before it, as
 * util-linux reads the kernel's syslog(2) buffer: its further lines carry
 * no indent there, the views indent them by the width of the printed head.
 * That width is worked out from the head itself (with the space after it,
 * also where a paste stripped it); a line indented at least that much
 * loses that indent, any other keeps its bytes.  Blank lines inside a
 * record are lines of its message (a message that ends in a newline prints
 * as a blank line after it).  Lines before the first head, and the lines of
 * a file with no heads at all (a dmesg without time stamps), are records of
 * their own with no priority and no time, one a line.  A line whose text
 * runs into a head ("syzkaller login: [   16.305150] INFO: ...": user
 * space's output on the console without its newline) is two: the text
 * before the head, a record with no head, and the record the head starts.
 *
 * These lines carry no sequence numbers.  \xNN escapes in the message are
 * decoded only for the bytes a printer escapes (control bytes, DEL, the
 * backslash, bytes from 0x80): "\x41" stays as typed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader-private.h"

/* A line of white space only carries nothing on its own. */
static bool blank_line(const char *p, size_t len) {
        size_t i;

        for (i = 0; i < len; i++)
                if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                        return false;
        return true;
}

static size_t leading_spaces(const char *p, size_t len) {
        size_t i;

        for (i = 0; i < len && p[i] == ' '; i++)
                ;
        return i;
}

/*
 * Where a head starts in a line that does not start with one: the output
 * of user space on the console run together with the kernel's line
 * ("syzkaller login: [   16.305150] INFO: ...", a prompt without its
 * newline; "...: allocation failure: 8 bytes[   76.471107] BUG: ...", a
 * kernel line without its own).  The first '[' after the line's first
 * byte where a time stamp head follows; the line must not start with a
 * blank (the further lines of a record are indented).  0 when there is
 * none.
 */
static size_t run_in_head(const char *p, size_t len) {
        const char *b = p, *end = p + len;
        struct prefix pf;

        if (len == 0 || p[0] == ' ' || p[0] == '\t')
                return 0;
        while ((b = memchr(b + 1, '[', (size_t)(end - b - 1))) != NULL)
                if (syslog_parse_prefix(b, (size_t)(end - b), &pf) > 0 && (pf.has_timestamp || pf.wall_clock))
                        return (size_t)(b - p);
        return 0;
}

/*
 * Whether the line p[0..len) continues the record before it: it starts no
 * record of its own, not even after text run together with it.  After a
 * record without a head, only blank lines do (a file with no heads has a
 * record a line).
 */
static bool continues(const char *p, size_t len, bool headless) {
        struct prefix pf;

        if (memchr(p, '\0', len))
                return false;
        if (headless)
                return blank_line(p, len);
        return syslog_parse_prefix(p, len, &pf) == 0 && run_in_head(p, len) == 0;
}

/* Whether \xNN stands for a byte that a printer escapes: one it would not print as it is. */
static bool printer_escapes(unsigned v) {
        return v < 0x20 || v == 0x5c || v >= 0x7f;
}

/* Decode p[0..len) in place; returns the new length. */
static size_t unescape_printed(char *p, size_t len) {
        size_t i, o = 0;

        for (i = 0; i < len; i++) {
                int h, l;

                if (p[i] == '\\' && len - i >= 4 && p[i + 1] == 'x' && (h = hexval((unsigned char)p[i + 2])) >= 0 &&
                    (l = hexval((unsigned char)p[i + 3])) >= 0 && printer_escapes((unsigned)(h << 4 | l))) {
                        p[o++] = (char)(h << 4 | l);
                        i += 3;
                } else
                        p[o++] = p[i];
        }
        return o;
}

/* The message text being joined from the lines of one record, still escaped. */
struct syslog_state {
        char *text;
        size_t len;
        size_t cap;
};

static int text_add(struct syslog_state *st, const char *p, size_t len, bool newline) {
        size_t need = st->len + len + 1;

        if (need > st->cap) {
                size_t cap = st->cap ? st->cap : 4096;
                char *t;

                while (cap < need)
                        cap *= 2;
                t = realloc(st->text, cap);
                if (!t)
                        return -ENOMEM;
                st->text = t;
                st->cap = cap;
        }
        if (newline)
                st->text[st->len++] = '\n';
        memcpy(st->text + st->len, p, len);
        st->len += len;
        return 0;
}

static void syslog_free(void *state) {
        struct syslog_state *st = state;

        if (st)
                free(st->text);
        free(st);
}

/*
 * The record whose first line is buf[start..start+len) (its newline, if
 * any, at start+len): take the lines that continue it, join them to its
 * message with newlines and consume them all.  The buffer may move.
 */
static int read_record(struct kmsg_reader *rd, struct syslog_state *st, struct kmsg_record *r, size_t len,
                       bool has_nl, const char **ret_err) {
        const char *p = rd->buf + rd->start;
        struct prefix pf;
        size_t head, off = len + 1, indent, split;
        bool headless;
        int e;

        record_reset(r);
        /* A CR before the newline ends the line as well. */
        if (len > 0 && p[len - 1] == '\r')
                len--;
        if (memchr(p, '\0', len)) {
                *ret_err = "binary data (NUL byte) in a syslog-form line";
                stream_consume(rd, rd->start + (has_nl ? off : off - 1));
                return -EBADMSG;
        }
        head = syslog_parse_prefix(p, len, &pf);
        headless = head == 0;
        /* Text run together with a head: a record of its own, the head starts the next one. */
        split = headless ? run_in_head(p, len) : 0;
        if (split > 0) {
                off = split;
                for (len = split; len > 0 && p[len - 1] == ' '; len--)
                        ;
                has_nl = false;
        }
        r->priority = pf.priority;
        r->has_priority = pf.has_priority;
        r->usec = pf.usec;
        r->has_timestamp = pf.has_timestamp;
        r->has_printed_time = pf.wall_clock;
        r->printed_sec = pf.wall_sec;
        if (pf.caller_len > 0) {
                /* The header's fields were "caller=<it>", as the kernel wrote them. */
                char fields[sizeof("caller=") + 16];

                memcpy(fields, "caller=", 7);
                memcpy(fields + 7, p + pf.caller_off, pf.caller_len);
                e = record_set_fields(r, fields, 7 + pf.caller_len);
                if (e < 0)
                        return e;
        }
        /* The printed head's width, with its last space where a paste cut it. */
        indent = head + (pf.cut_space ? 1 : 0);
        st->len = 0;
        e = text_add(st, p + head, len - head, false);
        if (e < 0)
                return e;

        /* Offsets from start, as filling the buffer moves it. */
        while (has_nl) {
                const char *q = rd->buf + rd->start + off, *nl;
                size_t avail = rd->end - rd->start - off, n, sp;

                nl = memchr(q, '\n', avail);
                if (!nl && !rd->eof) {
                        if (avail > rd->max_record || off + avail > rd->max_record)
                                break;
                        e = stream_fill(rd);
                        if (e == -EAGAIN || e == -EINTR)
                                break; /* the data paused or reading stops: the record ends here */
                        if (e < 0)
                                return e;
                        continue;
                }
                n = nl ? (size_t)(nl - q) : avail;
                if (!nl && n == 0)
                        break; /* the end of the input after a newline */
                if (n > 0 && q[n - 1] == '\r')
                        n--;
                if (!continues(q, n, headless) || st->len + n > rd->max_record)
                        break;
                sp = leading_spaces(q, n);
                sp = sp >= indent ? indent : 0;
                e = text_add(st, q + sp, n - sp, true);
                if (e < 0)
                        return e;
                off += nl ? (size_t)(nl + 1 - q) : avail;
                has_nl = nl != NULL;
        }
        stream_consume(rd, rd->start + (off < rd->end - rd->start ? off : rd->end - rd->start));
        st->len = unescape_printed(st->text, st->len);
        e = record_append(r, st->text, st->len, &r->msg_off);
        if (e < 0)
                return e;
        r->msg_len = st->len;
        return 0;
}

static int syslog_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        struct syslog_state *st = rd->state;

        if (!st) {
                st = rd->state = calloc(1, sizeof(*st));
                if (!st)
                        return -ENOMEM;
        }
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
                        bool has_nl = nl != NULL;

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
                        r = reader_record(rd);
                        if (!r)
                                return -ENOMEM;
                        e = read_record(rd, st, r, len, has_nl, &err);
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

/* A syslog-form prefix, "<6>[    1.234567] ", in the first column. */
static bool syslog_detect(const char *p, const char *end) {
        return *p != ' ' && *p != '\t' && syslog_line_check(p, (size_t)(end - p));
}

const struct stream_ops stream_syslog_ops = {
        .format = KMSG_FORMAT_SYSLOG,
        .name = "syslog",
        .detect = syslog_detect,
        .next = syslog_next,
        .free = syslog_free,
};
