/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every sink shares: making one from its ops, freeing it, flushing after an item. */
#include <stdlib.h>

#include "base/i18n.h"
#include "text/writer.h"
#include "output/sink.h"
#include "text/util.h"

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
        s->info = si;
        s->termwidth = term_layout_width();
        if (si->ops->init && si->ops->init(s) < 0)
                return sink_free(s);
        return s;
}

int sink_source(struct sink *s, const char *name) {
        return s->ops->source ? s->ops->source(s, name) : 0;
}

int sink_finish(struct sink *s) {
        return s->ops->finish ? s->ops->finish(s) : 0;
}

struct sink *sink_free(struct sink *s) {
        if (!s)
                return NULL;
        if (s->ops->free)
                s->ops->free(s);
        free(s);
        return NULL;
}

void sink_check_readback(const struct kmsg_record *r, uint64_t start, bool *warned) {
        uint64_t n = out_position() - start;

        if (n <= KMSG_DEFAULT_MAX_RECORD || *warned)
                return;
        *warned = true;
        if (kmsg_record_has_seqnum(r))
                warnx_(_("seq %llu: written in %llu bytes, more than the %u bytes of a record that kdmesg reads "
                         "back in this form; --json and --format=export keep it"),
                       (unsigned long long)kmsg_record_get_seqnum(r), (unsigned long long)n,
                       KMSG_DEFAULT_MAX_RECORD);
        else
                warnx_(_("a record written in %llu bytes, more than the %u bytes of a record that kdmesg reads "
                         "back in this form; --json and --format=export keep it"),
                       (unsigned long long)n, KMSG_DEFAULT_MAX_RECORD);
}
