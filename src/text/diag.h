/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_DIAG_H
#define KDMESG_DIAG_H

#include <stdarg.h>

/*
 * The one place that writes to standard error (diag.c): warnings and
 * errors as "PROGRAM: message", the message made safe for the terminal
 * by the \xNN escaper of the text views (text_safe_into()), so that an
 * ESC or a BEL from a file name, a URL or a server's answer is shown,
 * never acted on.  Modules return -errno and leave the words to their
 * caller; main(), the run loop (per-record warnings) and the upload
 * thread call these.
 */

/*
 * The name messages start with: "kdmesg", or "dmesg" when run under that
 * name.  Set once as the options are read, read by every message (the
 * upload thread's too): one per process.
 */
extern const char *program;

/* "PROGRAM: <message>" on stderr, after flushing standard output (main thread only). */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vwarnx_(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* warnx_() and exit 1: for bad option arguments, which get one line. */
void __attribute__((noreturn)) errx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * warnx_() for another thread (the upload's sender), or for code that runs
 * inside a flush of standard output (the cursor file's hooks): it leaves
 * standard output alone, which belongs to the main thread, and writes the
 * line with one call, so it never interleaves with another message.
 */
void warnx_thread(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line without the program's name, made safe as warnx_()'s (the hint after a usage error). */
void warnx_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
