/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg's time stamps: parsing --since/--until/--boot-time, the prefixes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"
#include "time/timefmt.h"

#define SEC 1000000LL
#define BOOT 1700000000LL /* 2023-11-14 22:13:20 UTC */

static void utc(void) {
        setenv("TZ", "UTC", 1);
        tzset();
}

static int64_t now_usec(void) {
        return (int64_t)time(NULL) * SEC;
}

TEST(point_plain_number_is_monotonic) {
        struct time_point p;

        CHECK_INT(time_parse_point("12", &p), 0);
        CHECK(p.monotonic);
        CHECK_INT(p.usec, 12 * SEC);
        CHECK_INT(time_parse_point("12.5", &p), 0);
        CHECK_INT(p.usec, 12500000);
        CHECK_INT(time_parse_point("0.000001", &p), 0);
        CHECK_INT(p.usec, 1);
        /* Digits past the microseconds are cut, not rounded. */
        CHECK_INT(time_parse_point("1.0000019", &p), 0);
        CHECK_INT(p.usec, 1000001);
}

TEST(point_absolute_forms_are_wall_clock) {
        struct time_point p;

        utc();
        CHECK_INT(time_parse_point("@1700000000", &p), 0);
        CHECK(!p.monotonic);
        CHECK_INT(p.usec, BOOT * SEC);
        CHECK_INT(time_parse_point("@1700000000.25", &p), 0);
        CHECK_INT(p.usec, BOOT * SEC + 250000);
        CHECK_INT(time_parse_point("2023-11-14 22:13:20", &p), 0);
        CHECK_INT(p.usec, BOOT * SEC);
        CHECK_INT(time_parse_point("2023-11-14T22:13:20", &p), 0);
        CHECK_INT(p.usec, BOOT * SEC);
        CHECK_INT(time_parse_point("2023-11-14 22:13", &p), 0);
        CHECK_INT(p.usec, (BOOT - 20) * SEC);
        CHECK_INT(time_parse_point("2023-11-14", &p), 0);
        CHECK_INT(p.usec, (BOOT - 22 * 3600 - 13 * 60 - 20) * SEC);
}

TEST(absolute_follows_the_time_zone) {
        int64_t v;

        setenv("TZ", "Europe/Berlin", 1);
        tzset();
        CHECK_INT(time_parse_absolute("2023-11-14 23:13:20", &v), 0);
        CHECK_INT(v, BOOT * SEC);
        /* A plain number is seconds since the epoch, whatever the zone. */
        CHECK_INT(time_parse_absolute("1700000000", &v), 0);
        CHECK_INT(v, BOOT * SEC);
        utc();
}

TEST(relative_times_and_words) {
        int64_t v, now;

        utc();
        now = now_usec();
        CHECK_INT(time_parse_absolute("-10min", &v), 0);
        CHECK(v >= now - 600 * SEC && v < now - 598 * SEC);
        CHECK_INT(time_parse_absolute("+1h", &v), 0);
        CHECK(v >= now + 3600 * SEC && v < now + 3602 * SEC);
        CHECK_INT(time_parse_absolute("-1h 30min", &v), 0);
        CHECK(v >= now - 5400 * SEC && v < now - 5398 * SEC);
        CHECK_INT(time_parse_absolute("-1h30m", &v), 0);
        CHECK(v >= now - 5400 * SEC && v < now - 5398 * SEC);
        CHECK_INT(time_parse_absolute("-1.5h", &v), 0);
        CHECK(v >= now - 5400 * SEC && v < now - 5398 * SEC);
        CHECK_INT(time_parse_absolute("-500ms", &v), 0);
        CHECK(v >= now - 500000 && v < now + 2 * SEC);
        CHECK_INT(time_parse_absolute("-90", &v), 0);
        CHECK(v >= now - 90 * SEC && v < now - 88 * SEC);
        CHECK_INT(time_parse_absolute("-2w", &v), 0);
        CHECK(v >= now - 14 * 86400 * SEC && v < now - 14 * 86400 * SEC + 2 * SEC);
        CHECK_INT(time_parse_absolute("now", &v), 0);
        CHECK(v >= now && v < now + 2 * SEC);
        CHECK_INT(time_parse_absolute("today", &v), 0);
        CHECK_INT(v % (86400 * SEC), 0);
        CHECK(v <= now && v > now - 86400 * SEC);
        CHECK_INT(time_parse_absolute("yesterday", &v), 0);
        CHECK(v <= now - 86400 * SEC && v > now - 2 * 86400 * SEC);
        CHECK_INT(time_parse_absolute("tomorrow", &v), 0);
        CHECK(v > now && v <= now + 86400 * SEC);
}

