/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The least a follower of /dev/kmsg can do: read() each record into a
 * buffer and drop it, poll() when caught up, read on after EPIPE.  No
 * parsing, no output.  bench/follow --floor runs it where kdmesg runs, so
 * that what the device's read() costs on this machine is measured beside
 * what kdmesg adds to it.  At SIGTERM it writes "records N epipes M" to
 * stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t quit;

static void on_term(int sig) {
        (void)sig;
        quit = 1;
}

int main(void) {
        struct sigaction sa = { .sa_handler = on_term };
        unsigned long long records = 0, epipes = 0;
        char buf[8192];
        int fd;

        sigaction(SIGTERM, &sa, NULL);
        fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 || lseek(fd, 0, SEEK_END) < 0) {
                perror("follow-floor: /dev/kmsg");
                return 1;
        }
        while (!quit) {
                struct pollfd p = { .fd = fd, .events = POLLIN };

                if (read(fd, buf, sizeof(buf)) > 0)
                        records++;
                else if (errno == EPIPE)
                        epipes++;
                else if (errno == EAGAIN)
                        poll(&p, 1, -1);
                else if (errno != EINTR) {
                        perror("follow-floor: read");
                        return 1;
                }
        }
        fprintf(stderr, "records %llu epipes %llu\n", records, epipes);
        return 0;
}
