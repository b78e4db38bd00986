/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stream splitter for the /dev/kmsg text form: records come out the
 * same whatever the read() sizes, size limits, error positions.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "tests.h"
#include "memsrc.h"

#define LIT(s) s, sizeof(s) - 1

static const char mixed[] =
        "6,1,100,-;first\n"                          /* 1 */
        " SUBSYSTEM=usb\n"                           /* 2 */
        " DEVICE=+usb:1-1\n"                         /* 3 */
        "\0\0"                                       /* NULs between records */
        "6,2,200,-,caller=T5;second; with=x,y \\x0a\r\n" /* 4 */
        " KEY=a=b\r\n"                               /* 5 */
        "\n"                                         /* 6 */
        "\n"                                         /* 7 */
        "   \n"                                      /* 8 */
        "  6,3,300,c;indented header\n"              /* 9 */
        " notakey\n"                                 /* 10 */
        "6,4,400,-;after bad\n"                      /* 11 */
        "garbage line\n"                             /* 12 */
        "6,5,500,+;last \\x4 without newline";     /* 13 */

static const char mixed_want[] =
        "R@1 pri=6 seq=1 usec=100 flags=- fields= msg=first |SUBSYSTEM=usb |DEVICE=+usb:1-1\n"
        "R@4 pri=6 seq=2 usec=200 flags=- fields=caller=T5 caller=T5 msg=second; with=x,y \\0a |KEY=a=b\n"
        "R@9 pri=6 seq=3 usec=300 flags=c fields= msg=indented header\n"
        "E-74@10 bad header: no ';' before the end of the line\n"
        "R@11 pri=6 seq=4 usec=400 flags=- fields= msg=after bad\n"
        "E-74@12 bad header: no ';' before the end of the line\n"
        "R@13 pri=6 seq=5 usec=500 flags=+ fields= msg=last \\5cx4 without newline\n"
        "EOF\n";

TEST(mixed_every_boundary) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(mixed), KMSG_FORMAT_KMSG, 0);

        check_transcript(__FILE__, __LINE__, t, mixed_want);
        free(t);
        /* Auto-detection sees the same. */
        t = check_all_boundaries(__FILE__, __LINE__, LIT(mixed), KMSG_FORMAT_AUTO, 0);
        check_transcript(__FILE__, __LINE__, t, mixed_want);
        free(t);
}

/*
 * A line that starts with white space is a dictionary line only if a valid
 * key ([A-Za-z0-9._-]+) and '=' follow one space: a header indented by one
 * space or a tab is the next record, whatever follows it.
 */
TEST(indented_header_after_a_record_is_a_record) {
        static const char in[] =
                "6,1,1,-;a\n"          /* 1 */
                " 6,2,2,-;b\n"         /* 2: ',' is no key character */
                " K=v\n"               /* 3 */
                "\t6,3,3,-;c\n"        /* 4 */
                " 6=x\n"               /* 5: a valid key, all digits */
                " 7,4,4,-;d=e\n"       /* 6 */
                " K:Y=v\n";            /* 7: ':' is no key character: not a record either */
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(in), KMSG_FORMAT_AUTO, 0);

        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=a\n"
                         "R@2 pri=6 seq=2 usec=2 flags=- fields= msg=b |K=v\n"
                         "R@4 pri=6 seq=3 usec=3 flags=- fields= msg=c |6=x\n"
                         "R@6 pri=7 seq=4 usec=4 flags=- fields= msg=d=e\n"
                         "E-74@7 bad header: no ';' before the end of the line\n"
                         "EOF\n");
        free(t);
}

TEST(missing_final_newline_after_a_dictionary_line) {
        /* The input ends inside the last dictionary line: it belongs to the record. */
        static const char in[] = "6,1,1,-;a\n SUBSYSTEM=x\n6,2,2,-;b\n SUBSYSTEM=y\n DEVICE=+y:1";
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(in), KMSG_FORMAT_AUTO, 0);

        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=a |SUBSYSTEM=x\n"
                         "R@3 pri=6 seq=2 usec=2 flags=- fields= msg=b |SUBSYSTEM=y |DEVICE=+y:1\n"
                         "EOF\n");
        free(t);
}

TEST(eintr_is_retried) {
        struct memsrc m = { .data = mixed, .len = sizeof(mixed) - 1, .chunk = 3, .eintr = true };
        struct kmsg_reader *rd = NULL;
        char *t;

        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_KMSG, &rd), 0);
        t = transcript(rd);
        check_transcript(__FILE__, __LINE__, t, mixed_want);
        free(t);
        kmsg_reader_unref(rd);
}

/* Text of n bytes so that a header plus it is exactly `total` bytes. */
static size_t put_record(char *p, const char *header, size_t total, char fill, const char *tail) {
        size_t h = strlen(header), t = strlen(tail), i;

        memcpy(p, header, h);
        for (i = h; i < total - t; i++)
                p[i] = fill;
        memcpy(p + total - t, tail, t);
        return total;
}

/* The note of a split made before the record with this seq. */
#define CUT_NOTE(seq)                                                                                     \
        "E-74@1 record cut at 2048 bytes by the kernel: the record with seq " #seq                        \
        " starts there, on the same line, and is read as the next one\n"

/* Check a transcript of long records: the pieces of want appear in order, and no error. */
static void check_long(int line, const char *t, const char *const *want, size_t n_want) {
        const char *p = t;
        size_t i;

        for (i = 0; i < n_want; i++) {
                const char *q = strstr(p, want[i]);

                if (!q) {
                        test_fail(__FILE__, line, "transcript lacks (in order) \"%s\"", want[i]);
                        return;
                }
                p = q + strlen(want[i]);
        }
        /* No error but the notes of a split. */
        for (p = t; (p = strstr(p, "E-")); p++)
                if ((p == t || p[-1] == '\n') && strncmp(p, "E-74@1 record cut at 2048 bytes by the kernel: ", 47) != 0)
                        test_fail(__FILE__, line, "unexpected error in transcript");
}