TEST(util_linux_time_grammar) {
        int64_t v, now;

        utc();
        now = now_usec();
        /* "DURATION ago", with blanks between number and unit, and long unit names. */
        CHECK_INT(time_parse_absolute("1 hour ago", &v), 0);
        CHECK(v >= now - 3600 * SEC && v < now - 3598 * SEC);
        CHECK_INT(time_parse_absolute("5 min ago", &v), 0);
        CHECK(v >= now - 300 * SEC && v < now - 298 * SEC);
        CHECK_INT(time_parse_absolute("1h 30min ago", &v), 0);
        CHECK(v >= now - 5400 * SEC && v < now - 5398 * SEC);
        CHECK_INT(time_parse_absolute("1 hour 30 min ago", &v), 0);
        CHECK(v >= now - 5400 * SEC && v < now - 5398 * SEC);
        CHECK_INT(time_parse_absolute("1.5h ago", &v), 0);
        CHECK(v >= now - 5400 * SEC && v < now - 5398 * SEC);
        CHECK_INT(time_parse_absolute("2 weeks ago", &v), 0);
        CHECK(v >= now - 14 * 86400 * SEC && v < now - 14 * 86400 * SEC + 2 * SEC);
        CHECK_INT(time_parse_absolute("2 hr ago", &v), 0);
        CHECK(v >= now - 7200 * SEC && v < now - 7198 * SEC);
        CHECK_INT(time_parse_absolute("1 month ago", &v), 0);
        CHECK(v >= now - 2629800 * SEC && v < now - 2629798 * SEC);
        CHECK_INT(time_parse_absolute("1y ago", &v), 0);
        CHECK(v >= now - 31557600 * SEC && v < now - 31557598 * SEC);
        CHECK_INT(time_parse_absolute(" 5min ago", &v), 0);
        CHECK_INT(time_parse_absolute("+ 5min", &v), 0);
        CHECK(v >= now + 300 * SEC && v < now + 302 * SEC);
        CHECK_INT(time_parse_absolute("+5min 3s", &v), 0);
        CHECK(v >= now + 303 * SEC && v < now + 305 * SEC);
        /* Dates with fractions, short years, unpadded fields, weekdays. */
        CHECK_INT(time_parse_absolute("2026-12-04 03:23:10.5", &v), 0);
        CHECK_INT(v, 1796354590 * SEC + 500000);
        CHECK_INT(time_parse_absolute("2026-12-04 03:23:10,5", &v), 0);
        CHECK_INT(v, 1796354590 * SEC + 500000);
        CHECK_INT(time_parse_absolute("2026-12-04T03:23:10.123456", &v), 0);
        CHECK_INT(v, 1796354590 * SEC + 123456);
        CHECK_INT(time_parse_absolute("2026-12-04 03:23:10.", &v), 0);
        CHECK_INT(v, 1796354590 * SEC);
        CHECK_INT(time_parse_absolute("26-12-04 03:23:10", &v), 0);
        CHECK_INT(v, 1796354590 * SEC);
        CHECK_INT(time_parse_absolute("2026-12-4 3:23:10", &v), 0);
        CHECK_INT(v, 1796354590 * SEC);
        CHECK_INT(time_parse_absolute("Fri 2026-12-04 03:23:10", &v), 0);
        CHECK_INT(v, 1796354590 * SEC);
        CHECK_INT(time_parse_absolute("friday 2026-12-04 03:23:10", &v), 0);
        CHECK_INT(v, 1796354590 * SEC);
        CHECK_INT(time_parse_absolute("Thu 2026-12-04", &v), -EINVAL);
        CHECK_INT(time_parse_absolute("@-5", &v), 0);
        CHECK_INT(v, -5 * SEC);
}

