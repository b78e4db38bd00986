/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An in-memory byte source for stream readers, whose read() returns at most
 * `chunk` bytes and never crosses `split`, and a transcript of everything a
 * reader returns, so that two ways of reading the same bytes can be compared.
 */
#ifndef KMSG_MEMSRC_H
#define KMSG_MEMSRC_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "reader-private.h"

struct memsrc {
        const char *data;
        size_t len;
        size_t pos;
        size_t chunk;  /* 0: as much as asked */
        size_t split;  /* 0: none; else no read crosses this offset */
        bool eintr;    /* every other read fails with EINTR first */
        bool flip;
        size_t reads;
};

static inline ssize_t memsrc_read(void *userdata, void *buf, size_t n) {
        struct memsrc *m = userdata;
        size_t left = m->len - m->pos;

        if (m->eintr && (m->flip = !m->flip)) {
                errno = EINTR;
                return -1;
        }
        m->reads++;
        if (m->split && m->pos < m->split && n > m->split - m->pos)
                n = m->split - m->pos;
        if (m->chunk && n > m->chunk)
                n = m->chunk;
        if (n > left)
                n = left;
        memcpy(buf, m->data + m->pos, n);
        m->pos += n;
        return (ssize_t)n;
}

static const struct kmsg_device_ops memsrc_ops = {
        .read = memsrc_read,
};

static inline void put_escaped(FILE *f, const char *p, size_t len) {
        size_t i;

        for (i = 0; i < len; i++) {
                unsigned char c = (unsigned char)p[i];

                if (c < 0x20 || c >= 0x7f || c == '\\' || c == '|')
                        fprintf(f, "\\%02x", c);
                else
                        fputc(c, f);
        }
}

/* One line per record or error. */
static inline void transcript_record(FILE *f, const struct kmsg_reader *rd, const struct kmsg_record *r) {
        const char *m, *k, *v, *ct;
        int64_t printed;
        size_t len, i;

        fprintf(f, "R@%llu", (unsigned long long)kmsg_reader_get_position(rd));
        if (kmsg_record_has_priority(r))
                fprintf(f, " pri=%u", kmsg_record_get_priority(r));
        if (kmsg_record_has_seqnum(r))
                fprintf(f, " seq=%llu", (unsigned long long)kmsg_record_get_seqnum(r));
        if (kmsg_record_has_timestamp(r))
                fprintf(f, " usec=%llu", (unsigned long long)kmsg_record_get_timestamp(r));
        if (kmsg_record_get_printed_time(r, &printed) == 0)
                fprintf(f, " printed=%lld", (long long)printed);
        fprintf(f, " flags=%s fields=%s", kmsg_record_get_flags(r), kmsg_record_get_fields(r));
        ct = kmsg_record_get_caller_text(r);
        if (ct)
                fprintf(f, " caller=%s", ct);
        m = kmsg_record_get_message(r, &len);
        fputs(" msg=", f);
        put_escaped(f, m, len);
        for (i = 0; kmsg_record_get_dict_entry(r, i, &k, &v, &len) == 0; i++) {
                fprintf(f, " |%s=", k);
                put_escaped(f, v, len);
        }
        /* Journal fields of export input, after the dictionary. */
        for (i = 0; kmsg_record_get_journal_field(r, i, &k, &v, &len) == 0; i++) {
                fprintf(f, " J%s=", k);
                put_escaped(f, v, len);
        }
        fputc('\n', f);
}

/* Read everything; returns a malloc'd transcript. */
static inline char *transcript(struct kmsg_reader *rd) {
        char *s = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&s, &n);
        int e, guard = 0;

        if (!f)
                abort();
        for (;;) {
                struct kmsg_record *r;

                e = kmsg_reader_next(rd, &r);
                if (e == 1)
                        transcript_record(f, rd, r);
                else if (e == 0) {
                        fputs("EOF\n", f);
                        /* The end stays the end. */
                        e = kmsg_reader_next(rd, &r);
                        if (e != 0)
                                fprintf(f, "AFTER-EOF %d\n", e);
                        break;
                } else {
                        fprintf(f, "E%d@%llu %s\n", e, (unsigned long long)kmsg_reader_get_position(rd),
                                kmsg_reader_get_error(rd));
                        if (e != -EBADMSG && e != -E2BIG)
                                break;
                }
                if (++guard > 100000) {
                        fputs("LOOP\n", f);
                        break;
                }
        }
        fclose(f);
        return s;
}

/* Read data through a memsrc with the given read pattern; returns the transcript. */
static inline char *read_mem(const char *data, size_t len, enum kmsg_format fmt, size_t chunk, size_t split,
                             size_t max_record, enum kmsg_format *ret_fmt) {
        struct memsrc m = { .data = data, .len = len, .chunk = chunk, .split = split };
        struct kmsg_reader *rd = NULL;
        char *t;

        if (kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", fmt, &rd) < 0)
                abort();
        if (max_record && kmsg_reader_set_max_record_size(rd, max_record) < 0)
                abort();
        t = transcript(rd);
        if (ret_fmt)
                *ret_fmt = kmsg_reader_get_format(rd);
        kmsg_reader_unref(rd);
        return t;
}

/* First line where two transcripts differ, for a readable failure. */
static inline void report_diff(const char *file, int line, const char *what, size_t arg, const char *want,
                               const char *got) {
        size_t i = 0, wl, gl;

        while (want[i] && want[i] == got[i])
                i++;
        while (i > 0 && want[i - 1] != '\n')
                i--;
        wl = strcspn(want + i, "\n");
        gl = strcspn(got + i, "\n");
        test_fail(file, line, "%s %zu: transcript differs at:\n#  want: %.*s%s\n#  got:  %.*s%s", what, arg,
                  (int)(wl > 160 ? 160 : wl), want + i, wl > 160 ? "..." : "", (int)(gl > 160 ? 160 : gl),
                  got + i, gl > 160 ? "..." : "");
}

/*
 * Read data whole, then with every read size from 1 to len, then split in
 * two at every offset: the transcripts must all be the same as whole.
 * Returns the whole-read transcript (malloc'd).
 */
static inline char *check_all_boundaries(const char *file, int line, const char *data, size_t len,
                                         enum kmsg_format fmt, size_t max_record) {
        char *ref = read_mem(data, len, fmt, 0, 0, max_record, NULL);
        size_t n, fails = 0;

        for (n = 1; n <= len + 1 && fails < 3; n++) {
                char *t = read_mem(data, len, fmt, n, 0, max_record, NULL);

                if (strcmp(ref, t) != 0) {
                        report_diff(file, line, "chunk size", n, ref, t);
                        fails++;
                }
                free(t);
        }
        for (n = 1; n < len && fails < 3; n++) {
                char *t = read_mem(data, len, fmt, 0, n, max_record, NULL);

                if (strcmp(ref, t) != 0) {
                        report_diff(file, line, "split at", n, ref, t);
                        fails++;
                }
                free(t);
        }
        return ref;
}

static inline void check_transcript(const char *file, int line, const char *got, const char *want) {
        if (strcmp(got, want) != 0) {
                report_diff(file, line, "expected transcript, record", 0, want, got);
                if (getenv("TRANSCRIPT_DUMP"))
                        fprintf(stderr, "%s", got);
        }
}

#endif
