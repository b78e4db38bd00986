/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Readers: the live device (one record per read()) and byte streams (files,
 * pipes, stdin) read in fixed chunks.  A stream never holds more than one
 * record plus one chunk in memory, whatever its size.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "reader-private.h"

#define CHUNK 65536u
#define DEVICE_BUFFER 16384u /* records are at most 8192 bytes on any kernel */
/* The kernel's /dev/kmsg is the memory device 1:11 (drivers/char/mem.c). */
#define KMSG_DEVICE_MAJOR 1
#define KMSG_DEVICE_MINOR 11

static ssize_t fd_read(void *userdata, void *buf, size_t n) {
        return read(*(int *)userdata, buf, n);
}

static off_t fd_seek(void *userdata, off_t off, int whence) {
        return lseek(*(int *)userdata, off, whence);
}

static const struct kmsg_device_ops fd_ops = {
        .read = fd_read,
        .seek = fd_seek,
};

static struct kmsg_reader *reader_alloc(const char *name) {
        struct kmsg_reader *rd = calloc(1, sizeof(*rd));

        if (!rd)
                return NULL;
        rd->n_ref = 1;
        rd->fd = -1;
        rd->max_record = KMSG_DEFAULT_MAX_RECORD;
        rd->name = strdup(name);
        rd->rec = record_new();
        if (!rd->name || !rd->rec) {
                kmsg_reader_unref(rd);
                return NULL;
        }
        return rd;
}

_public_ int kmsg_reader_new_fd(int fd, const char *name, enum kmsg_format format, struct kmsg_reader **ret) {
        struct kmsg_reader *rd;

        if (fd < 0 || !ret || (unsigned)format > KMSG_FORMAT_JSON)
                return -EINVAL;
        rd = reader_alloc(name ? name : "<input>");
        if (!rd)
                return -ENOMEM;
        rd->fd = fd;
        rd->format = format;
        rd->line = 1;
        *ret = rd;
        return 0;
}

_public_ int kmsg_reader_new_path(const char *path, enum kmsg_format format, struct kmsg_reader **ret) {
        struct kmsg_reader *rd;
        int fd, e;

        if (!path || !ret)
                return -EINVAL;
        if (strcmp(path, "-") == 0)
                return kmsg_reader_new_fd(STDIN_FILENO, "<stdin>", format, ret);
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        e = kmsg_reader_new_fd(fd, path, format, &rd);
        if (e < 0) {
                close(fd);
                return e;
        }
        rd->own_fd = true;
        *ret = rd;
        return 0;
}

int kmsg_reader_new_stream_ops(const struct kmsg_device_ops *ops, void *userdata, const char *name,
                               enum kmsg_format format, struct kmsg_reader **ret) {
        struct kmsg_reader *rd;

        if (!ops || !ops->read || !ret || (unsigned)format > KMSG_FORMAT_JSON)
                return -EINVAL;
        rd = reader_alloc(name ? name : "<input>");
        if (!rd)
                return -ENOMEM;
        rd->ops = ops;
        rd->userdata = userdata;
        rd->format = format;
        rd->line = 1;
        *ret = rd;
        return 0;
}

void reader_set_chunk_size(struct kmsg_reader *rd, size_t n) {
        rd->chunk_max = n;
}

/* The rest of a device reader's set-up: its buffer and its position.  Takes rd. */
static int device_open(struct kmsg_reader *rd, enum kmsg_seek where, struct kmsg_reader **ret) {
        int whence = where == KMSG_SEEK_END ? SEEK_END : where == KMSG_SEEK_CLEAR ? SEEK_DATA : SEEK_SET;

        rd->is_device = true;
        rd->format = KMSG_FORMAT_KMSG;
        rd->cap = DEVICE_BUFFER;
        rd->buf = malloc(rd->cap);
        if (!rd->buf) {
                kmsg_reader_unref(rd);
                return -ENOMEM;
        }
        if (rd->ops->seek(rd->userdata, 0, whence) < 0) {
                int e = -errno;

                kmsg_reader_unref(rd);
                return e;
        }
        *ret = rd;
        return 0;
}

int kmsg_reader_new_device_ops(const struct kmsg_device_ops *ops, void *userdata, enum kmsg_seek where,
                               struct kmsg_reader **ret) {
        struct kmsg_reader *rd;

        if (!ops || !ret || (unsigned)where > KMSG_SEEK_END)
                return -EINVAL;
        rd = reader_alloc("/dev/kmsg");
        if (!rd)
                return -ENOMEM;
        rd->ops = ops;
        rd->userdata = userdata;
        return device_open(rd, where, ret);
}

