/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_TIMEFMT_H
#define KDMESG_TIMEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "time/suspend.h"

/*
 * Time stamps.  Records carry monotonic microseconds since boot; the wall
 * clock is boot time + the time slept before the record (suspend.h) + stamp.  The boot time is known for the live log
 * (CLOCK_REALTIME - CLOCK_BOOTTIME, or btime from /proc/stat; the
 * environment variable KDMESG_BOOT_TIME pins it), and for a dump only when
 * the user gives it (--boot-time).  This header covers the three files of
 * time/: timefmt.c (the formats and time stamps), clock.c (the clocks and
 * the boot time) and parse.c (the time grammar of --since and friends).
 */
enum time_format {
        TIME_RAW = 0,    /* [    1.234567] */
        TIME_CTIME,      /* [Thu Dec  3 08:00:00 2026] */
        TIME_RELTIME,    /* [Dec  3 08:00] at each new minute, else [  +0.000123] */
        TIME_ISO,        /* 2026-12-03T08:00:00,123456+00:00 */
        TIME_NONE,       /* nothing */
        TIME_DELTA,      /* --time-format delta: [<    0.000123>], or joined to raw or ctime */
        TIME_SHOW_DELTA, /* -d: [    1.234567 <    0.000123>], or joined to ctime */
};

/*
 * The classic view prints one stamp for each format given, in the order
 * given (each once), as util-linux 2.43 does: "--time-format ctime
 * --time-format raw" is "[Tue Nov 14 22:13:20 2023] [    0.001500] ".
 * notime among them leaves only the delta, if one was asked for.  A delta
 * joins the stamp it goes with: --time-format delta the raw stamp, or else
 * the ctime one, or else stands alone as [<delta>]; -d the ctime stamp, or
 * else stands as [raw <delta>] where -d was given.
 */
#define TIMEFMT_MAX 8

struct timefmt {
        /*
         * The formats in the order given (timefmt_add()); none: raw.  A
         * timefmt with none set but format and delta prints format, with
         * the delta joined to it.
         */
        enum time_format list[TIMEFMT_MAX];
        unsigned n;
        /* For the views that show one stamp (table, reports): the first format given, and whether a delta is. */
        enum time_format format;
        bool delta;         /* add the time since the previous record shown */
        bool have_boot;     /* boot_usec is known */
        int64_t boot_usec;  /* wall-clock time of boot, µs since the epoch */
        struct suspends *susp; /* the time slept before the current record (suspend.h), or NULL */
        /*
         * The stamp being formatted is a wall-clock time, µs since the
         * epoch, not a monotonic one: a "dmesg -T" paste's record
         * (timefmt_record() sets it for each record).  Raw seconds are then
         * shown as ctime, as the paste printed them.
         */
        bool wall_stamp;

        /* State of the running view. */
        bool have_last;
        uint64_t last_usec;
        int64_t last_minute;
        /* The ctime text of one wall-clock second, reused within it. */
        int64_t ctime_second;
        char ctime_text[64];
};

/* The wall-clock time of a stamp, µs since the epoch: boot + time slept before it + usec (usec itself for a wall_stamp). */
static inline int64_t timefmt_wall(const struct timefmt *t, uint64_t usec) {
        int64_t w;

        if (t->wall_stamp)
                return usec > INT64_MAX ? INT64_MAX : (int64_t)usec;
        /* A time stamp no clock reaches (a hostile dump's, up to 2^64 - 1 us) ends the range instead of wrapping. */
        if (usec > INT64_MAX || __builtin_add_overflow(t->boot_usec, suspends_offset(t->susp), &w) ||
            __builtin_add_overflow(w, (int64_t)usec, &w))
                return INT64_MAX;
        return w;
}

struct kmsg_record;
/*
 * The wall-clock time a "dmesg -T" paste printed for r
 * (kmsg_record_get_printed_time()), µs since the epoch: the printed date
 * and time read in the local time zone (TZ), which kdmesg takes for the
 * zone the paste was made in, as its -T view would print it again.  Times
 * before the epoch are the epoch.  false when r carries none.
 */
bool record_printed_wall(const struct kmsg_record *r, int64_t *ret_usec);
/*
 * The wall-clock time the input carried for r, µs since the epoch: export's
 * __REALTIME_TIMESTAMP, kdmesg JSON's realtime_usec.  false when it carried
 * none (only export and JSON input carry them).
 */
bool record_carried_wall(const struct kmsg_record *r, int64_t *ret_usec);
/*
 * The stamp the views format for r, with t set up for it: its monotonic
 * time stamp, or a paste's printed wall clock, or (r without a time stamp,
 * or a wall-clock format without the boot time) the wall clock the input
 * carried (t->wall_stamp).  false when r has none (t is left alone then).
 */
bool timefmt_record(struct timefmt *t, const struct kmsg_record *r, uint64_t *ret_usec);

