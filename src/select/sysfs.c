/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs, read as the device options need it: paths, small attributes,
 * whether a directory is a device's, and the devices above a device.
 *
 * The parents are taken as journalctl takes them for a device: a driver
 * often logs about a device through its parent (virtio_blk logs
 * "virtio1: [vda] 41943040 512-byte logical blocks" with
 * DEVICE=+virtio:virtio1, the disk's own records come later).  Such a
 * record is the device's only when its text names the device: a parent's
 * other records (about its other children, or itself) are not taken
 * (device.c decides that; this file only walks the tree).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "select/device.h"

/* sysfs device trees are shallow; this only guards against a strange saved tree. */
#define MAX_PARENT_DEPTH 32

int pathf(char buf[PATH_MAX], const char *fmt, ...) {
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(buf, PATH_MAX, fmt, ap);
        va_end(ap);
        if (n < 0 || n >= PATH_MAX) {
                buf[0] = '\0';
                return -ENAMETOOLONG;
        }
        return 0;
}

const char *path_basename(const char *p) {
        const char *s = strrchr(p, '/');

        return s ? s + 1 : p;
}

int sysfs_read_attr(const char *dir, const char *attr, char *buf, size_t size) {
        char path[PATH_MAX];
        ssize_t n;
        int fd;

        if (pathf(path, "%s/%s", dir, attr) < 0)
                return -ENAMETOOLONG;
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, size - 1);
        close(fd);
        if (n < 0)
                return -errno;
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
                n--;
        buf[n] = '\0';
        return 0;
}

bool sysfs_is_device_dir(const char *dir) {
        char path[PATH_MAX];

        if (pathf(path, "%s/uevent", dir) < 0)
                return false;
        return access(path, F_OK) == 0;
}

int sysfs_each_parent(const char *dir, int (*fn)(const char *dir, void *userdata), void *userdata) {
        char path[PATH_MAX];
        size_t len = strlen(dir);
        unsigned depth;

        if (len >= sizeof(path))
                return -ENAMETOOLONG;
        memcpy(path, dir, len + 1);
        for (depth = 0; depth < MAX_PARENT_DEPTH; depth++) {
                char *slash = strrchr(path, '/');
                int e;

                if (!slash || slash == path)
                        break;
                *slash = '\0';
                /* The top of the device tree: .../sys/devices. */
                if (slash - path >= 12 && strcmp(slash - 12, "/sys/devices") == 0)
                        break;
                /* Not every directory between two devices is one ("block" between virtio1 and vda). */
                if (!sysfs_is_device_dir(path))
                        continue;
                if ((e = fn(path, userdata)) < 0)
                        return e;
        }
        return 0;
}
