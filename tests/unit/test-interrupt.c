/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kmsg_reader_set_interrupt(): a flag that a signal handler sets ends
 * reading, also a read() that blocks, after the records already in the
 * buffer were handed out.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "libkmsg.h"
#include "tests.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t ticks;

static void put(int fd, const char *s) {
        if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
                test_fail(__FILE__, __LINE__, "write failed");
}

static const char *next_text(struct kmsg_reader *rd, int *ret) {
        struct kmsg_record *r = NULL;

        *ret = kmsg_reader_next(rd, &r);
        return *ret == 1 ? kmsg_record_get_message(r, NULL) : NULL;
}

/*
 * SIGALRM every 50 ms: the first sets the flag; a reader that ignores it
 * goes on blocking, and after 3 s the test ends as a failure, not a hang.
 */
static void on_alarm(int sig) {
        (void)sig;
        stop_flag = 1;
        if (++ticks > 60) {
                static const char msg[] = "Bail out! the reader kept blocking after the interrupt\n";

                if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0) {
                        /* nothing more to say */
                }
                _exit(1);
        }
}

static void alarms(bool on) {
        struct itimerval it = { .it_interval = { 0, 50000 }, .it_value = { 0, 50000 } };
        struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART: read() fails with EINTR */

        if (!on)
                memset(&it, 0, sizeof(it));
        sigemptyset(&sa.sa_mask);
        if (on)
                sigaction(SIGALRM, &sa, NULL);
        setitimer(ITIMER_REAL, &it, NULL);
        if (!on)
                signal(SIGALRM, SIG_DFL);
}

/* A blocking read() of a pipe whose writer stays: the signal ends it, the complete records come first. */
TEST(signal_ends_blocking_pipe_read) {
        struct kmsg_reader *rd = NULL;
        const char *t;
        int p[2], e;

        stop_flag = 0;
        ticks = 0;
        CHECK_INT(pipe(p), 0);
        put(p[1], "6,0,0,-;a\n6,1,1,-;b\n SUBSYSTEM=pci\n6,2,2,-;cut her");
        CHECK_INT(kmsg_reader_new_fd(p[0], "pipe", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(kmsg_reader_set_interrupt(rd, &stop_flag, -1), 0);
        alarms(true);
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "a");
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "b");
        /* The rest is a record cut short: read() blocks until the signal. */
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EINTR);
        CHECK(stop_flag);
        CHECK_STR(kmsg_reader_get_error(rd), "reading interrupted: 15 bytes of an unfinished record left unread");
        CHECK_INT(kmsg_reader_get_position(rd), 4);
        /* It stays stopped while the flag is set. */
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EINTR);
        alarms(false);

        /* Cleared, the reader goes on where it stopped. */
        stop_flag = 0;
        put(p[1], "e\n");
        close(p[1]);
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "cut here");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, 0);
        kmsg_reader_unref(rd);
        close(p[0]);
}

/*
 * The flag set with no signal at all, its wake-up descriptor written: a
 * reader about to block on the pipe wakes from it.  (A signal that comes
 * between the reader's check and its read() leaves exactly this.)
 */
TEST(wake_fd_ends_read_without_signal) {
        volatile sig_atomic_t *flag = mmap(NULL, sizeof(*flag), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                                           -1, 0);
        struct kmsg_reader *rd = NULL;
        int p[2], wake[2], e, status;
        const char *t;
        pid_t pid;

        CHECK(flag != MAP_FAILED);
        *flag = 0;
        CHECK_INT(pipe(p), 0);
        CHECK_INT(pipe(wake), 0);
        put(p[1], "6,0,0,-;only\n");
        pid = fork();
        if (pid == 0) {
                /* Any reader that read() the pipe now would block for good. */
                usleep(100000);
                *flag = 1;
                _exit(write(wake[1], "q", 1) == 1 ? 0 : 1);
        }
        CHECK(pid > 0);
        /* A watchdog only: it sets no flag of this reader. */
        alarm(5);
        CHECK_INT(kmsg_reader_new_fd(p[0], "pipe", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(kmsg_reader_set_interrupt(rd, flag, wake[0]), 0);
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "only");
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EINTR);
        CHECK_STR(kmsg_reader_get_error(rd), "");
        alarm(0);
        CHECK_INT(waitpid(pid, &status, 0), pid);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        kmsg_reader_unref(rd);
        close(p[0]);
        close(p[1]);
        close(wake[0]);
        close(wake[1]);
        munmap((void *)flag, sizeof(*flag));
}

/* A device read() that a signal interrupts: -EINTR at once, no further read. */
struct fake_device {
        int reads;
};

static ssize_t fake_read(void *userdata, void *buf, size_t n) {
        struct fake_device *d = userdata;
        static const char rec[] = "6,7,70,-;from the device\n";

        d->reads++;
        if (d->reads == 1) {
                /* The signal came while read() waited. */
                stop_flag = 1;
                errno = EINTR;
                return -1;
        }
        if (n < sizeof(rec) - 1)
                return -1;
        memcpy(buf, rec, sizeof(rec) - 1);
        return (ssize_t)(sizeof(rec) - 1);
}

