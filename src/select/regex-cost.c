/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <regex.h>
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
/*
 * The pieces a match may skip: what regexec() does for each byte grows
 * with them, with the pieces in all, not with how many there are.
 * "(a{1,255}){1,78}$" (19,890 pieces, 39,447 that may be skipped) takes
 * 39 ms a byte and 1.9 MB a byte of text, "a{1,255}$" (254) 0.17 ms a
 * byte; with at most 64, the worst found takes 0.5 s and 3 MB on the 8 KiB
 * a rule sees of a record (bench/regex-bound).
 */
#define REGEX_OPTIONAL_MAX 64

static uint64_t sat_mul(uint64_t a, uint64_t b) {
        return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
        return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The cost check, and the pieces that may be skipped in a match into *ret_optional. */
static const char *measure(const char *re, uint64_t *ret_pieces, uint64_t *ret_optional) {
        uint64_t cost[REGEX_DEPTH_MAX + 1] = { 0 }, last = 0;
        uint64_t opt[REGEX_DEPTH_MAX + 1] = { 0 }, last_opt = 0;
        size_t d = 0, i = 0;
        bool after_dup = false;

        while (re[i]) {
                uint64_t copies = 0, least = 0, skip;
                char c = re[i];

                if (c == '*' || c == '+' || c == '?') {
                        copies = c == '+' ? 2 : 1;
                        least = c == '+' ? 1 : 0;
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
                        least = m < copies ? m : copies;
                } else {
                        after_dup = false;
                        if (c == '(') {
                                if (d == REGEX_DEPTH_MAX)
                                        return _("groups nested more than 32 deep");
                                cost[++d] = 0;
                                opt[d] = 0;
                                i++;
                                continue;
                        }
                        if (c == ')' && d > 0) {
                                last_opt = opt[d];
                                opt[d - 1] = sat_add(opt[d - 1], last_opt);
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
                        last_opt = 0;
                        cost[d] = sat_add(cost[d], 1);
                        if (cost[d] > REGEX_PIECES_MAX)
                                return _("over 20000 pieces once its repetitions are expanded");
                        continue;
                }
                if (after_dup)
                        return _("a repetition of a repetition (undefined in POSIX)");
                after_dup = true;
                /* Each copy's own, and the whole of each copy past the least. */
                skip = sat_add(sat_mul(last_opt, copies), sat_mul(last, copies - least));
                opt[d] = sat_add(opt[d] - last_opt, skip);
                last_opt = skip;
                cost[d] = sat_add(cost[d], sat_mul(last, copies - 1));
                last = sat_mul(last, copies);
                if (cost[d] > REGEX_PIECES_MAX)
                        return _("over 20000 pieces once its repetitions are expanded");
        }
        while (d > 0) {
                /* An unclosed group: regcomp() refuses it; count it all the same. */
                opt[d - 1] = sat_add(opt[d - 1], opt[d]);
                last = cost[d--];
                cost[d] = sat_add(cost[d], last);
        }
        if (ret_pieces)
                *ret_pieces = cost[0];
        *ret_optional = opt[0];
        return NULL;
}

const char *regex_cost_measure(const char *re, uint64_t *ret_pieces) {
        uint64_t optional;

        return measure(re, ret_pieces, &optional);
}

const char *regex_cost_check(const char *re) {
        return regex_cost_measure(re, NULL);
}

const char *regex_cost_rule(const char *re, uint64_t *ret_pieces) {
        uint64_t optional = 0;
        const char *why = measure(re, ret_pieces, &optional);

        if (!why && optional > REGEX_OPTIONAL_MAX)
                why = _("over 64 pieces a match may skip once its repetitions are expanded (?, *, {m,n}): "
                        "its matching time grows with them");
        return why;
}

int regex_cost_exec(const regex_t *re, const char *text, size_t nmatch, regmatch_t *m, int *ret_error) {
        int e = regexec(re, text, nmatch, m, 0);

        if (e == 0)
                return 1;
        if (e == REG_NOMATCH)
                return 0;
        *ret_error = e;
        return -1;
}
