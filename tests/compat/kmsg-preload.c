/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helper: an LD_PRELOAD shim that makes a program which reads
 * /dev/kmsg (util-linux dmesg) read the dump named by $KMSG_PRELOAD_FILE
 * instead, one record per read() as the kernel returns them, and EAGAIN at
 * the end.  Its klogctl(2) sees an empty buffer (dmesg falls back to it when
 * /dev/kmsg gives nothing), so the real log is never read.  Used to compare
 * --format=json-dmesg with the real "dmesg --json" on the same records.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/types.h>
#include <unistd.h>

static int kfd = -1;
static char *data;
static size_t size, pos;

static int fake_open(void) {
        const char *path = getenv("KMSG_PRELOAD_FILE");
        FILE *f;
        long n;

        if (!path)
                return -1;
        f = fopen(path, "rb");
        if (!f)
                return -1;
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        free(data);
        data = malloc((size_t)n + 1);
        size = fread(data, 1, (size_t)n, f);
        fclose(f);
        pos = 0;
        kfd = open("/dev/null", O_RDONLY);
        return kfd;
}

int open(const char *path, int flags, ...) {
        static int (*real)(const char *, int, ...);
        va_list ap;
        mode_t mode;

        if (strcmp(path, "/dev/kmsg") == 0)
                return fake_open();
        if (!real)
                real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
        return real(path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

/* What _FORTIFY_SOURCE builds call. */
int __open_2(const char *path, int flags) {
        return open(path, flags);
}

off_t lseek(int fd, off_t off, int whence) {
        static off_t (*real)(int, off_t, int);

        if (fd == kfd && kfd >= 0)
                return 0;
        if (!real)
                real = (off_t(*)(int, off_t, int))dlsym(RTLD_NEXT, "lseek");
        return real(fd, off, whence);
}

off_t lseek64(int fd, off_t off, int whence) __attribute__((alias("lseek")));

ssize_t read(int fd, void *buf, size_t n) {
        static ssize_t (*real)(int, void *, size_t);
        size_t end;

        if (fd != kfd || kfd < 0) {
                if (!real)
                        real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
                return real(fd, buf, n);
        }
        if (pos >= size) {
                errno = EAGAIN;
                return -1;
        }
        /* One record: the header line and the dictionary lines after it. */
        end = pos;
        for (;;) {
                char *nl = memchr(data + end, '\n', size - end);

                if (!nl) {
                        end = size;
                        break;
                }
                end = (size_t)(nl - data) + 1;
                if (end >= size || data[end] != ' ')
                        break;
        }
        if (end - pos > n) {
                pos = end;
                errno = EINVAL;
                return -1;
        }
        memcpy(buf, data + pos, end - pos);
        n = end - pos;
        pos = end;
        return (ssize_t)n;
}

/* The syslog(2) buffer is empty: nothing to read, size 0. */
int klogctl(int type, char *buf, int len) {
        (void)type;
        (void)buf;
        (void)len;
        return 0;
}
