/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Time stamps: the classic view's prefixes, wall-clock forms, time parsing. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "text/writer.h"
#include "time/suspend.h"
#include "time/timefmt.h"
#include "text/util.h"

#define USEC_PER_SEC 1000000LL

static bool has_format(const struct timefmt *t, enum time_format f) {
        for (unsigned i = 0; i < t->n; i++)
                if (t->list[i] == f)
                        return true;
        return false;
}

void timefmt_add(struct timefmt *t, enum time_format f) {
        unsigned i;

        if (has_format(t, f) || t->n == TIMEFMT_MAX)
                return;
        t->list[t->n++] = f;
        t->delta = has_format(t, TIME_DELTA) || has_format(t, TIME_SHOW_DELTA);
        t->format = TIME_RAW;
        for (i = 0; i < t->n; i++)
                if (t->list[i] <= TIME_ISO) {
                        t->format = t->list[i];
                        break;
                }
        if (has_format(t, TIME_NONE))
                t->format = TIME_NONE;
}

int timefmt_parse_word(struct timefmt *t, const char *word) {
        static const struct {
                const char *name;
                enum time_format format;
        } words[] = {
                { "raw", TIME_RAW }, { "ctime", TIME_CTIME }, { "reltime", TIME_RELTIME },
                { "iso", TIME_ISO }, { "notime", TIME_NONE }, { "delta", TIME_DELTA },
        };
        size_t i;

        for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
                if (strcmp(word, words[i].name) == 0) {
                        timefmt_add(t, words[i].format);
                        return 0;
                }
        return -EINVAL;
}

bool timefmt_needs_wall(const struct timefmt *t) {
        if (t->n == 0)
                return t->format == TIME_CTIME || t->format == TIME_RELTIME || t->format == TIME_ISO;
        return !has_format(t, TIME_NONE) &&
               (has_format(t, TIME_CTIME) || has_format(t, TIME_RELTIME) || has_format(t, TIME_ISO));
}

const char *timefmt_name(const struct timefmt *t) {
        switch (t->format) {
        case TIME_RAW:
                return "raw";
        case TIME_CTIME:
                return "ctime";
        case TIME_RELTIME:
                return "reltime";
        case TIME_ISO:
                return "iso";
        case TIME_NONE:
                return "notime";
        case TIME_DELTA:
        case TIME_SHOW_DELTA:
                return "delta";
        }
        return "raw";
}

static int64_t timespec_usec(const struct timespec *ts) {
        return (int64_t)ts->tv_sec * USEC_PER_SEC + ts->tv_nsec / 1000;
}

int boot_time_from_stat(const char *path, int64_t *ret_usec) {
        FILE *f = fopen(path, "re");
        char line[256];
        long long v;
        int e = -ENOENT;

        if (!f)
                return -errno;
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "btime %lld", &v) == 1) {
                        *ret_usec = (int64_t)v * USEC_PER_SEC;
                        e = 0;
                        break;
                }
        fclose(f);
        return e;
}

static int parse_seconds(const char *s, int64_t *ret_usec);

int64_t timefmt_wall(const struct timefmt *t, uint64_t usec) {
        int64_t w;

        /* A time stamp no clock reaches (a hostile dump's, up to 2^64 - 1 us) ends the range instead of wrapping. */
        if (usec > INT64_MAX || __builtin_add_overflow(t->boot_usec, suspends_offset(t->susp), &w) ||
            __builtin_add_overflow(w, (int64_t)usec, &w))
                return INT64_MAX;
        return w;
}

/* KDMESG_TEST_CLOCKS: three times in seconds; 0 or -EINVAL. */
static int test_clocks(const char *s, int64_t ret[3]) {
        char buf[128], *save = NULL, *w;
        int i;

        if (strlen(s) >= sizeof(buf))
                return -EINVAL;
        memcpy(buf, s, strlen(s) + 1);
        for (i = 0, w = strtok_r(buf, " ", &save); i < 3; i++, w = strtok_r(NULL, " ", &save))
                if (!w || parse_seconds(w, &ret[i]) < 0)
                        return -EINVAL;
        return w ? -EINVAL : 0;
}

