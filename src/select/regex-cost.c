/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/i18n.h"
#include "select/regex-cost.h"

/*
 * glibc's regcomp() copies a repeated piece once per repetition ("x{m,n}"
 * n times, "x+" twice), so its memory is the product of the nested bounds:
 * "(((a{255}){255}){255})" or "e+++++..." takes gigabytes (regex-cost.h).
 */
#define REGEX_DUP_MAX 255
#define REGEX_PIECES_MAX 20000
#define REGEX_DEPTH_MAX 32

static uint64_t sat_mul(uint64_t a, uint64_t b) {
        return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
        return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

const char *regex_cost_measure(const char *re, uint64_t *ret_pieces) {
        uint64_t cost[REGEX_DEPTH_MAX + 1] = { 0 }, last = 0;
        size_t d = 0, i = 0;
        bool after_dup = false;

        while (re[i]) {
                uint64_t copies = 0;
                char c = re[i];

                if (c == '*' || c == '+' || c == '?') {
                        copies = c == '+' ? 2 : 1;
                        i++;
                } else if (c == '{' && re[i + 1] >= '0' && re[i + 1] <= '9') {
                        uint64_t m = 0, n;

                        for (i++; re[i] >= '0' && re[i] <= '9'; i++)
                                m = sat_add(sat_mul(m, 10), (uint64_t)(re[i] - '0'));
                        n = m;
                        if (re[i] == ',') {
                                n = m + 1; /* unbounded: glibc makes m copies and a star */
                                for (i++, n = re[i] >= '0' && re[i] <= '9' ? 0 : n; re[i] >= '0' && re[i] <= '9'; i++)
                                        n = sat_add(sat_mul(n, 10), (uint64_t)(re[i] - '0'));
                        }
                        if (re[i] == '}')
                                i++;
                        if (m > REGEX_DUP_MAX || n > REGEX_DUP_MAX)
                                return _("a repetition bound over 255");
                        copies = n > 0 ? n : 1;
                } else {
                        after_dup = false;
                        if (c == '(') {
                                if (d == REGEX_DEPTH_MAX)
                                        return _("groups nested more than 32 deep");
                                cost[++d] = 0;
                                i++;
                                continue;
                        }
                        if (c == ')' && d > 0) {
                                last = cost[d--];
                                cost[d] = sat_add(cost[d], last);
                                i++;
                                continue;
                        }
                        if (c == '|') {
                                i++;
                                continue;
                        }
                        if (c == '[') {
                                /* A bracket expression is one piece: "[]x]", "[^]x]", "[[:alpha:]]". */
                                i++;
                                if (re[i] == '^')
                                        i++;
                                if (re[i] == ']')
                                        i++;
                                while (re[i] && re[i] != ']') {
                                        if (re[i] == '[' && (re[i + 1] == ':' || re[i + 1] == '.' || re[i + 1] == '=')) {
                                                const char *e = strstr(re + i + 2, (char[]){ re[i + 1], ']', 0 });

                                                i = e ? (size_t)(e - re) + 2 : strlen(re);
                                        } else
                                                i++;
                                }
                                if (re[i])
                                        i++;
                        } else if (c == '\\' && re[i + 1] >= '1' && re[i + 1] <= '9')
                                /*
                                 * glibc matches back-references by backtracking: "^(a*)\1X$" takes
                                 * quadratic time and memory on a line of a's, "^(a*)(a*)\2X$" over
                                 * 20 s on 500 bytes, "^(a*)*\1X$" gigabytes on 8 KB.
                                 */
                                return _("a back-reference (\\1 to \\9): its matching time has no bound");
                        else if (c == '\\' && re[i + 1])
                                i += 2;
                        else
                                i++;
                        last = 1;
                        cost[d] = sat_add(cost[d], 1);
                        if (cost[d] > REGEX_PIECES_MAX)
                                return _("over 20000 pieces once its repetitions are expanded");
                        continue;
                }
                if (after_dup)
                        return _("a repetition of a repetition (undefined in POSIX)");
                after_dup = true;
                cost[d] = sat_add(cost[d], sat_mul(last, copies - 1));
                last = sat_mul(last, copies);
                if (cost[d] > REGEX_PIECES_MAX)
                        return _("over 20000 pieces once its repetitions are expanded");
        }
        while (d > 0) {
                /* An unclosed group: regcomp() refuses it; count it all the same. */
                last = cost[d--];
                cost[d] = sat_add(cost[d], last);
        }
        if (ret_pieces)
                *ret_pieces = cost[0];
        return NULL;
}

const char *regex_cost_check(const char *re) {
        return regex_cost_measure(re, NULL);
}
