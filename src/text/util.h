/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UTIL_H
#define KDMESG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/parse-u64.h"
#include "text/diag.h"

#define EXIT_BAD_INPUT 1
/*
 * With --upload, an error found before reading starts (a bad option or
 * URL, an unreadable key file): a restart cannot mend it.  sysexits.h's
 * EX_CONFIG, which systemd shows as "78/CONFIG" and the unit names in
 * RestartPreventExitStatus=.
 */
#define EXIT_CONFIG 78

/*
 * The width of the terminal standard output goes to, in columns; else
 * COLUMNS (a positive number); 0 when neither says.  Each view picks its
 * own fallback.
 */
size_t term_width(void);
/*
 * The width the reports and the table fit their lines to: 0 when standard
 * output is no terminal (whole lines), else term_width(), else 80.
 */
size_t term_layout_width(void);

struct stat;
/* Whether st is the kernel's kmsg character device (1:11), by whatever name it was found. */
bool is_kmsg_device(const struct stat *st);

#endif