int clocks_read(int64_t *ret_boot_usec, int64_t *ret_slept_usec) {
        const char *pinned = getenv("KDMESG_TEST_CLOCKS");
        struct timespec real, mono, boot;
        int64_t c[3];

        if (pinned && *pinned) {
                if (test_clocks(pinned, c) < 0 || c[2] < c[1] || c[0] < c[2])
                        return -EINVAL;
        } else {
                if (clock_gettime(CLOCK_REALTIME, &real) < 0 || clock_gettime(CLOCK_MONOTONIC, &mono) < 0 ||
                    clock_gettime(CLOCK_BOOTTIME, &boot) < 0)
                        return -errno;
                c[0] = timespec_usec(&real);
                c[1] = timespec_usec(&mono);
                c[2] = timespec_usec(&boot);
        }
        *ret_boot_usec = c[0] - c[2];
        *ret_slept_usec = c[2] > c[1] ? c[2] - c[1] : 0;
        return 0;
}

int64_t clocks_slept_now(void) {
        int64_t boot, slept;

        return clocks_read(&boot, &slept) == 0 ? slept : 0;
}

int boot_time_find(bool live, int64_t *ret_usec) {
        const char *pinned = getenv("KDMESG_BOOT_TIME");
        int64_t slept;
        int e;

        if (pinned && *pinned)
                return time_parse_absolute(pinned, ret_usec);
        if (!live)
                return -ENODATA;
        e = clocks_read(ret_usec, &slept);
        if (e != -EINVAL && e < 0)
                return boot_time_from_stat("/proc/stat", ret_usec);
        return e;
}

/* "SECONDS[.FRACTION]" filling all of s, as microseconds. */
static int parse_seconds(const char *s, int64_t *ret_usec) {
        const char *dot = strchr(s, '.');
        char whole[24];
        uint64_t sec, frac = 0;
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        int digits = 0;

        if (n == 0 || n >= sizeof(whole))
                return -EINVAL;
        memcpy(whole, s, n);
        whole[n] = '\0';
        if (parse_u64(whole, &sec) < 0 || sec > INT64_MAX / USEC_PER_SEC - 1)
                return -EINVAL;
        if (dot) {
                const char *p;

                if (!dot[1])
                        return -EINVAL;
                for (p = dot + 1; *p; p++) {
                        if (*p < '0' || *p > '9')
                                return -EINVAL;
                        if (digits < 6) {
                                frac = frac * 10 + (uint64_t)(*p - '0');
                                digits++;
                        }
                }
                for (; digits < 6; digits++)
                        frac *= 10;
        }
        *ret_usec = (int64_t)(sec * USEC_PER_SEC + frac);
        return 0;
}

