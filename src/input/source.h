/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SOURCE_H
#define KDMESG_SOURCE_H

#include <stdbool.h>

#include <stddef.h>

#include "libkmsg.h"
#include "pipeline/run.h"

/* One -K or -F argument. */
struct source {
        const char *path;
        enum kmsg_format format;
        bool syslog_file; /* -F: must be text in the syslog form */
        bool device;      /* the path is the kmsg device (-K /dev/kmsg): read as the device */
};

/* What to read, and how: what input/ needs of the command line. */
struct input {
        struct source *sources; /* -K and -F, in order; none: the live log (or --pstore) */
        size_t n_sources;
        enum kmsg_format format; /* --input-format, for -K */
        /* -K naming the kmsg device as the only source: the live log, from this path; NULL: /dev/kmsg. */
        const char *device_path;
        bool use_syslog;        /* -S */
        unsigned buffer_size;   /* -s: bytes for -S, 0 the kernel's size */
        bool follow;            /* -w: the live log, or the last source, as it grows */
        bool follow_new;        /* -W: only what comes after the start */
        bool read_clear;        /* -c: clear the ring after reading it in full */
        bool cursor;            /* --cursor-file: the device is needed (no syslog(2) in its place) */
        bool lost;              /* --lost: the device is read from its oldest record (plan_device_start()) */
        bool pstore;            /* --pstore[=N]: a crash dump instead (pstore-read.c) */
        unsigned pstore_pick;   /* N, 1 the newest; 0: the newest */
        bool pstore_list;       /* --list: with --pstore, list the dumps */
        const char *root;       /* "" or --sysroot: where /sys/fs/pstore is */
};

/*
 * Once every option is in: which -K paths are the kmsg device (one alone
 * is the live log, read from that path), and the format of each source.
 */
void input_resolve(struct input *in);
/* Whether in is the live log, this machine's ring (-K dumps and --pstore are not). */
bool input_is_live(const struct input *in);
/*
 * Read what in says to the run: the pstore dump, or the live log, or each
 * source in order (the last one followed with -w), until a signal or a
 * fatal error ends the run.
 */
void read_input(struct run *run, const struct input *in);
/* Read one -K or -F argument to its end, or follow it (the last one with --follow). */
void read_source(struct run *run, const struct source *src, bool follow);
/* Read the live log: /dev/kmsg (from where plan_device_start() says) or syslog(2); -c clears after. */
void read_live(struct run *run, const struct input *in);
struct suspends;
/*
 * The live log's suspends, from one read of the ring from its oldest
 * record (suspend.h); without the device they stay as they are.
 */
void prescan_suspends(struct suspends *s);

#endif
