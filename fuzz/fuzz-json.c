/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fuzz the JSON Lines reader (kdmesg --json read back by -K): the input is
 * read with the JSON format forced, and every record is taken apart with
 * every accessor.  Each record is then written again as one JSON line of
 * the plainest form (every text as an array of byte values, every
 * dictionary pair in order, repeated keys too) and read back: it must come
 * back as the same record, so that no value the reader accepts is one it
 * cannot carry.  Errors are only the documented ones, with a message, on
 * a line of the input.
 */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>

#include "fuzz-common.h"

struct text {
        char *p;
        size_t len, cap;
};

static void put(struct text *t, const void *p, size_t len) {
        if (t->len + len + 1 > t->cap) {
                size_t cap = (t->len + len + 1) * 2;

                t->p = realloc(t->p, cap);
                FUZZ_ASSERT(t->p);
                t->cap = cap;
        }
        memcpy(t->p + t->len, p, len);
        t->len += len;
        t->p[t->len] = '\0';
}

static void puts_(struct text *t, const char *s) {
        put(t, s, strlen(s));
}

/* A text as an array of its byte values: exact whatever the bytes. */
static void put_bytes(struct text *t, const char *p, size_t len) {
        char num[8];
        size_t i;

        puts_(t, "[");
        for (i = 0; i < len; i++) {
                snprintf(num, sizeof(num), "%s%u", i ? "," : "", (unsigned)(unsigned char)p[i]);
                puts_(t, num);
        }
        puts_(t, "]");
}

/* A dictionary key as a JSON string: '"', '\' and control bytes escaped, other bytes as they are. */
static void put_key(struct text *t, const char *k) {
        char esc[8];

        puts_(t, "\"");
        for (; *k; k++) {
                unsigned char c = (unsigned char)*k;

                if (c == '"' || c == '\\' || c < 0x20) {
                        snprintf(esc, sizeof(esc), "\\u%04x", c);
                        puts_(t, esc);
                } else
                        put(t, k, 1);
        }
        puts_(t, "\"");
}

/* r as one JSON line (without the newline) in t. */
static void write_record(struct text *t, const struct kmsg_record *r) {
        char num[64];
        const char *s;
        size_t len, i, n;

        t->len = 0;
        puts_(t, "{");
        if (kmsg_record_has_seqnum(r)) {
                snprintf(num, sizeof(num), "\"seq\":%" PRIu64 ",", kmsg_record_get_seqnum(r));
                puts_(t, num);
        }
        if (kmsg_record_has_timestamp(r)) {
                uint64_t usec = kmsg_record_get_timestamp(r);

                snprintf(num, sizeof(num), "\"time\":%" PRIu64 ".%06" PRIu64 ",", usec / 1000000, usec % 1000000);
                puts_(t, num);
        }
        if (kmsg_record_has_priority(r)) {
                snprintf(num, sizeof(num), "\"pri\":%u,", kmsg_record_get_priority(r));
                puts_(t, num);
        }
        s = kmsg_record_get_flags(r);
        puts_(t, "\"flags\":");
        put_bytes(t, s, strlen(s));
        s = kmsg_record_get_fields(r);
        puts_(t, ",\"fields\":");
        put_bytes(t, s, strlen(s));
        s = kmsg_record_get_message(r, &len);
        puts_(t, ",\"msg\":");
        put_bytes(t, s, len);
        n = kmsg_record_get_dict_count(r);
        puts_(t, ",\"dict\":{");
        for (i = 0; i < n; i++) {
                const char *key, *value;
                size_t vlen;

                FUZZ_ASSERT(kmsg_record_get_dict_entry(r, i, &key, &value, &vlen) == 0);
                if (i)
                        puts_(t, ",");
                put_key(t, key);
                puts_(t, ":");
                put_bytes(t, value, vlen);
        }
        puts_(t, "}}");
}

/* The one record that the JSON line in t is; its digest. */
static uint64_t read_back(const struct text *t) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r = NULL;
        int fd = fuzz_memfd(t->p, t->len), e;
        uint64_t h;

        FUZZ_ASSERT(kmsg_reader_new_fd(fd, "again", KMSG_FORMAT_JSON, &rd) == 0);
        e = kmsg_reader_next(rd, &r);
        if (e != 1)
                fprintf(stderr, "written again as %s\nread back: %d %s\n", t->p, e,
                        e < 0 ? kmsg_reader_get_error(rd) : "");
        FUZZ_ASSERT(e == 1 && r);
        h = exercise_record(r, 0);
        r = NULL;
        FUZZ_ASSERT(kmsg_reader_next(rd, &r) == 0);
        kmsg_reader_unref(rd);
        close(fd);
        return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct kmsg_reader *rd = NULL;
        struct text t = { NULL, 0, 0 };
        uint64_t lines = 1, pos = 0;
        int fd = fuzz_memfd(data, size), e = 0, i;
        size_t j;

        for (j = 0; j < size; j++)
                lines += data[j] == '\n';
        FUZZ_ASSERT(kmsg_reader_new_fd(fd, "fuzz", KMSG_FORMAT_JSON, &rd) == 0);
        /* Bounded: every call consumes input or ends it. */
        for (i = 0; i < 1000000; i++) {
                struct kmsg_record *r = NULL;
                uint64_t h;

                e = kmsg_reader_next(rd, &r);
                if (e == 0)
                        break;
                FUZZ_ASSERT(kmsg_reader_get_position(rd) >= 1 && kmsg_reader_get_position(rd) <= lines);
                FUZZ_ASSERT(kmsg_reader_get_position(rd) >= pos);
                pos = kmsg_reader_get_position(rd);
                if (e < 0) {
                        const char *err = kmsg_reader_get_error(rd);

                        FUZZ_ASSERT(e == -EBADMSG || e == -E2BIG);
                        FUZZ_ASSERT(err && err[0] && !strchr(err, '\n'));
                        continue;
                }
                FUZZ_ASSERT(e == 1 && r);
                FUZZ_ASSERT(kmsg_reader_get_format(rd) == KMSG_FORMAT_JSON);
                h = exercise_record(r, 0);
                write_record(&t, r);
                if (read_back(&t) != h) {
                        fprintf(stderr, "line %" PRIu64 " written again as %s\nreads back as another record\n",
                                pos, t.p);
                        abort();
                }
        }
        FUZZ_ASSERT(e == 0);
        kmsg_reader_unref(rd);
        close(fd);
        free(t.p);
        return 0;
}