TEST(truncated_2048_records) {
        static char buf[8192];
        size_t n;
        char *t;

        /* A 6.3+ record cut at 2048 bytes mid-escape, running into the next header. */
        n = put_record(buf, "6,10,1000,-;", 2048, 'a', "\\x5");
        n += (size_t)sprintf(buf + n, "6,11,1001,-;next\n SUBSYSTEM=x\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 0);
        {
                static const char *const want[] = { "R@1 pri=6 seq=10 usec=1000 flags=- fields= msg=aaaa",
                                                     "aaaa\\5cx5\n" CUT_NOTE(11) "R@1 pri=6 seq=11 usec=1001 flags=- fields= "
                                                     "msg=next |SUBSYSTEM=x\nEOF\n" };
                check_long(__LINE__, t, want, 2);
        }
        free(t);

        /* A long record (old kernels: up to 8192) whose text at 2048 is no header: one record. */
        n = put_record(buf, "6,12,1002,-;", 2048, 'b', "");
        n += (size_t)sprintf(buf + n, "7,8,9 is no header;\n");
        n += put_record(buf + n, "6,13,1003,-;", 2048, 'c', "");
        n += (size_t)sprintf(buf + n, "7,8,9\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 0);
        {
                static const char *const want[] = { "R@1 pri=6 seq=12", "bbbb7,8,9 is no header;\nR@2 pri=6 seq=13",
                                                     "cccc7,8,9\nEOF\n" };
                check_long(__LINE__, t, want, 3);
        }
        free(t);

        /* Two cut records in a row, then a 3.5-rc header. */
        n = put_record(buf, "6,14,1004,-;", 2048, 'd', "\\");
        n += put_record(buf + n, "6,15,1005,c;", 2048, 'e', "\\x");
        n += (size_t)sprintf(buf + n, "6,16,1006;end\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 0);
        {
                static const char *const want[] = {
                        "R@1 pri=6 seq=14", "dddd\\5c\n" CUT_NOTE(15) "R@1 pri=6 seq=15 usec=1005 flags=c",
                        "eeee\\5cx\n" CUT_NOTE(16) "R@1 pri=6 seq=16 usec=1006 flags= fields= msg=end\nEOF\n"
                };
                check_long(__LINE__, t, want, 3);
        }
        free(t);

        /* An indented header cut at 2048 bytes (counted from the header). */
        n = (size_t)sprintf(buf, " ");
        n += put_record(buf + n, "6,17,1007,-;", 2048, 'f', "");
        n += (size_t)sprintf(buf + n, "6,18,1008,-;after indented\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 0);
        {
                static const char *const want[] = {
                        "R@1 pri=6 seq=17", "ffff\n" CUT_NOTE(18) "R@1 pri=6 seq=18 usec=1008 flags=- fields= msg=after indented\nEOF\n"
                };
                check_long(__LINE__, t, want, 2);
        }
        free(t);
}

TEST(truncated_chain_longer_than_the_limit) {
        /* Cut records have no newline: a run of them is one long line, longer than the limit. */
        static char buf[16384];
        size_t n = 0, i;
        char *t;

        for (i = 0; i < 4; i++) {
                char h[32];

                snprintf(h, sizeof(h), "6,%zu,%zu,-;", 20 + i, 2000 + i);
                n += put_record(buf + n, h, 2048, (char)('g' + i), "");
        }
        n += (size_t)sprintf(buf + n, "6,24,2004,-;end of the chain\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 4096);
        {
                static const char *const want[] = {
                        "R@1 pri=6 seq=20", "gggg\n" CUT_NOTE(21) "R@1 pri=6 seq=21", "hhhh\n" CUT_NOTE(22) "R@1 pri=6 seq=22",
                        "iiii\n" CUT_NOTE(23) "R@1 pri=6 seq=23", "jjjj\n" CUT_NOTE(24) "R@1 pri=6 seq=24 usec=2004 flags=- fields= msg=end of the chain\nEOF\n"
                };
                check_long(__LINE__, t, want, 5);
        }
        free(t);
}

TEST(size_limit_skips_and_continues) {
        static char buf[16384];
        size_t n = 0;
        char *t;

        n += (size_t)sprintf(buf + n, "6,1,1,-;before\n");
        /* Over the limit only with its dictionary lines. */
        n += put_record(buf + n, "6,2,2,-;", 4080, 'x', "\n");
        n += (size_t)sprintf(buf + n, " SUBSYSTEM=big\n DEVICE=+big:1\n");
        n += (size_t)sprintf(buf + n, "6,3,3,-;after\n");
        /* A single line over the limit with no record end in sight for a while. */
        n += put_record(buf + n, "", 4100, 'y', "\n");
        n += (size_t)sprintf(buf + n, "6,4,4,-;end\n");

        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 4096);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=before\n"
                         "E-7@2 record larger than 4096 bytes skipped\n"
                         "R@5 pri=6 seq=3 usec=3 flags=- fields= msg=after\n"
                         "E-7@6 record larger than 4096 bytes skipped\n"
                         "R@7 pri=6 seq=4 usec=4 flags=- fields= msg=end\n"
                         "EOF\n");
        free(t);
}

TEST(size_limit_last_record) {
        /* The last record is over the limit: reported, not dropped silently. */
        static char buf[16384];
        size_t n = 0;
        char *t;

        n += (size_t)sprintf(buf + n, "6,1,1,-;before\n");
        n += put_record(buf + n, "6,2,2,-;", 4100, 'x', "\n");
        n += (size_t)sprintf(buf + n, " SUBSYSTEM=big\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 4096);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=before\n"
                         "E-7@2 record larger than 4096 bytes skipped\n"
                         "EOF\n");
        free(t);

        /* The same without a final newline. */
        n = 0;
        n += (size_t)sprintf(buf + n, "6,1,1,-;before\n");
        n += put_record(buf + n, "6,2,2,-;", 4100, 'x', "");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 4096);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=before\n"
                         "E-7@2 record larger than 4096 bytes skipped\n"
                         "EOF\n");
        free(t);
}

TEST(size_limit_skip_ends_at_nul) {
        /* A NUL ends a record (captures written one read() at a time): also one being skipped. */
        static char buf[16384];
        size_t n = 0;
        char *t;

        n += put_record(buf + n, "6,1,1,-;", 5000, 'x', "");
        buf[n++] = '\0';
        n += (size_t)sprintf(buf + n, "6,2,2,-;after the NUL\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 4096);
        check_transcript(__FILE__, __LINE__, t,
                         "E-7@1 record larger than 4096 bytes skipped\n"
                         "R@1 pri=6 seq=2 usec=2 flags=- fields= msg=after the NUL\n"
                         "EOF\n");
        free(t);
}

TEST(nul_ends_a_record_in_its_dictionary) {
        static const char in[] = "6,1,1,-;a\n SUBSYSTEM=x\0\0" "6,2,2,-;b\n DEVICE=n1\0" "6,3,3,-;c\n";
        char *t = check_all_boundaries(__FILE__, __LINE__, in, sizeof(in) - 1, KMSG_FORMAT_KMSG, 0);

        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=a |SUBSYSTEM=x\n"
                         "R@2 pri=6 seq=2 usec=2 flags=- fields= msg=b |DEVICE=n1\n"
                         "R@3 pri=6 seq=3 usec=3 flags=- fields= msg=c\n"
                         "EOF\n");
        free(t);
}

TEST(size_limit_parameter) {
        struct kmsg_reader *rd = NULL;
        struct memsrc m = { .data = "", .len = 0 };

        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(rd->max_record, KMSG_DEFAULT_MAX_RECORD);
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4095), -EINVAL);
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4096), 0);
        CHECK_INT(kmsg_reader_set_max_record_size(NULL, 4096), -EINVAL);
        kmsg_reader_unref(rd);
}