/* "1h 30min", "10min", "90" (seconds): a sum of numbers with units. */
static int parse_duration(const char *s, int64_t *ret_usec) {
        static const struct {
                const char *unit;
                int64_t usec;
        } units[] = {
                { "us", 1 },
                { "usec", 1 },
                { "ms", 1000 },
                { "msec", 1000 },
                { "s", USEC_PER_SEC },
                { "sec", USEC_PER_SEC },
                { "second", USEC_PER_SEC },
                { "seconds", USEC_PER_SEC },
                { "m", 60 * USEC_PER_SEC },
                { "min", 60 * USEC_PER_SEC },
                { "minute", 60 * USEC_PER_SEC },
                { "minutes", 60 * USEC_PER_SEC },
                { "h", 3600 * USEC_PER_SEC },
                { "hour", 3600 * USEC_PER_SEC },
                { "hours", 3600 * USEC_PER_SEC },
                { "hr", 3600 * USEC_PER_SEC },
                { "d", 86400 * USEC_PER_SEC },
                { "day", 86400 * USEC_PER_SEC },
                { "days", 86400 * USEC_PER_SEC },
                { "w", 7 * 86400 * USEC_PER_SEC },
                { "week", 7 * 86400 * USEC_PER_SEC },
                { "weeks", 7 * 86400 * USEC_PER_SEC },
                /* A month and a year as util-linux counts them: 30.44 and 365.25 days. */
                { "month", 2629800 * USEC_PER_SEC },
                { "months", 2629800 * USEC_PER_SEC },
                { "y", 31557600 * USEC_PER_SEC },
                { "year", 31557600 * USEC_PER_SEC },
                { "years", 31557600 * USEC_PER_SEC },
        };
        int64_t total = 0;
        bool any = false;

        while (*s) {
                char num[24], unit[16];
                size_t n = 0, u = 0, i;
                int64_t v;
                int64_t scale = USEC_PER_SEC;

                while (*s == ' ')
                        s++;
                if (!*s)
                        break;
                while ((*s >= '0' && *s <= '9') || *s == '.') {
                        if (n + 1 >= sizeof(num))
                                return -EINVAL;
                        num[n++] = *s++;
                }
                num[n] = '\0';
                while (*s == ' ')
                        s++;
                while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
                        if (u + 1 >= sizeof(unit))
                                return -EINVAL;
                        unit[u++] = *s++;
                }
                unit[u] = '\0';
                if (n == 0 || parse_seconds(num, &v) < 0)
                        return -EINVAL;
                if (u > 0) {
                        for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
                                if (strcasecmp(unit, units[i].unit) == 0)
                                        break;
                        if (i == sizeof(units) / sizeof(units[0]))
                                return -EINVAL;
                        scale = units[i].usec;
                }
                /* v is the number in µs-of-a-second; scale it to the unit. */
                if (v > INT64_MAX / (scale > USEC_PER_SEC ? scale / USEC_PER_SEC : 1))
                        return -ERANGE;
                v = scale >= USEC_PER_SEC ? v * (scale / USEC_PER_SEC) : v / (USEC_PER_SEC / scale);
                total += v;
                any = true;
        }
        if (!any)
                return -EINVAL;
        *ret_usec = total;
        return 0;
}

static int64_t now_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return timespec_usec(&ts);
}

/* Local midnight of today + days, µs since the epoch. */
static int64_t midnight(int days) {
        time_t now = time(NULL);
        struct tm tm;

        localtime_r(&now, &tm);
        tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
        tm.tm_mday += days;
        tm.tm_isdst = -1;
        return (int64_t)mktime(&tm) * USEC_PER_SEC;
}

/* Up to max decimal digits at *p; returns how many were read (0: none). */
static int read_digits(const char **p, int max, int *ret) {
        int n = 0, v = 0;

        while (n < max && **p >= '0' && **p <= '9') {
                v = v * 10 + (**p - '0');
                (*p)++;
                n++;
        }
        if (n > 0)
                *ret = v;
        return n;
}

/* A weekday name, short or long, any case, then blanks; its number (0 Sunday) or -1. */
static int read_weekday(const char **p) {
        static const char *const days[] = { "sunday", "monday", "tuesday", "wednesday",
                                            "thursday", "friday", "saturday" };
        const char *s = *p;
        size_t n = 0;
        int i;

        while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z'))
                n++;
        if (n < 3 || s[n] != ' ')
                return -1;
        for (i = 0; i < 7; i++)
                if ((n == 3 || n == strlen(days[i])) && strncasecmp(s, days[i], n) == 0)
                        break;
        if (i == 7)
                return -1;
        s += n;
        while (*s == ' ')
                s++;
        *p = s;
        return i;
}

/*
 * The dates of util-linux's grammar, in the local time zone: an optional
 * weekday ("Fri", "friday"; it must be the date's), then "YYYY-MM-DD" (or
 * "YY-MM-DD", fields unpadded too), "HH:MM[:SS[.FRACTION]]" (',' also
 * starts the fraction, of at most 6 digits) after a blank or 'T', or the
 * time alone for today.
 */
