/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KMSG_PRIVATE_H
#define KMSG_PRIVATE_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

#include "libkmsg.h"

#define _public_ __attribute__((visibility("default")))
#define _unused_ __attribute__((unused))

/* Records longer than this from a 6.3+ kernel were cut without a newline. */
#define KMSG_TRUNCATED_RECORD 2048u

struct dict_entry {
        size_t key_off;
        size_t val_off;
        size_t val_len;
};

struct kmsg_record {
        int n_ref;
        unsigned priority;
        uint64_t seqnum;
        uint64_t usec;
        bool has_priority;
        bool has_seqnum;
        bool has_timestamp;
        bool has_caller;
        bool has_printed_time; /* a "dmesg -T" paste's stamp: printed_sec */
        int64_t printed_sec;   /* its date and time of day as seconds, in the printer's unnamed zone */
        char caller_kind;
        uint32_t caller_id;

        /* All strings live in data, NUL-terminated; offsets below. */
        char *data;
        size_t data_len;
        size_t data_cap;
        size_t flags_off;
        size_t fields_off;
        size_t caller_off; /* SIZE_MAX: none */
        size_t caller_len; /* its text's length up to a NUL (strlen()), where caller_off is set */
        size_t boot_id_off; /* the export form's _BOOT_ID; SIZE_MAX: none */
        size_t msg_off;
        size_t msg_len;

        struct dict_entry *dict;
        size_t n_dict;
        size_t dict_cap;
        ssize_t subsystem_idx;
        ssize_t device_idx;

        /* Journal fields of an export-form record that are not the record's own (see libkmsg.h). */
        struct dict_entry *jf;
        size_t n_jf;
        size_t jf_cap;
};

struct kmsg_loss {
        int n_ref;
        uint64_t first_seq; /* first missing sequence number */
        uint64_t count;     /* how many are missing; 0 when not known (KMSG_LOSS_REBOOT:
                               everything from first_seq to the end of that boot) */
        bool has_before;    /* whether usec_before is known */
        bool before_newest; /* the record before the gap was the newest there when it was read */
        uint64_t usec_before; /* time stamp of the record before the gap */
        uint64_t usec_after;  /* time stamp of the record after the gap */
        enum kmsg_loss_cause cause;
};

/* record.c */
struct kmsg_record *record_new(void);

/*
 * record_reset() but for the data area's "" at offset 0: for the scanner,
 * which writes it once it has room (inline: it runs for every record).
 */
static inline void record_reset_fields(struct kmsg_record *r) {
        r->priority = 0;
        r->seqnum = 0;
        r->usec = 0;
        r->has_priority = r->has_seqnum = r->has_timestamp = r->has_caller = r->has_printed_time = false;
        r->printed_sec = 0;
        r->caller_kind = 0;
        r->caller_id = 0;
        r->data_len = 0;
        r->n_dict = 0;
        r->n_jf = 0;
        r->subsystem_idx = r->device_idx = -1;
        r->caller_off = r->boot_id_off = SIZE_MAX;
        /* Offsets of "" until set: data always holds at least one NUL. */
        r->flags_off = r->fields_off = r->msg_off = 0;
        r->msg_len = 0;
}
/* Empty the record for the next parse (inline: it runs for every record). */
static inline void record_reset(struct kmsg_record *r) {
        record_reset_fields(r);
        if (r->data_cap > 0)
                r->data[0] = '\0';
}
/* Room for extra more bytes and a NUL in the data area; 0 or -ENOMEM. */
int record_reserve(struct kmsg_record *r, size_t extra);
/* record_reserve() where the room is usually there already: one comparison then (extra below SIZE_MAX / 4). */
static inline int record_room(struct kmsg_record *r, size_t extra) {
        return r->data_len + extra < r->data_cap ? 0 : record_reserve(r, extra);
}
/* The dictionary's room grown for one more entry; 0 or -ENOMEM. */
int record_dict_grow(struct kmsg_record *r);
/* Room for one more dictionary entry; 0 or -ENOMEM.  Inline: usually there, one comparison then. */
static inline int record_dict_reserve(struct kmsg_record *r) {
        return r->n_dict < r->dict_cap ? 0 : record_dict_grow(r);
}
/* Append len bytes (+ NUL) to the data area; returns offset or -ENOMEM via *ret. */
int record_append(struct kmsg_record *r, const void *p, size_t len, size_t *ret_off);
/* Append len bytes decoding \xNN escapes; returns offset and decoded length. */
int record_append_unescaped(struct kmsg_record *r, const char *p, size_t len, size_t *ret_off,
                            size_t *ret_len);
/* Keep the caller field's text and parse "T123" / "C4" from it. */
int record_set_caller(struct kmsg_record *r, const char *v, size_t len);
/* Keep the header fields after the flags as written; the first caller= is parsed. */
int record_set_fields(struct kmsg_record *r, const char *p, size_t len);
int record_add_dict(struct kmsg_record *r, const char *key, size_t key_len, const char *val,
                    size_t val_len, bool unescape);
