/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_DEVICE_OPTIONS_H
#define KDMESG_DEVICE_OPTIONS_H

#include <stdbool.h>

#include "select/device.h"

/*
 * The device options: the filter for the run loop, the names and tags for
 * the sinks (namer: names, --show-device, --device-text), where sysfs is.
 */
struct devctx {
        struct devfilter filter;
        struct devnamer namer;
        struct sysroot root;
        bool resolve;     /* --resolve */
};

/* getopt_long entries for the options above. */
#define DEVCTX_LONGOPTS                                                      \
        { "device", required_argument, NULL, DEVOPT_DEVICE },                \
        { "subsystem", required_argument, NULL, DEVOPT_SUBSYSTEM },          \
        { "match", required_argument, NULL, DEVOPT_MATCH },                  \
        { "with-children", no_argument, NULL, DEVOPT_WITH_CHILDREN },        \
        { "device-text", no_argument, NULL, DEVOPT_DEVICE_TEXT },            \
        { "show-device", no_argument, NULL, DEVOPT_SHOW_DEVICE },            \
        { "resolve", no_argument, NULL, DEVOPT_RESOLVE },                    \
        { "sysroot", required_argument, NULL, DEVOPT_SYSROOT }

#define DEVOPT_FIRST DEVOPT_DEVICE
#define DEVOPT_LAST DEVOPT_SYSROOT

/* Take one option; returns 0, or -EINVAL with a message printed by the caller. */
int devctx_option(struct devctx *d, int opt, const char *arg);
/* The --help lines for the device filters (in the Filters section). */
const char *devctx_help(void);
/* The --help lines of the section "Devices:" after --devices (names). */
const char *devctx_help_devices(void);
/*
 * After option parsing: check the combination, resolve the arguments and
 * set up names.  live: reading /dev/kmsg (names resolve without
 * --resolve).  Returns 0, or -errno after printing an error through warn.
 */
int devctx_setup(struct devctx *d, bool live, void (*warn)(const char *fmt, ...));
void devctx_done(struct devctx *d);

#endif
