/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device reader, driven through a scripted /dev/kmsg double that
 * behaves like the kernel: one record per read(), EINVAL (record consumed)
 * when the buffer is too small, EPIPE with no data, EAGAIN when empty.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "reader-private.h"
#include "tests.h"

struct step {
        const char *data; /* a record, or NULL for an error */
        size_t len;       /* 0: strlen(data) */
        int err;
};

struct fake {
        const struct step *steps;
        size_t n_steps;
        size_t next;
        size_t reads;
        size_t last_n;   /* buffer size of the last read() */
        int whence;      /* of the last seek */
        off_t offset;
        int seek_err;
        int seeks;
};

static ssize_t fake_read(void *userdata, void *buf, size_t n) {
        struct fake *f = userdata;
        const struct step *s;
        size_t len;

        f->reads++;
        f->last_n = n;
        if (f->next >= f->n_steps) {
                errno = EAGAIN;
                return -1;
        }
        s = &f->steps[f->next++];
        if (!s->data) {
                errno = s->err;
                return -1;
        }
        len = s->len ? s->len : strlen(s->data);
        if (len > n) {
                /* The kernel moves past the record before it finds it does not fit. */
                errno = EINVAL;
                return -1;
        }
        memcpy(buf, s->data, len);
        return (ssize_t)len;
}

static off_t fake_seek(void *userdata, off_t off, int whence) {
        struct fake *f = userdata;

        f->seeks++;
        f->whence = whence;
        f->offset = off;
        if (f->seek_err) {
                errno = f->seek_err;
                return -1;
        }
        return 0;
}

static const struct kmsg_device_ops fake_ops = {
        .read = fake_read,
        .seek = fake_seek,
};

#define FAKE(st) { .steps = (st), .n_steps = sizeof(st) / sizeof((st)[0]) }

static struct kmsg_reader *open_fake(struct fake *f, enum kmsg_seek where) {
        struct kmsg_reader *rd = NULL;
        int e = kmsg_reader_new_device_ops(&fake_ops, f, where, &rd);

        if (e < 0)
                test_fail(__FILE__, __LINE__, "kmsg_reader_new_device_ops: %d", e);
        return rd;
}

TEST(records_and_eagain) {
        static const struct step st[] = {
                { "6,0,0,-;first\n" },
                { "6,1,5,-,caller=T1;second\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:01.0\n" },
                { NULL, 0, EAGAIN },
                { "6,2,9,c;third\n" },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL;

        if (!rd)
                return;
        CHECK(kmsg_reader_is_device(rd));
        CHECK_INT(kmsg_reader_get_format(rd), KMSG_FORMAT_KMSG);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 0);
        CHECK_INT(kmsg_reader_get_position(rd), 1);
        /* A buffer big enough for any record from the first read on. */
        CHECK(f.last_n >= 8192);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 1);
        CHECK_STR(kmsg_record_get_subsystem(r), "pci");
        CHECK_STR(kmsg_record_get_device(r), "+pci:0000:00:01.0");
        CHECK_INT(kmsg_reader_get_position(rd), 2);
        CHECK_INT(kmsg_reader_next(rd, &r), -EAGAIN);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 2);
        CHECK_INT(kmsg_reader_get_position(rd), 3);
        CHECK_INT(kmsg_reader_next(rd, &r), -EAGAIN);
        CHECK_INT(kmsg_reader_next(rd, &r), -EAGAIN);
        kmsg_reader_unref(rd);
}

TEST(eintr_is_retried) {
        static const struct step st[] = {
                { NULL, 0, EINTR },
                { NULL, 0, EINTR },
                { "6,7,0,-;after two EINTR\n" },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL;

        if (!rd)
                return;
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 7);
        CHECK_INT(f.reads, 3);
        kmsg_reader_unref(rd);
}

