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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "reader-private.h"

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
        rd->wake_fd = -1;
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
        rd->ops = &fd_ops;
        rd->userdata = &rd->fd;
        rd->format = format;
        rd->line = 1;
        *ret = rd;
        return 0;
}

_public_ int kmsg_reader_new_buffer(const void *buf, size_t len, const char *name, enum kmsg_format format,
                                    struct kmsg_reader **ret) {
        struct kmsg_reader *rd;

        if ((!buf && len > 0) || len >= SIZE_MAX || !ret || (unsigned)format > KMSG_FORMAT_JSON)
                return -EINVAL;
        rd = reader_alloc(name ? name : "<buffer>");
        if (!rd)
                return -ENOMEM;
        /* All of the input is in the stream buffer from the start: no read() ever happens. */
        rd->buf = malloc(len + 1);
        if (!rd->buf) {
                kmsg_reader_unref(rd);
                return -ENOMEM;
        }
        if (len > 0)
                memcpy(rd->buf, buf, len);
        rd->cap = rd->end = len;
        rd->eof = true;
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

void reader_set_source(struct kmsg_reader *rd, const struct kmsg_device_ops *ops, void *userdata) {
        rd->ops = ops;
        rd->userdata = userdata;
}

/* The rest of a device reader's set-up: its buffer and its position.  Takes rd. */
static int device_open(struct kmsg_reader *rd, enum kmsg_seek where, struct kmsg_reader **ret) {
        int whence = where == KMSG_SEEK_END ? SEEK_END : where == KMSG_SEEK_CLEAR ? SEEK_DATA : SEEK_SET;

        rd->is_device = true;
        rd->format = KMSG_FORMAT_KMSG;
        rd->cap = DEVICE_BUFFER;
        /* A byte more than a read() fills: kmsg_scan_record()'s end mark. */
        rd->buf = malloc(rd->cap + 1);
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
        if (rd->fmt && rd->fmt->free)
                rd->fmt->free(rd->state);
        kmsg_record_unref(rd->rec);
        free(rd->buf);
        free(rd->name);
        free(rd);
        return NULL;
}

_public_ int kmsg_reader_set_max_record_size(struct kmsg_reader *rd, size_t max) {
        if (!rd || max < 4096 || max > SIZE_MAX / (4 * KMSG_ENCODED_FACTOR))
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

_public_ int kmsg_reader_set_interrupt(struct kmsg_reader *rd, const volatile sig_atomic_t *flag, int wake_fd) {
        if (!rd || wake_fd < -1)
                return -EINVAL;
        rd->interrupt = flag;
        rd->wake_fd = flag ? wake_fd : -1;
        return 0;
}

_public_ int kmsg_reader_set_range(struct kmsg_reader *rd, uint64_t length, uint64_t first_line) {
        /* A stream that has read nothing yet. */
        if (!rd || rd->is_device || rd->eof || rd->end > 0 || !rd->ops || first_line == 0)
                return -EINVAL;
        rd->limited = true;
        rd->left = length;
        rd->line = first_line;
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

/* Out of line, as are the stream's rarer ways: kmsg_reader_next() then needs no frame for a stream's record. */
static __attribute__((noinline)) int device_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
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
                        if (reader_interrupted(rd))
                                return -EINTR;
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
                                char *p = realloc(rd->buf, rd->cap * 2 + 1);

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
        /* One read() is one record: the scanner's when it takes all of it, else the general parser's. */
        rd->buf[n] = '\0';
        if (!rd->general_only && kmsg_scan_record(r, rd->buf, (size_t)n, true, (size_t)n) == (size_t)n) {
                *ret = r;
                return 1;
        }
        e = record_parse_into(r, rd->buf, (size_t)n, &err);
        return stream_take(rd, r, e, "", err, ret);
}

/* A stream reader stopped by its interrupt flag: name what it leaves unread. */
static __attribute__((noinline, cold)) int stream_stopped(struct kmsg_reader *rd) {
        if (rd->start < rd->end) {
                rd->pos = rd->line;
                reader_set_error(rd, "reading interrupted: %zu bytes of an unfinished record left unread",
                                 rd->end - rd->start);
        }
        return -EINTR;
}

/* A stream's first next(): its buffer, its form (detected where it is not given), then its record. */
static __attribute__((noinline)) int stream_first(struct kmsg_reader *rd, struct kmsg_record **ret) {
        int e;

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
        rd->fmt = stream_form(rd->format);
        if (!rd->fmt)
                rd->fmt = &stream_kmsg_ops;
        return rd->fmt->next(rd, ret);
}

_public_ int kmsg_reader_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        int e;

        if (!rd || !ret)
                return -EINVAL;
        rd->err[0] = '\0';
        if (rd->is_device)
                return reader_interrupted(rd) ? -EINTR : device_next(rd, ret);
        /* Once a stream has its form (rd->fmt), it has its buffer and a format that is not KMSG_FORMAT_AUTO. */
        e = rd->fmt ? rd->fmt->next(rd, ret) : stream_first(rd, ret);
        return e == -EINTR ? stream_stopped(rd) : e;
}