TEST(bad_times_are_rejected) {
        static const char *const bad[] = { "", "12.", ".5", "-", "+", "-10 fortnights", "tomorrow2",
                                           "2023-13-01", "2023-11-14 25:00", "@", "@x", "half past",
                                           "1 2", "-min", "@1.2.3", "5min ago ", "-5min ago", "+5min ago", "ago",
                                           "2026-12-04 03:23:10.1234567", "2026-12-04 24:00", "yesterday 03:00",
                                           "2026-12-04T03:23:10Z", "2026-12-04 03:23:10 UTC", "last monday",
                                           "Fri", "12/04/2026", "2026-12-04 03:23:" };
        struct time_point p = { .monotonic = true, .usec = 42 };
        size_t i;

        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                if (time_parse_point(bad[i], &p) >= 0)
                        test_fail(__FILE__, __LINE__, "\"%s\" was accepted", bad[i]);
        /* Untouched on failure. */
        CHECK(p.monotonic);
        CHECK_INT(p.usec, 42);
}

TEST(format_words) {
        struct timefmt t = {};

        CHECK_INT(timefmt_parse_word(&t, "ctime"), 0);
        CHECK_INT(t.format, TIME_CTIME);
        CHECK(timefmt_needs_wall(&t));
        CHECK_INT(timefmt_parse_word(&t, "delta"), 0);
        CHECK(t.delta);
        CHECK_INT(t.format, TIME_CTIME);
        /* Each word adds a format, once; the first one given is the main one. */
        CHECK_INT(timefmt_parse_word(&t, "raw"), 0);
        CHECK_INT(timefmt_parse_word(&t, "ctime"), 0);
        CHECK_INT(t.n, 3);
        CHECK_INT(t.format, TIME_CTIME);
        CHECK_INT(timefmt_parse_word(&t, "notime"), 0);
        CHECK(!timefmt_needs_wall(&t));
        CHECK_STR(timefmt_name(&t), "notime");
        CHECK_INT(timefmt_parse_word(&t, "ISO"), -EINVAL);
        CHECK_INT(timefmt_parse_word(&t, ""), -EINVAL);

        t = (struct timefmt){};
        CHECK_INT(timefmt_parse_word(&t, "iso"), 0);
        CHECK(timefmt_needs_wall(&t));
        t = (struct timefmt){};
        CHECK_INT(timefmt_parse_word(&t, "reltime"), 0);
        CHECK(timefmt_needs_wall(&t));
        t = (struct timefmt){};
        CHECK_INT(timefmt_parse_word(&t, "raw"), 0);
        CHECK(!timefmt_needs_wall(&t));
}

/* The prefix of the second of two records, 1.5 s and 2 s after boot, with formats fs. */
static const char *combined(const enum time_format *fs, size_t n) {
        static char buf[256];
        struct timefmt t = { .have_boot = true, .boot_usec = BOOT * SEC };

        utc();
        for (size_t i = 0; i < n; i++)
                timefmt_add(&t, fs[i]);
        timefmt_prefix(&t, 1500000, buf, sizeof(buf), NULL);
        timefmt_prefix(&t, 2000000, buf, sizeof(buf), NULL);
        return buf;
}
#define COMBINED(...) combined((const enum time_format[]){ __VA_ARGS__ }, \
                               sizeof((const enum time_format[]){ __VA_ARGS__ }) / sizeof(enum time_format))

