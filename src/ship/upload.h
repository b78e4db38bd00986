/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_H
#define KDMESG_UPLOAD_H

/*
 * --upload URL: the export stream sent to a collector by a thread of its
 * own, one batch of upload-queue.h at a time, through a transport
 * (upload-transport.h): systemd-journal-remote over HTTP (upload-http.c).
 * The cursor moves after each acknowledged batch; the reader goes on
 * meanwhile until the memory bound is reached.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/export.h"

struct cursor;
struct upload;

struct upload_config {
        const char *url;   /* "/upload" is added unless it ends so */
        const char *trust; /* CA file for the server's certificate; "all": none checked */
        const char *key, *cert; /* client key and certificate */
        bool retry_forever;  /* --follow: keep retrying; otherwise give up after a few tries */
        size_t batch_max, mem_max;
        size_t spool_max;    /* with a cursor: the spool's bound (memory's too then); 0: no spool */
        unsigned stop_ms;    /* after SIGINT/SIGTERM, the most time to deliver what was read */
        unsigned request_ms; /* the deadline of one request */
        unsigned linger_ms;  /* a batch waits this long for more records (0: none) */
        struct export_machine machine; /* for the loss entry of a record the collector refuses */
        char auth[512];      /* http(s): user:password from KDMESG_UPLOAD_AUTH_FILE; "": none (or in the URL) */
};

/* The library --upload loads (dlopen()) for http:// and https://, by its soname. */
#define UPLOAD_LIBCURL "libcurl.so.4"

/*
 * Start the sender; it saves cursor (may be NULL) after each accepted
 * batch.  The reader's waits end when *quit is set (SIGINT, SIGTERM).
 * The transport's library is loaded then: -ELIBACC when it cannot be,
 * -ELIBBAD when it lacks a call.  0, or -errno.
 */

int upload_new(const struct upload_config *cfg, struct cursor *cursor, volatile sig_atomic_t *quit,
               struct upload **ret);
/* Record seq begins: the bytes that follow are its entry (run.c calls it before formatting). */
void upload_mark(struct upload *u, uint64_t seq, uint64_t usec);
/* The bytes of the export stream (output.c's writer). 0, or -EIO once the upload has failed for good. */
int upload_write(void *userdata, const void *p, size_t len);
/*
 * The reader is idle, the ring read to its end: what was read is closed
 * into units (the last record marked as the newest then), written to the
 * spool, and sent when the linger is over.
 */
void upload_idle(struct upload *u);
/*
 * The end: send everything and stop the sender, as long as the tries last
 * (without --follow: a few; with it, for good).  After SIGINT or SIGTERM
 * (signalled), the request in flight is finished and the rest sent for at
 * most cfg.stop_ms; then the sender stops and says what it left, and 0 is
 * returned: the cursor names what was delivered, the next run sends the
 * rest.  Returns 0, or -EIO when not everything could be delivered
 * (reported).
 */
int upload_finish(struct upload *u, bool signalled);
/* Readable once the upload has failed for good: a following reader polls it too. */
int upload_get_fd(const struct upload *u);
/* Whether the upload failed for good (reported); the reader stops. */
bool upload_failed(const struct upload *u);
void upload_free(struct upload *u);
struct metrics_upload;
/* --metrics: what was acknowledged, failed, refused and is held now (output/metrics.h); any thread. */
void upload_get_metrics(struct upload *u, struct metrics_upload *ret);

/* Defaults: batches of up to 256 KiB, 16 MiB held at most (KDMESG_UPLOAD_MEMORY changes it). */
#define UPLOAD_BATCH_MAX (256u * 1024)
#define UPLOAD_MEM_MAX (16u * 1024 * 1024)
/*
 * With a cursor file, what the collector has not acknowledged is also kept
 * in the spool FILE.spool/units, up to 16 MiB (KDMESG_UPLOAD_SPOOL_MAX; 0:
 * none); past it the oldest go, for a loss entry.
 */
#define UPLOAD_SPOOL_MAX (16u * 1024 * 1024)
#define UPLOAD_SPOOL_MIN (16u * 1024)
/* After SIGINT or SIGTERM, what was read is delivered within this long (KDMESG_UPLOAD_STOP_MS). */
#define UPLOAD_STOP_MS 5000u
/* One request may take this long (KDMESG_UPLOAD_TIMEOUT_MS). */
#define UPLOAD_REQUEST_MS 60000u
/*
 * A batch waits this long, from its oldest record, for more before it is
 * sent (KDMESG_UPLOAD_LINGER_MS; at most UPLOAD_LINGER_MAX_MS), unless it
 * is full or nothing more comes.
 */
#define UPLOAD_LINGER_MS 200u
#define UPLOAD_LINGER_MAX_MS 60000u

/*
 * url made fit to show: without the user:password before its host, which
 * no message repeats.  Into buf (size bytes), which is returned.
 */
const char *upload_url_shown(const char *url, char *buf, size_t size);

#endif
