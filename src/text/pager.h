/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PAGER_H
#define KDMESG_PAGER_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Whether a pager would run: standard output is a terminal that is not
 * TERM=dumb, and PAGER is unset ("less -FRSX") or names one (an empty
 * PAGER or "cat" means none).
 */
bool pager_wanted(void);
/*
 * Send standard output through the pager when pager_wanted().  A PAGER of
 * plain words is run directly, anything else with "sh -c".  When the
 * program cannot be run (not found, not executable), one warning goes to
 * stderr and output stays on standard output.  The caller decides whether
 * paging fits (-H, never for --follow or machine-readable formats).
 * Returns the pager's pid, or -1 when there is none.
 */
pid_t pager_open(void);
/* Close the pipe and wait for the pager pid (-1: none) to end, after the last output. */
void pager_close(pid_t pid);

#endif
