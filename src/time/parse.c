/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The time grammar (timefmt.h): seconds, durations, dates and the words of
 * util-linux's --since/--until, in the local time zone.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/parse-u64.h"
#include "time/timefmt.h"

#define USEC_PER_SEC 1000000LL

int time_parse_seconds(const char *s, int64_t *ret_usec) {
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
                if (n == 0 || time_parse_seconds(num, &v) < 0)
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
        return (int64_t)ts.tv_sec * USEC_PER_SEC + ts.tv_nsec / 1000;
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
                e = time_parse_seconds(s + 2, &v);
                if (e == 0)
                        *ret_usec = -v;
                return e;
        }
        if (*s == '@')
                return time_parse_seconds(s + 1, ret_usec);
        if (time_parse_seconds(s, &v) == 0) {
                *ret_usec = v;
                return 0;
        }
        return parse_date(s, ret_usec);
}

int time_parse_point(const char *s, struct time_point *ret) {
        int64_t v;
        int e;

        if (s && time_parse_seconds(s, &v) == 0) {
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
