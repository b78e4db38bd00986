/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_EXPORT_BOOT_H
#define KDMESG_EXPORT_BOOT_H

#include <stdbool.h>
#include <stdint.h>

struct export_boot {
        bool has_boot_time;
        uint64_t boot_time_usec; /* wall clock at boot, µs since the epoch */
        bool has_boot_id;
        char boot_id[33];        /* 32 lower-case hex digits */
};

/*
 * Find the boot time (KDMESG_BOOT_TIME, else this machine's when live) and,
 * when live, the boot id.  Returns 0, -EINVAL for a bad KDMESG_BOOT_TIME, or
 * -ENODATA when the boot time is not known.
 */
int export_boot_prepare(struct export_boot *b, bool live);

#endif
