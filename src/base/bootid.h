/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_BOOTID_H
#define KDMESG_BOOTID_H

/*
 * A 128-bit id as the journal writes it: 32 lower-case hex digits, no
 * dashes.  id128_parse() takes hex digits of either case with dashes
 * anywhere ("aba7d49a-3f9a-..."), one trailing newline at most; 0 or
 * -EINVAL.
 */
int id128_parse(const char *s, char ret[33]);
/* This boot's id (/proc/sys/kernel/random/boot_id): 0, or -errno (-EBADMSG: not an id). */
int boot_id_read(char ret[33]);
/* This machine's id (/etc/machine-id): 0, or -errno (-EBADMSG: not an id). */
int machine_id_read(char ret[33]);

#endif
