/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JSON as written, where json-c's values lose what the text says (stream-json.c). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "reader-private.h"

/*
 * Seconds since boot, from the number's text as written, exactly: kdmesg
 * writes six decimals, and a tool in between (jq) may write the same value
 * as 99000 or 2e-06.  Digits past the microsecond are dropped.
 */
int json_usec_of(struct json_object *v, uint64_t *ret) {
        const char *s = json_object_get_string(v), *p;
        uint64_t usec = 0;
        long point = 0, exp = 0, pos, i = 0;
        bool in_frac = false;

        if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
                return -EBADMSG;
        if (!s || *s < '0' || *s > '9')
                return -EBADMSG; /* negative, or not a number as written */
        /* The digits (s up to p, the point skipped) and where the point is. */
        for (p = s; (*p >= '0' && *p <= '9') || (*p == '.' && !in_frac); p++) {
                if (*p == '.')
                        in_frac = true;
                else if (!in_frac)
                        point++;
        }
        if (*p == 'e' || *p == 'E') {
                const char *x = p + 1;
                bool neg = *x == '-';

                if (*x == '-' || *x == '+')
                        x++;
                if (*x < '0' || *x > '9')
                        return -EBADMSG;
                for (; *x >= '0' && *x <= '9'; x++)
                        if (exp < 100000)
                                exp = exp * 10 + (*x - '0');
                if (*x)
                        return -EBADMSG;
                if (neg)
                        exp = -exp;
        } else if (*p)
                return -EBADMSG;
        /* The value in microseconds is the digits before position pos. */
        pos = point + exp + 6;
        for (; s < p && i < pos; s++) {
                unsigned d = (unsigned)(*s - '0');

                if (*s == '.')
                        continue;
                if (usec > UINT64_MAX / 10 || (usec == UINT64_MAX / 10 && d > UINT64_MAX % 10))
                        return -EBADMSG;
                usec = usec * 10 + d;
                i++;
        }
        for (; i < pos; i++) {
                if (usec > UINT64_MAX / 10)
                        return -EBADMSG;
                usec *= 10;
        }
        *ret = usec;
        return 0;
}

/*
 * The pairs of the object that p[0..end) holds (valid JSON, as json-c
 * parsed it): the colons outside strings at its top level.
 */
size_t json_top_pairs(const char *p, const char *end) {
        size_t pairs = 0;
        int depth = 0;
        bool in_str = false;

        for (; p < end; p++) {
                if (in_str) {
                        if (*p == '\\' && p + 1 < end)
                                p++;
                        else if (*p == '"')
                                in_str = false;
                } else if (*p == '"')
                        in_str = true;
                else if (*p == '{' || *p == '[')
                        depth++;
                else if (*p == '}' || *p == ']')
                        depth--;
                else if (*p == ':' && depth == 1)
                        pairs++;
        }
        return pairs;
}
