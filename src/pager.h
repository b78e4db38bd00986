/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PAGER_H
#define KDMESG_PAGER_H

/*
 * Send standard output through $PAGER ("less -FRSX" when unset; an empty
 * PAGER or "cat" means none) when it is a terminal.  The caller decides
 * whether paging fits (never for --follow or machine-readable formats).
 */
void pager_open(void);
/* Close the pipe and wait for the pager to end (after the last output). */
void pager_close(void);

#endif
