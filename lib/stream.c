/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every stream format shares: the buffer that holds one record plus
 * one chunk (filled through the reader's read callback), consuming and
 * skipping lines, detecting the format from the first bytes, and the end
 * of each next() (the error text, the record handed out).  The formats
 * (stream-*.c) build on this file; it knows none of them.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader-private.h"

/* One read(2): as much as cat(1) reads, which costs 2% less than 64 KiB on a 100 MB dump. */
#define CHUNK 131072u

void reader_set_error(struct kmsg_reader *rd, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(rd->err, sizeof(rd->err), fmt, ap);
        va_end(ap);
}

/* The record handed out last was kept by the caller: use a new one. */
struct kmsg_record *reader_record_new(struct kmsg_reader *rd) {
        struct kmsg_record *r = record_new();

        if (!r)
                return NULL;
        kmsg_record_unref(rd->rec);
        rd->rec = r;
        return r;
}

/* The end of a next(): e is a parser's result for r, err its text for -EBADMSG. */
int stream_take(struct kmsg_reader *rd, struct kmsg_record *r, int e, const char *what, const char *err,
                struct kmsg_record **ret) {
        if (e == -EBADMSG) {
                reader_set_error(rd, "%s%s", what, err);
                return e;
        }
        if (e < 0)
                return e;
        /* JSON and export input may take more bytes than the limit: what they decode to may not. */
        if (!rd->is_device && stream_raw_limit(rd) > rd->max_record && r->data_len > rd->max_record) {
                reader_set_error(rd, "record larger than %zu bytes skipped", rd->max_record);
                return -E2BIG;
        }
        *ret = r;
        return 1;
}

bool reader_interrupted(const struct kmsg_reader *rd) {
        return rd->interrupt && *rd->interrupt;
}

/* Stop at the interrupt: what is in the buffer is all there will be. */
static int stop(struct kmsg_reader *rd) {
        rd->paused = true;
        return -EINTR;
}

/*
 * Block until the descriptor has data or has ended, or the wake-up
 * descriptor of the interrupt is readable.  Returns 0, -EINTR when the
 * interrupt flag is set, or -errno.
 */
static int wait_readable(struct kmsg_reader *rd) {
        struct pollfd p[2] = {
                { .fd = rd->fd, .events = POLLIN },
                { .fd = rd->wake_fd, .events = POLLIN },
        };
        int r;

        for (;;) {
                if (reader_interrupted(rd))
                        return stop(rd);
                r = poll(p, rd->wake_fd >= 0 ? 2 : 1, -1);
                if (r >= 0)
                        break;
                if (errno != EINTR)
                        return -errno;
        }
        if (p[0].revents & POLLNVAL)
                return -EBADF;
        /* Woken only by the wake-up descriptor: the flag decides. */
        if (!p[0].revents && reader_interrupted(rd))
                return stop(rd);
        return 0;
}

/*
 * Whether read() on the descriptor can block for long: a pipe, FIFO,
 * socket or terminal (not a regular file, nor a buffer or a test's callbacks).
 */
static bool may_block(struct kmsg_reader *rd) {
        struct stat st;

        if (!rd->input_kind_known) {
                /* Only a reader that read()s its descriptor (not a test's callbacks). */
                rd->waits = rd->fd >= 0 && rd->userdata == &rd->fd && fstat(rd->fd, &st) == 0 && !S_ISREG(st.st_mode) &&
                            !S_ISBLK(st.st_mode);
                rd->input_kind_known = true;
        }
        return rd->waits;
}

/* Read more input into the stream buffer.  Returns bytes read, 0 at EOF, or -errno. */
int stream_fill(struct kmsg_reader *rd) {
        bool grows = true; /* a source without a descriptor behaves as a file */
        size_t want, room;
        ssize_t n;

        if (rd->eof)
                return 0;
        if (reader_interrupted(rd))
                return stop(rd);
        if (rd->start > 0) {
                memmove(rd->buf, rd->buf + rd->start, rd->end - rd->start);
                rd->end -= rd->start;
                /* What is known of NUL bytes moves with the bytes. */
                if (rd->nul_to >= rd->start) {
                        rd->nul_from = rd->nul_from > rd->start ? rd->nul_from - rd->start : 0;
                        rd->nul_to -= rd->start;
                } else {
                        rd->nul_from = rd->nul_to = 0;
                        rd->nul_found = false;
                }
                rd->start = 0;
        }
        /* Room for one read() of a chunk, or of what is left of a range (many small parts, small buffers). */
        room = rd->limited && rd->left < CHUNK ? (size_t)rd->left + 1 : CHUNK;
        if (rd->cap - rd->end < room) {
                size_t cap = rd->cap ? rd->cap : room;
                char *p;

                while (cap - rd->end < room)
                        cap *= 2;
                /* A byte more than cap: room for kmsg_scan_record()'s end mark. */
                p = realloc(rd->buf, cap + 1);
                if (!p)
                        return -ENOMEM;
                rd->buf = p;
                rd->cap = cap;
        }
        want = rd->cap - rd->end;
        if (want > CHUNK)
                want = CHUNK;
        if (rd->limited) {
                /* The end of the range is the end of the input. */
                if (rd->left == 0) {
                        rd->eof = true;
                        return 0;
                }
                if (want > rd->left)
                        want = (size_t)rd->left;
        }
        if (rd->follow && rd->fd >= 0) {
                struct pollfd p = { .fd = rd->fd, .events = POLLIN };
                struct stat st;
                int r;

                /* Never block: a pipe with nothing in it is "no more for now". */
                if (fstat(rd->fd, &st) < 0)
                        return -errno;
                grows = S_ISREG(st.st_mode);
                if (!grows) {
                        do
                                r = poll(&p, 1, 0);
                        while (r < 0 && errno == EINTR);
                        if (r < 0)
                                return -errno;
                        if (r == 0) {
                                rd->paused = true;
                                return -EAGAIN;
                        }
                }
        }
        /* With a wake-up descriptor, wait where a signal cannot be missed. */
        if (!rd->follow && rd->wake_fd >= 0 && may_block(rd)) {
                int e = wait_readable(rd);

                if (e < 0)
                        return e;
        }
        for (;;) {
                n = rd->ops->read(rd->userdata, rd->buf + rd->end, want);
                if (n >= 0)
                        break;
                if (errno == EINTR) {
                        if (reader_interrupted(rd))
                                return stop(rd);
                        continue;
                }
                if (errno == EAGAIN && rd->follow) {
                        rd->paused = true;
                        return -EAGAIN;
                }
                if (errno == EAGAIN && rd->fd >= 0) {
                        /*
                         * A non-blocking descriptor (stdin inherited with
                         * O_NONBLOCK) that has nothing yet: the input has not
                         * ended, so wait for it rather than stop early.
                         */
                        int e = wait_readable(rd);

                        if (e < 0)
                                return e;
                        continue;
                }
                return -errno;
        }
        if (rd->follow) {
                if (n == 0 && grows) {
                        /* A file that may still grow. */
                        rd->paused = true;
                        return -EAGAIN;
                }
                rd->paused = false;
        }
        if (n == 0)
                rd->eof = true;
        if (rd->limited)
                rd->left -= (uint64_t)n;
        rd->end += (size_t)n;
        return (int)n;
}

void stream_consume(struct kmsg_reader *rd, size_t new_start) {
        const char *p = rd->buf + rd->start, *end = rd->buf + new_start;

        while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
                rd->line++;
                p++;
        }
        rd->start = new_start;
}

/*
 * The line at start is longer than the record limit and has no newline in
 * the buffer yet: drop it, reading on to its end without keeping it.
 * Returns -E2BIG with the error set, or -errno if reading failed.
 */
int stream_skip_long_line(struct kmsg_reader *rd) {
        const char *nl;
        int e;

        rd->pos = rd->line;
        for (;;) {
                rd->start = rd->end;
                e = stream_fill(rd);
                if (e < 0)
                        return e;
                nl = memchr(rd->buf + rd->start, '\n', rd->end - rd->start);
                if (nl || e == 0)
                        break;
        }
        stream_consume(rd, nl ? (size_t)(nl + 1 - rd->buf) : rd->end);
        rd->line = rd->pos + 1;
        reader_set_error(rd, "line longer than %zu bytes skipped", stream_raw_limit(rd));
        return -E2BIG;
}
