/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unsigned decimal numbers, alone in a file so that a fuzz target links them without the rest of the program. */
#include <errno.h>

#include "base/parse-u64.h"

int parse_u64_prefix(const char **p, uint64_t *ret) {
        const char *s = *p;
        uint64_t v = 0;

        if (*s < '0' || *s > '9')
                return -EINVAL;
        for (; *s >= '0' && *s <= '9'; s++) {
                if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
                        return -ERANGE;
                v = v * 10 + (uint64_t)(*s - '0');
        }
        *p = s;
        *ret = v;
        return 0;
}

int parse_u64(const char *s, uint64_t *ret) {
        uint64_t v;
        int e;

        if (!s)
                return -EINVAL;
        e = parse_u64_prefix(&s, &v);
        if (e < 0)
                return e;
        if (*s)
                return -EINVAL;
        *ret = v;
        return 0;
}