/* Write a 50 MiB single-line record and a good one into fd, in pieces. */
static void write_huge(int fd) {
        static char piece[65536];
        size_t i;

        memset(piece, 'z', sizeof(piece));
        memcpy(piece, "6,1,1,-;", 8);
        for (i = 0; i < 50 * 16; i++) {
                if (write(fd, piece, sizeof(piece)) != (ssize_t)sizeof(piece))
                        _exit(1);
                piece[0] = 'z';
                memset(piece, 'z', 8);
        }
        if (write(fd, "\n6,2,2,-;small\n", 15) != 15)
                _exit(1);
}

TEST(size_limit_memory_is_bounded) {
        int p[2], status = 0;
        pid_t writer, reader;
        struct rusage ru;

        if (pipe(p) < 0) {
                test_fail(__FILE__, __LINE__, "pipe: %m");
                return;
        }
        writer = fork();
        if (writer == 0) {
                close(p[0]);
                write_huge(p[1]);
                _exit(0);
        }
        close(p[1]);
        reader = fork();
        if (reader == 0) {
                struct kmsg_reader *rd = NULL;
                struct kmsg_record *r;
                struct rusage before, after;
                size_t max_cap = 0, max_rec = 0;
                int e1, e2, e3;

                getrusage(RUSAGE_SELF, &before);
                if (kmsg_reader_new_fd(p[0], "pipe", KMSG_FORMAT_KMSG, &rd) < 0 ||
                    kmsg_reader_set_max_record_size(rd, 4096) < 0)
                        _exit(10);
                e1 = kmsg_reader_next(rd, &r);
                if (rd->cap > max_cap)
                        max_cap = rd->cap;
                if (rd->rec->data_cap > max_rec)
                        max_rec = rd->rec->data_cap;
                if (e1 != -E2BIG || kmsg_reader_get_position(rd) != 1)
                        _exit(11);
                e2 = kmsg_reader_next(rd, &r);
                if (e2 != 1 || kmsg_record_get_seqnum(r) != 2 || kmsg_reader_get_position(rd) != 2)
                        _exit(12);
                e3 = kmsg_reader_next(rd, &r);
                if (e3 != 0)
                        _exit(13);
                if (rd->cap > max_cap)
                        max_cap = rd->cap;
                if (rd->rec->data_cap > max_rec)
                        max_rec = rd->rec->data_cap;
                kmsg_reader_unref(rd);
                getrusage(RUSAGE_SELF, &after);
                /* Buffers: a few chunks; peak RSS grew by far less than the 50 MiB read. */
                if (max_cap > 512 * 1024)
                        _exit(14);
                if (max_rec > 64 * 1024)
                        _exit(15);
                if (after.ru_maxrss - before.ru_maxrss > 16 * 1024)
                        _exit(16);
                _exit(0);
        }
        close(p[0]);
        if (waitpid(reader, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
                test_fail(__FILE__, __LINE__, "reader child failed: status 0x%x", status);
        kill(writer, SIGKILL);
        wait4(writer, NULL, 0, &ru);
}

/*
 * A long dump of ordinary records is read in chunks: the buffer stays at a
 * chunk or two, never the size of the input.
 */
TEST(long_dump_memory_is_flat) {
        enum { N = 100000 };
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        size_t max_cap = 0, max_rec = 0;
        uint64_t n = 0, bytes = 0;
        pid_t writer;
        int p[2], e, status = 0;

        if (pipe(p) < 0) {
                test_fail(__FILE__, __LINE__, "pipe: %m");
                return;
        }
        writer = fork();
        if (writer == 0) {
                FILE *f = fdopen(p[1], "w");
                int i;

                close(p[0]);
                if (!f)
                        _exit(1);
                for (i = 0; i < N; i++)
                        fprintf(f, "6,%d,%d,-,caller=T%d;record %d of a long dump\\x0aline two\n"
                                   " SUBSYSTEM=net\n DEVICE=n%d\n",
                                i, i * 10, i % 97, i, i % 5);
                _exit(fclose(f) == 0 ? 0 : 1);
        }
        close(p[1]);
        CHECK_INT(kmsg_reader_new_fd(p[0], "pipe", KMSG_FORMAT_AUTO, &rd), 0);
        while ((e = kmsg_reader_next(rd, &r)) == 1) {
                if (kmsg_record_get_seqnum(r) != n)
                        break;
                n++;
                bytes += kmsg_record_get_dict_count(r);
                if (rd->cap > max_cap)
                        max_cap = rd->cap;
                if (rd->rec->data_cap > max_rec)
                        max_rec = rd->rec->data_cap;
        }
        CHECK_INT(e, 0);
        CHECK_INT(n, N);
        CHECK_INT(bytes, 2 * (uint64_t)N);
        /* About 7 MB went through a buffer of at most two 128 KiB chunks (stream.c). */
        CHECK(max_cap <= 2 * 131072);
        CHECK(max_rec <= 1024);
        kmsg_reader_unref(rd);
        close(p[0]);
        CHECK(waitpid(writer, &status, 0) == writer && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Error positions: the 1-based line of the bad record, and parsing goes on. */
TEST(error_positions) {
        static const char in[] =
                "6,1,1,-;a\n"          /* 1 */
                " K=v\n"               /* 2 */
                " L=w\n"               /* 3 */
                "bad one\n"            /* 4 */
                "\n"                   /* 5 */
                "6,x,1,-;bad seq\n"    /* 6 */
                "6,2,1,-;b\n"          /* 7 */
                " notakey=\xff\n"      /* 8: no key char error: a value byte */
                "6,3,1,-;c\\x0a\n"     /* 9 */
                "6,4,1,-\n"            /* 10 */
                "6,5,1,-;d";           /* 11 */
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(in), KMSG_FORMAT_KMSG, 0);

        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=a |K=v |L=w\n"
                         "E-74@4 bad header: no ';' before the end of the line\n"
                         "E-74@6 bad header: sequence number is not a number\n"
                         "R@7 pri=6 seq=2 usec=1 flags=- fields= msg=b |notakey=\\ff\n"
                         "R@9 pri=6 seq=3 usec=1 flags=- fields= msg=c\\0a\n"
                         "E-74@10 bad header: no ';' before the end of the line\n"
                         "R@11 pri=6 seq=5 usec=1 flags=- fields= msg=d\n"
                         "EOF\n");
        free(t);
}

/* read() on a descriptor, at most chunk bytes at a time: the reader's source in place of its own read(). */
struct capped_fd {
        int fd;
        size_t chunk;
};

static ssize_t capped_read(void *userdata, void *buf, size_t n) {
        const struct capped_fd *c = userdata;

        return read(c->fd, buf, n < c->chunk ? n : c->chunk);
}

static const struct kmsg_device_ops capped_ops = {
        .read = capped_read,
};

TEST(real_fd_with_chunk_knob) {
        /* Short reads of a real descriptor (read() through a callback), with a pipe-free memfd. */
        static const size_t sizes[] = { 1, 2, 5, 64, 4096 };
        size_t i;

        for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
                struct kmsg_reader *rd = NULL;
                int fd = memfd_create("kmsg-test", MFD_CLOEXEC);
                struct capped_fd capped = { .fd = fd, .chunk = sizes[i] };
                char *t;

                if (fd < 0 || write(fd, mixed, sizeof(mixed) - 1) != (ssize_t)(sizeof(mixed) - 1) ||
                    lseek(fd, 0, SEEK_SET) != 0) {
                        test_fail(__FILE__, __LINE__, "memfd: %m");
                        return;
                }
                CHECK_INT(kmsg_reader_new_fd(fd, "memfd", KMSG_FORMAT_AUTO, &rd), 0);
                reader_set_source(rd, &capped_ops, &capped);
                t = transcript(rd);
                check_transcript(__FILE__, __LINE__, t, mixed_want);
                CHECK_INT(kmsg_reader_get_format(rd), KMSG_FORMAT_KMSG);
                free(t);
                kmsg_reader_unref(rd);
                close(fd);
        }
}

/*
 * kmsg_reader_set_range(): lines 4 to 11 of a file, read from where the
 * descriptor stands, at every read() size; positions are the file's lines
 * and the range's end is the input's, even inside a record's dictionary.
 */
TEST(range_of_a_file) {
        static const size_t sizes[] = { 1, 3, 64, 4096 };
        const char *from = memmem(mixed, sizeof(mixed) - 1, "6,2,200", 7);
        const char *to = memmem(mixed, sizeof(mixed) - 1, "garbage", 7);
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        size_t i;
        int fd = memfd_create("kmsg-test", MFD_CLOEXEC);

        if (fd < 0 || !from || !to || write(fd, mixed, sizeof(mixed) - 1) != (ssize_t)(sizeof(mixed) - 1)) {
                test_fail(__FILE__, __LINE__, "memfd: %m");
                return;
        }
        for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
                struct capped_fd capped = { .fd = fd, .chunk = sizes[i] };
                char *t;

                CHECK(lseek(fd, from - mixed, SEEK_SET) == from - mixed);
                CHECK_INT(kmsg_reader_new_fd(fd, "memfd", KMSG_FORMAT_KMSG, &rd), 0);
                reader_set_source(rd, &capped_ops, &capped);
                CHECK_INT(kmsg_reader_set_range(rd, (uint64_t)(to - from), 4), 0);
                t = transcript(rd);
                check_transcript(__FILE__, __LINE__, t,
                                 "R@4 pri=6 seq=2 usec=200 flags=- fields=caller=T5 caller=T5 msg=second; with=x,y "
                                 "\\0a |KEY=a=b\n"
                                 "R@9 pri=6 seq=3 usec=300 flags=c fields= msg=indented header\n"
                                 "E-74@10 bad header: no ';' before the end of the line\n"
                                 "R@11 pri=6 seq=4 usec=400 flags=- fields= msg=after bad\n"
                                 "EOF\n");
                free(t);
                /* Once it has read, the range is set. */
                CHECK_INT(kmsg_reader_set_range(rd, 10, 1), -EINVAL);
                kmsg_reader_unref(rd);
        }
        /* The range ends inside the first record's dictionary: the record ends there. */
        CHECK(lseek(fd, 0, SEEK_SET) == 0);
        CHECK_INT(kmsg_reader_new_fd(fd, "memfd", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(kmsg_reader_set_range(rd, sizeof("6,1,100,-;first\n SUBSYSTEM=usb\n") - 1, 7), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_dict_count(r), 1);
        CHECK_INT(kmsg_reader_get_position(rd), 7);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
        /* An empty range, and the refusals. */
        CHECK_INT(kmsg_reader_new_fd(fd, "memfd", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(kmsg_reader_set_range(rd, 0, 0), -EINVAL);
        CHECK_INT(kmsg_reader_set_range(rd, 0, 1), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
        CHECK_INT(kmsg_reader_set_range(NULL, 1, 1), -EINVAL);
        CHECK_INT(kmsg_reader_new_buffer("x\n", 2, "buf", KMSG_FORMAT_SYSLOG, &rd), 0);
        CHECK_INT(kmsg_reader_set_range(rd, 1, 1), -EINVAL);
        kmsg_reader_unref(rd);
        close(fd);
}

/*
 * stdin may be inherited with O_NONBLOCK: a pipe that has nothing yet is
 * not the end.  The reader waits for the writer, whose pieces arrive with
 * pauses and split records, and loses nothing.
 */
TEST(nonblocking_pipe_waits_for_the_writer) {
        static const size_t cuts[] = { 0, 7, 30, 61, sizeof(mixed) - 1 };
        struct kmsg_reader *rd = NULL;
        pid_t writer;
        int p[2], status = 0;
        char *t;

        if (pipe(p) < 0) {
                test_fail(__FILE__, __LINE__, "pipe: %m");
                return;
        }
        writer = fork();
        if (writer == 0) {
                size_t i;

                close(p[0]);
                for (i = 1; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
                        usleep(50000);
                        if (write(p[1], mixed + cuts[i - 1], cuts[i] - cuts[i - 1]) != (ssize_t)(cuts[i] - cuts[i - 1]))
                                _exit(1);
                }
                _exit(0);
        }
        close(p[1]);
        CHECK(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0);
        CHECK_INT(kmsg_reader_new_fd(p[0], "pipe", KMSG_FORMAT_AUTO, &rd), 0);
        t = transcript(rd);
        check_transcript(__FILE__, __LINE__, t, mixed_want);
        free(t);
        kmsg_reader_unref(rd);
        close(p[0]);
        CHECK(waitpid(writer, &status, 0) == writer && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(empty_and_blank_inputs) {
        static const char *inputs[] = { "", "\n", "\n\n\r\n", "\0\0\0", "   \n\t\n", " " };
        size_t i;

        for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
                size_t len = i == 3 ? 3 : strlen(inputs[i]);
                char *t = check_all_boundaries(__FILE__, __LINE__, inputs[i], len, KMSG_FORMAT_KMSG, 0);

                check_transcript(__FILE__, __LINE__, t, "EOF\n");
                free(t);
        }
}

TEST(reader_api) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;

        CHECK_INT(kmsg_reader_new_fd(-1, "x", KMSG_FORMAT_KMSG, &rd), -EINVAL);
        CHECK_INT(kmsg_reader_new_fd(0, "x", (enum kmsg_format)99, &rd), -EINVAL);
        CHECK_INT(kmsg_reader_new_path(NULL, KMSG_FORMAT_KMSG, &rd), -EINVAL);
        CHECK_INT(kmsg_reader_new_path("/nonexistent/kmsg/dump", KMSG_FORMAT_KMSG, &rd), -ENOENT);
        CHECK_INT(kmsg_reader_next(NULL, &r), -EINVAL);
        CHECK(kmsg_reader_unref(NULL) == NULL);
        CHECK_INT(kmsg_reader_new_path("-", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_STR(kmsg_reader_get_name(rd), "<stdin>");
        CHECK_INT(kmsg_reader_get_fd(rd), 0);
        CHECK(!kmsg_reader_is_device(rd));
        CHECK(kmsg_reader_ref(rd) == rd);
        CHECK(kmsg_reader_unref(rd) == NULL);
        CHECK(kmsg_reader_unref(rd) == NULL);
}

TEST(buffer_reader) {
        /* The caller's buffer is copied: it may change or go after the call. */
        char *copy = malloc(sizeof(mixed) - 1);
        struct kmsg_reader *rd = NULL;
        char *t;

        if (!copy)
                abort();
        memcpy(copy, mixed, sizeof(mixed) - 1);
        CHECK_INT(kmsg_reader_new_buffer(copy, sizeof(mixed) - 1, "buf", KMSG_FORMAT_AUTO, &rd), 0);
        memset(copy, 'x', sizeof(mixed) - 1);
        free(copy);
        CHECK_INT(kmsg_reader_get_fd(rd), -1);
        CHECK_INT(kmsg_reader_is_device(rd), 0);
        CHECK_STR(kmsg_reader_get_name(rd), "buf");
        t = transcript(rd);
        check_transcript(__FILE__, __LINE__, t, mixed_want);
        CHECK_INT(kmsg_reader_get_format(rd), KMSG_FORMAT_KMSG);
        free(t);
        kmsg_reader_unref(rd);

        CHECK_INT(kmsg_reader_new_buffer(NULL, 0, NULL, KMSG_FORMAT_SYSLOG, &rd), 0);
        t = transcript(rd);
        check_transcript(__FILE__, __LINE__, t, "EOF\n");
        free(t);
        kmsg_reader_unref(rd);
        CHECK_INT(kmsg_reader_new_buffer(NULL, 1, NULL, KMSG_FORMAT_KMSG, &rd), -EINVAL);
        CHECK_INT(kmsg_reader_new_buffer("", 0, NULL, (enum kmsg_format)99, &rd), -EINVAL);
}

/* Issue 13 #5: an endless run of NUL bytes returns to the caller now and then. */
TEST(junk_run_returns_to_the_caller) {
        size_t n = 3 * 4096 + 100, i;
        char *buf = calloc(1, n + 64), *t, *p;
        int errors = 0;

        CHECK(buf != NULL);
        n += (size_t)sprintf(buf + n, "6,1,1,-;after the junk\n");
        t = read_mem(buf, n, KMSG_FORMAT_KMSG, 1000, 0, 4096, NULL);
        for (p = t; (p = strstr(p, "E-74@1 ")); p++) {
                CHECK(strstr(p, " bytes of junk skipped (NUL bytes or blank lines)\n") != NULL);
                errors++;
        }
        CHECK(errors >= 2 && errors <= 3);
        CHECK(strstr(t, "R@1 pri=6 seq=1 usec=1 flags=- fields= msg=after the junk\nEOF\n") != NULL);
        free(t);
        /* Short runs between records are no error. */
        for (i = 0; i < n; i++)
                buf[i] = i % 100 == 99 ? '\n' : '\0';
        n = 4000 + (size_t)sprintf(buf + 4000, "6,2,2,-;x\n");
        t = read_mem(buf, n, KMSG_FORMAT_KMSG, 0, 0, 4096, NULL);
        CHECK_STR(t, "R@41 pri=6 seq=2 usec=2 flags=- fields= msg=x\nEOF\n");
        free(t);
        free(buf);
}

/*
 * Issue 13 #4: a header at byte 2048 splits the line only if it is the
 * very next record: seq + 1, a time stamp within an hour of the cut one's.
 */
/*
 * util-linux's -K form, records separated by NUL bytes: an empty line
 * between the text and the NUL ends the message with a newline, as
 * util-linux 2.43 reads it (each empty line one); after dictionary lines,
 * and between records separated by newlines, empty lines separate.
 */
static const char nul_blank[] =
        "6,1,1000,-;one\n\0"
        "6,2,2000,-,caller=T1;two\n\n\0"
        "6,3,3000,-;three\n\n\n\0"
        "6,4,4000,-;four\n SUBSYSTEM=x\n\n\0"
        "6,5,5000,-;five\n\n"
        "6,6,6000,-;six\n";
static const char nul_blank_want[] =
        "R@1 pri=6 seq=1 usec=1000 flags=- fields= msg=one\n"
        "R@2 pri=6 seq=2 usec=2000 flags=- fields=caller=T1 caller=T1 msg=two\\0a\n"
        "R@4 pri=6 seq=3 usec=3000 flags=- fields= msg=three\\0a\\0a\n"
        "R@7 pri=6 seq=4 usec=4000 flags=- fields= msg=four |SUBSYSTEM=x\n"
        "R@10 pri=6 seq=5 usec=5000 flags=- fields= msg=five\n"
        "R@12 pri=6 seq=6 usec=6000 flags=- fields= msg=six\n"
        "EOF\n";

TEST(nul_separated_empty_line_ends_the_message_with_a_newline) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(nul_blank), KMSG_FORMAT_KMSG, 0);

        check_transcript(__FILE__, __LINE__, t, nul_blank_want);
        free(t);
        t = check_all_boundaries(__FILE__, __LINE__, LIT(nul_blank), KMSG_FORMAT_AUTO, 0);
        check_transcript(__FILE__, __LINE__, t, nul_blank_want);
        free(t);
}

TEST(split_at_2048_only_before_the_next_record) {
        static const struct {
                const char *next;
                bool split;
        } cases[] = {
                { "6,11,7200002000,-;one hour later", true },
                { "6,11,7200002001,-;one hour and 1 us later", false },
                { "6,11,3600001990,-;a little earlier (SMP)", true },
                { "6,11,2000,-;one hour earlier", true },
                { "6,11,1999,-;one hour and 1 us earlier", false },
                { "0,99,3600002001,-;forged emerg", false },
                { "6,10,3600002001,-;same seq", false },
                { "6,9,3600002001,-;seq backwards", false },
                { "0,11,3600002001,c,caller=T1;seq + 1 with fields", true },
        };
        static char buf[8192];
        size_t i, n;
        char *t, want[4600];

        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                n = put_record(buf, "6,10,3600002000,-;", 2048, 'a', "");
                n += (size_t)sprintf(buf + n, "%s\n6,12,5000,-;last\n", cases[i].next);
                /* Every read boundary for the two sides of the hour; whole reads for the rest (time). */
                t = i < 2 ? check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 0)
                          : read_mem(buf, n, KMSG_FORMAT_KMSG, 0, 0, 0, NULL);
                if (cases[i].split)
                        CHECK(strstr(t, "aaaa\n" CUT_NOTE(11) "R@1 pri=") != NULL);
                else {
                        /* One record: the header-like text is part of it. */
                        snprintf(want, sizeof(want), "aaaa%s\nR@2 pri=6 seq=12", cases[i].next);
                        CHECK(strstr(t, want) != NULL);
                        CHECK(strstr(t, "E-") == NULL);
                }
                CHECK(strstr(t, "msg=last\nEOF\n") != NULL);
                free(t);
        }
}

/*
 * The kernel cut a record's text at 2048 bytes, never its header: a line
 * whose header (fields from JSON input, written back as kmsg) runs past
 * byte 2048 is one record, whatever follows there.
 */
TEST(split_at_2048_not_inside_the_header) {
        static char buf[4200];
        size_t n;
        char *t;

        /* "6,10,1000000,-," then fields up to byte 2048, where "6,11,1000001,-" would be the next header. */
        n = put_record(buf, "6,10,1000000,-,", 2048, 'x', "");
        n += (size_t)sprintf(buf + n, "6,11,1000001,-;hello\n6,12,5000,-;last\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_KMSG, 0);
        CHECK(strstr(t, "xxxx6,11,1000001,-") != NULL);
        CHECK(strstr(t, "msg=hello\nR@2 pri=6 seq=12") != NULL);
        CHECK(strstr(t, "E-") == NULL);
        free(t);
        /* The header ends right before the cut (its ";" byte 2047): the header at 2048 splits the line. */
        n = put_record(buf, "6,10,1000000,-,", 2048, 'x', ";");
        n += (size_t)sprintf(buf + n, "6,11,1000001,-;hello\n6,12,5000,-;last\n");
        t = read_mem(buf, n, KMSG_FORMAT_KMSG, 0, 0, 0, NULL);
        CHECK(strstr(t, CUT_NOTE(11)) != NULL);
        free(t);
}

/*
 * Multi-line messages in the syslog form, as "dmesg -r", "dmesg" and
 * "dmesg -x" print them: further lines are indented by the width of the
 * first line's head, and exactly that indent is taken off.  A blank line
 * is a line of the message, as util-linux reads it (a message that ends in
 * a newline prints so).
 */
static const char syslog_multi[] =
        "<4>[    1.000000] WARNING: at foo\n"
        "                  Call Trace:\n"
        "                   <TASK>\n"
        "                  \tback\\slash\r\n"
        "                  \n"
        "                  [    2.000000] not a record\n"
        "\n"
        "[    3.000000] plain\n"
        "               cont\n"
        "kern  :err   : [    4.000000] decoded\n"
        "                                two spaces\n"
        "user  :info  : no time\n"
        "               x\n"
        "<6>last\n"
        "   line";
static const char syslog_multi_want[] =
        "R@1 pri=4 usec=1000000 flags= fields= msg=WARNING: at foo\\0aCall Trace:\\0a <TASK>\\0a"
        "\\09back\\5cslash\\0a\\0a[    2.000000] not a record\\0a\n"
        "R@8 usec=3000000 flags= fields= msg=plain\\0acont\n"
        "R@10 pri=3 usec=4000000 flags= fields= msg=decoded\\0a  two spaces\n"
        "R@12 pri=14 flags= fields= msg=no time\\0ax\n"
        "R@14 pri=6 flags= fields= msg=last\\0aline\n"
        "EOF\n";

TEST(syslog_multiline_every_boundary) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(syslog_multi), KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t, syslog_multi_want);
        free(t);
        t = check_all_boundaries(__FILE__, __LINE__, LIT(syslog_multi), KMSG_FORMAT_AUTO, 0);
        check_transcript(__FILE__, __LINE__, t, syslog_multi_want);
        free(t);
}

/*
 * The caller id that util-linux 2.40+ and the kernel's console print after
 * the time stamp is the record's caller field, not text; continuation lines
 * are indented past it.  Only "[", spaces, T or C and digits, "] " is one.
 */
static const char syslog_caller[] =
        "<6>[    1.000000] [    T1] first\n"
        "                           second\n"
        "kern  :warn  : [    2.000000] [  C12] decoded\n"
        "[    3.000000] [T4194304] wide\n"
        "[    4.000000] [sda] not a caller\n"
        "[    5.000000] [    X1] nor this\n"
        "[    6.000000] [    T] nor this\n"
        "[    7.000000] [    T1]no space\n"
        "<6>[    T2] no time stamp: text\n"
        "<6>[    8.000000][    T3] the kernel's syslog(2) form: no space before the id\n";
static const char syslog_caller_want[] =
        "R@1 pri=6 usec=1000000 flags= fields=caller=T1 caller=T1 msg=first\\0asecond\n"
        "R@3 pri=4 usec=2000000 flags= fields=caller=C12 caller=C12 msg=decoded\n"
        "R@4 usec=3000000 flags= fields=caller=T4194304 caller=T4194304 msg=wide\n"
        "R@5 usec=4000000 flags= fields= msg=[sda] not a caller\n"
        "R@6 usec=5000000 flags= fields= msg=[    X1] nor this\n"
        "R@7 usec=6000000 flags= fields= msg=[    T] nor this\n"
        "R@8 usec=7000000 flags= fields= msg=[    T1]no space\n"
        "R@9 pri=6 flags= fields=caller=T2 caller=T2 msg=no time stamp: text\n"
        "R@10 pri=6 usec=8000000 flags= fields=caller=T3 caller=T3 msg=the kernel's syslog(2) form: no space before the id\n"
        "EOF\n";

TEST(syslog_caller_every_boundary) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(syslog_caller), KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t, syslog_caller_want);
        free(t);
}

