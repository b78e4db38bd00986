/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The quick check of a rule (see select/rules.h): the literal text every
 * match of a regex contains, found by walking the regex.
 */
#include <stdbool.h>
#include <string.h>

#include "select/rules.h"

static void keep_longer(struct lit *best, const struct lit *cand) {
        if (cand->n > best->n)
                *best = *cand;
}

/* Skip a quantifier at re[*i] ("?", "*", "+", "{m,n}"); whether it makes what came before optional. */
static bool skip_quantifier(const char *re, size_t *i, bool *ret_any) {
        bool optional = false, any = false;

        for (;;) {
                char c = re[*i];

                if (c == '?' || c == '*')
                        optional = true;
                else if (c == '{') {
                        const char *close = strchr(re + *i, '}');

                        /* {0,...} makes it optional; {m} with m > 0 does not. */
                        if (re[*i + 1] == '0')
                                optional = true;
                        *i = close ? (size_t)(close - re) : strlen(re) - 1;
                } else if (c != '+')
                        break;
                any = true;
                (*i)++;
        }
        *ret_any = any;
        return optional;
}

static void branch_literal(const char *re, size_t *i, struct lit *best, bool *ret_alternation);

/* A group at re[*i] (after its '('): the literal every match of it holds, none with alternation. */
static void group_literal(const char *re, size_t *i, struct lit *best) {
        bool alternation = false, more;

        best->n = 0;
        branch_literal(re, i, best, &more);
        while (re[*i] == '|') {
                struct lit other = { .n = 0 };

                alternation = true;
                (*i)++;
                branch_literal(re, i, &other, &more);
        }
        if (re[*i] == ')')
                (*i)++;
        if (alternation)
                best->n = 0;
}

static void branch_literal(const char *re, size_t *i, struct lit *best, bool *ret_alternation) {
        struct lit run = { .n = 0 }, head = { .n = 0 };
        /* 1: the branch began with '^', and its first run is being read; 2: done. */
        int anchor = 0;

        best->n = 0;
        best->anchored = false;
        *ret_alternation = false;
        if (re[*i] == '^') {
                anchor = 1;
                (*i)++;
        }
        while (re[*i] && re[*i] != '|' && re[*i] != ')') {
                char c = re[*i];
                bool is_char = false, any;
                char ch = 0;

                if (c == '(') {
                        struct lit g;

                        (*i)++;
                        if (anchor == 1) {
                                head = run;
                                anchor = 2;
                        }
                        keep_longer(best, &run);
                        run.n = 0;
                        group_literal(re, i, &g);
                        if (!skip_quantifier(re, i, &any))
                                keep_longer(best, &g);
                        continue;
                }
                if (c == '[') {
                        /* A bracket expression: one character of a set. */
                        (*i)++;
                        if (re[*i] == '^')
                                (*i)++;
                        if (re[*i] == ']')
                                (*i)++;
                        while (re[*i] && re[*i] != ']') {
                                if (re[*i] == '[' && strchr(":.=", re[*i + 1])) {
                                        char close[3] = { re[*i + 1], ']', 0 };
                                        const char *e = strstr(re + *i + 2, close);

                                        *i = e ? (size_t)(e - re) + 2 : strlen(re);
                                        continue;
                                }
                                (*i)++;
                        }
                        if (re[*i])
                                (*i)++;
                } else if (c == '\\' && re[*i + 1]) {
                        ch = re[*i + 1];
                        is_char = strchr(".[]()*+?{}|^$\\/", ch) != NULL;
                        *i += 2;
                } else {
                        is_char = !strchr(".*+?{}^$", c);
                        ch = c;
                        (*i)++;
                }
                /* A quantifier after it: optional ends the run before it, '+' after it. */
                if (skip_quantifier(re, i, &any))
                        is_char = false;
                if (is_char && run.n < sizeof(run.s))
                        run.s[run.n++] = ch;
                if (!is_char || any) {
                        if (anchor == 1) {
                                head = run;
                                anchor = 2;
                        }
                        keep_longer(best, &run);
                        run.n = 0;
                }
        }
        if (anchor == 1)
                head = run;
        keep_longer(best, &run);
        /* A run at the start of the line is checked in a few bytes: worth it from 3 on. */
        if (head.n >= 3) {
                *best = head;
                best->anchored = true;
        }
        *ret_alternation = re[*i] == '|';
}

size_t rule_find_literals(const char *re, struct lit *lits, size_t max) {
        size_t i = 0, n = 0;
        bool more = true;

        while (more) {
                struct lit b;

                branch_literal(re, &i, &b, &more);
                if (b.n == 0 || n == max)
                        return 0;
                lits[n++] = b;
                if (re[i] == ')')
                        /* An unbalanced ')': no check (regcomp() decides). */
                        return 0;
                if (more)
                        i++;
        }
        return n;
}
