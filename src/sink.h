/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SINK_H
#define KDMESG_SINK_H

#include <stdbool.h>

#include "libkmsg.h"

struct devctx;

/* Settings every output format may read. */
struct output_settings {
        bool noescape; /* write message bytes unchanged */
        struct devctx *devices; /* device options: tags, names (device.h) */
};

/*
 * An output format.  record() gets each record that passed the filters,
 * loss() each loss event where it happened in the stream, finish() the end
 * of input.  Each returns 0 or -errno.
 */
struct sink {
        const char *name;
        int (*record)(struct sink *s, const struct kmsg_record *r);
        int (*loss)(struct sink *s, const struct kmsg_loss *l);
        int (*finish)(struct sink *s);
        void (*free)(struct sink *s);
        const struct output_settings *settings;
};

struct sink *sink_short_new(const struct output_settings *settings);
/* --devices: the per-device report (report-devices.c). */
struct sink *sink_devices_new(const struct output_settings *settings, struct devctx *dev);

#endif
