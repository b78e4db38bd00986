/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every sink shares: making one from its ops, freeing it, flushing after an item. */
#include <stdlib.h>

#include "output.h"
#include "sink.h"

struct sink *sink_new(const struct sink_info *si, const struct output_settings *settings) {
        struct sink *s;

        if (!si || si->ops->size < sizeof(*s))
                return NULL;
        s = calloc(1, si->ops->size);
        if (!s)
                return NULL;
        s->name = si->name;
        s->ops = si->ops;
        s->settings = settings;
        if (si->ops->init && si->ops->init(s) < 0)
                return sink_free(s);
        return s;
}

struct sink *sink_free(struct sink *s) {
        if (s)
                s->ops->free(s);
        return NULL;
}

void sink_end_item(const struct sink *s) {
        if (s->settings && s->settings->flush_each)
                out_flush();
}
