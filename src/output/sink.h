/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SINK_H
#define KDMESG_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "libkmsg.h"
#include "text/writer.h"
#include "time/timefmt.h"

struct columns;
struct devnamer;
struct problem_tally;

/*
 * What of the input was not read, which no report gives a verdict on: the
 * run counts it (run_unread()), the reports say it at their end
 * (report_unread_line(), report.h).
 */
struct input_unread {
        unsigned sources; /* inputs not opened, or not read through (a read failed, a signal stopped it) */
        char *first;      /* the name of the first of them (the run frees it) */
        bool partly;      /* the first of them was read up to where reading failed */
};

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
        bool wrap; /* --wrap: on a terminal, the free-text columns wrap, not cut (text/fit.h) */
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
        /*
         * Inputs that could not be opened or read through (never NULL once
         * the run is set up): no report gives a verdict on them, --lost no
         * totals.
         */
        const struct input_unread *unread;
        /* --timeline: a row per problem kind (with --problems), not per level group; its characters. */
        bool by_problem;
        enum timeline_chars chars;
        /*
         * --problems: what the run classified (select/problem-select.h), or
         * NULL; each record's own problem comes in its struct match.
         */
        const struct problem_tally *problems;
        /*
         * export, json: records are classified; each record of a problem
         * names it (KDMESG_PROBLEM, "problem"), with its subject.
         */
        bool problem_fields;
        /* --problem N: the --problems sink prints the records of its row N (from 1), not the table; 0: the table. */
        unsigned long problem_group;
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
        /*
         * With several inputs, the records after this call come from the
         * file name (as given: "-" is standard input); not called for one.
         */
        int (*source)(struct sink *s, const char *name);
        int (*finish)(struct sink *s);
        void (*free)(struct sink *s);
};

/*
 * The table of sinks (sinks.c): one row per output format (--format=NAME)
 * and per report (--lost, --devices, --timeline, --problems).  --help, the
 * checks of option combinations, the choice of the sink and the tests of
 * the completions read the rows.
 */
enum sink_kind {
        SINK_FORMAT, /* chosen with --format=NAME (or -J, -r, -o) */
        SINK_REPORT, /* chosen with its own option, --NAME; prints in one of its formats */
};

/* What main() and the checks need to know of a sink: the flags of a row. */
enum {
        SINK_PAGER = 1 << 0,        /* for a reader on a terminal: may go through the pager */
        SINK_COLORS = 1 << 1,       /* uses colors (syslog and cat: their loss lines only) */
        SINK_MARKS_INFERRED = 1 << 2, /* marks the records --device-text selected by their text */
        SINK_MATCH_COLUMN = 1 << 3, /* marks them when its MATCH column is shown (table) */
        SINK_WRITES_SEQ = 1 << 4,   /* writes sequence numbers (0 for input without them) */
        SINK_BOOT_TIME = 1 << 5,    /* needs the boot time (and uses the boot id) */
        /* Reports: */
        SINK_LOSSES = 1 << 6,       /* the report of losses: sees every record read, is the summary stderr would get */
        SINK_JSON_LINES = 1 << 7,   /* util-linux has no such report: -J is JSON Lines even under the name dmesg */
        SINK_CLASSIFIES = 1 << 8,   /* needs each record's problem classification (problems.h) */
        /* Formats: */
        SINK_JSON = 1 << 9,         /* what -J/--json chooses among by name (json, json-dmesg) */
};

/* The reports, the first rows of the table: bit 1 << REPORT_x in excludes, combines and options.reports. */
enum sink_report {
        REPORT_LOST = 0,
        REPORT_DEVICES,
        REPORT_TIMELINE,
        REPORT_PROBLEMS,
        _REPORT_MAX,
};

#define SINK_BIT(x) (1u << (x))
/* In a report's excludes: --follow. */
#define SINK_X_FOLLOW (1u << 31)

struct output_settings;
struct sink_info {
        const char *name;     /* --format=NAME; a report: its option without the dashes */
        enum sink_kind kind;
        const struct sink_ops *ops;
        unsigned flags;
        /* A report only: */
        const char *option;   /* "--lost" */
        int has_arg;          /* no_argument, or optional_argument (getopt.h) */
        /* Take the option's argument (NULL: none given); 0, or -EINVAL: bad_arg says so, with the argument. */
        int (*set_arg)(struct output_settings *s, const char *arg);
        const char *bad_arg;
        const char *help;     /* its lines in --help, untranslated (N_()) */
        unsigned formats;     /* the formats it prints in: SINK_BIT(FORMAT_...) */
        /*
         * A report: the reports (SINK_BIT(REPORT_...)) and SINK_X_FOLLOW it
         * refuses, named by conflict ("... %s").  A format: the formats
         * (SINK_BIT(FORMAT_...)) that a second format option may not choose.
         */
        unsigned excludes;
        const char *conflict;
        const char *bad_format; /* "... %s": not in this format (the format's name) */
        const char *bad_columns; /* has columns of its own: -o alone (an implied table) is refused so */
        const char *bad_follow;  /* following, it writes JSON Lines only: without --json it is refused so */
        unsigned combines;    /* reports that change it instead of printing (--timeline --problems) */
        /* A sink it may make for itself (report-lost.c: the timeline strip under the table), or NULL. */
        const struct sink_info *companion;
};

/* The sink called name ("short", ..., "lost", "devices"), or NULL (sinks.c; by format: sink_of_format()). */
const struct sink_info *sink_lookup(const char *name);
/* The row of report r (enum sink_report). */
const struct sink_info *sink_report(unsigned r);
/* The formats, in the order of the table: i from 0 while it gives one. */
const struct sink_info *sink_format_at(size_t i);
/*
 * The sink that prints: the first of reports (a SINK_BIT mask) that no other
 * one of them combines, else the format's.
 */
const struct sink_info *sink_choose(unsigned format, unsigned reports);

/* The start of every sink's state. */
struct sink {
        const char *name;
        const struct sink_ops *ops;
        const struct output_settings *settings;
        const struct sink_info *info; /* its row */
        /*
         * The width of the terminal standard output was when the sink was
         * made (before a pager takes it): the reports and the table fit
         * their lines to it (text/fit.h); 0: no terminal, whole lines.
         */
        size_t termwidth;
};

/* A new sink for si, or NULL (out of memory). */
struct sink *sink_new(const struct sink_info *si, const struct output_settings *settings);
/* The records that follow come from the input name (one of several): source() when the sink has one; 0 or -errno. */
int sink_source(struct sink *s, const char *name);
/* The end of input: finish() when the sink has one; 0 or -errno. */
int sink_finish(struct sink *s);
/* Free s (NULL is fine); returns NULL. */
struct sink *sink_free(struct sink *s);

/* Call at the end of each record or loss event: flushes as settings->stream and flush_usec say (inline: every record). */
static inline void sink_end_item(const struct sink *s) {
        if (s->settings && s->settings->stream)
                out_flush_within(s->settings->flush_usec);
}
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
/* report-timeline.c: take --timeline's argument (auto, utf8, ascii; NULL: auto); 0 or -EINVAL. */
int timeline_set_chars(struct output_settings *s, const char *arg);

/* json.c: whether the json sink set up last writes records itself, not with json-c (for the tests). */
bool json_direct(void);
/*
 * report-lost.c: for the "lost" sink, records gone before the input began
 * (rotated out before reading started): a row, counted apart from what this
 * read lost.
 */
int lost_coverage(struct sink *s, const struct kmsg_loss *l);

#endif
