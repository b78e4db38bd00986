/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time stamps (timefmt.h): the formats --time-format chose, the classic
 * view's prefixes and the wall-clock forms of the other views.  The clocks
 * are in clock.c, the time grammar in parse.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libkmsg.h"
#include "text/writer.h"
#include "time/suspend.h"
#include "time/timefmt.h"

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

size_t timefmt_mono(uint64_t usec, char *buf, size_t size) {
        char tmp[28];
        int n;

        put_seconds(tmp, usec, 0);
        n = snprintf(buf, size, "%s", tmp);

        return n < 0 ? 0 : (size_t)n;
}

size_t timefmt_point(const struct timefmt *t, uint64_t usec, char *buf, size_t size) {
        size_t n = 0;

        /* A paste's wall clock (wall_stamp) in ctime where seconds would be. */
        if (t && t->format == TIME_ISO)
                n = timefmt_iso(t, usec, buf, size);
        else if (t && (t->format == TIME_CTIME || t->format == TIME_RELTIME || t->wall_stamp))
                n = timefmt_ctime(t, usec, buf, size);
        return n > 0 ? n : timefmt_mono(usec, buf, size);
}

static int format_padded(char *buf, size_t size, uint64_t usec) {
        char tmp[32];
        size_t n = put_seconds(tmp, usec, 5);

        return snprintf(buf, size, "%s", tmp) < 0 ? 0 : (int)n;
}

/* format_padded() into a, returned. */
static const char *padded(char *a, size_t size, uint64_t usec) {
        format_padded(a, size, usec);
        return a;
}

static bool wall_tm(const struct timefmt *t, uint64_t usec, struct tm *tm, unsigned *ret_usec) {
        int64_t wall;
        time_t secs;

        if (!t->have_boot && !t->wall_stamp)
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
        int64_t second = t->have_boot || t->wall_stamp ? timefmt_wall(t, usec) / USEC_PER_SEC : -1;

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
                        /* A paste's wall clock, as it printed it. */
                        put_bracket(buf, size, &pos,
                                    t->wall_stamp ? ctime_text(t, usec, a, sizeof(a)) : padded(a, sizeof(a), usec),
                                    has_delta ? d : "");
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
                                put_bracket(buf, size, &pos,
                                            t->wall_stamp ? ctime_text(t, usec, a, sizeof(a))
                                                          : padded(a, sizeof(a), usec),
                                            d);
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
        if (((n == 0 && t->format == TIME_RAW && !t->delta) || (n == 1 && list[0] == TIME_RAW)) && size >= 32 &&
            !t->wall_stamp) {
                /* The default: "[    1.234567] ", without printf. */
                buf[0] = '[';
                pos = 1 + put_seconds(buf + 1, usec, 5);
        } else if ((n == 1 && list[0] == TIME_CTIME && size >= 72) ||
                   (t->wall_stamp && size >= 72 && ((n == 0 && t->format == TIME_RAW && !t->delta) ||
                                                    (n == 1 && list[0] == TIME_RAW)))) {
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

bool record_printed_wall(const struct kmsg_record *r, int64_t *ret_usec) {
        struct tm tm;
        int64_t sec;
        time_t civil, w;

        if (kmsg_record_get_printed_time(r, &sec) < 0)
                return false;
        /* The printed fields, then the same fields in the local zone. */
        civil = (time_t)sec;
        if (!gmtime_r(&civil, &tm))
                return false;
        tm.tm_isdst = -1;
        w = mktime(&tm);
        if (w == (time_t)-1 && sec != -1)
                return false;
        *ret_usec = w <= 0 ? 0 : w > INT64_MAX / USEC_PER_SEC ? INT64_MAX : (int64_t)w * USEC_PER_SEC;
        return true;
}

bool record_carried_wall(const struct kmsg_record *r, int64_t *ret_usec) {
        size_t len = 0, i;
        /* Only export and JSON input carry journal fields: the others are not searched. */
        const char *v = kmsg_record_get_journal_count(r) ? kmsg_record_get_journal_value(r, "__REALTIME_TIMESTAMP", &len)
                                                         : NULL;
        int64_t w = 0;

        if (!v || len == 0 || len > 18)
                return false;
        for (i = 0; i < len; i++) {
                if (v[i] < '0' || v[i] > '9')
                        return false;
                w = w * 10 + (v[i] - '0');
        }
        *ret_usec = w;
        return true;
}

bool timefmt_record(struct timefmt *t, const struct kmsg_record *r, uint64_t *ret_usec) {
        bool mono = kmsg_record_has_timestamp(r);
        int64_t w;

        /* Seconds since boot where they are shown, or where the boot time makes them the wall clock. */
        if (mono && (t->have_boot || !timefmt_needs_wall(t) || !record_carried_wall(r, &w))) {
                t->wall_stamp = false;
                *ret_usec = kmsg_record_get_timestamp(r);
                return true;
        }
        if (!mono && !record_printed_wall(r, &w) && !record_carried_wall(r, &w))
                return false;
        t->wall_stamp = true;
        *ret_usec = w < 0 ? 0 : (uint64_t)w;
        return true;
}
