/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef READER_PRIVATE_H
#define READER_PRIVATE_H

#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "kmsg-private.h"

struct kmsg_reader;

/*
 * One input form of stream readers (stream-*.c): a row of the table of
 * forms (stream_forms, stream.c), which detection, the readers and
 * kmsg_format_to_name() read.
 */
struct stream_ops {
        enum kmsg_format format;
        const char *name; /* "kmsg": kmsg_format_to_name(), kdmesg's --input-format */
        /*
         * Whether the line [p, end) (its newline and a '\r' before it
         * removed; not blank) starts a record of this form.  Detection
         * counts such lines (stream.c); the forms' lines never start alike.
         */
        bool (*detect)(const char *p, const char *end);
        /* kmsg_reader_next() for the format; the format's state is rd->state. */
        int (*next)(struct kmsg_reader *rd, struct kmsg_record **ret);
        /* Free rd->state (NULL when the format never allocated it). */
        void (*free)(void *state);
};

extern const struct stream_ops stream_kmsg_ops;
extern const struct stream_ops stream_export_ops;
extern const struct stream_ops stream_syslog_ops;
extern const struct stream_ops stream_json_ops;
/* The form of format, or NULL (KMSG_FORMAT_AUTO, out of range). */
const struct stream_ops *stream_form(enum kmsg_format format);

struct kmsg_reader {
        int n_ref;
        int fd;
        bool own_fd;
        bool is_device;
        bool eof;
        bool follow;  /* streams: the end of the data is not the end of input */
        bool paused;  /* follow: the last read found no new bytes */
        bool input_kind_known;
        bool waits;   /* the descriptor is a pipe, FIFO or terminal: read() may block */
        bool general_only; /* tests: every record through the general path, kmsg_scan_record() unused */
        bool limited; /* kmsg_reader_set_range(): only `left` more bytes are read */
        uint64_t left;
        const volatile sig_atomic_t *interrupt; /* kmsg_reader_set_interrupt() */
        int wake_fd;
        char *name;
        enum kmsg_format format;
        size_t max_record;

        /* Stream buffer: unread bytes are buf[start..end). */
        char *buf;
        size_t cap;
        size_t start;
        size_t end;
        uint64_t line; /* line number at buf[start] */
        /*
         * buf[nul_from..nul_to) holds no NUL byte, and buf[nul_to] is one if
         * nul_found: the stream is searched for NUL bytes once, not once a
         * line (stream_next_nul()).
         */
        size_t nul_from, nul_to;
        bool nul_found;
        uint64_t pos;  /* where the last record or error started */

        /* The format of a stream, and its private state. */
        const struct stream_ops *fmt;
        void *state;

        /* Where the bytes come from: read() on fd, or a test's callbacks. */
        const struct kmsg_device_ops *ops;
        void *userdata;
        uint64_t records; /* devices: records read */

        struct kmsg_record *rec;
        char err[256];
};

/*
 * A record's size limit (max_record) counts its decoded bytes.  JSON and
 * export input take up to this many times as many bytes for it, so that
 * what kdmesg writes of any record it read in these forms reads back:
 * JSON writes a byte as at most 6 (\u00NN), the export form adds at most
 * about 5 per byte of a dictionary entry (KMSG_DICT=, lengths).
 */
#define KMSG_ENCODED_FACTOR 8u

/* The most bytes of input one record may take in the reader's format. */
static inline size_t stream_raw_limit(const struct kmsg_reader *rd) {
        bool encoded = rd->format == KMSG_FORMAT_JSON || rd->format == KMSG_FORMAT_EXPORT;

        return encoded ? rd->max_record * KMSG_ENCODED_FACTOR : rd->max_record;
}

/* stream.c */
/* The first NUL byte in buf[p - buf..end), or NULL. */
static inline const char *stream_next_nul(struct kmsg_reader *rd, const char *p) {
        size_t off = (size_t)(p - rd->buf);

        if (off < rd->nul_from || off > rd->nul_to) {
                rd->nul_from = rd->nul_to = off;
                rd->nul_found = false;
        }
        if (!rd->nul_found && rd->nul_to < rd->end) {
                const char *z = memchr(rd->buf + rd->nul_to, '\0', rd->end - rd->nul_to);

                rd->nul_found = z != NULL;
                rd->nul_to = z ? (size_t)(z - rd->buf) : rd->end;
        }
        return rd->nul_found ? rd->buf + rd->nul_to : NULL;
}

