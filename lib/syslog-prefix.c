/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The head of a syslog-form line ("<6>[    1.234567] ", "dmesg -x" names,
 * "dmesg -T" stamps, caller ids):
 * parsed for the syslog stream and for format detection (stream.c), which
 * so need not use each other's symbols.
 */
#include <string.h>

#include "reader-private.h"

/*
 * "kern  :warn  : ", the facility and level names that "dmesg -x" puts
 * first (each padded to six columns).  Returns the bytes it takes, or 0.
 */
static size_t decode_prefix(const char *p, const char *end, struct prefix *ret) {
        char name[2][16];
        const char *q = p;
        int v[2], k;

        for (k = 0; k < 2; k++) {
                size_t n = 0;

                while (q < end && ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')) && n < 15)
                        name[k][n++] = *q++;
                name[k][n] = '\0';
                if (n == 0)
                        return 0;
                while (q < end && *q == ' ')
                        q++;
                if (q == end || *q != ':')
                        return 0;
                q++;
        }
        if (q == end || *q != ' ')
                return 0;
        v[0] = kmsg_facility_from_name(name[0]);
        v[1] = kmsg_level_from_name(name[1]);
        if (v[0] < 0 || v[1] < 0)
                return 0;
        ret->priority = (unsigned)(v[0] << 3 | v[1]);
        ret->has_priority = true;
        return (size_t)(q + 1 - p);
}

/*
 * The caller id that util-linux 2.40 and later print after the time stamp,
 * as the kernel prints it on the console: "[" and spaces, 'T' (thread) or
 * 'C' (CPU) and digits, "]", then a space or the end of the line (a KASAN
 * report prints caller ids with no text).  Its place goes into ret
 * (offsets from start).  Returns the bytes it takes, or 0.
 */
static size_t caller_prefix(const char *p, const char *end, const char *start, struct prefix *ret) {
        const char *q = p + 1, *id;

        if (p >= end || *p != '[')
                return 0;
        while (q < end && *q == ' ')
                q++;
        id = q;
        if (q == end || (*q != 'T' && *q != 'C'))
                return 0;
        for (q++; q < end && *q >= '0' && *q <= '9' && q - id <= 10; q++)
                ;
        if (q - id < 2 || q - id > 11 || q == end || q[0] != ']')
                return 0;
        if (end - q == 1) {
                /* Nothing after it: the printed head had a space there. */
                ret->caller_off = (size_t)(id - start);
                ret->caller_len = (size_t)(q - id);
                ret->cut_space = true;
                return (size_t)(q + 1 - p);
        }
        if (q[1] != ' ')
                return 0;
        ret->caller_off = (size_t)(id - start);
        ret->caller_len = (size_t)(q - id);
        return (size_t)(q + 2 - p);
}

static bool is_lower(char c) {
        return c >= 'a' && c <= 'z';
}

static bool is_upper(char c) {
        return c >= 'A' && c <= 'Z';
}

static bool is_digit(char c) {
        return c >= '0' && c <= '9';
}

/* Days from 1970-01-01 to year-month-day of the proleptic Gregorian calendar (month 1-12). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
        int64_t era;
        unsigned yoe, doy, doe;

        y -= m <= 2;
        era = (y >= 0 ? y : y - 399) / 400;
        yoe = (unsigned)(y - era * 400);
        doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + (int64_t)doe - 719468;
}

/* The index (0-based) of the three letters at p in names (a run of three-letter names), or -1. */
static int name_index(const char *p, const char *names) {
        int i;

        for (i = 0; names[3 * i]; i++)
                if (memcmp(p, names + 3 * i, 3) == 0)
                        return i;
        return -1;
}

/*
 * The wall-clock stamp of "dmesg -T": "[Sat Dec  5 23:19:32 2026]", the
 * ctime() form.  It is a local time in a zone the line does not name,
 * computed by the printer from a boot time that ignores suspends: it gives
 * no monotonic time stamp, and the record has none.  *ret_sec gets the
 * date and time as printed, as seconds since 1970-01-01 00:00:00 of that
 * zone.  Returns the bytes it takes (without the space after it), or 0:
 * also for a day, month or time of day that no clock prints (the weekday
 * is not checked against the date: a printer may have got it wrong).
 */
static size_t ctime_stamp(const char *p, const char *end, int64_t *ret_sec) {
        static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
        static const char days[] = "SunMonTueWedThuFriSat";
        unsigned day, hour, min, sec;
        int64_t year = 0;
        const char *q;
        int month;
        size_t i;

        if (end - p < 26 || p[0] != '[')
                return 0;
        if (!is_upper(p[1]) || !is_lower(p[2]) || !is_lower(p[3]) || p[4] != ' ' || !is_upper(p[5]) ||
            !is_lower(p[6]) || !is_lower(p[7]) || p[8] != ' ' || (p[9] != ' ' && !is_digit(p[9])) ||
            !is_digit(p[10]) || p[11] != ' ' || p[14] != ':' || p[17] != ':' || p[20] != ' ')
                return 0;
        for (i = 12; i < 20; i++)
                if (i != 14 && i != 17 && !is_digit(p[i]))
                        return 0;
        for (q = p + 21; q < end && is_digit(*q) && q - p < 30; q++)
                year = year * 10 + (*q - '0');
        if (q - p < 25 || q == end || *q != ']')
                return 0;
        month = name_index(p + 5, months);
        day = (p[9] == ' ' ? 0 : (unsigned)(p[9] - '0') * 10) + (unsigned)(p[10] - '0');
        hour = (unsigned)(p[12] - '0') * 10 + (unsigned)(p[13] - '0');
        min = (unsigned)(p[15] - '0') * 10 + (unsigned)(p[16] - '0');
        sec = (unsigned)(p[18] - '0') * 10 + (unsigned)(p[19] - '0');
        /* A leap second prints as :60. */
        if (name_index(p + 1, days) < 0 || month < 0 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60)
                return 0;
        *ret_sec = days_from_civil(year, (unsigned)month + 1, day) * 86400 + hour * 3600 + min * 60 + sec;
        return (size_t)(q + 1 - p);
}

/*
 * The head of a line that starts a record: "<PRI>", "[SECONDS] " or
 * "dmesg -T"'s "[Sat Dec  5 23:19:32 2026] ", "<PRI>" or "dmesg -x"'s
 * names before either stamp, each followed by the caller id, if there is
 * one.  Returns the length of the
 * head (the message follows it), or 0 when the line starts no record.
 */
size_t syslog_parse_prefix(const char *p, size_t len, struct prefix *ret) {
        const char *start = p, *end = p + len, *q;
        uint64_t v, frac;
        size_t digits;

        memset(ret, 0, sizeof(*ret));
        if (p < end && *p == '<') {
                v = 0;
                for (q = p + 1; q < end && *q >= '0' && *q <= '9' && q - p <= 5; q++)
                        v = v * 10 + (uint64_t)(*q - '0');
                if (q > p + 1 && q < end && *q == '>' && v <= 2047) {
                        ret->priority = (unsigned)v;
                        ret->has_priority = true;
                        p = q + 1;
                }
        } else if (p < end && *p >= 'a' && *p <= 'z')
                p += decode_prefix(p, end, ret);
        if (p < end && *p == '[' && (q = p + ctime_stamp(p, end, &ret->wall_sec)) > p) {
                ret->wall_clock = true;
                p = q;
                if (p == end)
                        ret->cut_space = true;
                else if (*p == ' ')
                        p++;
        } else if (p < end && *p == '[') {
                q = p + 1;
                while (q < end && *q == ' ')
                        q++;
                v = 0;
                for (digits = 0; q < end && *q >= '0' && *q <= '9'; q++, digits++)
                        if (digits < 12)
                                v = v * 10 + (uint64_t)(*q - '0');
                if (digits > 0 && digits <= 12 && q < end && *q == '.') {
                        const char *fs = ++q;

                        frac = 0;
                        for (digits = 0; q < end && *q >= '0' && *q <= '9'; q++, digits++)
                                if (digits < 6)
                                        frac = frac * 10 + (uint64_t)(*q - '0');
                        for (; digits < 6; digits++)
                                frac *= 10;
                        if (q > fs && q < end && *q == ']') {
                                ret->usec = v * 1000000 + frac;
                                ret->has_timestamp = true;
                                p = q + 1;
                                if (p == end)
                                        ret->cut_space = true;
                                else if (*p == ' ')
                                        p++;
                        }
                }
        }
        if (!ret->has_priority && !ret->has_timestamp && !ret->wall_clock)
                return 0;
        p += caller_prefix(p, end, start, ret);
        return (size_t)(p - start);
}

bool syslog_line_check(const char *p, size_t len) {
        struct prefix pf;

        return !memchr(p, '\0', len) && syslog_parse_prefix(p, len, &pf) > 0;
}

