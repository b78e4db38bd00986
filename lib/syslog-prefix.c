/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The head of a syslog-form line ("<6>[    1.234567] ", "dmesg -x" names):
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
 * 'C' (CPU) and digits, "] ".  Its place goes into ret (offsets from
 * start).  Returns the bytes it takes, or 0.
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
        if (q - id < 2 || q - id > 11 || end - q < 2 || q[0] != ']' || q[1] != ' ')
                return 0;
        ret->caller_off = (size_t)(id - start);
        ret->caller_len = (size_t)(q - id);
        return (size_t)(q + 2 - p);
}

/*
 * The head of a line that starts a record: "<PRI>", "[SECONDS] ", both,
 * or "dmesg -x"'s names before "[SECONDS] ", each followed by the caller
 * id, if there is one.  Returns the length of the
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
        if (p < end && *p == '[') {
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
                                if (p < end && *p == ' ')
                                        p++;
                        }
                }
        }
        if (!ret->has_priority && !ret->has_timestamp)
                return 0;
        p += caller_prefix(p, end, start, ret);
        return (size_t)(p - start);
}

bool syslog_line_check(const char *p, size_t len) {
        struct prefix pf;

        return !memchr(p, '\0', len) && syslog_parse_prefix(p, len, &pf) > 0;
}

