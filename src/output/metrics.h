/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_METRICS_H
#define KDMESG_METRICS_H

/*
 * --metrics FILE: what this run counted, in the Prometheus text
 * exposition format, for node_exporter's textfile collector.  The file
 * is written whole into a temporary file in its directory and renamed
 * over FILE, so a scrape never sees half of it.  The counters start at 0
 * with the process (Prometheus takes a drop for a restart); kdmesg-upload(8),
 * METRICS, says what --cursor-file changes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libkmsg.h"
#include "output/loss.h"
#include "select/problems.h"
#include "time/timefmt.h"

/* With --follow, the file is written this often by default (--metrics-interval), in seconds. */
#define METRICS_INTERVAL_S 15u
#define METRICS_INTERVAL_MAX_S 86400u

/* --upload's figures (upload_get_metrics()). */
struct metrics_upload {
        uint64_t acked;      /* records whose entry (or, refused, the loss entry in its place) was acknowledged */
        uint64_t failures;   /* sends that failed (retried or not) */
        uint64_t spool_lost; /* records the full spool dropped, in loss entries the collector acknowledged */
        uint64_t refused;    /* records the collector refused (a loss entry took their place) */
        uint64_t mem_bytes;  /* bytes held in memory, not yet acknowledged */
        bool has_spool;      /* a spool file is kept (--cursor-file) */
        uint64_t spool_bytes; /* its size */
        bool has_ack;
        int64_t last_ack_usec; /* the wall clock of the last acknowledged batch, µs since the epoch */
};

struct metrics {
        const char *path;
        const struct timefmt *time; /* the boot time and suspends, for the last record's wall clock; NULL: none */
        uint64_t records[8];        /* records read, by level */
        uint64_t records_unknown;   /* records without a level (syslog-form lines without <N>) */
        uint64_t lost[LOSS_CAUSES]; /* records lost, by cause */
        uint64_t loss_events[LOSS_CAUSES];
        bool problems_on;           /* records are classified */
        uint64_t problems[_PROBLEM_MAX];
        bool has_seq;
        uint64_t last_seq;
        bool has_mono;          /* the last record has a time stamp, last_usec */
        uint64_t last_usec;
        bool has_wall;          /* else: a "dmesg -T" paste's printed wall clock */
        int64_t last_wall_usec;
        char boot_id[33]; /* 32 hex digits; "" when not known */
        bool upload_on;
        struct metrics_upload up;
        unsigned interval_s;
        uint64_t next_ns;   /* CLOCK_MONOTONIC: the next write with --follow */
        unsigned since_check; /* records since the clock was last read */
        bool failing;       /* the last write failed (said) */
};

/* A record read (no duplicate), with its problem (hit: NULL or kind PROBLEM_NONE for none). */
void metrics_record(struct metrics *m, const struct kmsg_record *r, const struct problem_hit *hit);
/* A loss counted (not what the input covers). */
void metrics_loss(struct metrics *m, const struct kmsg_loss *l);
/*
 * The exposition text into *ret (malloc()ed, the caller's to free), *ret_len
 * its length: 0 or -ENOMEM.
 */
int metrics_format(const struct metrics *m, char **ret, size_t *ret_len);
/*
 * Write the file: a temporary file ".FILE.PID.tmp" beside it (no ".prom"
 * at its end: the textfile collector passes over it), renamed over FILE.
 * A failure is said in one line (once, until a write succeeds again) and
 * the run goes on: 0 or -errno.
 */
int metrics_write(struct metrics *m);
/* Whether the next periodic write is due (reads the clock at most once in 256 records unless force). */
bool metrics_due(struct metrics *m, bool force);
/* The milliseconds until the next periodic write (for poll()), at least 0. */
int metrics_wait_ms(const struct metrics *m);

#endif
