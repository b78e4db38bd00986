/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether saved dumps are of this machine's running boot, so that their
 * time stamps can be put on this boot's clock without --boot-time.
 */
#ifndef KDMESG_THIS_BOOT_H
#define KDMESG_THIS_BOOT_H

#include "libkmsg.h"

/* What the ring holds, read once, for the dumps compared with it. */
struct this_boot;

/* A comparison with the ring of device (NULL: /dev/kmsg), read at the first need.  NULL: no memory. */
struct this_boot *this_boot_new(const char *device);
struct this_boot *this_boot_free(struct this_boot *tb);
/*
 * 1 when the dump at path (read as format) is of the running boot: the
 * first of its records that says either carries this boot's id, or is
 * still in the ring with the same sequence number, time stamp and message.
 * 0 when it is not or it cannot be told, with *ret_why saying why (a
 * static string, translated); -ENOMEM.
 */
int this_boot_dump(struct this_boot *tb, const char *path, enum kmsg_format format, const char **ret_why);

#endif