TEST(prefix_combined_as_util_linux_2_43) {
        CHECK_STR(COMBINED(TIME_CTIME, TIME_RAW), "[Tue Nov 14 22:13:22 2023] [    2.000000] ");
        CHECK_STR(COMBINED(TIME_RAW, TIME_CTIME), "[    2.000000] [Tue Nov 14 22:13:22 2023] ");
        CHECK_STR(COMBINED(TIME_SHOW_DELTA), "[    2.000000 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_DELTA), "[<    0.500000>] ");
        CHECK_STR(COMBINED(TIME_RELTIME, TIME_SHOW_DELTA), "[  +0.500000] [    2.000000 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_SHOW_DELTA, TIME_RELTIME), "[    2.000000 <    0.500000>] [  +0.500000] ");
        CHECK_STR(COMBINED(TIME_CTIME, TIME_RELTIME), "[Tue Nov 14 22:13:22 2023] [  +0.500000] ");
        CHECK_STR(COMBINED(TIME_ISO, TIME_SHOW_DELTA), "2023-11-14T22:13:22,000000+00:00 [    2.000000 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_ISO, TIME_DELTA), "2023-11-14T22:13:22,000000+00:00 [<    0.500000>] ");
        /* -d joins ctime wherever ctime is; delta joins raw, else ctime unless -d took it. */
        CHECK_STR(COMBINED(TIME_SHOW_DELTA, TIME_CTIME), "[Tue Nov 14 22:13:22 2023 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_RAW, TIME_CTIME, TIME_SHOW_DELTA),
                  "[    2.000000] [Tue Nov 14 22:13:22 2023 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_RAW, TIME_CTIME, TIME_DELTA), "[    2.000000 <    0.500000>] [Tue Nov 14 22:13:22 2023] ");
        CHECK_STR(COMBINED(TIME_DELTA, TIME_CTIME), "[Tue Nov 14 22:13:22 2023 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_CTIME, TIME_SHOW_DELTA, TIME_DELTA),
                  "[Tue Nov 14 22:13:22 2023 <    0.500000>] [<    0.500000>] ");
        CHECK_STR(COMBINED(TIME_RAW, TIME_SHOW_DELTA), "[    2.000000] [    2.000000 <    0.500000>] ");
        CHECK_STR(COMBINED(TIME_DELTA, TIME_SHOW_DELTA), "[<    0.500000>] [    2.000000 <    0.500000>] ");
        /* Each once; notime leaves the delta only. */
        CHECK_STR(COMBINED(TIME_CTIME, TIME_CTIME), "[Tue Nov 14 22:13:22 2023] ");
        CHECK_STR(COMBINED(TIME_CTIME, TIME_NONE, TIME_RAW), "");
        CHECK_STR(COMBINED(TIME_SHOW_DELTA, TIME_NONE, TIME_CTIME), "[<    0.500000>] ");
}

TEST(prefix_raw) {
        struct timefmt t = {};
        char buf[128];

        CHECK_INT(timefmt_prefix(&t, 0, buf, sizeof(buf), NULL), 15);
        CHECK_STR(buf, "[    0.000000] ");
        timefmt_prefix(&t, 1234567, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[    1.234567] ");
        timefmt_prefix(&t, 123456000001ULL, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[123456.000001] ");
        timefmt_prefix(&t, UINT64_MAX, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[18446744073709.551615] ");
}

/*
 * A hostile dump's stamps up to 2^64 - 1 us: the wall clock ends the range
 * instead of overflowing (found by fuzz-output under UBSan), and -e's step
 * between two of them is taken in unsigned arithmetic.
 */
TEST(impossible_time_stamps) {
        struct timefmt t = { .have_boot = true, .boot_usec = BOOT * SEC };
        char buf[128];

        CHECK(timefmt_wall(&t, 5) == BOOT * SEC + 5);
        CHECK(timefmt_wall(&t, UINT64_MAX) == INT64_MAX);
        CHECK(timefmt_wall(&t, (uint64_t)INT64_MAX) == INT64_MAX);
        CHECK(timefmt_wall(&t, (uint64_t)INT64_MAX - BOOT * SEC) == INT64_MAX);
        utc();
        timefmt_add(&t, TIME_RELTIME);
        /* Both end the range: the same minute, so the second is the step from the first. */
        timefmt_prefix(&t, UINT64_MAX, buf, sizeof(buf), NULL);
        timefmt_prefix(&t, (uint64_t)INT64_MAX, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[-9223372036854.775808] ");
        timefmt_prefix(&t, UINT64_MAX, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[+9223372036854.775808] ");
}

TEST(prefix_delta_counts_from_the_previous_call) {
        struct timefmt t = { .delta = true };
        char buf[128];

        timefmt_prefix(&t, 1000000, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[    1.000000 <    0.000000>] ");
        timefmt_prefix(&t, 3500000, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[    3.500000 <    2.500000>] ");
        /* Stamps are per CPU: a later record can be stamped earlier. */
        timefmt_prefix(&t, 3499990, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[    3.499990 <   -0.000010>] ");
        t.format = TIME_NONE;
        timefmt_prefix(&t, 4499990, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[<    1.000000>] ");
        /* A stamp of 0 was taken before the clock ran: no delta from it, as in util-linux. */
        timefmt_prefix(&t, 0, buf, sizeof(buf), NULL);
        timefmt_prefix(&t, 1500, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[<    0.000000>] ");
        timefmt_prefix(&t, 3000, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[<    0.001500>] ");
}

TEST(prefix_wall_clock) {
        struct timefmt t = { .format = TIME_CTIME, .have_boot = true, .boot_usec = BOOT * SEC };
        char buf[128];

        utc();
        timefmt_prefix(&t, 1500000, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[Tue Nov 14 22:13:21 2023] ");
        t.format = TIME_ISO;
        timefmt_prefix(&t, 1500000, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "2023-11-14T22:13:21,500000+00:00 ");
        setenv("TZ", "America/St_Johns", 1); /* -03:30 in November */
        tzset();
        timefmt_prefix(&t, 1500000, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "2023-11-14T18:43:21,500000-03:30 ");
        utc();
        /* Without a boot time, wall-clock formats fall back to seconds. */
        t.have_boot = false;
        CHECK_INT(timefmt_iso(&t, 1500000, buf, sizeof(buf)), 0);
        CHECK_INT(timefmt_ctime(&t, 1500000, buf, sizeof(buf)), 0);
}

TEST(prefix_ctime_alone_as_in_any_list) {
        /* -T alone takes a short way; the list it is in (format only) takes the long one: the same text. */
        struct timefmt fast = { .have_boot = true, .boot_usec = BOOT * SEC }, slow = fast;
        char a[128], b[128];
        size_t na, nb;
        uint64_t usec = 0;

        utc();
        timefmt_add(&fast, TIME_CTIME);
        slow.format = TIME_CTIME;
        for (int i = 0; i < 4000; i++) {
                /* Many records to a second, then jumps; no boot time (seconds instead) for a while. */
                usec += i % 100 == 0 ? (uint64_t)i * 7777777 : (uint64_t)(i % 7) * 99999;
                fast.have_boot = slow.have_boot = i < 1000 || i >= 2000;
                memset(a, 'x', sizeof(a));
                memset(b, 'y', sizeof(b));
                na = timefmt_prefix(&fast, usec, a, sizeof(a), NULL);
                nb = timefmt_prefix(&slow, usec, b, sizeof(b), NULL);
                CHECK_INT(na, nb);
                CHECK_STR(a, b);
                CHECK_INT(na, strlen(a));
        }
        timefmt_prefix(&fast, 1500000, a, sizeof(a), NULL);
        CHECK_STR(a, "[Tue Nov 14 22:13:21 2023] ");
        fast.have_boot = false;
        timefmt_prefix(&fast, 1500000, a, sizeof(a), NULL);
        CHECK_STR(a, "[    1.500000] ");
}

TEST(prefix_reltime_breaks_at_each_minute) {
        struct timefmt t = { .format = TIME_RELTIME, .have_boot = true, .boot_usec = BOOT * SEC };
        char buf[128];
        bool brk;

        utc();
        timefmt_prefix(&t, 0, buf, sizeof(buf), &brk);
        CHECK_STR(buf, "[Nov14 22:13] ");
        CHECK(brk);
        /* No offset from a stamp of 0 (taken before the clock ran), as util-linux prints it. */
        timefmt_prefix(&t, 250000, buf, sizeof(buf), &brk);
        CHECK_STR(buf, "[  +0.000000] ");
        CHECK(!brk);
        timefmt_prefix(&t, 39 * SEC, buf, sizeof(buf), &brk);
        CHECK_STR(buf, "[ +38.750000] ");
        /* 22:14:00 is 40 s after boot. */
        timefmt_prefix(&t, 40 * SEC, buf, sizeof(buf), &brk);
        CHECK_STR(buf, "[Nov14 22:14] ");
        CHECK(brk);
}

TEST(prefix_reltime_day_as_util_linux_writes_it) {
        /* 2023-12-03 07:52:00 UTC: a day of one digit takes the space. */
        struct timefmt t = { .format = TIME_RELTIME, .have_boot = true, .boot_usec = 1701589920LL * SEC };
        char buf[128];

        utc();
        timefmt_prefix(&t, 0, buf, sizeof(buf), NULL);
        CHECK_STR(buf, "[Dec 3 07:52] ");
}

TEST(mono_form) {
        char buf[32];

        CHECK_INT(timefmt_mono(6193747, buf, sizeof(buf)), 8);
        CHECK_STR(buf, "6.193747");
}

TEST(boot_time_pinned_by_the_environment) {
        int64_t v = 0;

        setenv("KDMESG_BOOT_TIME", "@1700000000", 1);
        CHECK_INT(boot_time_find(false, &v), 0);
        CHECK_INT(v, BOOT * SEC);
        setenv("KDMESG_BOOT_TIME", "junk", 1);
        CHECK_INT(boot_time_find(true, &v), -EINVAL);
        unsetenv("KDMESG_BOOT_TIME");
        CHECK_INT(boot_time_find(false, &v), -ENODATA);
        /* The live boot time lies in the past, after 2000. */
        CHECK_INT(boot_time_find(true, &v), 0);
        CHECK(v > 946684800LL * SEC && v <= now_usec() + SEC);
}

TEST(boot_time_live_is_realtime_minus_boottime) {
        struct timespec real;
        double up = 0;
        int64_t v = 0, expect;
        FILE *f = fopen("/proc/uptime", "re");

        /* /proc/uptime counts CLOCK_BOOTTIME, which runs during suspend too. */
        CHECK(f != NULL);
        CHECK_INT(fscanf(f, "%lf", &up), 1);
        fclose(f);
        CHECK_INT(clock_gettime(CLOCK_REALTIME, &real), 0);
        unsetenv("KDMESG_BOOT_TIME");
        CHECK_INT(boot_time_find(true, &v), 0);
        expect = (int64_t)real.tv_sec * SEC + real.tv_nsec / 1000 - (int64_t)(up * SEC);
        CHECK(v > expect - SEC && v < expect + SEC);
}

TEST(boot_time_from_proc_stat_btime) {
        char path[] = "/tmp/kdmesg-stat-XXXXXX";
        int64_t v = 0;
        int fd = mkstemp(path);
        FILE *f;

        CHECK(fd >= 0);
        f = fdopen(fd, "w");
        CHECK(f != NULL);
        fputs("cpu  1 2 3 4\nintr 5\nctxt 6\nbtime 1700000000\nprocesses 7\n", f);
        fclose(f);
        CHECK_INT(boot_time_from_stat(path, &v), 0);
        CHECK_INT(v, BOOT * SEC);
        f = fopen(path, "w");
        CHECK(f != NULL);
        fputs("cpu  1 2 3 4\n", f);
        fclose(f);
        v = 42;
        CHECK_INT(boot_time_from_stat(path, &v), -ENOENT);
        CHECK_INT(v, 42);
        unlink(path);
        CHECK_INT(boot_time_from_stat(path, &v), -ENOENT);
        /* The real one agrees with the clocks to the second. */
        if (boot_time_from_stat("/proc/stat", &v) == 0) {
                int64_t live = 0;

                CHECK_INT(boot_time_find(true, &live), 0);
                CHECK(v > live - 2 * SEC && v < live + 2 * SEC);
        }
}

TEST(point_in_the_main_format) {
        struct timefmt t = { .have_boot = true, .boot_usec = BOOT * SEC };
        char buf[64];

        utc();
        CHECK_INT(timefmt_point(NULL, 1500000, buf, sizeof(buf)), 8);
        CHECK_STR(buf, "1.500000");
        timefmt_point(&t, 1500000, buf, sizeof(buf));
        CHECK_STR(buf, "1.500000");
        timefmt_add(&t, TIME_CTIME);
        timefmt_point(&t, 1500000, buf, sizeof(buf));
        CHECK_STR(buf, "Tue Nov 14 22:13:21 2023");
        t = (struct timefmt){ .have_boot = true, .boot_usec = BOOT * SEC };
        timefmt_add(&t, TIME_ISO);
        timefmt_add(&t, TIME_CTIME);
        timefmt_point(&t, 1500000, buf, sizeof(buf));
        CHECK_STR(buf, "2023-11-14T22:13:21,500000+00:00");
        /* Without the boot time: seconds. */
        t.have_boot = false;
        timefmt_point(&t, 1500000, buf, sizeof(buf));
        CHECK_STR(buf, "1.500000");
}
