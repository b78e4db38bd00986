/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_BOOTID_H
#define KDMESG_BOOTID_H

/*
 * This boot's id from /proc/sys/kernel/random/boot_id, as the journal
 * writes it: 32 lower-case hex digits, no dashes.  Returns 0, or -errno
 * (-EBADMSG when the file does not hold an id).
 */
int boot_id_read(char ret[33]);

#endif
