/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SINK_H
#define KDMESG_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "libkmsg.h"
#include "time/timefmt.h"

struct columns;
struct devnamer;
struct problem_tally;

/* How --timeline draws: block characters, or ASCII (auto: blocks on a UTF-8 terminal). */
enum timeline_chars { TIMELINE_AUTO = 0, TIMELINE_UTF8, TIMELINE_ASCII };

/* Settings every output format may read. */
struct output_settings {
        bool noescape; /* write message bytes unchanged */
        bool decode;       /* -x: "facility:level: " before the message */
        bool force_prefix; /* -p: repeat the prefix on every line of a message */
        unsigned caller_width; /* the caller id's width in the text views (caller.h); 0: the default */
        /* Time format and boot time (timefmt.h); a sink copies it to keep its state. */
        struct timefmt time;
        const struct devnamer *devices; /* device names and tags (select/device.h), or NULL */
        /*
         * Following or uploading: each record and loss event goes out as it
         * comes, none is held back for later ones (a table's column widths,
         * the --problems groups).
         */
        bool stream;
        /*
         * With stream, sink_end_item() flushes the output when it has
         * waited this long (microseconds), or at once when 0.  Following
         * flushes before every wait too (follow.c): a record never waits
         * for a later one.
         */
        unsigned flush_usec;
        bool noheadings;            /* table: no header line */
        const struct columns *columns; /* table: the columns to show (-o) */
        /*
         * --format=export: the boot id ("0f2c...", 32 hex digits, no
         * dashes), the host name and the machine id, from --boot-id,
         * --hostname and --machine-id or, for the live log, of this
         * machine; NULL: not known.  A record's own fields from export
         * input go before them.
         */
        const char *boot_id;
        const char *hostname;
        const char *machine_id;
        /* _RUNTIME_SCOPE ("system", "initrd"): journald's for the live log; NULL for a dump. */
        const char *runtime_scope;
        /* export: the most fields per entry (0: journald's, EXPORT_FIELDS_MAX); the rest go into KMSG_MERGED. */
        unsigned journal_fields_max;
        bool json; /* the reports: JSON Lines instead of the table */
        bool live; /* --lost: the input is the live ring (its coverage is reported) */
        /* --lost: a source could not be opened: no totals, which would claim what was not read. */
        bool input_missing;
        /* --timeline: a row per problem kind (with --problems), not per level group; its characters. */
        bool by_problem;
        enum timeline_chars chars;
        /*
         * --problems: what the run classified (select/problem-select.h), or
         * NULL; each record's own problem comes in its struct match.
         */
        const struct problem_tally *problems;
};

struct sink;
struct match;

/*
 * What one output format does.  record() (optional) gets each record that
 * passed the filters with what the selection found for it (m, never NULL:
 * the device match, all zero without device options, and the problem),
 * loss() (optional) each loss event where it happened in the stream,
 * boot() (optional) where a new boot starts, seen()
 * (optional) every record the input held before filters, finish()
 * (optional: sink_finish()) the end of input.  Each returns 0 or -errno.
 * A sink is size bytes, zeroed, that start with a struct sink; init()
 * (optional) sets up the rest and returns 0 or -errno; free() (optional)
 * releases what init() and the calls after it took, also after init()
 * failed; sink_free() then frees the sink itself.
 */
struct sink_ops {
        size_t size;
        int (*init)(struct sink *s);
        int (*record)(struct sink *s, const struct kmsg_record *r, const struct match *m);
        int (*loss)(struct sink *s, const struct kmsg_loss *l);
        /*
         * A new boot starts with record r: n is its number in the input (2
         * for the second; the first is not marked).  Called before r's
         * loss (what that boot lost before the input began) and before r;
         * for --lost also before seen(r), whatever the filters.
         */
        int (*boot)(struct sink *s, uint64_t n, const struct kmsg_record *r);
        void (*seen)(struct sink *s, const struct kmsg_record *r);
        int (*finish)(struct sink *s);
        void (*free)(struct sink *s);
};

/* What main() needs to know of a sink (sinks.c has one row per sink). */
enum {
        SINK_PAGER = 1 << 0,        /* for a reader on a terminal: may go through the pager */
        SINK_COLORS = 1 << 1,       /* uses colors (syslog and cat: their loss lines only) */
        SINK_LOST = 1 << 2,         /* --lost can print its report in this format */
        SINK_DEVICES = 1 << 3,      /* --devices can print its report in this format */
        SINK_MARKS_INFERRED = 1 << 4, /* marks the records --device-text selected by their text */
        SINK_MATCH_COLUMN = 1 << 5, /* marks them when its MATCH column is shown (table) */
        SINK_WRITES_SEQ = 1 << 6,   /* writes sequence numbers (0 for input without them) */
        SINK_BOOT_TIME = 1 << 7,    /* needs the boot time (and uses the boot id) */
};

struct sink_info {
        const char *name;
        const struct sink_ops *ops;
        unsigned flags;
};

/* The sink called name ("short", ..., "lost", "devices"), or NULL (sinks.c; by format: sink_of_format()). */
const struct sink_info *sink_lookup(const char *name);

/* The start of every sink's state. */
struct sink {
        const char *name;
        const struct sink_ops *ops;
        const struct output_settings *settings;
};

/* A new sink for si, or NULL (out of memory). */
struct sink *sink_new(const struct sink_info *si, const struct output_settings *settings);
/* The end of input: finish() when the sink has one; 0 or -errno. */
int sink_finish(struct sink *s);
/* Free s (NULL is fine); returns NULL. */
struct sink *sink_free(struct sink *s);

/* Call at the end of each record or loss event: flushes as settings->stream and flush_usec say. */
void sink_end_item(const struct sink *s);
/*
 * The kmsg and syslog forms read back records of at most
 * KMSG_DEFAULT_MAX_RECORD bytes as written; one that took more (escaping
 * a record read from JSON or export input can) is said once on stderr.
 * start: out_position() before the record; *warned: once per sink.
 */
void sink_check_readback(const struct kmsg_record *r, uint64_t start, bool *warned);

/*
 * report-timeline.c: for a "timeline" sink that was given the input's
 * records, losses and boots, draw the one-line strip of its losses with its
 * axis (--lost on a terminal ends with it); nothing when there was none.
 */
int timeline_strip(struct sink *s);

/* json.c: whether the json sink set up last writes records itself, not with json-c (for the tests). */
bool json_direct(void);
/*
 * report-lost.c: for the "lost" sink, records gone before the input began
 * (rotated out before reading started): a row, counted apart from what this
 * read lost.
 */
int lost_coverage(struct sink *s, const struct kmsg_loss *l);

/* The sinks (output-*.c, report-*.c); sinks.c names them. */
extern const struct sink_ops sink_short_ops, sink_table_ops, sink_json_ops, sink_json_dmesg_ops,
        sink_syslog_ops, sink_kmsg_ops, sink_export_ops, sink_cat_ops, sink_lost_ops, sink_devices_ops,
        sink_problems_ops, sink_timeline_ops;

#endif