/*
 * A syslog-form capture cut inside a multi-line message: each line before
 * the first record is a record of its own with no priority and no time
 * (blank lines go with the one before); after a record, every line that
 * starts none continues it, as util-linux reads it: indented as the view
 * indents, the indent is taken off, indented less or not at all, kept as
 * it is.
 */
static const char syslog_cut[] =
        "                  Call Trace:\n"
        "                   <TASK>\n"
        "                  \n"
        "<4>[    1.000000] first\n"
        "                  more\n"
        "  junk\n"
        "-- 9 messages lost --\n"
        "<6>[    2.000000] last\n";
static const char syslog_cut_want[] =
        "R@1 flags= fields= msg=                  Call Trace:\n"
        "R@2 flags= fields= msg=                   <TASK>\\0a                  \n"
        "R@4 pri=4 usec=1000000 flags= fields= msg=first\\0amore\\0a  junk\\0a-- 9 messages lost --\n"
        "R@8 pri=6 usec=2000000 flags= fields= msg=last\n"
        "EOF\n";

/*
 * What people paste: a caller id with no text (KASAN), a head whose last
 * space a paste cut, "dmesg -T" stamps, lines without time stamps, and
 * escapes: only those a printer makes are decoded.
 */
static const char syslog_paste[] =
        "[  744.596650][ T3173]\n"
        "<4>[    1.253015]\n"
        "                  the message on the next line\n"
        "[Sat Dec  5 23:19:32 2026] a wall-clock stamp\n"
        "                           its second line\n"
        "kern  :warn  : [Sat Dec  5 23:19:33 2026] [  C2] decoded, wall clock, caller\n"
        "<6>[    2.000000] path C:\\temp\\x41 \\x5cx41 \\x1b \\xc2\\xb0 \\X7F\n";