static int parse_date(const char *s, int64_t *ret_usec) {
        const char *p = s;
        struct tm tm = {};
        time_t now = time(NULL), t;
        int wday, year, mon, day, hour = 0, min = 0, sec = 0, n, usec = 0;
        bool date;

        wday = read_weekday(&p);
        localtime_r(&now, &tm);
        n = read_digits(&p, 4, &year);
        date = *p == '-';
        if (date) {
                if (n != 2 && n != 4)
                        return -EINVAL;
                if (n == 2)
                        year += year < 69 ? 2000 : 1900;
                p++;
                if (!read_digits(&p, 2, &mon) || *p++ != '-' || !read_digits(&p, 2, &day))
                        return -EINVAL;
                if (mon < 1 || mon > 12 || day < 1 || day > 31)
                        return -EINVAL;
                tm.tm_year = year - 1900;
                tm.tm_mon = mon - 1;
                tm.tm_mday = day;
                if (*p == ' ' || *p == 'T') {
                        p++;
                        n = read_digits(&p, 2, &hour);
                } else
                        n = -1;
        } else if (n > 2)
                return -EINVAL;
        else
                hour = year;
        if (n == 0)
                return -EINVAL;
        if (n > 0) {
                /* The time of day. */
                if (*p++ != ':' || !read_digits(&p, 2, &min))
                        return -EINVAL;
                if (*p == ':') {
                        p++;
                        if (!read_digits(&p, 2, &sec))
                                return -EINVAL;
                        if (*p == '.' || *p == ',') {
                                int digits = 0;

                                for (p++; *p >= '0' && *p <= '9'; p++, digits++)
                                        if (digits < 6)
                                                usec = usec * 10 + (*p - '0');
                                if (digits > 6)
                                        return -EINVAL;
                                for (; digits < 6; digits++)
                                        usec *= 10;
                        }
                }
                if (hour > 23 || min > 59 || sec > 60)
                        return -EINVAL;
        }
        if (*p)
                return -EINVAL;
        tm.tm_hour = hour;
        tm.tm_min = min;
        tm.tm_sec = sec;
        tm.tm_isdst = -1;
        t = mktime(&tm);
        if (t == (time_t)-1 || (wday >= 0 && tm.tm_wday != wday))
                return -EINVAL;
        *ret_usec = (int64_t)t * USEC_PER_SEC + usec;
        return 0;
}

/* "DURATION ago": the duration before now; -EINVAL when s does not end in " ago". */
static int parse_ago(const char *s, int64_t *ret_usec) {
        size_t n = strlen(s);
        char buf[128];
        int64_t v;
        int e;

        if (n < 5 || n - 4 >= sizeof(buf) || strcmp(s + n - 4, " ago") != 0)
                return -EINVAL;
        memcpy(buf, s, n - 4);
        buf[n - 4] = '\0';
        e = parse_duration(buf, &v);
        if (e < 0)
                return e;
        *ret_usec = now_usec() - v;
        return 0;
}

int time_parse_absolute(const char *s, int64_t *ret_usec) {
        int64_t v;
        int e;

        if (!s)
                return -EINVAL;
        /* util-linux skips blanks before the time, not after. */
        while (*s == ' ')
                s++;
        if (!*s)
                return -EINVAL;
        if (strcmp(s, "now") == 0) {
                *ret_usec = now_usec();
                return 0;
        }
        if (strcmp(s, "today") == 0 || strcmp(s, "yesterday") == 0 || strcmp(s, "tomorrow") == 0) {
                *ret_usec = midnight(s[0] == 'y' ? -1 : s[1] == 'o' && s[2] == 'm' ? 1 : 0);
                return 0;
        }
        if (parse_ago(s, &v) == 0) {
                *ret_usec = v;
                return 0;
        }
        if (*s == '+' || *s == '-') {
                e = parse_duration(s + 1, &v);
                if (e < 0)
                        return e;
                *ret_usec = now_usec() + (*s == '-' ? -v : v);
                return 0;
        }
        if (*s == '@' && s[1] == '-') {
                e = parse_seconds(s + 2, &v);
                if (e == 0)
                        *ret_usec = -v;
                return e;
        }
        if (*s == '@')
                return parse_seconds(s + 1, ret_usec);
        if (parse_seconds(s, &v) == 0) {
                *ret_usec = v;
                return 0;
        }
        return parse_date(s, ret_usec);
}

