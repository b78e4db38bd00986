/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device names for the DEVNAME column and the JSON "devname" key.
 * Resolving DEVICE values (b<maj>:<min>, c<maj>:<min>, n<ifindex>,
 * +<subsystem>:<name>) to names is the devices feature's job; until it
 * lands, no name is known.
 */
#include <stddef.h>

#include "devname.h"

const char *devname_lookup(const struct kmsg_record *r) {
        (void)r;
        return NULL;
}