static const char syslog_paste_want[] =
        "R@1 usec=744596650 flags= fields=caller=T3173 caller=T3173 msg=\n"
        "R@2 pri=4 usec=1253015 flags= fields= msg=\\0athe message on the next line\n"
        "R@4 printed=1796512772 flags= fields= msg=a wall-clock stamp\\0aits second line\n"
        "R@6 pri=4 printed=1796512773 flags= fields=caller=C2 caller=C2 msg=decoded, wall clock, caller\n"
        "R@7 pri=6 usec=2000000 flags= fields= msg=path C:\\5ctemp\\5cx41 \\5cx41 \\1b \\c2\\b0 \\5cX7F\n"
        "EOF\n";

TEST(syslog_paste_every_boundary) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(syslog_paste), KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t, syslog_paste_want);
        free(t);
}

/*
 * User space's output on the console run together with the kernel's line
 * (a login prompt without its newline, printk's "** N printk messages
 * dropped **" in 4.x, a kernel line without its newline after a line that
 * starts with no head): the text before the head is a record of its own,
 * the head starts the next; text before a '[' that is no time stamp, or
 * an indented line, continues the record before.
 */
static const char syslog_run_in[] =
        "[    1.000000] first\n"
        "syzkaller login: [    2.000000] INFO: task hung\n"
        "               cont\n"
        "** 3 printk messages dropped ** [    3.000000]  [<ffffffff81234567>] foo+0x1/0x2\n"
        "not a head [sda] x\n"
        "  indented [    4.000000] kept\n"
        "[    5.000000] last\n"
        "x: allocation failure: 8 bytes[    6.000000] BUG: y\n";