/* Whether the interrupt flag (kmsg_reader_set_interrupt()) is set. */
bool reader_interrupted(const struct kmsg_reader *rd);
void reader_set_error(struct kmsg_reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new record to parse into, the caller having kept the last (reader_record()). */
struct kmsg_record *reader_record_new(struct kmsg_reader *rd);
/* The record to parse into (a new one if the caller kept the last).  Inline: it runs for every record. */
static inline struct kmsg_record *reader_record(struct kmsg_reader *rd) {
        return rd->rec->n_ref > 1 ? reader_record_new(rd) : rd->rec;
}
/*
 * The end of every next(): e is the parser's result for r.  -EBADMSG sets
 * the error to what + err; other errors pass; 0 stores r in *ret, returns 1.
 */
int stream_take(struct kmsg_reader *rd, struct kmsg_record *r, int e, const char *what, const char *err,
                struct kmsg_record **ret);
/*
 * Read more input into the stream buffer.  Returns bytes read, 0 at EOF,
 * -EINTR once the interrupt flag is set (rd->paused is then set: a record
 * whose last line is complete is complete), or -errno.
 */
int stream_fill(struct kmsg_reader *rd);
/* Advance start to new_start, counting the newlines passed. */
void stream_consume(struct kmsg_reader *rd, size_t new_start);
/* Line readers: skip a line longer than stream_raw_limit(); returns -E2BIG. */
int stream_skip_long_line(struct kmsg_reader *rd);
/* Set rd->format from the first bytes (reading them).  Returns 0 or -errno. */
int stream_detect(struct kmsg_reader *rd);

/* stream-syslog.c: whether the line p[0..len) starts a syslog-form record. */
/*
 * json-text.c: the microseconds of the JSON number v exactly as written
 * (0 or -EBADMSG), and the pairs at the top of the object in p[0..end)
 * (valid JSON), which json-c merges where a key repeats.
 */
struct json_object;
int json_usec_of(struct json_object *v, uint64_t *ret);
size_t json_top_pairs(const char *p, const char *end);

/* The export form (stream-export*.c): the little-endian u64 of a binary field's length. */
static inline uint64_t export_le64(const unsigned char *p) {
        uint64_t v = 0;
        int i;

        for (i = 7; i >= 0; i--)
                v = v << 8 | p[i];
        return v;
}

/* Bytes of a field name: journal fields are upper case, digits and '_'; lower case is taken too. */
static inline bool export_name_chars(const char *p, size_t n) {
        size_t i;

        for (i = 0; i < n; i++) {
                char c = p[i];

                if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
                        return false;
        }
        return true;
}

/*
 * stream-export-build.c: map the fields of one complete export entry,
 * p[0..len) starting at line `line`, onto r (reset first).  KMSG_MERGED is
 * opened where it stands.  Returns 0, 1 for a loss or new-boot entry
 * kdmesg wrote (not a record), -E2BIG when what the entry decodes to
 * passes max_record bytes, -ENOMEM, or -EBADMSG with *ret_err set to the
 * reason (static, or written into err[0..err_size)).
 */
int export_build(struct kmsg_record *r, const char *p, size_t len, uint64_t line, size_t max_record, char *err,
                 size_t err_size, const char **ret_err);

/*
 * stream-export-prefix.c: put "ident[pid]: " that journald took off a
 * userspace record's message back in front of it.  0 or -ENOMEM.
 */
int export_restore_prefix(struct kmsg_record *r, uint64_t facility, const char *ident, size_t ident_len,
                          const char *pid, size_t pid_len);

/* syslog-prefix.c: what the head of a syslog-form line says about the record it starts. */
struct prefix {
        unsigned priority;
        uint64_t usec;
        bool has_priority;
        bool has_timestamp;
        /* The caller id after the time stamp ("[    T1] " gives "T1"): p[caller_off..+caller_len), or caller_len 0. */
        size_t caller_off, caller_len;
        bool wall_clock; /* a "dmesg -T" stamp: a time of day, no monotonic time (has_timestamp false) */
        int64_t wall_sec; /* its date and time as seconds since 1970-01-01 00:00:00 of the printer's zone */
        bool cut_space;  /* the line ends where the printed head had its last space (stripped from a paste) */
};

/* The head's length (the message follows it), or 0 when the line starts no record. */
size_t syslog_parse_prefix(const char *p, size_t len, struct prefix *ret);
/* Whether p[0..len) starts a record in the syslog form. */
bool syslog_line_check(const char *p, size_t len);

/* reader.c, tests only: read a stream through ops instead of read() on its fd (kept for poll()). */
void reader_set_source(struct kmsg_reader *rd, const struct kmsg_device_ops *ops, void *userdata);

#endif