/* Keep a journal field of export input as it was (kmsg_record_get_journal_field()). */
int record_add_journal(struct kmsg_record *r, const char *key, size_t key_len, const char *val, size_t val_len);
/*
 * Parse the kmsg text form into r (reset first).  On -EBADMSG, *ret_err
 * points to a static description.
 */
int record_parse_into(struct kmsg_record *r, const char *buf, size_t len, const char **ret_err);
/* record_parse_into() where the caller found the end of the header line: buf[eol] (eol <= len). */
int record_parse_lines(struct kmsg_record *r, const char *buf, size_t len, size_t eol, const char **ret_err);

/* The value of hex digit c (either case), -1 for any other byte: the \xNN escapes. */
static inline int hexval(unsigned char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

/*
 * Parse the unsigned decimal at the head of p[0..end); returns bytes used,
 * 0 on none or overflow.  Inline: the header parser calls it three times a
 * record.  (src/base's parse_u64() takes a whole C string instead: the
 * library works on buffers that are not NUL-terminated.)
 */
static inline size_t scan_u64(const char *p, const char *end, uint64_t *ret) {
        const char *s = p, *fast = end - p > 19 ? p + 19 : end;
        uint64_t v = 0;
        unsigned d;

        /* Nineteen digits cannot pass UINT64_MAX (20 digits): no check for them. */
        while (p < fast && (d = (unsigned)(unsigned char)*p - '0') <= 9) {
                v = v * 10 + d;
                p++;
        }
        while (p < end && (d = (unsigned)(unsigned char)*p - '0') <= 9) {
                /* UINT64_MAX is 18446744073709551615: no division per digit. */
                if (v >= UINT64_MAX / 10 && (v > UINT64_MAX / 10 || d > UINT64_MAX % 10))
                        return 0;
                v = v * 10 + d;
                p++;
        }
        if (p == s)
                return 0;
        *ret = v;
        return (size_t)(p - s);
}
/* The caller id v[0..len), whose text is kept at data offset off. */
static inline void record_parse_caller(struct kmsg_record *r, const char *v, size_t len, size_t off) {
        uint64_t id = 0;
        size_t n;

        r->caller_off = off;
        /* Up to a NUL, as the text's getter sees it (export's binary form may carry one). */
        r->caller_len = strnlen(v, len);
        /* Lenient: "T123", "C4"; anything else is kept as text only. */
        if (len >= 2 && (v[0] == 'T' || v[0] == 'C')) {
                n = scan_u64(v + 1, v + len, &id);
                if (n == len - 1 && id <= UINT32_MAX) {
                        r->has_caller = true;
                        r->caller_kind = v[0];
                        r->caller_id = (uint32_t)id;
                }
        }
}
/* Decode escapes of src into dst (capacity >= len); returns decoded length. */
size_t kmsg_unescape(char *dst, const char *src, size_t len);
/* Whether p[0..len) starts with " KEY=" where KEY is [A-Za-z0-9._-] and \xNN
 * escapes, at least one; returns 1 yes, 0 no, -1 cannot tell yet (ran out of
 * bytes). */
int dict_line_check(const char *p, size_t len);
/* Whether p[0..len) starts with a plausible kmsg header "N,N,N" + [,;]. */
bool header_check(const char *p, size_t len);

/*
 * kmsg-scan.c: parse the plain record of the text form that starts at buf
 * (len bytes are in the buffer, and buf[len] is a NUL byte; complete: no
 * more will come) in one pass.
 * Returns the bytes it takes (at most max; its newlines are 1 + r->n_dict,
 * the message line and a line for each dictionary entry), or 0 when the
 * record is not a plain one or its end is not known yet: then r is to be
 * reset and the general path (the splitter, record_parse_lines()) must
 * take it, as it would take any.  (The lines are not passed back through
 * a pointer: a seventh argument goes on the stack, and the stores cost each
 * record too.)
 */
size_t kmsg_scan_record(struct kmsg_record *r, const char *buf, size_t len, bool complete, size_t max);

/* reader.c: the device test double. */
struct kmsg_device_ops {
        ssize_t (*read)(void *userdata, void *buf, size_t n);
        off_t (*seek)(void *userdata, off_t off, int whence);
};
/* A stream reader (file form, chunked) that reads through ops->read. */
int kmsg_reader_new_stream_ops(const struct kmsg_device_ops *ops, void *userdata, const char *name,
                               enum kmsg_format format, struct kmsg_reader **ret);
int kmsg_reader_new_device_ops(const struct kmsg_device_ops *ops, void *userdata, enum kmsg_seek where,
                               struct kmsg_reader **ret);

#endif