_public_ int kmsg_reader_new_device(const char *path, enum kmsg_seek where, struct kmsg_reader **ret) {
        struct kmsg_reader *rd;
        struct stat st;
        int fd;

        if (!ret || (unsigned)where > KMSG_SEEK_END)
                return -EINVAL;
        if (!path)
                path = "/dev/kmsg";
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        /* /dev/null or a tty would read as an empty or endless "log". */
        if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != KMSG_DEVICE_MAJOR ||
            minor(st.st_rdev) != KMSG_DEVICE_MINOR) {
                close(fd);
                return -ENODEV;
        }
        rd = reader_alloc(path);
        if (!rd) {
                close(fd);
                return -ENOMEM;
        }
        rd->fd = fd;
        rd->own_fd = true;
        rd->ops = &fd_ops;
        rd->userdata = &rd->fd;
        return device_open(rd, where, ret);
}

_public_ struct kmsg_reader *kmsg_reader_ref(struct kmsg_reader *rd) {
        if (rd)
                rd->n_ref++;
        return rd;
}

_public_ struct kmsg_reader *kmsg_reader_unref(struct kmsg_reader *rd) {
        if (!rd || --rd->n_ref > 0)
                return NULL;
        if (rd->own_fd && rd->fd >= 0)
                close(rd->fd);
        json_stream_free(rd);
        kmsg_record_unref(rd->rec);
        free(rd->buf);
        free(rd->name);
        free(rd);
        return NULL;
}

_public_ int kmsg_reader_set_max_record_size(struct kmsg_reader *rd, size_t max) {
        if (!rd || max < 4096 || max > SIZE_MAX / 4)
                return -EINVAL;
        rd->max_record = max;
        return 0;
}

_public_ int kmsg_reader_set_follow(struct kmsg_reader *rd, int follow) {
        if (!rd)
                return -EINVAL;
        rd->follow = follow != 0;
        rd->paused = false;
        return 0;
}

_public_ const char *kmsg_reader_get_name(const struct kmsg_reader *rd) {
        return rd ? rd->name : NULL;
}

_public_ uint64_t kmsg_reader_get_position(const struct kmsg_reader *rd) {
        return rd ? rd->pos : 0;
}

_public_ const char *kmsg_reader_get_error(const struct kmsg_reader *rd) {
        return rd ? rd->err : NULL;
}

_public_ enum kmsg_format kmsg_reader_get_format(const struct kmsg_reader *rd) {
        return rd ? rd->format : KMSG_FORMAT_AUTO;
}

_public_ int kmsg_reader_get_fd(const struct kmsg_reader *rd) {
        return rd ? rd->fd : -EINVAL;
}

_public_ int kmsg_reader_is_device(const struct kmsg_reader *rd) {
        return rd && rd->is_device;
}

void reader_set_error(struct kmsg_reader *rd, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(rd->err, sizeof(rd->err), fmt, ap);
        va_end(ap);
}

/* The record handed out last may be kept by the caller: then use a new one. */
struct kmsg_record *reader_record(struct kmsg_reader *rd) {
        if (rd->rec->n_ref > 1) {
                struct kmsg_record *r = record_new();

                if (!r)
                        return NULL;
                kmsg_record_unref(rd->rec);
                rd->rec = r;
        }
        return rd->rec;
}

static int device_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        struct kmsg_record *r;
        const char *err;
        ssize_t n;
        int e;

        for (;;) {
                n = rd->ops->read(rd->userdata, rd->buf, rd->cap);
                if (n >= 0)
                        break;
                switch (errno) {
                case EINTR:
                        continue;
                case EAGAIN:
                        return -EAGAIN;
                case EPIPE:
                        reader_set_error(rd, "reader overrun: records were overwritten before they were read");
                        return -EPIPE;
                case EINVAL:
                        /*
                         * No record is larger than the buffer can grow to: then
                         * EINVAL is not about the size (kernels before 3.5 fail
                         * every read so), and reporting lost records would never end.
                         */
                        if (rd->cap >= rd->max_record) {
                                reader_set_error(rd, "read() fails even with a %zu-byte buffer", rd->cap);
                                return -EINVAL;
                        }
                        /* The kernel consumed a record that did not fit. */
                        rd->records++;
                        rd->pos = rd->records;
                        reader_set_error(rd, "record larger than the %zu-byte read buffer was lost", rd->cap);
                        {
                                char *p = realloc(rd->buf, rd->cap * 2);

                                if (!p)
                                        return -ENOMEM;
                                rd->buf = p;
                                rd->cap *= 2;
                        }
                        return -EMSGSIZE;
                default:
                        return -errno;
                }
        }
        if (n == 0)
                return 0;
        rd->records++;
        rd->pos = rd->records;
        r = reader_record(rd);
        if (!r)
                return -ENOMEM;
        e = record_parse_into(r, rd->buf, (size_t)n, &err);
        if (e == -EBADMSG) {
                reader_set_error(rd, "%s", err);
                return e;
        }
        if (e < 0)
                return e;
        *ret = r;
        return 1;
}

/* Block until fd has data or has ended.  Returns 0 or -errno. */
static int wait_readable(int fd) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int r;

        do
                r = poll(&p, 1, -1);
        while (r < 0 && errno == EINTR);
        if (r < 0)
                return -errno;
        if (p.revents & POLLNVAL)
                return -EBADF;
        return 0;
}

