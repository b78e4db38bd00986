/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_DEVNAME_H
#define KDMESG_DEVNAME_H

#include "libkmsg.h"

/*
 * The device name for a record's DEVICE dictionary entry ("b8:0" -> "sda",
 * "n2" -> "eth0"), or NULL when unknown.  The DEVNAME column and the JSON
 * "devname" key show it.  The returned string stays valid until the next
 * call.
 */
const char *devname_lookup(const struct kmsg_record *r);

#endif