int time_parse_point(const char *s, struct time_point *ret) {
        int64_t v;
        int e;

        if (s && parse_seconds(s, &v) == 0) {
                ret->monotonic = true;
                ret->usec = v;
                return 0;
        }
        e = time_parse_absolute(s, &v);
        if (e < 0)
                return e;
        ret->monotonic = false;
        ret->usec = v;
        return 0;
}

size_t timefmt_mono(uint64_t usec, char *buf, size_t size) {
        char tmp[28];
        int n;

        put_seconds(tmp, usec, 0);
        n = snprintf(buf, size, "%s", tmp);

        return n < 0 ? 0 : (size_t)n;
}

size_t timefmt_point(const struct timefmt *t, uint64_t usec, char *buf, size_t size) {
        size_t n = 0;

        if (t && (t->format == TIME_CTIME || t->format == TIME_RELTIME))
                n = timefmt_ctime(t, usec, buf, size);
        else if (t && t->format == TIME_ISO)
                n = timefmt_iso(t, usec, buf, size);
        return n > 0 ? n : timefmt_mono(usec, buf, size);
}

static int format_padded(char *buf, size_t size, uint64_t usec) {
        char tmp[32];
        size_t n = put_seconds(tmp, usec, 5);

        return snprintf(buf, size, "%s", tmp) < 0 ? 0 : (int)n;
}

static bool wall_tm(const struct timefmt *t, uint64_t usec, struct tm *tm, unsigned *ret_usec) {
        int64_t wall;
        time_t secs;

        if (!t->have_boot)
                return false;
        wall = timefmt_wall(t, usec);
        secs = (time_t)(wall >= 0 ? wall / USEC_PER_SEC : (wall - USEC_PER_SEC + 1) / USEC_PER_SEC);
        if (ret_usec)
                *ret_usec = (unsigned)(wall - (int64_t)secs * USEC_PER_SEC);
        return localtime_r(&secs, tm) != NULL;
}

size_t timefmt_iso(const struct timefmt *t, uint64_t usec, char *buf, size_t size) {
        struct tm tm;
        unsigned us;
        char date[32];
        long off;
        int n;

        if (!wall_tm(t, usec, &tm, &us) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm))
                return 0;
        off = tm.tm_gmtoff / 60;
        n = snprintf(buf, size, "%s,%06u%c%02ld:%02ld", date, us, off < 0 ? '-' : '+', labs(off) / 60,
                     labs(off) % 60);
        return n < 0 ? 0 : (size_t)n;
}

size_t timefmt_ctime(const struct timefmt *t, uint64_t usec, char *buf, size_t size) {
        struct tm tm;

        if (!wall_tm(t, usec, &tm, NULL))
                return 0;
        return strftime(buf, size, "%a %b %e %H:%M:%S %Y", &tm);
}

/* "<    0.000123>": the time since the previous record shown. */
static int format_delta(char *buf, size_t size, const struct timefmt *t, uint64_t usec) {
        uint64_t d;
        bool neg = false;
        char tmp[32];

        /* A stamp of 0 is one taken before the clock ran: no delta from it, as in util-linux. */
        if (!t->have_last || t->last_usec == 0)
                d = 0;
        else if (usec >= t->last_usec)
                d = usec - t->last_usec;
        else {
                /* Stamps are taken per CPU: a later record can carry an earlier one. */
                d = t->last_usec - usec;
                neg = true;
        }
        tmp[0] = '-';
        put_seconds(tmp + 1, d, 0);
        return snprintf(buf, size, "<%12s>", neg ? tmp : tmp + 1);
}

