/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kmsg-emu: create and drive the emulated /dev/kmsg ring (see ring.h).
 *
 *   kmsg-emu init RING CAPACITY        a new, empty ring (a new boot id)
 *   kmsg-emu write RING COUNT [RATE]   append COUNT records (0: until
 *                                      SIGTERM/SIGINT) at RATE records/s
 *                                      (0 or absent: as fast as possible)
 *   kmsg-emu append RING PRIO TEXT     append one record with that <PRI>
 *                                      (facility * 8 + level) and TEXT as
 *                                      the device shows it: the message,
 *                                      then "\n KEY=VALUE" dictionary lines
 *   kmsg-emu reboot RING               new boot id, sequence restarts at 0
 *   kmsg-emu clear RING                what "dmesg -C" does (SEEK_DATA)
 *   kmsg-emu get RING FIELD            print first_seq, next_seq, boot_id,
 *                                      opens, reads, polls, blocks, epipes,
 *                                      timed (polls with a time-out),
 *                                      renames (rename() calls of the reader),
 *                                      out_writes (the reader's write()s to
 *                                      standard output), writer_late_us (the
 *                                      writer's worst lag behind its RATE),
 *                                      read_next (one past the highest seq a
 *                                      read() was handed, 0: none, this boot)
 *   kmsg-emu wait RING FIELD N [SEC]   wait until FIELD >= N (default 10 s);
 *                                      exit 1 on time-out
 *
 * Record seq N has priority 6 (kern.info), time stamp (N + 1) * 1000 us and
 * the text "record N" ($KMSG_EMU_TEXT replaces "record"), so that any output
 * can be checked for exactly which records it holds.  With KMSG_EMU_STAMP
 * set, the text ends with " t=NS": the CLOCK_MONOTONIC time in nanoseconds
 * at which the record was added (bench/latency measures the time from there
 * to kdmesg's output line).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"

static int ring_fd = -1;
static volatile sig_atomic_t stop;

static void on_signal(int sig) {
        stop = 1;
}

static void die(const char *what) {
        fprintf(stderr, "kmsg-emu: %s: %s\n", what, strerror(errno));
        exit(2);
}

static void new_boot_id(struct emu_ring *r) {
        unsigned char b[16];
        FILE *f = fopen("/dev/urandom", "re");

        if (!f || fread(b, 1, sizeof(b), f) != sizeof(b))
                die("/dev/urandom");
        fclose(f);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        snprintf(r->boot_id, sizeof(r->boot_id),
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
                 b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static struct emu_ring *map(const char *path) {
        struct stat st;
        void *p;

        ring_fd = open(path, O_RDWR | O_CLOEXEC);
        if (ring_fd < 0 || fstat(ring_fd, &st) < 0)
                die(path);
        p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd, 0);
        if (p == MAP_FAILED)
                die("mmap");
        if (((struct emu_ring *)p)->magic != EMU_MAGIC) {
                fprintf(stderr, "kmsg-emu: %s: not a ring\n", path);
                exit(2);
        }
        return p;
}

static void lock(struct emu_ring *r) {
        if (pthread_mutex_lock(&r->lock) == EOWNERDEAD)
                pthread_mutex_consistent(&r->lock);
}

/* Wake the readers: a write() queues IN_MODIFY for their inotify watches. */
static void tick(struct emu_ring *r) {
        uint64_t t = __atomic_add_fetch(&r->tick, 1, __ATOMIC_RELAXED);

        if (pwrite(ring_fd, &t, sizeof(t), offsetof(struct emu_ring, tick)) != sizeof(t))
                die("pwrite");
}

static long long now_ns(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void append(struct emu_ring *r, const char *word, bool stamp, int prio) {
        struct emu_slot *s;

        lock(r);
        s = &r->slots[r->next_seq % r->capacity];
        s->seq = r->next_seq;
        s->usec = (r->next_seq + 1) * 1000;
        s->prio = prio >= 0 ? (uint32_t)prio : 6;
        if (prio >= 0) {
                s->len = (uint32_t)strnlen(word, sizeof(s->text));
                memcpy(s->text, word, s->len);
        } else if (stamp)
                s->len = (uint32_t)snprintf(s->text, sizeof(s->text), "%s %llu t=%lld", word,
                                            (unsigned long long)r->next_seq, now_ns());
        else
                s->len = (uint32_t)snprintf(s->text, sizeof(s->text), "%s %llu", word,
                                            (unsigned long long)r->next_seq);
        r->next_seq++;
        if (r->next_seq - r->first_seq > r->capacity)
                r->first_seq = r->next_seq - r->capacity;
        pthread_mutex_unlock(&r->lock);
}

static int cmd_write(struct emu_ring *r, unsigned long long n, double rate) {
        const char *word = getenv("KMSG_EMU_TEXT") ? getenv("KMSG_EMU_TEXT") : "record";
        bool stamp = getenv("KMSG_EMU_STAMP") != NULL;
        long long start = now_ns();
        unsigned long long i;

        signal(SIGTERM, on_signal);
        signal(SIGINT, on_signal);
        /* At a fixed rate, records go in batches of a millisecond's worth. */
        unsigned long long batch = rate >= 2000 ? (unsigned long long)(rate / 1000) : 1;

        for (i = 0; (n == 0 || i < n) && !stop; i++) {
                append(r, word, stamp, -1);
                if (rate > 0 && (i + 1) % batch == 0) {
                        long long due = start + (long long)((double)(i + 1) * 1e9 / rate), d = due - now_ns();

                        tick(r);
                        /* Behind: the batches it owes go at once, a burst. */
                        if (d < 0 && (uint64_t)(-d / 1000) > r->writer_late_us)
                                r->writer_late_us = (uint64_t)(-d / 1000);
                        if (d > 0) {
                                struct timespec ts = { d / 1000000000LL, d % 1000000000LL };

                                nanosleep(&ts, NULL);
                        }
                } else if (rate <= 0 && i % 64 == 63)
                        tick(r);
        }
        tick(r);
        return 0;
}

static uint64_t field(struct emu_ring *r, const char *name) {
        if (strcmp(name, "first_seq") == 0)
                return r->first_seq;
        if (strcmp(name, "next_seq") == 0)
                return r->next_seq;
        if (strcmp(name, "opens") == 0)
                return __atomic_load_n(&r->n_open, __ATOMIC_RELAXED);
        if (strcmp(name, "reads") == 0)
                return __atomic_load_n(&r->n_read, __ATOMIC_RELAXED);
        if (strcmp(name, "polls") == 0)
                return __atomic_load_n(&r->n_poll, __ATOMIC_RELAXED);
        if (strcmp(name, "blocks") == 0)
                return __atomic_load_n(&r->n_block, __ATOMIC_RELAXED);
        if (strcmp(name, "epipes") == 0)
                return __atomic_load_n(&r->n_epipe, __ATOMIC_RELAXED);
        if (strcmp(name, "timed") == 0)
                return __atomic_load_n(&r->n_timed, __ATOMIC_RELAXED);
        if (strcmp(name, "renames") == 0)
                return __atomic_load_n(&r->n_rename, __ATOMIC_RELAXED);
        if (strcmp(name, "out_writes") == 0)
                return __atomic_load_n(&r->n_out_write, __ATOMIC_RELAXED);
        if (strcmp(name, "writer_late_us") == 0)
                return r->writer_late_us;
        if (strcmp(name, "read_next") == 0)
                return __atomic_load_n(&r->read_next, __ATOMIC_RELAXED);
        fprintf(stderr, "kmsg-emu: unknown field %s\n", name);
        exit(2);
}

static int usage(void) {
        fprintf(stderr, "usage: kmsg-emu init|write|append|reboot|clear|get|wait RING ...\n");
        return 2;
}

int main(int argc, char **argv) {
        struct emu_ring *r;

        if (argc < 3)
                return usage();
        if (strcmp(argv[1], "init") == 0 && argc == 4) {
                uint32_t cap = (uint32_t)strtoul(argv[3], NULL, 10);
                pthread_mutexattr_t a;
                int fd;

                if (cap == 0)
                        return usage();
                fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                if (fd < 0 || ftruncate(fd, (off_t)emu_ring_size(cap)) < 0)
                        die(argv[2]);
                r = mmap(NULL, emu_ring_size(cap), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
                if (r == MAP_FAILED)
                        die("mmap");
                pthread_mutexattr_init(&a);
                pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
                pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
                pthread_mutex_init(&r->lock, &a);
                r->capacity = cap;
                new_boot_id(r);
                r->magic = EMU_MAGIC;
                return 0;
        }
        r = map(argv[2]);
        if (strcmp(argv[1], "write") == 0 && (argc == 4 || argc == 5))
                return cmd_write(r, strtoull(argv[3], NULL, 10), argc == 5 ? atof(argv[4]) : 0);
        if (strcmp(argv[1], "append") == 0 && argc == 5) {
                append(r, argv[4], false, atoi(argv[3]));
                tick(r);
                return 0;
        }
        if (strcmp(argv[1], "reboot") == 0) {
                lock(r);
                new_boot_id(r);
                r->first_seq = r->next_seq = r->clear_seq = r->read_next = 0;
                pthread_mutex_unlock(&r->lock);
                tick(r);
                return 0;
        }
        if (strcmp(argv[1], "clear") == 0) {
                lock(r);
                r->clear_seq = r->next_seq;
                pthread_mutex_unlock(&r->lock);
                return 0;
        }
        if (strcmp(argv[1], "get") == 0 && argc == 4) {
                if (strcmp(argv[3], "boot_id") == 0)
                        printf("%s\n", r->boot_id);
                else
                        printf("%llu\n", (unsigned long long)field(r, argv[3]));
                return 0;
        }
        if (strcmp(argv[1], "wait") == 0 && (argc == 5 || argc == 6)) {
                unsigned long long want = strtoull(argv[4], NULL, 10);
                long long end = now_ns() + (long long)((argc == 6 ? atof(argv[5]) : 10.0) * 1e9);

                while (field(r, argv[3]) < want) {
                        if (now_ns() > end)
                                return 1;
                        usleep(2000);
                }
                return 0;
        }
        return usage();
}
