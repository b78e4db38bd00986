/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_PRIVATE_H
#define KDMESG_UPLOAD_PRIVATE_H

/*
 * --upload's state, shared by the sender (upload.c) and its spool
 * (upload-store.c) only.  Everything but the sender's own fields is under
 * the lock.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/metrics.h"
#include "ship/upload-queue.h"
#include "ship/upload-spool.h"
#include "ship/upload.h"

struct upload_transport;

/* A boot id of units loaded from the spool: units point at it. */
struct boot_name {
        struct boot_name *next;
        char id[SPOOL_BOOT_MAX];
};

struct upload {
        struct upload_config cfg;
        char url[512]; /* as shown: no user:password */
        struct cursor *cursor;
        volatile sig_atomic_t *quit; /* the reader's: SIGINT/SIGTERM, it stops reading */

        pthread_t thread;
        bool started;
        pthread_mutex_t lock;
        pthread_cond_t work;  /* the sender waits: a unit closed, the end, stop */
        pthread_cond_t space; /* the reader waits: memory freed, or failure */
        struct upload_queue q;
        bool ending;   /* no more units come */
        bool stop;     /* stop now, delivered or not */
        bool has_deadline; /* ending after a signal: stop at deadline, delivered or not */
        uint64_t deadline_ns; /* CLOCK_MONOTONIC */
        bool sender_done; /* the sender thread ended */
        bool failed;   /* for good, reported */
        bool failing;  /* the last request failed (said once) */
        int failed_fd; /* an eventfd, readable once failed */

        /* The sender's own. */
        struct upload_transport *t;
        char *buf;
        size_t cap;
        size_t *unit_len;
        size_t unit_cap;
        size_t probe;     /* units still to be sent one at a time */
        unsigned refusals; /* times the unit at the head was dropped alone */
        bool has_commit;  /* delivered, the cursor not yet saved there (sending one at a time) */
        uint64_t commit_seq, commit_usec;
        bool commit_newest;
        const char *commit_boot;
        char why[320];

        /* The spool: NULL without one.  Its file is written by the sender only, its state under the lock. */
        struct spool *spool;
        bool spool_ok;        /* written to: false once that failed (said once) */
        bool spool_full_said;
        bool spool_busy;      /* the sender rewrites the file, the lock let go: the reader waits to write */
        bool has_spooled;     /* the file holds the units up to spooled_id (and no others) */
        uint64_t spooled_id;
        const struct upload_unit *spool_last; /* the last unit written to the file, if still queued; NULL: not known */
        uint64_t drops, file_drops; /* drops made; of them, those the file shows */
        size_t file_dead;     /* bytes of frames in the file already delivered */
        uint64_t dirty_ns;    /* CLOCK_MONOTONIC of the first write or cut since the last sync; 0: synced */
        size_t dirty_bytes;   /* bytes written since the last sync */
        char *sbuf;
        size_t scap;
        struct boot_name *boots;
        struct metrics_upload counted; /* --metrics: the counters of upload_get_metrics(), under the lock */
};

/*
 * The spool is a write-ahead log: what was read is written to it (write(2)
 * only) when the reader goes idle, after every SPOOL_WRITE_UNITS records
 * while it reads on, and before anything is sent; fdatasync() follows at
 * most SPOOL_SYNC_MS after the first write not synced, or once
 * SPOOL_SYNC_BYTES are written.
 */
#define SPOOL_WRITE_UNITS 64u
#define SPOOL_SYNC_MS 1000u
#define SPOOL_SYNC_BYTES (1024u * 1024)

/*
 * upload-store.c: the spool of the queue.  All with the lock held;
 * store_sync() lets it go for its I/O; now is CLOCK_MONOTONIC in ns.
 */
/* Load what an earlier run left, at the start; 0 or -errno (problems with the file are said). */
int store_setup(struct upload *u);
/* Append the closed units the file does not hold yet, not synced (reader, which waits for a rewrite, or sender). */
void store_write(struct upload *u, uint64_t now);
/* How long until the file is to be synced, in ns: 0 now, UINT64_MAX nothing to sync. */
uint64_t store_sync_due_in(const struct upload *u, uint64_t now);
/* Write what the file does not hold yet (or rewrite it, after a drop) and sync it (the sender's, or once it ended). */
void store_sync(struct upload *u, uint64_t now);
/* The cursor was saved at what was delivered: a file that holds nothing else is emptied. */
void store_delivered(struct upload *u, uint64_t now);
/* The first n units of the queue were delivered. */
void store_acked(struct upload *u, size_t n);
/* The queue is over the spool's bound: the oldest make room, for a loss entry (the reader's). */
void store_make_room(struct upload *u);

/*
 * upload-metrics.c: after a request (the lock held), count the acked units
 * at the head of the queue and whether it failed, for upload_get_metrics().
 */
void upload_count_sent(struct upload *u, size_t acked, bool failed);

#endif
