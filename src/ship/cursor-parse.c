/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cursor file's text, both ways: cursor_parse() reads "key=value"
 * lines from a buffer (no file, so that a unit test or a fuzzer calls it
 * alone) and cursor_format() writes what cursor_parse() reads back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ship/cursor.h"
#include "text/util.h"

/* One "key=value" line, NUL-terminated, without its newline; n is its number. */
static int parse_line(struct cursor_state *s, char *line, unsigned n, bool *has_from, char *err, size_t errlen) {
        char *v;
        int e = 0;

        if (line[0] == '#' || line[0] == '\0')
                return 0;
        v = strchr(line, '=');
        if (!v) {
                snprintf(err, errlen, "line %u: expected KEY=VALUE", n);
                return -EBADMSG;
        }
        *v++ = '\0';
        if (strcmp(line, "boot_id") == 0) {
                if (!*v || strlen(v) >= BOOT_ID_MAX)
                        e = -EINVAL;
                else
                        strcpy(s->boot_id, v);
        } else if (strcmp(line, "seq") == 0) {
                e = parse_u64(v, &s->seq);
                s->has_seq = e == 0;
        } else if (strcmp(line, "usec") == 0)
                e = parse_u64(v, &s->usec);
        else if (strcmp(line, "newest") == 0) {
                /* "1": the record of seq was the newest in the ring when it was read. */
                e = strcmp(v, "1") == 0 || strcmp(v, "0") == 0 ? 0 : -EINVAL;
                s->newest = strcmp(v, "1") == 0;
        } else if (strcmp(line, "pending") == 0) {
                e = parse_u64(v, &s->pending);
                s->has_pending = e == 0;
        } else if (strcmp(line, "pending_from") == 0) {
                e = parse_u64(v, &s->pending_from);
                *has_from = e == 0;
        }
        /* Unknown keys are ignored, for later versions. */
        if (e < 0) {
                snprintf(err, errlen, "line %u: bad value for %s", n, line);
                return -EBADMSG;
        }
        /* The record after it would be number 0 again: the whole ring printed twice. */
        if ((s->has_seq && s->seq == UINT64_MAX) || (s->has_pending && s->pending == UINT64_MAX) ||
            (*has_from && s->pending_from == UINT64_MAX)) {
                snprintf(err, errlen, "line %u: %s=%s is the last sequence number: no record can follow it", n,
                         line, v);
                return -EBADMSG;
        }
        return 0;
}

int cursor_parse(const char *buf, size_t len, struct cursor_state *ret, char *err, size_t errlen) {
        struct cursor_state s = { .loaded = false };
        bool has_from = false;
        unsigned n = 0;
        char *copy, *p, *end;
        int e = 0;

        if (len == 0) {
                *ret = s;
                return 0; /* no state: a first run */
        }
        if (memchr(buf, '\0', len)) {
                snprintf(err, errlen, "contains a NUL byte: not a cursor file");
                return -EBADMSG;
        }
        /* A copy to cut into NUL-terminated lines. */
        copy = malloc(len + 1);
        if (!copy)
                return -ENOMEM;
        memcpy(copy, buf, len);
        copy[len] = '\0';
        end = copy + len;
        for (p = copy; p < end && e == 0;) {
                char *nl = memchr(p, '\n', (size_t)(end - p));

                if (nl)
                        *nl = '\0';
                e = parse_line(&s, p, ++n, &has_from, err, errlen);
                p = nl ? nl + 1 : end;
        }
        free(copy);
        if (e < 0)
                return e;
        if (!s.boot_id[0]) {
                snprintf(err, errlen, "no boot_id");
                return -EBADMSG;
        }
        if (s.has_pending) {
                if (!has_from)
                        s.pending_from = s.has_seq ? s.seq + 1 : 0;
                if (s.pending < s.pending_from || (s.has_seq && s.pending_from <= s.seq)) {
                        snprintf(err, errlen, "the pending range does not follow seq");
                        return -EBADMSG;
                }
        }
        /* Of no record, it says nothing. */
        s.newest = s.newest && s.has_seq;
        s.loaded = true;
        *ret = s;
        return 0;
}

int cursor_format(const struct cursor_state *s, char *buf, size_t size) {
        int len, k;

        len = snprintf(buf, size, "# kdmesg cursor: the last record written\nboot_id=%s\n", s->boot_id);
        if (len < 0 || (size_t)len >= size)
                return -ENOBUFS;
        if (s->has_seq) {
                k = snprintf(buf + len, size - (size_t)len, "seq=%llu\nusec=%llu\n%s", (unsigned long long)s->seq,
                             (unsigned long long)s->usec, s->newest ? "newest=1\n" : "");
                if (k < 0 || (size_t)k >= size - (size_t)len)
                        return -ENOBUFS;
                len += k;
        }
        if (s->has_pending) {
                k = snprintf(buf + len, size - (size_t)len, "pending_from=%llu\npending=%llu\n",
                             (unsigned long long)s->pending_from, (unsigned long long)s->pending);
                if (k < 0 || (size_t)k >= size - (size_t)len)
                        return -ENOBUFS;
                len += k;
        }
        return len;
}