static const char syslog_run_in_want[] =
        "R@1 usec=1000000 flags= fields= msg=first\n"
        "R@2 flags= fields= msg=syzkaller login:\n"
        "R@2 usec=2000000 flags= fields= msg=INFO: task hung\\0acont\n"
        "R@4 flags= fields= msg=** 3 printk messages dropped **\n"
        "R@4 usec=3000000 flags= fields= msg= [<ffffffff81234567>] foo+0x1/0x2\\0anot a head [sda] x\\0a  indented [    4.000000] kept\n"
        "R@7 usec=5000000 flags= fields= msg=last\n"
        "R@8 flags= fields= msg=x: allocation failure: 8 bytes\n"
        "R@8 usec=6000000 flags= fields= msg=BUG: y\n"
        "EOF\n";

TEST(syslog_run_in_every_boundary) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(syslog_run_in), KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t, syslog_run_in_want);
        free(t);
}

TEST(syslog_cut_every_boundary) {
        char *t = check_all_boundaries(__FILE__, __LINE__, LIT(syslog_cut), KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t, syslog_cut_want);
        free(t);
}

/* A "dmesg -T" stamp's date and time, as printed, in seconds; what no clock prints is no stamp. */
TEST(syslog_printed_time) {
        static const char in[] =
                "[Wed Dec 19 03:36:07 2018] INFO: task logrotate:17344 blocked for more than 120 seconds.\n"
                "[Thu Feb 29 00:00:00 2024] leap day\n"
                "[Thu Jan  1 00:00:00 1970] the epoch\n"
                "[Wed Dec 31 23:59:59 1969] before it\n"
                "[Sat Dec 31 23:59:60 2016] a leap second\n"
                "[Foo Dec 19 03:36:07 2018] no such weekday\n"
                "[Wed Dex 19 03:36:07 2018] no such month\n"
                "[Wed Dec 32 03:36:07 2018] no such day\n"
                "[Wed Dec 19 24:36:07 2018] no such hour\n";
        static const int64_t want[] = { 1545190567, 1709164800, 0, -1, 1483228800 };
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        int64_t sec = 42;
        size_t i;

        CHECK_INT(kmsg_reader_new_buffer(in, sizeof(in) - 1, "buf", KMSG_FORMAT_SYSLOG, &rd), 0);
        for (i = 0; i < 5; i++) {
                CHECK_INT(kmsg_reader_next(rd, &r), 1);
                CHECK_INT(kmsg_record_has_timestamp(r), 0);
                CHECK_INT(kmsg_record_get_printed_time(r, &sec), 0);
                CHECK_INT(sec, want[i]);
        }
        /* The rest continue the leap second's record: none of them starts one. */
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        CHECK_INT(kmsg_record_get_printed_time(NULL, &sec), -EINVAL);
        kmsg_reader_unref(rd);
        /* Other records carry none, and *ret_sec is left alone. */
        CHECK_INT(kmsg_record_parse("6,1,100,-;x", 11, &r), 0);
        sec = 42;
        CHECK_INT(kmsg_record_get_printed_time(r, &sec), -ENODATA);
        CHECK_INT(sec, 42);
        kmsg_record_unref(r);
}

