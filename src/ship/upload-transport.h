/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_TRANSPORT_H
#define KDMESG_UPLOAD_TRANSPORT_H

/*
 * --upload: how a batch reaches the collector.  upload.c's sender thread
 * holds one transport: upload-http.c (systemd-journal-remote) or
 * upload-relp.c (rsyslog's imrelp).  Only the sender calls it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum upload_result {
        UPLOAD_OK = 0,
        UPLOAD_RETRY,   /* may work later: no connection, a time-out, 5xx */
        UPLOAD_DROPPED, /* connected, sent, and the collector dropped it without an answer: maybe an entry it refuses */
        UPLOAD_REFUSED, /* the server answered no: not a collector, a wrong path */
        UPLOAD_BROKEN,  /* cannot work: the certificate, the URL */
};

struct upload_transport;

struct upload_transport_ops {
        /*
         * Send len bytes at buf, n_units units of unit_len[i] bytes each.
         * *ret_acked: how many units, from the first, the collector
         * acknowledged (all or none over HTTP).  why gets the reason of a
         * failure.  The send gives up when stop(stop_data) says so.
         */
        enum upload_result (*send)(struct upload_transport *t, const char *buf, size_t len, const size_t *unit_len,
                                   size_t n_units, size_t *ret_acked, char *why, size_t why_size);
        void (*free)(struct upload_transport *t);
        /*
         * From another thread, once a stop's time is up: break off the
         * request in flight at once (its connection shut down), where the
         * send cannot see stop() for a while.  NULL: stop() suffices.
         */
        void (*abort)(struct upload_transport *t);
};

struct upload_transport {
        const struct upload_transport_ops *ops;
        bool (*stop)(void *stop_data); /* the sender's: give up now */
        void *stop_data;
};

#endif
