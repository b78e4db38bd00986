/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef READER_PRIVATE_H
#define READER_PRIVATE_H

#include <stdarg.h>

#include "kmsg-private.h"

struct json_tokener;

/* Incremental scanner state for the export form. */
struct export_scan {
        bool active;       /* inside a record */
        int state;
        size_t off;        /* scan position, relative to the buffer */
        uint64_t remaining; /* bytes of binary data still to pass */
        bool line_has_eq;
        bool skipping;     /* the record is too big: discard as we go */
        bool broken;       /* the record is malformed: report at its end */
        const char *why;
};

struct kmsg_reader {
        int n_ref;
        int fd;
        bool own_fd;
        bool is_device;
        bool eof;
        bool follow;  /* streams: the end of the data is not the end of input */
        bool paused;  /* follow: the last read found no new bytes */
        char *name;
        enum kmsg_format format;
        size_t max_record;
        size_t chunk_max; /* tests: largest read() of a stream, 0 for CHUNK */

        /* Stream buffer: unread bytes are buf[start..end). */
        char *buf;
        size_t cap;
        size_t start;
        size_t end;
        uint64_t line; /* line number at buf[start] */
        uint64_t pos;  /* where the last record or error started */

        /* kmsg streams: skipping a record over the size limit. */
        int skip_state;
        struct export_scan xs;

        /* Devices. */
        const struct kmsg_device_ops *ops;
        void *userdata;
        uint64_t records;

        /* JSON Lines: the json-c tokener (struct json_tokener). */
        struct json_tokener *json_tok;

        struct kmsg_record *rec;
        char err[256];
};

void reader_set_error(struct kmsg_reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct kmsg_record *reader_record(struct kmsg_reader *rd);
int stream_fill(struct kmsg_reader *rd);
/* Tests only: make every read() of a stream ask for at most n bytes (0: default). */
void reader_set_chunk_size(struct kmsg_reader *rd, size_t n);
/* Advance start to new_start, counting the newlines passed. */
void stream_consume(struct kmsg_reader *rd, size_t new_start);
/* Line readers: skip a line longer than max_record; returns -E2BIG. */
int stream_skip_long_line(struct kmsg_reader *rd);

int kmsg_stream_next(struct kmsg_reader *rd, struct kmsg_record **ret);
int export_next(struct kmsg_reader *rd, struct kmsg_record **ret);
int syslog_next(struct kmsg_reader *rd, struct kmsg_record **ret);
int json_next(struct kmsg_reader *rd, struct kmsg_record **ret);
void json_stream_free(struct kmsg_reader *rd);

#endif
