/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_CALLER_H
#define KDMESG_CALLER_H

#include <stddef.h>

#include "libkmsg.h"

/*
 * The caller id in the text views: "[  T123] " after the time stamp, as
 * util-linux dmesg 2.40 and later print it.  The id is right-aligned in a
 * width of 'T' and as many digits as the largest pid has: from pid_max for
 * the live log, CALLER_WIDTH_DEFAULT for dumps, -F and syslog(2) (the
 * width the kernel itself uses on the console).  A longer id is written
 * whole.
 */
#define CALLER_WIDTH_DEFAULT 6
/* The longest caller text written; a longer one is cut and ends in "...". */
#define CALLER_TEXT_MAX 32
/* Room for the longest prefix, NUL included. */
#define CALLER_PREFIX_MAX (CALLER_TEXT_MAX * 4 + 8)

/*
 * The width for the live log: 1 + the number of digits of the number in
 * path (/proc/sys/kernel/pid_max); CALLER_WIDTH_DEFAULT when it cannot be
 * read or holds no number.
 */
unsigned caller_width_from_pid_max(const char *path);

/*
 * "[    T1] " for the record's caller field, its bytes made safe as in
 * out_text() but only printable ASCII kept, NUL-terminated, into buf
 * (CALLER_PREFIX_MAX bytes).  Returns the length; 0 (and "") when the
 * record has no caller or an empty one.
 */
size_t caller_prefix(const struct kmsg_record *r, unsigned width, char *buf);

#endif
