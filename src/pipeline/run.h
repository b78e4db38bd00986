/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_RUN_H
#define KDMESG_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "ship/cursor.h"
#include "pipeline/notklog.h"
#include "select/filter.h"
#include "libkmsg.h"
#include "output/loss.h"
#include "output/sink.h"
#include "text/util.h"

/* Clashing sequence numbers named one by one, at most; then counted at exit. */
#define MAX_CLASHES_SHOWN 10

#define EXIT_LOSS 3
/*
 * A gap is reported once this many records came after it without filling
 * it, or when reading stops (end of input, idle, signal): records can
 * arrive out of order (0, 1, 3, 2, 4) and then nothing is lost.
 */
#define REORDER_WINDOW 32u
/*
 * Following, a record waits in the output buffer at most about this long
 * (microseconds) while more records are read; the output is flushed before
 * each wait for new ones.  One write(2) per record would cost more than
 * reading and formatting it.
 */
#define FOLLOW_FLUSH_USEC 1000u

/* How the first record read from the device is judged. */
enum run_start {
        START_PLAIN = 0, /* the sequence tracker decides (streams, --cursor-file resume) */
        START_PROBED,    /* after SEEK_DATA: rotated = what the oldest record says */
        START_NEW,       /* after SEEK_END: the first record sets the baseline */
};

/* Per-run state shared by all sources. */
struct run {
        struct sink *sink;
        struct sink *lost;           /* --lost: the report, which also counts every record read */
        struct devfilter *devfilter; /* NULL: no device selection */
        struct problem_select *problems; /* --problem, --problems: the classification; NULL: none */
        struct kmsg_seqtrack *track;
        struct filter *filter;
        struct suspends *suspends;   /* the time slept before each record, or NULL */
        struct loss_stats loss;
        uint64_t boots;        /* boots seen in the input: 1 from its first record with a number */
        uint64_t only_boot;    /* --boot: the one boot of the input shown, from 1; 0: every boot */
        struct cursor *cursor; /* --cursor-file, or NULL */
        struct upload *upload; /* --upload: the export stream goes there; it moves the cursor */
        struct metrics *metrics; /* --metrics: what is counted (output/metrics.h), or NULL */
        const char *device_path; /* the kmsg device read as the live log; NULL: /dev/kmsg */
        uint64_t bad_records;
        uint64_t read;         /* records read (no duplicates), in the time window or not */
        uint64_t delivered;    /* records read in the time window (no duplicates) */
        uint64_t shown;        /* of them, those the filters let through to the sink */
        struct input_unread unread; /* sources not opened or not read through (run_unread()) */
        uint64_t clashes;      /* records whose seq another record had before (KMSG_SEQ_CLASH) */
        bool quiet_clashes;    /* under the name dmesg: util-linux says nothing of them, nor does its drop-in */
        int status;
        bool fatal;            /* stop: output or cursor cannot be written */
        bool stream_out;       /* following or keeping a cursor: write whole records */
        /* "--lost" or "--fail-on-loss": say once that input without sequence numbers hides losses. */
        const char *counts_losses;
        bool writes_seq;       /* --format=kmsg: say once that such input gets 0 for a number */
        bool following;        /* --follow: a new boot found while reading is one a reader should see whole */
        bool promised;         /* the start promised the first record's seq: what is missing before it is lost */
        bool noseq_warned;
        const char *boot_missing; /* the option that needs the boot time of a dump whose boot time is not known */
        unsigned missing_warned; /* the fields a filter wants that the input lacks, said once (missing.c) */
        uint64_t with_dict;      /* with a device filter: records read that had a dictionary */
#define SUBSYSTEMS_NOTED 8
        char *subsystems[SUBSYSTEMS_NOTED]; /* with --subsystem: the first subsystems seen (missing.c) */
        size_t n_subsystems;
        uint64_t subsystems_asked_seen; /* bit i: the i-th --subsystem was seen in the input */

        enum run_start start;
        bool started;          /* the first record with a sequence number was seen */
        bool overrun_at_start; /* EPIPE before the first record */
        bool have_oldest;
        uint64_t oldest_seq, oldest_usec;
        bool have_probed;      /* START_PROBED: the first record to come is probed_seq */
        uint64_t probed_seq;
        bool have_newest;
        uint64_t newest_seq, newest_usec;
        bool have_resume;      /* --cursor-file: the time stamp of the record before resume_seq */
        uint64_t resume_seq, resume_usec;

        int quit_fd;           /* readable once SIGINT or SIGTERM arrived */
        struct notklog notklog; /* the first bad lines of a stream, held until it gives a record (notklog.h) */
        bool notklog_stop;      /* the stream is no kernel log: stop reading it */
};

/*
 * What the SIGINT/SIGTERM handler touches: the signal that asks to quit
 * (0: none) and the write end of the self-pipe that wakes a wait
 * (run->quit_fd is its read end).  A handler reaches nothing else, so this
 * is one per process.
 */
struct run_signal {
        volatile sig_atomic_t quit;
        int pipe_w;
};
extern struct run_signal run_signal;
#define run_quit (run_signal.quit)

/*
 * Count a source that could not be opened (partly false) or read through
 * (partly: a read failed, a signal stopped it): no report gives a verdict
 * on it (output/sink.h, struct input_unread).  The caller reports why.
 */
void run_unread(struct run *run, const char *name, bool partly);
/* Pass a loss event to the statistics and the output. */
int run_loss(struct run *run, const struct kmsg_loss *l);
/* What the input covers, not a loss (rotated out before reading began): only --lost shows it. */
int run_coverage(struct run *run, const struct kmsg_loss *l);
/*
 * Read rd until it has nothing more.  Returns 0 at the end of input,
 * -EAGAIN when nothing more is there for now (device, followed stream),
 * -EINTR when a signal asked to stop, or another -errno when the source
 * cannot go on (already reported).
 */
int run_drain(struct run *run, struct kmsg_reader *rd);

/* run.c: SIGINT and SIGTERM end the run cleanly (run_quit, run->quit_fd); 0 or -errno. */
int run_setup_signals(struct run *run);
/* run.c: the reader stops at SIGINT and SIGTERM (run_quit), handing out what it holds first. */
void run_watch(struct run *run, struct kmsg_reader *rd);
/*
 * run.c: the exit status: run->status, or 128 + the signal when SIGINT or
 * SIGTERM ended reading without --follow (1 for an error still wins).
 */
int run_exit_status(const struct run *run, bool follow);
/* run.c: --cursor-file: mark the records in flight around each write(2) of the output. */
void run_set_cursor_hooks(struct run *run);

/*
 * start.c: the first record read from the device: what came before it?
 * Returns 1 with *ret_loss set (the caller's, to kmsg_loss_unref()) when a
 * loss is to be reported before it, 0 when none, -ENOMEM.
 */
int judge_start(struct run *run, const struct kmsg_record *r, struct kmsg_loss **ret_loss);
/*
 * start.c: where reading the device starts, and what is reported as lost
 * before the first record (*ret_loss, the caller's to kmsg_loss_unref(), or
 * NULL): with a cursor of this boot, right after it; after a reboot, from the
 * beginning with the previous boot's tail reported.  lost: --lost;
 * follow_new: --follow-new.
 */
enum kmsg_seek plan_device_start(struct run *run, bool lost, bool follow_new, struct kmsg_loss **ret_loss);

/* follow.c: wait for new records until SIGINT/SIGTERM (or the end of a pipe). */
int follow_device(struct run *run, struct kmsg_reader *rd);
int follow_stream(struct run *run, const char *path, enum kmsg_format format);

#endif