TEST(epipe_surfaced_then_oldest_record) {
        static const struct step st[] = {
                { "6,10,0,-;before\n" },
                { NULL, 0, EPIPE },
                { "6,50,0,-;oldest still there\n" },
                { NULL, 0, EPIPE },
                { NULL, 0, EPIPE },
                { "6,90,0,-;after two\n" },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL;
        size_t reads;

        if (!rd)
                return;
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        reads = f.reads;
        CHECK_INT(kmsg_reader_next(rd, &r), -EPIPE);
        /* Surfaced from the one read(), never retried silently, no seek. */
        CHECK_INT(f.reads, reads + 1);
        CHECK_INT(f.seeks, 1);
        CHECK(strlen(kmsg_reader_get_error(rd)) > 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 50);
        CHECK_STR(kmsg_record_get_message(r, NULL), "oldest still there");
        CHECK_INT(kmsg_reader_next(rd, &r), -EPIPE);
        CHECK_INT(kmsg_reader_next(rd, &r), -EPIPE);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 90);
        CHECK_INT(f.seeks, 1);
        kmsg_reader_unref(rd);
}

TEST(einval_consumes_record_and_grows_buffer) {
        static char big[40000];
        static struct step st[] = {
                { NULL, 0, 0 }, /* big, set below */
                { "6,21,0,-;next one\n" },
                { NULL, 0, 0 }, /* big again: fits now */
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd;
        struct kmsg_record *r = NULL;
        size_t cap, len = 0;

        memset(big, 'x', sizeof(big));
        memcpy(big, "6,20,0,-;", 9);
        big[20000] = '\n';
        st[0].data = big;
        st[0].len = 20001;
        st[2].data = big;
        st[2].len = 20001;
        rd = open_fake(&f, KMSG_SEEK_START);
        if (!rd)
                return;
        cap = rd->cap;
        CHECK(cap < 20001);
        CHECK_INT(kmsg_reader_next(rd, &r), -EMSGSIZE);
        CHECK_INT(kmsg_reader_get_position(rd), 1);
        CHECK(strlen(kmsg_reader_get_error(rd)) > 0);
        CHECK(rd->cap > cap);
        /* The record was consumed: the next read() gives the one after it. */
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 21);
        CHECK_INT(kmsg_reader_get_position(rd), 2);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 20);
        kmsg_record_get_message(r, &len);
        CHECK_INT(len, 20000 - 9);
        CHECK_INT(f.reads, 3);
        kmsg_reader_unref(rd);
}

TEST(einval_growth_stops_at_the_limit) {
        /* Kernels before 3.5 fail every read() with EINVAL: no endless -EMSGSIZE. */
        static const struct step st[] = {
                { NULL, 0, EINVAL }, { NULL, 0, EINVAL }, { NULL, 0, EINVAL }, { NULL, 0, EINVAL },
                { NULL, 0, EINVAL }, { NULL, 0, EINVAL }, { NULL, 0, EINVAL }, { NULL, 0, EINVAL },
                { NULL, 0, EINVAL }, { NULL, 0, EINVAL }, { NULL, 0, EINVAL }, { NULL, 0, EINVAL },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL;
        int e = 0, i, msgsize = 0;

        if (!rd)
                return;
        for (i = 0; i < 12; i++) {
                e = kmsg_reader_next(rd, &r);
                if (e != -EMSGSIZE)
                        break;
                msgsize++;
                /* Never beyond twice the record size limit (1 MiB by default). */
                CHECK(rd->cap <= 2 * KMSG_DEFAULT_MAX_RECORD);
        }
        /* Once the buffer cannot grow, EINVAL is what it is: an error the reader cannot pass. */
        CHECK_INT(e, -EINVAL);
        CHECK(msgsize <= 7);
        CHECK(rd->cap <= 2 * KMSG_DEFAULT_MAX_RECORD);
        kmsg_reader_unref(rd);

        /* With a small limit, at once. */
        f = (struct fake)FAKE(st);
        rd = open_fake(&f, KMSG_SEEK_START);
        if (!rd)
                return;
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4096), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), -EINVAL);
        kmsg_reader_unref(rd);
}

TEST(truncated_and_short_records) {
        static const struct step st[] = {
                /* 6.3+ cut: no newline, mid-escape, dictionary dropped. */
                { "6,30,0,-;cut here\\x5" },
                { "6,31,0,-;" },
                { "6,32,0,-;tail\\" },
                { "4,33,1;old three-field\n" },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL;

        if (!rd)
                return;
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "cut here\\x5");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "tail\\");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_flags(r), "");
        CHECK_INT(kmsg_record_get_seqnum(r), 33);
        kmsg_reader_unref(rd);
}

