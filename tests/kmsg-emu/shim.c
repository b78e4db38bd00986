/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LD_PRELOAD shim: serves /dev/kmsg (and the boot id) from the emulated
 * ring named by $KMSG_EMU_RING; every other path and descriptor goes to
 * the real calls.  It also counts rename() calls (the cursor file's
 * updates) in the ring.  With ASan builds run with
 * ASAN_OPTIONS=verify_asan_link_order=0.
 *
 * Environment:
 *   KMSG_EMU_RING            the ring file made by "kmsg-emu init"
 *   KMSG_EMU_READ_DELAY_US   sleep this long in every read() of the device
 *                            (a reader slower than the writer)
 *   KMSG_EMU_DEBUG           say on stderr where each EPIPE comes from
 *   KMSG_EMU_OPEN_ERRNO      fail every open of the device with this errno
 *                            (EPERM as with kernel.dmesg_restrict=1)
 *   KMSG_EMU_RDEV            "MAJOR:MINOR" fstat() reports for the device
 *                            instead of 1:11 ("1:3": /dev/null bound there)
 *   KMSG_EMU_TOOBIG_SEQ      the record with this sequence number is larger
 *                            than any read buffer: read() consumes it and
 *                            fails with EINVAL, as the kernel does
 *   KMSG_EMU_CALLER          set: each record has the header field
 *                            caller=T<seq>, as with CONFIG_PRINTK_CALLER
 *   KMSG_EMU_RENAME_FAIL_AFTER  N: rename() succeeds N times in this
 *                            process, then fails with ENOSPC (the cursor
 *                            file's file system filling up mid-run)
 *   KMSG_EMU_LEVEL           set: the descriptor stays readable while
 *                            records remain, as the device's is, also for
 *                            epoll(7) (a read() that leaves records wakes
 *                            the readers again): for readers that read one
 *                            record per wake-up, as journald does
 *                            (bench/upload)
 */
/* Define both the plain and the 64-bit names below, without redirection. */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"

#define MAX_FDS 4096

/* The fortified and large-file variants, interposed too. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
int __poll_chk(struct pollfd *pfds, nfds_t n, int timeout, size_t len);
int __ppoll_chk(struct pollfd *pfds, nfds_t n, const struct timespec *tmo, const sigset_t *mask, size_t len);
#define DEVICE "/dev/kmsg"
#define BOOT_ID "/proc/sys/kernel/random/boot_id"

struct emu_fd {
        bool active;
        bool nonblock;
        uint64_t pos;
};

static struct emu_fd fds[MAX_FDS];
static struct emu_ring *ring;
static const char *ring_path;
static long read_delay_us;

static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static ssize_t (*real_read)(int, void *, size_t);
static off_t (*real_lseek)(int, off_t, int);
static int (*real_close)(int);
static int (*real_fstat)(int, struct stat *);
static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
static int (*real_fcntl)(int, int, ...);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_rename)(const char *, const char *);

#define RESOLVE(name) (real_##name ? 0 : (real_##name = dlsym(RTLD_NEXT, #name), 0))

static void resolve(void) {
        RESOLVE(open);
        RESOLVE(openat);
        RESOLVE(read);
        RESOLVE(lseek);
        RESOLVE(close);
        RESOLVE(fstat);
        RESOLVE(ppoll);
        RESOLVE(fcntl);
        RESOLVE(write);
        RESOLVE(rename);
}

static void count(uint64_t *c) {
        __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static int map_ring(void) {
        struct stat st;
        void *p;
        int fd;

        if (ring)
                return 0;
        ring_path = getenv("KMSG_EMU_RING");
        if (!ring_path)
                return -ENOENT;
        if (getenv("KMSG_EMU_READ_DELAY_US"))
                read_delay_us = atol(getenv("KMSG_EMU_READ_DELAY_US"));
        fd = real_open(ring_path, O_RDWR | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (real_fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(struct emu_ring)) {
                real_close(fd);
                return -EINVAL;
        }
        p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
        real_close(fd);
        if (p == MAP_FAILED)
                return -errno;
        ring = p;
        if (ring->magic != EMU_MAGIC) {
                ring = NULL;
                return -EINVAL;
        }
        return 0;
}

static void lock(void) {
        if (pthread_mutex_lock(&ring->lock) == EOWNERDEAD)
                pthread_mutex_consistent(&ring->lock);
}

static void unlock(void) {
        pthread_mutex_unlock(&ring->lock);
}

static bool is_emu(int fd) {
        return fd >= 0 && fd < MAX_FDS && fds[fd].active;
}

/* The descriptor handed out is an inotify instance watching the ring file. */
static int emu_open(int flags) {
        const char *fail = getenv("KMSG_EMU_OPEN_ERRNO");
        int fd, e;

        if (fail && *fail) {
                errno = atoi(fail);
                return -1;
        }
        e = map_ring();
        if (e < 0) {
                errno = -e;
                return -1;
        }
        /* Write-only opens are refused; O_RDWR (journald's) reads, and writes as the kernel takes them. */
        if ((flags & O_ACCMODE) == O_WRONLY) {
                errno = EPERM;
                return -1;
        }
        fd = inotify_init1(IN_NONBLOCK | ((flags & O_CLOEXEC) ? IN_CLOEXEC : 0));
        if (fd < 0)
                return -1;
        if (fd >= MAX_FDS || inotify_add_watch(fd, ring_path, IN_MODIFY) < 0) {
                real_close(fd);
                errno = EMFILE;
                return -1;
        }
        count(&ring->n_open);
        lock();
        fds[fd].pos = ring->first_seq;
        unlock();
        fds[fd].nonblock = flags & O_NONBLOCK;
        fds[fd].active = true;
        return fd;
}

static int boot_id_open(void) {
        int p[2], e;

        e = map_ring();
        if (e < 0) {
                errno = -e;
                return -1;
        }
        /* A pipe, not a memfd: a test may set RLIMIT_FSIZE to 0 (a full disk), which memfd writes obey. */
        if (pipe2(p, O_CLOEXEC) < 0)
                return -1;
        lock();
        dprintf(p[1], "%s\n", ring->boot_id);
        unlock();
        close(p[1]);
        return p[0];
}

static int dispatch_open(const char *path, int flags, bool *handled) {
        *handled = true;
        if (getenv("KMSG_EMU_RING")) {
                if (strcmp(path, DEVICE) == 0)
                        return emu_open(flags);
                if (strcmp(path, BOOT_ID) == 0)
                        return boot_id_open();
        }
        *handled = false;
        return -1;
}

#define OPEN_BODY(call)                                             \
        mode_t mode = 0;                                            \
        bool handled;                                               \
        int r;                                                      \
        resolve();                                                  \
        if (flags & (O_CREAT | O_TMPFILE)) {                        \
                va_list ap;                                         \
                va_start(ap, flags);                                \
                mode = va_arg(ap, mode_t);                          \
                va_end(ap);                                         \
        }                                                           \
        r = dispatch_open(path, flags, &handled);                   \
        if (handled)                                                \
                return r;                                           \
        return call;

int open(const char *path, int flags, ...) {
        OPEN_BODY(real_open(path, flags, mode))
}

int open64(const char *path, int flags, ...) {
        OPEN_BODY(real_open(path, flags, mode))
}

int openat(int dirfd, const char *path, int flags, ...) {
        OPEN_BODY(real_openat(dirfd, path, flags, mode))
}

int openat64(int dirfd, const char *path, int flags, ...) {
        OPEN_BODY(real_openat(dirfd, path, flags, mode))
}

int __open_2(const char *path, int flags) {
        bool handled;
        int r;

        resolve();
        r = dispatch_open(path, flags, &handled);
        return handled ? r : real_open(path, flags);
}

int __open64_2(const char *path, int flags) {
        return __open_2(path, flags);
}

/* stdio opens files without going through open(): the boot id is read with fopen() too. */
FILE *fopen(const char *path, const char *mode) {
        static FILE *(*real_fopen)(const char *, const char *);

        resolve();
        if (!real_fopen)
                real_fopen = dlsym(RTLD_NEXT, "fopen");
        if (getenv("KMSG_EMU_RING") && strcmp(path, BOOT_ID) == 0) {
                int fd = boot_id_open();

                return fd < 0 ? NULL : fdopen(fd, mode);
        }
        return real_fopen(path, mode);
}

FILE *fopen64(const char *path, const char *mode) {
        return fopen(path, mode);
}

/* Drain the inotify queue so that the next event means a new write. */
static void drain_events(int fd) {
        char buf[4096];

        while (real_read(fd, buf, sizeof(buf)) > 0)
                ;
}

/*
 * KMSG_EMU_FIRST_READ=FILE: the lowest sequence number any read() of this
 * process was handed, written to FILE (bench/start-race: where the ring
 * started when kdmesg probed it; every later seq must be printed or lost).
 */
static void note_first_read(uint64_t seq) {
        static bool have;
        static uint64_t lowest;
        const char *path = getenv("KMSG_EMU_FIRST_READ");
        FILE *out;

        if (!path || (have && seq >= lowest))
                return;
        have = true;
        lowest = seq;
        out = fopen(path, "w");
        if (out) {
                fprintf(out, "%llu\n", (unsigned long long)seq);
                fclose(out);
        }
}

/* Wake the readers as kmsg-emu does: a write to the ring's tick queues IN_MODIFY. */
static void wake_readers(void) {
        uint64_t t = __atomic_add_fetch(&ring->tick, 1, __ATOMIC_RELAXED);
        int fd = real_open(ring_path, O_WRONLY | O_CLOEXEC);

        if (fd >= 0) {
                if (pwrite(fd, &t, sizeof(t), offsetof(struct emu_ring, tick)) < 0) {
                        /* Readers that poll with a time-out still see it. */
                }
                real_close(fd);
        }
}

static ssize_t emu_read(int fd, void *buf, size_t n) {
        struct emu_fd *f = &fds[fd];
        char tmp[EMU_TEXT_MAX + 64];
        bool more;
        int len;

        if (read_delay_us > 0)
                usleep((useconds_t)read_delay_us);
        count(&ring->n_read);
        for (;;) {
                drain_events(fd);
                lock();
                if (f->pos < ring->first_seq) {
                        if (getenv("KMSG_EMU_DEBUG"))
                                fprintf(stderr, "emu: EPIPE fd %d pos %llu first %llu next %llu\n", fd,
                                        (unsigned long long)f->pos, (unsigned long long)ring->first_seq,
                                        (unsigned long long)ring->next_seq);
                        f->pos = ring->first_seq;
                        unlock();
                        count(&ring->n_epipe);
                        errno = EPIPE;
                        return -1;
                }
                if (f->pos < ring->next_seq)
                        break;
                unlock();
                if (f->nonblock) {
                        errno = EAGAIN;
                        return -1;
                } else {
                        struct pollfd p = { .fd = fd, .events = POLLIN };

                        if (real_ppoll(&p, 1, NULL, NULL) < 0)
                                return -1;
                }
        }
        {
                const struct emu_slot *s = &ring->slots[f->pos % ring->capacity];
                const char *toobig = getenv("KMSG_EMU_TOOBIG_SEQ");

                if (toobig && s->seq == strtoull(toobig, NULL, 10)) {
                        f->pos++;
                        unlock();
                        errno = EINVAL; /* the kernel consumed it */
                        return -1;
                }
                if (getenv("KMSG_EMU_CALLER"))
                        len = snprintf(tmp, sizeof(tmp), "%u,%llu,%llu,-,caller=T%llu;%.*s\n", s->prio,
                                       (unsigned long long)s->seq, (unsigned long long)s->usec,
                                       (unsigned long long)s->seq, (int)s->len, s->text);
                else
                        len = snprintf(tmp, sizeof(tmp), "%u,%llu,%llu,-;%.*s\n", s->prio, (unsigned long long)s->seq,
                                       (unsigned long long)s->usec, (int)s->len, s->text);
        }
        f->pos++;
        if (ring->read_next < f->pos)
                ring->read_next = f->pos;
        more = f->pos < ring->next_seq;
        unlock();
        if (more && getenv("KMSG_EMU_LEVEL"))
                wake_readers();
        note_first_read(f->pos - 1);
        if ((size_t)len > n) {
                errno = EINVAL; /* the kernel consumed it */
                return -1;
        }
        memcpy(buf, tmp, (size_t)len);
        return len;
}

ssize_t read(int fd, void *buf, size_t n) {
        resolve();
        if (is_emu(fd))
                return emu_read(fd, buf, n);
        return real_read(fd, buf, n);
}

/*
 * A write() to the device adds one record, as the kernel's devkmsg_write()
 * does: a leading "<N>" gives the level (N & 7) and, when not 0, the
 * facility (N >> 3); without it, facility user (1) and level 4.  At most
 * EMU_TEXT_MAX bytes; a trailing newline is dropped.
 */
static ssize_t emu_write(const void *buf, size_t n) {
        const char *p = buf, *end = p + n;
        unsigned prio = (1u << 3) | 4;
        struct emu_slot *s;
        size_t len;

        if (n > 1 && p[0] == '<') {
                const char *q = p + 1;
                unsigned v = 0;

                while (q < end && *q >= '0' && *q <= '9' && v < 1000000)
                        v = v * 10 + (unsigned)(*q++ - '0');
                if (q < end && q > p + 1 && *q == '>') {
                        prio = (v >> 3 ? v & ~7u : 1u << 3) | (v & 7);
                        p = q + 1;
                }
        }
        len = (size_t)(end - p);
        if (len > 0 && p[len - 1] == '\n')
                len--;
        if (len > EMU_TEXT_MAX)
                len = EMU_TEXT_MAX;
        lock();
        s = &ring->slots[ring->next_seq % ring->capacity];
        s->seq = ring->next_seq;
        s->usec = (ring->next_seq + 1) * 1000;
        s->prio = prio;
        s->len = (uint32_t)len;
        memcpy(s->text, p, len);
        ring->next_seq++;
        if (ring->next_seq - ring->first_seq > ring->capacity)
                ring->first_seq = ring->next_seq - ring->capacity;
        unlock();
        wake_readers();
        return (ssize_t)n;
}

/* Counted: the reader's writes to standard output (how it batches its output). */
ssize_t write(int fd, const void *buf, size_t n) {
        resolve();
        if (is_emu(fd))
                return emu_write(buf, n);
        if (fd == STDOUT_FILENO && ring)
                count(&ring->n_out_write);
        return real_write(fd, buf, n);
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen) {
        return read(fd, buf, n);
}

off_t lseek(int fd, off_t off, int whence) {
        resolve();
        if (!is_emu(fd))
                return real_lseek(fd, off, whence);
        if (whence == SEEK_CUR) {
                errno = EINVAL;
                return -1;
        }
        if (off != 0 || (whence != SEEK_SET && whence != SEEK_END && whence != SEEK_DATA)) {
                errno = ESPIPE;
                return -1;
        }
        lock();
        if (whence == SEEK_SET)
                fds[fd].pos = ring->first_seq;
        else if (whence == SEEK_END)
                fds[fd].pos = ring->next_seq;
        else
                fds[fd].pos = ring->clear_seq > ring->first_seq ? ring->clear_seq : ring->first_seq;
        unlock();
        return 0;
}

off_t lseek64(int fd, off_t off, int whence) {
        return lseek(fd, off, whence);
}

int close(int fd) {
        resolve();
        if (is_emu(fd))
                fds[fd].active = false;
        return real_close(fd);
}

int fstat(int fd, struct stat *st) {
        resolve();
        if (is_emu(fd)) {
                unsigned maj = 1, min = 11;
                const char *rdev = getenv("KMSG_EMU_RDEV");

                if (rdev && sscanf(rdev, "%u:%u", &maj, &min) != 2) {
                        maj = 1;
                        min = 11;
                }
                memset(st, 0, sizeof(*st));
                st->st_mode = S_IFCHR | 0644;
                st->st_rdev = makedev(maj, min);
                return 0;
        }
        return real_fstat(fd, st);
}

int fstat64(int fd, struct stat64 *st) {
        return fstat(fd, (struct stat *)st);
}

int fcntl(int fd, int cmd, ...) {
        va_list ap;
        long arg;

        resolve();
        va_start(ap, cmd);
        arg = va_arg(ap, long);
        va_end(ap);
        if (is_emu(fd) && cmd == F_SETFL)
                fds[fd].nonblock = arg & O_NONBLOCK;
        return real_fcntl(fd, cmd, arg);
}

static short emu_revents(int fd, short events) {
        short r = 0;

        lock();
        if (fds[fd].pos < ring->first_seq)
                r = POLLIN | POLLRDNORM | POLLERR | POLLPRI;
        else if (fds[fd].pos < ring->next_seq)
                r = POLLIN | POLLRDNORM;
        unlock();
        return r & (events | POLLERR | POLLHUP | POLLNVAL);
}

static long long now_ns(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * poll() with the device's level-triggered readiness: report it when a
 * record is there; otherwise wait on the inotify descriptor (and the rest)
 * until the writer ticks, and look again.
 */
int ppoll(struct pollfd *pfds, nfds_t n, const struct timespec *tmo, const sigset_t *mask) {
        long long deadline = tmo ? now_ns() + tmo->tv_sec * 1000000000LL + tmo->tv_nsec : 0;
        bool any = false;
        nfds_t i;

        resolve();
        for (i = 0; i < n; i++)
                if (is_emu(pfds[i].fd))
                        any = true;
        if (!any)
                return real_ppoll(pfds, n, tmo, mask);
        count(&ring->n_poll);
        if (tmo)
                count(&ring->n_timed);
        for (bool blocked = false;; blocked = true) {
                struct timespec left, *lp = NULL;
                int ready = 0, r;

                for (i = 0; i < n; i++)
                        if (is_emu(pfds[i].fd)) {
                                drain_events(pfds[i].fd);
                                pfds[i].revents = emu_revents(pfds[i].fd, pfds[i].events);
                                ready += pfds[i].revents != 0;
                        }
                if (ready) {
                        /* Report the other descriptors' state too, without waiting. */
                        struct timespec zero = { 0, 0 };

                        for (i = 0; i < n; i++)
                                if (!is_emu(pfds[i].fd)) {
                                        r = real_ppoll(&pfds[i], 1, &zero, NULL);
                                        ready += r > 0;
                                }
                        return ready;
                }
                if (tmo) {
                        long long ns = deadline - now_ns();

                        if (ns <= 0) {
                                for (i = 0; i < n; i++)
                                        pfds[i].revents = 0;
                                return 0;
                        }
                        left.tv_sec = ns / 1000000000LL;
                        left.tv_nsec = ns % 1000000000LL;
                        lp = &left;
                }
                if (!blocked)
                        count(&ring->n_block);
                r = real_ppoll(pfds, n, lp, mask);
                if (r < 0)
                        return r;
                /* Descriptors other than the device that became ready are reported. */
                ready = 0;
                for (i = 0; i < n; i++)
                        if (!is_emu(pfds[i].fd) && pfds[i].revents)
                                ready++;
                if (ready) {
                        for (i = 0; i < n; i++)
                                if (is_emu(pfds[i].fd)) {
                                        pfds[i].revents = emu_revents(pfds[i].fd, pfds[i].events);
                                        ready += pfds[i].revents != 0;
                                }
                        return ready;
                }
        }
}

/* Counted, for the cursor file's updates: each is a rename() over it. */
int rename(const char *from, const char *to) {
        static long renames;
        const char *fail = getenv("KMSG_EMU_RENAME_FAIL_AFTER");

        resolve();
        if (fail && renames++ >= atol(fail)) {
                errno = ENOSPC;
                return -1;
        }
        if (getenv("KMSG_EMU_RING") && map_ring() == 0)
                count(&ring->n_rename);
        return real_rename(from, to);
}

int poll(struct pollfd *pfds, nfds_t n, int timeout) {
        struct timespec ts = { timeout / 1000, (timeout % 1000) * 1000000L };

        return ppoll(pfds, n, timeout < 0 ? NULL : &ts, NULL);
}

int __poll_chk(struct pollfd *pfds, nfds_t n, int timeout, size_t len) {
        return poll(pfds, n, timeout);
}

int __ppoll_chk(struct pollfd *pfds, nfds_t n, const struct timespec *tmo, const sigset_t *mask, size_t len) {
        return ppoll(pfds, n, tmo, mask);
}
