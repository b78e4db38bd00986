/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SINK_H
#define KDMESG_SINK_H

#include <stdbool.h>

#include "libkmsg.h"
#include "timefmt.h"

/* Settings every output format may read. */
struct output_settings {
        bool noescape;     /* write message bytes unchanged */
        bool decode;       /* -x: "facility:level: " before the message */
        bool force_prefix; /* -p: repeat the prefix on every line of a message */
        struct timefmt time; /* time format and boot time; a sink keeps its own copy for state */
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

#endif
