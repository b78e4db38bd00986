/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Following a stream that grows: kmsg_reader_set_follow(). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "libkmsg.h"
#include "tests.h"

static void put(int fd, const char *s) {
        if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
                test_fail(__FILE__, __LINE__, "write failed");
}

static const char *next_text(struct kmsg_reader *rd, int *ret) {
        struct kmsg_record *r = NULL;

        *ret = kmsg_reader_next(rd, &r);
        return *ret == 1 ? kmsg_record_get_message(r, NULL) : NULL;
}

TEST(follow_growing_file) {
        char path[] = "/tmp/kmsg-follow-XXXXXX";
        int wfd = mkstemp(path), e;
        struct kmsg_reader *rd = NULL;
        const char *t;

        CHECK(wfd >= 0);
        CHECK_INT(kmsg_reader_new_path(path, KMSG_FORMAT_AUTO, &rd), 0);
        CHECK_INT(kmsg_reader_set_follow(rd, 1), 0);
        /* Empty: no end of input, just nothing yet. */
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EAGAIN);

        /* A complete record is returned as soon as the data pauses. */
        put(wfd, "6,1,10,-;first\n");
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "first");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EAGAIN);

        /* A record with its dictionary, then half a header: wait for the rest. */
        put(wfd, "6,2,20,-;second\n SUBSYSTEM=pci\n6,3,3");
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "second");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EAGAIN);
        put(wfd, "0,-;third\n");
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "third");

        /* Without follow the end of the data is the end of input; a cut record is flushed. */
        put(wfd, "6,4,40,-;fourth, no newline");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EAGAIN);
        CHECK_INT(kmsg_reader_set_follow(rd, 0), 0);
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "fourth, no newline");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, 0);

        kmsg_reader_unref(rd);
        close(wfd);
        unlink(path);
}

TEST(follow_pipe_never_blocks) {
        struct kmsg_reader *rd = NULL;
        const char *t;
        int p[2], e;

        CHECK_INT(pipe(p), 0);
        CHECK_INT(kmsg_reader_new_fd(p[0], "pipe", KMSG_FORMAT_AUTO, &rd), 0);
        CHECK_INT(kmsg_reader_set_follow(rd, 1), 0);
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EAGAIN);
        put(p[1], "6,7,1,-;from a pipe\n");
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "from a pipe");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EAGAIN);
        /* The writer closes: the real end. */
        close(p[1]);
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, 0);
        kmsg_reader_unref(rd);
        close(p[0]);
}

TEST(follow_bad_argument) {
        CHECK_INT(kmsg_reader_set_follow(NULL, 1), -EINVAL);
}

TEST(loss_cause_names) {
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_REBOOT), "reboot");
        CHECK_STR(kmsg_loss_cause_to_name(KMSG_LOSS_INTERRUPTED), "interrupted");
}