/* Append to buf at *pos what fmt makes, cut to size. */
static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...) {
        va_list ap;
        int r;

        if (*pos + 1 >= size)
                return;
        va_start(ap, fmt);
        r = vsnprintf(buf + *pos, size - *pos, fmt, ap);
        va_end(ap);
        if (r > 0)
                *pos = *pos + (size_t)r < size ? *pos + (size_t)r : size - 1;
}

/* The ctime text of the record (in a, or kept from its second), or its padded seconds when the boot time is not known. */
static const char *ctime_text(struct timefmt *t, uint64_t usec, char *a, size_t size) {
        /* Records come many to a second: format each second once. */
        int64_t second = t->have_boot ? timefmt_wall(t, usec) / USEC_PER_SEC : -1;

        if (second >= 0 && t->ctime_text[0] && second == t->ctime_second)
                return t->ctime_text;
        if (timefmt_ctime(t, usec, a, size) > 0) {
                snprintf(t->ctime_text, sizeof(t->ctime_text), "%s", a);
                t->ctime_second = second;
        } else
                format_padded(a, size, usec);
        return a;
}

/* "[Nov14 22:13] " at a new minute, else "[  +0.000123] " from the previous record. */
static void reltime_stamp(struct timefmt *t, uint64_t usec, char *buf, size_t size, size_t *pos, bool *ret_break) {
        char a[64];
        struct tm tm;
        int64_t minute;

        if (!wall_tm(t, usec, &tm, NULL)) {
                format_padded(a, sizeof(a), usec);
                append(buf, size, pos, "[%s] ", a);
                return;
        }
        minute = timefmt_wall(t, usec) / (60 * USEC_PER_SEC);
        if (!t->have_last || minute != t->last_minute) {
                /* "Nov14 22:13", "Dec 3 07:52": month and day as util-linux dmesg -e writes them. */
                strftime(a, sizeof(a), "%b%e %H:%M", &tm);
                append(buf, size, pos, "[%s] ", a);
                if (ret_break)
                        *ret_break = true;
        } else {
                /* In unsigned arithmetic: two stamps of a hostile dump may be 2^64 - 1 us apart. */
                bool back = t->last_usec != 0 && usec < t->last_usec;
                uint64_t m = t->last_usec == 0 ? 0 : back ? t->last_usec - usec : usec - t->last_usec;
                char tmp[32];

                tmp[0] = back ? '-' : '+';
                put_seconds(tmp + 1, m, 0);
                append(buf, size, pos, "[%11s] ", tmp);
        }
        t->last_minute = minute;
}

/*
 * "[A D] " (or "[A] " when D is empty) into buf, cut to size as snprintf()
 * would; returns the length it has uncut.  Without printf: -T runs it for
 * every record.
 */
static int bracket(char *buf, size_t size, const char *a, const char *d) {
        char tmp[128];
        size_t na = strnlen(a, 64), nd = strnlen(d, 40), n = 0;

        tmp[n++] = '[';
        memcpy(tmp + n, a, na);
        n += na;
        if (nd) {
                tmp[n++] = ' ';
                memcpy(tmp + n, d, nd);
                n += nd;
        }
        tmp[n++] = ']';
        tmp[n++] = ' ';
        if (size > 0) {
                size_t k = n < size ? n : size - 1;

                memcpy(buf, tmp, k);
                buf[k] = '\0';
        }
        return (int)n;
}

/* bracket() appended at *pos. */
static void put_bracket(char *buf, size_t size, size_t *pos, const char *a, const char *d) {
        int r;

        if (*pos + 1 >= size)
                return;
        r = bracket(buf + *pos, size - *pos, a, d);
        *pos = *pos + (size_t)r < size ? *pos + (size_t)r : size - 1;
}

