/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fuzz kmsg_record_parse(): any buffer either parses or is refused with
 * -EBADMSG.  A parsed record is written back in the /dev/kmsg text form,
 * escaping the message and dictionary values as the kernel does (and keys'
 * bytes outside [A-Za-z0-9._-], which the parser decodes too), and
 * parsed again: both must agree (escapes are decoded exactly once).
 */
#include <errno.h>

#include "fuzz-common.h"

static char *out;
static size_t out_len, out_cap;

static void put(const void *p, size_t len) {
        if (out_len + len > out_cap) {
                size_t cap = out_cap ? out_cap : 4096;

                while (cap < out_len + len)
                        cap *= 2;
                out = realloc(out, cap);
                FUZZ_ASSERT(out);
                out_cap = cap;
        }
        memcpy(out + out_len, p, len);
        out_len += len;
}

static void put_escaped(const char *p, size_t len) {
        static const char hex[] = "0123456789abcdef";
        size_t i;

        for (i = 0; i < len; i++) {
                unsigned char c = (unsigned char)p[i];

                if (c < 0x20 || c == '\\' || c >= 0x7f) {
                        char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

                        put(e, 4);
                } else
                        put(&c, 1);
        }
}

/* A dictionary key: bytes other than [A-Za-z0-9._-] as \xNN, as the parser decodes them. */
static void put_key(const char *key) {
        static const char hex[] = "0123456789abcdef";
        const unsigned char *s;

        for (s = (const unsigned char *)key; *s; s++) {
                unsigned char c = *s;

                if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-')
                        put(&c, 1);
                else {
                        char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

                        put(e, 4);
                }
        }
}

static void put_u64(uint64_t v) {
        char tmp[24];

        put(tmp, (size_t)snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v));
}

/* Whether the header (up to the first ';' of the first line) holds a NUL:
 * flags and fields are C strings, so such a header cannot be rebuilt. */
static int header_has_nul(const uint8_t *data, size_t size) {
        size_t i;

        for (i = 0; i < size && data[i] != ';' && data[i] != '\n'; i++)
                if (data[i] == '\0')
                        return 1;
        return 0;
}

static void round_trip(struct kmsg_record *r, uint64_t h) {
        const char *flags = kmsg_record_get_flags(r), *fields = kmsg_record_get_fields(r), *msg;
        struct kmsg_record *again = NULL;
        size_t len, i, n;

        out_len = 0;
        put_u64(kmsg_record_get_priority(r));
        put(",", 1);
        put_u64(kmsg_record_get_seqnum(r));
        put(",", 1);
        put_u64(kmsg_record_get_timestamp(r));
        if (flags[0] || fields[0]) {
                put(",", 1);
                put(flags, strlen(flags));
        }
        if (fields[0]) {
                put(",", 1);
                put(fields, strlen(fields));
        }
        put(";", 1);
        msg = kmsg_record_get_message(r, &len);
        put_escaped(msg, len);
        put("\n", 1);
        n = kmsg_record_get_dict_count(r);
        for (i = 0; i < n; i++) {
                const char *key, *value;
                size_t vlen;

                kmsg_record_get_dict_entry(r, i, &key, &value, &vlen);
                put(" ", 1);
                put_key(key);
                put("=", 1);
                put_escaped(value, vlen);
                put("\n", 1);
        }
        FUZZ_ASSERT(kmsg_record_parse(out, out_len, &again) == 0);
        FUZZ_ASSERT(exercise_record(again, 0) == h);
        kmsg_record_unref(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct kmsg_record *r = NULL;
        uint64_t h;
        int e;

        e = kmsg_record_parse((const char *)data, size, &r);
        FUZZ_ASSERT(e == 0 || e == -EBADMSG);
        if (e < 0) {
                FUZZ_ASSERT(r == NULL);
                return 0;
        }
        h = exercise_record(r, 0);
        if (!header_has_nul(data, size))
                round_trip(r, h);
        FUZZ_ASSERT(kmsg_record_unref(r) == NULL);
        return 0;
}
