/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the fuzz targets: touch every accessor of a record, check the
 * invariants the API promises, and fold what was seen into a digest so
 * that two ways of reading the same bytes can be compared.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libkmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise of the API: crash so that the fuzzer keeps the input. */
#define FUZZ_ASSERT(cond)                                                                   \
        do {                                                                                \
                if (!(cond)) {                                                              \
                        fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, \
                                #cond);                                                     \
                        abort();                                                            \
                }                                                                           \
        } while (0)

/* A memfd holding p[0..len), its offset at 0: input to read as a file is read. */
static inline int fuzz_memfd(const void *p, size_t len) {
        int fd = memfd_create("fuzz", MFD_CLOEXEC);

        FUZZ_ASSERT(fd >= 0);
        FUZZ_ASSERT(len == 0 || write(fd, p, len) == (ssize_t)len);
        FUZZ_ASSERT(lseek(fd, 0, SEEK_SET) == 0);
        return fd;
}

static inline uint64_t digest_bytes(uint64_t h, const void *p, size_t len) {
        const unsigned char *s = p;
        size_t i;

        for (i = 0; i < len; i++)
                h = (h ^ s[i]) * 1099511628211u;
        /* Mark the end so that ("ab","c") and ("a","bc") differ. */
        return (h ^ 0xff) * 1099511628211u;
}

static inline uint64_t digest_u64(uint64_t h, uint64_t v) {
        return digest_bytes(h, &v, sizeof(v));
}

static inline uint64_t digest_str(uint64_t h, const char *s) {
        return s ? digest_bytes(h, s, strlen(s)) : digest_u64(h, 0x6e756c6c);
}

/* Exercise every accessor of r; returns h updated with what r holds. */
static inline uint64_t exercise_record(struct kmsg_record *r, uint64_t h) {
        const char *msg, *flags, *fields, *caller_text, *subsystem, *device;
        size_t len, n, i;
        char kind = 0;
        uint32_t id = 0;
        int e;

        FUZZ_ASSERT(kmsg_record_ref(r) == r);
        kmsg_record_unref(r);

        h = digest_u64(h, (uint64_t)kmsg_record_has_priority(r) << 32 | kmsg_record_get_priority(r));
        FUZZ_ASSERT(kmsg_record_get_level(r) == (kmsg_record_get_priority(r) & 7));
        FUZZ_ASSERT(kmsg_record_get_facility(r) == kmsg_record_get_priority(r) >> 3);
        h = digest_str(h, kmsg_level_to_name(kmsg_record_get_level(r)));
        h = digest_str(h, kmsg_facility_to_name(kmsg_record_get_facility(r)));
        h = digest_u64(h, (uint64_t)kmsg_record_has_seqnum(r));
        h = digest_u64(h, kmsg_record_get_seqnum(r));
        h = digest_u64(h, (uint64_t)kmsg_record_has_timestamp(r));
        h = digest_u64(h, kmsg_record_get_timestamp(r));

        flags = kmsg_record_get_flags(r);
        FUZZ_ASSERT(flags);
        h = digest_str(h, flags);
        h = digest_u64(h, (uint64_t)!!kmsg_record_is_fragment(r));
        FUZZ_ASSERT(!!kmsg_record_is_fragment(r) == !!(strchr(flags, 'c') || strchr(flags, '+')));
        fields = kmsg_record_get_fields(r);
        FUZZ_ASSERT(fields);
        h = digest_str(h, fields);
        e = kmsg_record_get_caller(r, &kind, &id);
        FUZZ_ASSERT(e == 0 || e == -ENODATA);
        caller_text = kmsg_record_get_caller_text(r);
        if (e == 0) {
                FUZZ_ASSERT(kind == 'T' || kind == 'C');
                FUZZ_ASSERT(caller_text && caller_text[0] == kind);
        }
        h = digest_u64(h, e == 0 ? (uint64_t)(unsigned char)kind << 32 | id : 1ull << 63);
        h = digest_str(h, caller_text);

        msg = kmsg_record_get_message(r, &len);
        FUZZ_ASSERT(msg && msg[len] == '\0');
        FUZZ_ASSERT(kmsg_record_get_message(r, NULL) == msg);
        h = digest_bytes(h, msg, len);

        n = kmsg_record_get_dict_count(r);
        h = digest_u64(h, n);
        for (i = 0; i < n; i++) {
                const char *key, *value, *first;
                size_t vlen, flen;

                FUZZ_ASSERT(kmsg_record_get_dict_entry(r, i, &key, &value, &vlen) == 0);
                FUZZ_ASSERT(key && value && value[vlen] == '\0');
                h = digest_str(h, key);
                h = digest_bytes(h, value, vlen);
                /* The first entry with this key is what a lookup finds. */
                first = kmsg_record_get_dict_value(r, key, &flen);
                FUZZ_ASSERT(first);
                FUZZ_ASSERT(first[flen] == '\0');
        }
        FUZZ_ASSERT(kmsg_record_get_dict_entry(r, n, NULL, NULL, NULL) == -ERANGE);
        subsystem = kmsg_record_get_subsystem(r);
        device = kmsg_record_get_device(r);
        FUZZ_ASSERT(subsystem == kmsg_record_get_dict_value(r, "SUBSYSTEM", NULL));
        FUZZ_ASSERT(device == kmsg_record_get_dict_value(r, "DEVICE", NULL));
        h = digest_str(h, subsystem);
        h = digest_str(h, device);
        return h;
}

#endif