/* timefmt_prefix() but for its two usual forms. */
static size_t prefix_stamps(struct timefmt *t, uint64_t usec, char *buf, size_t size, bool *ret_break) {
        enum time_format legacy[2];
        const enum time_format *list = t->list;
        unsigned n = t->n, i;
        bool has_raw = false, has_ctime = false, has_none = false, has_delta = false, has_show = false;
        char a[64], d[40] = "";
        size_t pos = 0;

        if (n == 0) {
                /* format, with the delta joined to it. */
                list = legacy;
                n = 0;
                if (t->format != TIME_RAW || !t->delta)
                        legacy[n++] = t->format;
                if (t->delta)
                        legacy[n++] = TIME_SHOW_DELTA;
        }
        for (i = 0; i < n; i++) {
                has_raw |= list[i] == TIME_RAW;
                has_ctime |= list[i] == TIME_CTIME;
                has_none |= list[i] == TIME_NONE;
                has_delta |= list[i] == TIME_DELTA;
                has_show |= list[i] == TIME_SHOW_DELTA;
        }
        if (has_delta || has_show)
                format_delta(d, sizeof(d), t, usec);
        buf[0] = '\0';
        if (has_none) {
                /* notime: only the delta, if one was asked for. */
                if (*d)
                        append(buf, size, &pos, "[%s] ", d);
                n = 0;
        }
        for (i = 0; i < n; i++)
                switch (list[i]) {
                case TIME_RAW:
                        format_padded(a, sizeof(a), usec);
                        put_bracket(buf, size, &pos, a, has_delta ? d : "");
                        break;
                case TIME_CTIME:
                        put_bracket(buf, size, &pos, ctime_text(t, usec, a, sizeof(a)),
                                    has_show || (has_delta && !has_raw) ? d : "");
                        break;
                case TIME_ISO:
                        if (timefmt_iso(t, usec, a, sizeof(a)) == 0)
                                format_padded(a, sizeof(a), usec);
                        append(buf, size, &pos, "%s ", a);
                        break;
                case TIME_RELTIME:
                        reltime_stamp(t, usec, buf, size, &pos, ret_break);
                        break;
                case TIME_DELTA:
                        /* Joined to raw, or to ctime when -d has not taken that. */
                        if (!has_raw && !(has_ctime && !has_show))
                                append(buf, size, &pos, "[%s] ", d);
                        break;
                case TIME_SHOW_DELTA:
                        if (!has_ctime) {
                                format_padded(a, sizeof(a), usec);
                                put_bracket(buf, size, &pos, a, d);
                        }
                        break;
                case TIME_NONE:
                        break;
                }
        t->have_last = true;
        t->last_usec = usec;
        return pos;
}

size_t timefmt_prefix(struct timefmt *t, uint64_t usec, char *buf, size_t size, bool *ret_break) {
        const enum time_format *list = t->list;
        unsigned n = t->n;
        size_t pos;

        if (ret_break)
                *ret_break = false;
        if (size == 0)
                return 0;
        if (((n == 0 && t->format == TIME_RAW && !t->delta) || (n == 1 && list[0] == TIME_RAW)) && size >= 32) {
                /* The default: "[    1.234567] ", without printf. */
                buf[0] = '[';
                pos = 1 + put_seconds(buf + 1, usec, 5);
        } else if (n == 1 && list[0] == TIME_CTIME && size >= 72) {
                /* -T: "[Tue Nov 14 22:13:20 2023] ", the text kept from the record before in the same second. */
                char a[64];
                const char *c = ctime_text(t, usec, a, sizeof(a));

                pos = strnlen(c, sizeof(a));
                /* Both are arrays of 64 bytes: the usual 24 are copied as 32 at once. */
                if (pos <= 32)
                        memcpy(buf + 1, c, 32);
                else
                        memcpy(buf + 1, c, pos);
                buf[0] = '[';
                pos++;
        } else
                return prefix_stamps(t, usec, buf, size, ret_break);
        buf[pos++] = ']';
        buf[pos++] = ' ';
        buf[pos] = '\0';
        t->have_last = true;
        t->last_usec = usec;
        return pos;
}
