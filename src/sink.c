/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every sink shares; apart from format.c, which makes the sinks and so needs them all. */
#include "output.h"
#include "sink.h"

void sink_end_item(const struct sink *s) {
        if (s->settings && s->settings->flush_each)
                out_flush();
}
