/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --metrics of --upload: what the sender counts after each request
 * (records acknowledged, records a full spool's loss entry names, failed
 * requests, when the last acknowledgement came) and what the queue holds,
 * in memory and in the spool, read by the run under the upload's lock.
 */
#include <pthread.h>
#include <time.h>

#include "ship/upload-private.h"

void upload_count_sent(struct upload *u, size_t acked, bool failed) {
        const struct upload_unit *x;
        struct timespec ts;
        size_t i;

        /* A full spool's loss entry counts its records as lost, not acknowledged. */
        for (i = 0, x = u->q.head; i < acked && x; i++, x = x->next)
                if (x->lost > 0)
                        u->counted.spool_lost += x->lost;
                else if (x->has_seq)
                        u->counted.acked++;
        u->counted.failures += failed;
        if (acked > 0 && clock_gettime(CLOCK_REALTIME, &ts) == 0) {
                u->counted.has_ack = true;
                u->counted.last_ack_usec = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
        }
}

void upload_get_metrics(struct upload *u, struct metrics_upload *ret) {
        const struct upload_unit *x;

        pthread_mutex_lock(&u->lock);
        *ret = u->counted;
        ret->mem_bytes = u->q.bytes;
        /* Of them, those the spool file holds too (not yet acknowledged). */
        ret->has_spool = u->spool && u->spool_ok;
        ret->spool_bytes = 0;
        for (x = u->q.head; ret->has_spool && u->has_spooled && x && x->id <= u->spooled_id; x = x->next)
                ret->spool_bytes += x->len;
        pthread_mutex_unlock(&u->lock);
}
