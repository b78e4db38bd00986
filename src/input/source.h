/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SOURCE_H
#define KDMESG_SOURCE_H

#include <stdbool.h>

#include "cli/options.h"
#include "pipeline/run.h"

/* Read one -K or -F argument to its end, or follow it (the last one with --follow). */
void read_source(struct run *run, const struct source *src, bool follow);
/* Read the live log: /dev/kmsg (from where plan_device_start() says) or syslog(2); -c clears after. */
void read_live(struct run *run, const struct options *o);
struct suspends;
/*
 * The live log's suspends, from one read of the ring from its oldest
 * record (suspend.h); without the device they stay as they are.
 */
void prescan_suspends(struct suspends *s);

#endif
