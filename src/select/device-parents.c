/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The devices above a device, as journalctl takes them for a device: a
 * driver often logs about a device through its parent (virtio_blk logs
 * "virtio1: [vda] 41943040 512-byte logical blocks" with
 * DEVICE=+virtio:virtio1, the disk's own records come later).  Such a
 * record is the device's only when its text names the device: a parent's
 * other records (about its other children, or itself) are not taken.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "select/device.h"

/* sysfs device trees are shallow; this only guards against a strange saved tree. */
#define MAX_PARENT_DEPTH 32

int devfilter_add_parents(struct devfilter *f, const char *dir) {
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
                if ((e = devfilter_add_sysfs_device(f, path, true)) < 0)
                        return e;
        }
        return 0;
}