/* Every member of r's view is what its getter gives. */
static void check_view(const struct kmsg_record *r, int line) {
        struct kmsg_record_view v;
        size_t len = 0;
        int64_t sec;

        memset(&v, 0x5a, sizeof(v));
        if (kmsg_record_get_view(r, &v, sizeof(v)) != 0) {
                test_fail(__FILE__, line, "kmsg_record_get_view() failed");
                return;
        }
        if (v.has_priority != !!kmsg_record_has_priority(r) || v.has_seqnum != !!kmsg_record_has_seqnum(r) ||
            v.has_timestamp != !!kmsg_record_has_timestamp(r) ||
            v.has_printed_time != (kmsg_record_get_printed_time(r, &sec) == 0) ||
            v.priority != kmsg_record_get_priority(r) || v.seqnum != kmsg_record_get_seqnum(r) ||
            v.usec != kmsg_record_get_timestamp(r) || v.flags != kmsg_record_get_flags(r) ||
            v.fields != kmsg_record_get_fields(r) || v.caller != kmsg_record_get_caller_text(r) ||
            v.caller_len != (v.caller ? strlen(v.caller) : 0) ||
            v.message != kmsg_record_get_message(r, &len) || v.message_len != len ||
            v.n_dict != kmsg_record_get_dict_count(r) || v.subsystem != kmsg_record_get_subsystem(r) ||
            v.device != kmsg_record_get_device(r) || v.boot_id != kmsg_record_get_boot_id(r) ||
            v.n_journal != kmsg_record_get_journal_count(r))
                test_fail(__FILE__, line, "the view of \"%s\" is not what the getters give", kmsg_record_get_message(r, NULL));
}

