/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UTIL_H
#define KDMESG_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/parse-u64.h"

#define EXIT_BAD_INPUT 1

extern const char *program;

/* "kdmesg: <message>" on stderr, after flushing standard output. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * s made safe for the terminal (control bytes as \xNN), for the messages not
 * printed by warnx_(), which does that itself; valid until the next call.
 */
const char *shown(const char *s);
/* warnx_() and exit 1: for bad option arguments, which get one line. */
void __attribute__((noreturn)) errx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct stat;
/* Whether st is the kernel's kmsg character device (1:11), by whatever name it was found. */
bool is_kmsg_device(const struct stat *st);

#endif
