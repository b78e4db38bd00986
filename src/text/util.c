/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers shared by the program's files (the messages are diag.c's). */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "text/util.h"

/* drivers/char/mem.c: /dev/kmsg is the memory device 1:11. */
bool is_kmsg_device(const struct stat *st) {
        return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 11;
}