/* Each form's records, read, give the getters' values in one view. */
#define EXPORT_NUL_CALLERS                                                                                         \
        "PRIORITY=6\nSEQNUM=8\nKMSG_FIELDS\n\014\0\0\0\0\0\0\0caller=T7\001\0x\nMESSAGE=a\n\n"                              \
        "PRIORITY=6\nSEQNUM=9\nKMSG_FIELDS\n\017\0\0\0\0\0\0\0caller=C1\0y,a=b\nMESSAGE=b\n\n"

TEST(record_view_is_the_getters) {
        static const struct {
                enum kmsg_format format;
                const char *in;
                size_t n;
                size_t len; /* of in; 0: strlen(in) */
        } forms[] = {
                { KMSG_FORMAT_KMSG,
                  "6,1,100,-,caller=T12;usb 1-1: new device\n SUBSYSTEM=usb\n DEVICE=c189:1\n"
                  "3,2,200,c;no caller\\x0aline\n"
                  "14,3,300,-,caller=C0,foo=bar;fields\n X=y\n",
                  3 },
                { KMSG_FORMAT_SYSLOG, "[Wed Dec 19 03:36:07 2018] printed\n<4>[    1.500000] plain\n", 2 },
                { KMSG_FORMAT_EXPORT,
                  "__REALTIME_TIMESTAMP=1700000000000000\n_BOOT_ID=0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e\n"
                  "PRIORITY=6\nSYSLOG_FACILITY=0\nSEQNUM=7\nTIMESTAMP=123\n_KERNEL_DEVICE=b8:0\nMESSAGE=sda: x\n\n",
                  1 },
                /*
                 * NUL bytes in the header fields of export's binary form (as
                 * fuzz-output made them): the caller's text and length end at the first.
                 */
                { KMSG_FORMAT_EXPORT, EXPORT_NUL_CALLERS, 2, sizeof(EXPORT_NUL_CALLERS) - 1 },
        };
        struct kmsg_record_view v, wide[2];
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        size_t f, i;

        for (f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
                CHECK_INT(kmsg_reader_new_buffer(forms[f].in, forms[f].len ? forms[f].len : strlen(forms[f].in), "buf",
                                                 forms[f].format, &rd),
                          0);
                for (i = 0; i < forms[f].n; i++) {
                        CHECK_INT(kmsg_reader_next(rd, &r), 1);
                        check_view(r, __LINE__);
                        if (f == 0 && i == 0) {
                                /* A caller built with a later, longer view: the bytes past this one's are not touched. */
                                memset(wide, 0x5a, sizeof(wide));
                                CHECK_INT(kmsg_record_get_view(r, &wide[0], sizeof(wide)), 0);
                                CHECK_INT(kmsg_record_get_view(r, &v, sizeof(v)), 0);
                                CHECK(memcmp(&wide[0], &v, offsetof(struct kmsg_record_view, n_journal) + sizeof(size_t)) == 0);
                                CHECK(((unsigned char *)&wide[1])[0] == 0x5a);
                                CHECK_STR(v.caller, "T12");
                                CHECK_STR(v.subsystem, "usb");
                                CHECK_STR(v.device, "c189:1");
                                /* One built with a shorter view than 1.5's, or no record: refused. */
                                CHECK_INT(kmsg_record_get_view(r, &v, offsetof(struct kmsg_record_view, n_journal)), -EINVAL);
                                CHECK_INT(kmsg_record_get_view(NULL, &v, sizeof(v)), -EINVAL);
                                CHECK_INT(kmsg_record_get_view(r, NULL, sizeof(v)), -EINVAL);
                        }
                        if (f == 1 && i == 0)
                                CHECK_INT(kmsg_record_get_view(r, &v, sizeof(v)) == 0 && v.has_printed_time, 1);
                        if (f == 3) {
                                CHECK_INT(kmsg_record_get_view(r, &v, sizeof(v)), 0);
                                CHECK_STR(v.caller, i == 0 ? "T7\001" : "C1");
                        }
                        if (f == 2) {
                                CHECK_INT(kmsg_record_get_view(r, &v, sizeof(v)), 0);
                                CHECK_STR(v.boot_id, "0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e");
                                CHECK(v.n_journal >= 1);
                        }
                }
                CHECK_INT(kmsg_reader_next(rd, &r), 0);
                kmsg_reader_unref(rd);
        }
}