/* Read more input into the stream buffer.  Returns bytes read, 0 at EOF, or -errno. */
int stream_fill(struct kmsg_reader *rd) {
        bool grows = rd->ops != NULL; /* a test double behaves as a file */
        size_t want, room;
        ssize_t n;

        if (rd->eof)
                return 0;
        if (rd->start > 0) {
                memmove(rd->buf, rd->buf + rd->start, rd->end - rd->start);
                rd->end -= rd->start;
                rd->start = 0;
        }
        /* Room for one read(): a chunk, or less when tests cap the reads. */
        room = rd->chunk_max > 0 && rd->chunk_max < CHUNK ? rd->chunk_max : CHUNK;
        if (rd->cap - rd->end < room) {
                size_t cap = rd->cap ? rd->cap : CHUNK;
                char *p;

                while (cap - rd->end < room)
                        cap *= 2;
                p = realloc(rd->buf, cap + 1);
                if (!p)
                        return -ENOMEM;
                rd->buf = p;
                rd->cap = cap;
        }
        want = rd->cap - rd->end;
        if (want > CHUNK)
                want = CHUNK;
        if (rd->chunk_max > 0 && want > rd->chunk_max)
                want = rd->chunk_max;
        if (rd->follow && !rd->ops) {
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
        for (;;) {
                if (rd->ops)
                        n = rd->ops->read(rd->userdata, rd->buf + rd->end, want);
                else
                        n = read(rd->fd, rd->buf + rd->end, want);
                if (n >= 0)
                        break;
                if (errno == EINTR)
                        continue;
                if (errno == EAGAIN && rd->follow) {
                        rd->paused = true;
                        return -EAGAIN;
                }
                if (errno == EAGAIN && !rd->ops) {
                        /*
                         * A non-blocking descriptor (stdin inherited with
                         * O_NONBLOCK) that has nothing yet: the input has not
                         * ended, so wait for it rather than stop early.
                         */
                        int e = wait_readable(rd->fd);

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
        rd->end += (size_t)n;
        return (int)n;
}

static enum kmsg_format detect(const char *p, size_t len) {
        size_t i;

        if (len == 0)
                return KMSG_FORMAT_AUTO;
        if (p[0] == '<' || p[0] == '[')
                return KMSG_FORMAT_SYSLOG;
        if (p[0] == '{')
                return KMSG_FORMAT_JSON;
        if (p[0] >= '0' && p[0] <= '9')
                return KMSG_FORMAT_KMSG;
        if (p[0] == '_' || (p[0] >= 'A' && p[0] <= 'Z')) {
                for (i = 1; i < len; i++) {
                        char c = p[i];

                        if (c == '=' || c == '\n')
                                return KMSG_FORMAT_EXPORT;
                        if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
                                return KMSG_FORMAT_KMSG;
                }
                return KMSG_FORMAT_AUTO; /* need more bytes */
        }
        /* Anything else is reported record by record as kmsg. */
        return KMSG_FORMAT_KMSG;
}

static int stream_detect(struct kmsg_reader *rd) {
        for (;;) {
                size_t i = rd->start;
                enum kmsg_format f;
                int n;

                /* Skip what separates records in any format. */
                while (i < rd->end && (rd->buf[i] == '\0' || rd->buf[i] == '\n' || rd->buf[i] == '\r' ||
                                       rd->buf[i] == ' ' || rd->buf[i] == '\t'))
                        i++;
                f = detect(rd->buf + i, rd->end - i);
                if (f != KMSG_FORMAT_AUTO || (rd->eof && i == rd->end)) {
                        rd->format = f == KMSG_FORMAT_AUTO ? KMSG_FORMAT_KMSG : f;
                        return 0;
                }
                if (rd->end - rd->start > 4096 || rd->eof) {
                        rd->format = KMSG_FORMAT_KMSG;
                        return 0;
                }
                n = stream_fill(rd);
                if (n < 0)
                        return n;
        }
}

_public_ int kmsg_reader_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        int e;

        if (!rd || !ret)
                return -EINVAL;
        rd->err[0] = '\0';
        if (rd->is_device)
                return device_next(rd, ret);
        /* The splitters index the buffer: give them one, even for empty input. */
        if (!rd->buf) {
                e = stream_fill(rd);
                if (e < 0)
                        return e;
        }
        if (rd->format == KMSG_FORMAT_AUTO) {
                e = stream_detect(rd);
                if (e < 0)
                        return e;
        }
        switch (rd->format) {
        case KMSG_FORMAT_EXPORT:
                return export_next(rd, ret);
        case KMSG_FORMAT_SYSLOG:
                return syslog_next(rd, ret);
        case KMSG_FORMAT_JSON:
                return json_next(rd, ret);
        default:
                return kmsg_stream_next(rd, ret);
        }
}