static off_t fake_seek(void *userdata, off_t off, int whence) {
        (void)userdata;
        (void)off;
        (void)whence;
        return 0;
}

TEST(signal_ends_device_read) {
        static const struct kmsg_device_ops ops = { .read = fake_read, .seek = fake_seek };
        struct fake_device d = { 0 };
        struct kmsg_reader *rd = NULL;
        const char *t;
        int e;

        stop_flag = 0;
        CHECK_INT(kmsg_reader_new_device_ops(&ops, &d, KMSG_SEEK_START, &rd), 0);
        CHECK_INT(kmsg_reader_set_interrupt(rd, &stop_flag, -1), 0);
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EINTR);
        CHECK_INT(d.reads, 1);
        /* Set: not even one read more. */
        CHECK(next_text(rd, &e) == NULL);
        CHECK_INT(e, -EINTR);
        CHECK_INT(d.reads, 1);
        stop_flag = 0;
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "from the device");
        kmsg_reader_unref(rd);
}

/*
 * Every input form hands out the records wholly in the buffer, then stops,
 * even where only the next record's first bytes would end the last one.
 */
static void stops_after(const char *input, enum kmsg_format format, const char *first, const char *rest,
                        int line) {
        struct kmsg_reader *rd = NULL;
        const char *t;
        int p[2], e;

        stop_flag = 0;
        ticks = 0;
        CHECK_INT(pipe(p), 0);
        put(p[1], input);
        CHECK_INT(kmsg_reader_new_fd(p[0], "pipe", format, &rd), 0);
        CHECK_INT(kmsg_reader_set_interrupt(rd, &stop_flag, -1), 0);
        alarms(true);
        t = next_text(rd, &e);
        if (e != 1 || !t || strcmp(t, first) != 0)
                test_fail(__FILE__, line, "first record: %d \"%s\"", e, t ? t : "(none)");
        t = next_text(rd, &e);
        if (e != 1 || !t || strcmp(t, rest) != 0)
                test_fail(__FILE__, line, "second record: %d \"%s\"", e, t ? t : "(none)");
        t = next_text(rd, &e);
        if (e != -EINTR)
                test_fail(__FILE__, line, "then %d \"%s\", expected -EINTR", e, t ? t : "(none)");
        alarms(false);
        kmsg_reader_unref(rd);
        close(p[0]);
        close(p[1]);
}

TEST(every_format_hands_out_what_it_holds) {
        stops_after("6,0,0,-;one\n6,1,1,-;two\n", KMSG_FORMAT_AUTO, "one", "two", __LINE__);
        stops_after("MESSAGE=one\nPRIORITY=6\n\nMESSAGE=two\nPRIORITY=6\n", KMSG_FORMAT_EXPORT, "one", "two",
                    __LINE__);
        stops_after("{\"seq\":0,\"msg\":\"one\"}\n{\"seq\":1,\"msg\":\"two\"}\n", KMSG_FORMAT_AUTO, "one", "two",
                    __LINE__);
        stops_after("<6>[    0.000000] one\n<6>[    0.000001] two\n                  lines\n", KMSG_FORMAT_SYSLOG,
                    "one", "two\nlines", __LINE__);
}

/* A regular file never blocks: the flag is checked before each chunk is read. */
TEST(flag_stops_file_between_chunks) {
        char path[] = "/tmp/kmsg-interrupt-XXXXXX";
        int fd = mkstemp(path), e, i, n = 0;
        struct kmsg_reader *rd = NULL;
        char line[64];
        const char *t;

        CHECK(fd >= 0);
        /* Well over one 128 KiB chunk. */
        for (i = 0; i < 20000; i++) {
                snprintf(line, sizeof(line), "6,%d,%d,-;record %d\n", i, i, i);
                put(fd, line);
        }
        stop_flag = 0;
        CHECK_INT(kmsg_reader_new_path(path, KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(kmsg_reader_set_interrupt(rd, &stop_flag, -1), 0);
        t = next_text(rd, &e);
        CHECK_INT(e, 1);
        CHECK_STR(t, "record 0");
        stop_flag = 1;
        while (next_text(rd, &e))
                n++;
        CHECK_INT(e, -EINTR);
        /* The rest of the first chunk, and not the whole file. */
        CHECK(n > 100);
        CHECK(n < 19999);
        kmsg_reader_unref(rd);
        close(fd);
        unlink(path);
}

TEST(set_interrupt_arguments) {
        struct kmsg_reader *rd = NULL;

        CHECK_INT(kmsg_reader_set_interrupt(NULL, &stop_flag, -1), -EINVAL);
        CHECK_INT(kmsg_reader_new_buffer("", 0, "empty", KMSG_FORMAT_KMSG, &rd), 0);
        CHECK_INT(kmsg_reader_set_interrupt(rd, &stop_flag, -2), -EINVAL);
        CHECK_INT(kmsg_reader_set_interrupt(rd, NULL, 5), 0);
        kmsg_reader_unref(rd);
}