/*
 * clock.c: this machine's clocks: the boot time (CLOCK_REALTIME - CLOCK_BOOTTIME)
 * and the time slept since boot (CLOCK_BOOTTIME - CLOCK_MONOTONIC), µs.
 * KDMESG_TEST_CLOCKS="REALTIME MONOTONIC BOOTTIME" (seconds, with
 * fractions) pins them for tests.  Returns 0 or -errno (-EINVAL for a bad
 * KDMESG_TEST_CLOCKS).
 */
int clocks_read(int64_t *ret_boot_usec, int64_t *ret_slept_usec);
/* The time slept since boot, now (0 when the clocks cannot be read). */
int64_t clocks_slept_now(void);

/* Add a format to those given (once each; TIME_DELTA and TIME_SHOW_DELTA set delta). */
void timefmt_add(struct timefmt *t, enum time_format f);
/* Parse a --time-format word and add it; returns 0 or -EINVAL. */
int timefmt_parse_word(struct timefmt *t, const char *word);
/* Whether the format shows wall-clock times (and so needs the boot time). */
bool timefmt_needs_wall(const struct timefmt *t);
/* The name of the chosen format, as --time-format spells it. */
const char *timefmt_name(const struct timefmt *t);

/*
 * clock.c: what pins the boot time: KDMESG_BOOT_TIME, else util-linux's test
 * variable DMESG_TEST_BOOTIME ("SECONDS.USEC", which its test suite sets
 * for the wall-clock views; kdmesg honours it so that it runs in dmesg's
 * place there), as a time for time_parse_absolute(), made in buf when it
 * must be; NULL: neither is set.
 */
#define BOOT_TIME_PINNED_MAX 64
const char *boot_time_pinned(char buf[BOOT_TIME_PINNED_MAX]);
/*
 * clock.c: the boot time, µs since the epoch: KDMESG_BOOT_TIME (or DMESG_TEST_BOOTIME) if set (any form
 * time_parse_absolute() takes; it pins the boot time for any input, as
 * tests need), else, for the live log, from the clocks or btime in
 * /proc/stat.  Returns 0 or -errno: -EINVAL for a bad KDMESG_BOOT_TIME,
 * -ENODATA when not live and not pinned.
 */
int boot_time_find(bool live, int64_t *ret_usec);
/*
 * The fallback of boot_time_find(): the "btime SECONDS" line of path
 * (/proc/stat), µs since the epoch.  Returns 0, -ENOENT without such a
 * line, or -errno when path cannot be read.
 */
int boot_time_from_stat(const char *path, int64_t *ret_usec);

/* parse.c: "SECONDS[.FRACTION]" filling all of s, as microseconds; 0 or -EINVAL. */
int time_parse_seconds(const char *s, int64_t *ret_usec);
/*
 * An absolute time, µs since the epoch: "@SECONDS[.FRACTION]" or
 * "SECONDS[.FRACTION]" since the epoch, "YYYY-MM-DD[ HH:MM[:SS]]" (also
 * with 'T'), "HH:MM[:SS]" today, "now", "today", "yesterday", "tomorrow",
 * or a relative "+DURATION"/"-DURATION" from now ("-10min", "-1h 30min").
 * Local time zone.  Returns 0 or -EINVAL.
 */
int time_parse_absolute(const char *s, int64_t *ret_usec);

/* A --since/--until value: monotonic seconds since boot, or a wall-clock time. */
struct time_point {
        bool monotonic;
        int64_t usec; /* since boot when monotonic, else since the epoch */
};
/* Plain "SECONDS[.FRACTION]" is monotonic; everything else as time_parse_absolute(). */
int time_parse_point(const char *s, struct time_point *ret);

/*
 * The classic view's time prefix for a record stamped usec, e.g.
 * "[    1.234567] ", or several stamps (above), written to buf
 * (NUL-terminated, at most size bytes).
 * Updates the delta and reltime state.  *ret_break (if not NULL) is set
 * when the reltime view starts a new minute.  Returns the length; 0 for
 * TIME_NONE without delta.
 */
size_t timefmt_prefix(struct timefmt *t, uint64_t usec, char *buf, size_t size, bool *ret_break);

/*
 * Single time stamps for other views (the table's TIME column, JSON):
 * "1.234567" (no padding), ISO 8601 and ctime forms of the wall clock.
 * Return the length, or 0 when the boot time is not known (iso, ctime).
 */
size_t timefmt_mono(uint64_t usec, char *buf, size_t size);
/*
 * One point in time for the loss lines and the reports (--lost,
 * --devices), in the main format: the wall clock as ctime for -T and -e,
 * as ISO 8601 for iso (when the boot time is known), else "1.234567".
 * t may be NULL (seconds).  Returns the length.
 */
size_t timefmt_point(const struct timefmt *t, uint64_t usec, char *buf, size_t size);
size_t timefmt_iso(const struct timefmt *t, uint64_t usec, char *buf, size_t size);
size_t timefmt_ctime(const struct timefmt *t, uint64_t usec, char *buf, size_t size);

#endif
