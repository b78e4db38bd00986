/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_CONSOLE_H
#define KDMESG_CONSOLE_H

#include <stdbool.h>

#include "libkmsg.h"

/*
 * Console control and the old read interface, through klogctl(2).  Each
 * returns 0 or -errno; the caller reports.
 */
int console_clear(void);
int console_enable(bool on);
/* The kernel's console_loglevel: messages with a level below it reach the console. */
int console_set_level(int level);
/* "-n LEVEL": 1..8 as given, or a level name: that level and every more severe one. */
int console_parse_level(const char *s);

/*
 * Read the whole ring buffer through syslog(2) (SYSLOG_ACTION_READ_ALL,
 * or READ_CLEAR with clear) and return a syslog-form reader over a copy
 * held in a memory file; the caller closes *ret_fd after the reader.
 */
int syslog_reader_new(bool clear, unsigned size, struct kmsg_reader **ret, int *ret_fd);

#endif