TEST(bad_record_and_hard_errors) {
        static const struct step st[] = {
                { "6,40,0,-;ok\n" },
                { "not a record\n" },
                { "6,42,0,-;goes on\n" },
                { NULL, 0, EIO },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL;

        if (!rd)
                return;
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_INT(kmsg_reader_get_position(rd), 2);
        CHECK_STR(kmsg_reader_get_error(rd), "bad header: no ';' before the end of the line");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 42);
        CHECK_STR(kmsg_reader_get_error(rd), "");
        CHECK_INT(kmsg_reader_next(rd, &r), -EIO);
        kmsg_reader_unref(rd);
}

TEST(kept_record_survives_next) {
        static const struct step st[] = {
                { "6,1,0,-;one\n" },
                { "6,2,0,-;two\n" },
        };
        struct fake f = FAKE(st);
        struct kmsg_reader *rd = open_fake(&f, KMSG_SEEK_START);
        struct kmsg_record *r = NULL, *kept;

        if (!rd)
                return;
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        kept = kmsg_record_ref(r);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(r != kept);
        CHECK_STR(kmsg_record_get_message(kept, NULL), "one");
        CHECK_STR(kmsg_record_get_message(r, NULL), "two");
        kmsg_reader_unref(rd);
        /* The record outlives its reader. */
        CHECK_STR(kmsg_record_get_message(kept, NULL), "one");
        kmsg_record_unref(kept);
}

TEST(seek_modes) {
        static const struct {
                enum kmsg_seek where;
                int whence;
        } cases[] = {
                { KMSG_SEEK_START, SEEK_SET },
                { KMSG_SEEK_CLEAR, SEEK_DATA },
                { KMSG_SEEK_END, SEEK_END },
        };
        size_t i;

        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct fake f = { .whence = -1 };
                struct kmsg_reader *rd = open_fake(&f, cases[i].where);

                CHECK_INT(f.seeks, 1);
                CHECK_INT(f.whence, cases[i].whence);
                CHECK_INT(f.offset, 0);
                kmsg_reader_unref(rd);
        }
        {
                struct fake f = { .seek_err = ESPIPE };
                struct kmsg_reader *rd = NULL;

                CHECK_INT(kmsg_reader_new_device_ops(&fake_ops, &f, KMSG_SEEK_CLEAR, &rd), -ESPIPE);
                CHECK(rd == NULL);
        }
        CHECK_INT(kmsg_reader_new_device_ops(NULL, NULL, KMSG_SEEK_START, NULL), -EINVAL);
}

TEST(new_device_checks_path) {
        struct kmsg_reader *rd = NULL;
        char path[] = "/tmp/kmsg-test-XXXXXX";
        int fd = mkstemp(path);

        if (fd < 0) {
                test_fail(__FILE__, __LINE__, "mkstemp: %m");
                return;
        }
        if (write(fd, "6,1,0,-;x\n", 10) != 10)
                test_fail(__FILE__, __LINE__, "write: %m");
        close(fd);
        CHECK_INT(kmsg_reader_new_device(path, KMSG_SEEK_START, &rd), -ENODEV);
        CHECK(rd == NULL);
        unlink(path);
        CHECK_INT(kmsg_reader_new_device(path, KMSG_SEEK_START, &rd), -ENOENT);
        CHECK_INT(kmsg_reader_new_device("/tmp", KMSG_SEEK_START, &rd), -ENODEV);
        /* A character device, but not the kernel log. */
        CHECK_INT(kmsg_reader_new_device("/dev/null", KMSG_SEEK_START, &rd), -ENODEV);
        CHECK_INT(kmsg_reader_new_device("/dev/zero", KMSG_SEEK_END, &rd), -ENODEV);
        CHECK_INT(kmsg_reader_new_device(NULL, (enum kmsg_seek)7, &rd), -EINVAL);
        CHECK_INT(kmsg_reader_new_device(NULL, KMSG_SEEK_START, NULL), -EINVAL);
        CHECK(rd == NULL);
}
