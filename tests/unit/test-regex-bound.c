/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bound on problem rules' matching (regex-cost.c): a rule whose regex
 * glibc would match in unbounded time or memory does not load, and an
 * engine that fails on a record is said and leaves the report without a
 * verdict, never a "no match".
 */
#include <dlfcn.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "select/problem-select.h"
#include "select/problems.h"
#include "select/regex-cost.h"
#include "tests.h"

/*
 * The engine's failure on demand: glibc's regexec() returns REG_ESPACE
 * when its memory runs out, which no test can bring about on cue.  This
 * executable's regexec() stands in front of the real one, which it calls
 * unless told to fail.
 */
static int fail_with;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wvla-parameter"
int regexec(const regex_t *restrict re, const char *restrict s, size_t n, regmatch_t m[restrict], int flags) {
        static int (*real)(const regex_t *restrict, const char *restrict, size_t, regmatch_t *, int);

        if (fail_with)
                return fail_with;
        if (!real)
                *(void **)&real = dlsym(RTLD_NEXT, "regexec");
        return real(re, s, n, m, flags);
}
#pragma GCC diagnostic pop

static const char *load_error(const char *rules) {
        static char err[512];
        struct problems *p = problems_new();

        err[0] = '\0';
        if (problems_load_buffer(p, "t.rules", rules, strlen(rules)) < 0)
                snprintf(err, sizeof(err), "%s", problems_error(p));
        problems_free(p);
        return err;
}

TEST(nested_ranges_that_pass_the_piece_count_do_not_load) {
        uint64_t pieces = 0;

        /* 19,891 pieces (the $ is one), under the 20,000 of the piece count: 17 s and 1.7 GB on 1,000 bytes before. */
        CHECK(regex_cost_measure("(a{1,255}){1,78}$", &pieces) == NULL);
        CHECK_INT((int)pieces, 19891);
        CHECK_STR(load_error("oops /(a{1,255}){1,78}$/\n"),
                  "t.rules:1: regex too costly: over 64 pieces a match may skip once its repetitions are expanded "
                  "(?, *, {m,n}): its matching time grows with them");
        CHECK(strstr(load_error("oops /a{1,255}$/\n"), "over 64 pieces a match may skip") != NULL);
        CHECK(strstr(load_error("oops /(a?){65}/\n"), "over 64 pieces a match may skip") != NULL);
        CHECK(strstr(load_error("oops /((a|b)*x?){33}/\n"), "over 64 pieces a match may skip") != NULL);
        /* At the bound, and what rules are made of: they load. */
        CHECK_STR(load_error("oops /(a?){64}/\n"), "");
        CHECK_STR(load_error("oops /a{1,65}$/\n"), "");
        CHECK_STR(load_error("oops /(a{255}){78}$/\n"), "");
        CHECK_STR(load_error("oops /^.*(BUG|WARNING): ([a-z_]+)( at ([^ ]+))?( \\[[^]]*\\])*$/\n"), "");
        /* A skip rule's regex sees a function's name (MAX_FRAME bytes), never a record: not bounded so. */
        CHECK_STR(load_error("any skip /^(a?){65}$/\n"), "");
        CHECK(strstr(load_error("any part /^(a?){65}$/\n"), "over 64 pieces a match may skip") != NULL);
}

TEST(the_shipped_rules_load_under_the_bound) {
        struct problems *p = problems_new();
        char path[4096];

        snprintf(path, sizeof(path), "%s/data/problems.rules", SOURCE_ROOT);
        CHECK_INT(problems_load_file(p, path), 0);
        problems_free(p);
}

static struct kmsg_record *rec(const char *text) {
        struct kmsg_record *r = NULL;

        if (kmsg_record_parse(text, strlen(text), &r) < 0)
                test_fail(__FILE__, __LINE__, "cannot parse %s", text);
        return r;
}

TEST(an_engine_failure_is_no_no_match) {
        struct problem_select ps = { .rules = problems_new() };
        struct kmsg_record *r = rec("0,7,100,-;BUG: unable to handle page fault");
        const char *rules = "oops subject=\\1 /^BUG: (.*)$/\n";
        struct problem_hit h;

        CHECK_INT(problems_load_buffer(ps.rules, "t.rules", rules, strlen(rules)), 0);
        CHECK(problem_select(&ps, r, &h));
        CHECK_INT(h.kind, PROBLEM_OOPS);
        CHECK_INT((int)ps.tally.unchecked, 0);
        fail_with = REG_ESPACE;
        CHECK(problem_select(&ps, r, &h));
        fail_with = 0;
        CHECK_INT(h.kind, PROBLEM_NONE);
        CHECK_INT((int)ps.tally.seen, 2);
        CHECK_INT((int)ps.tally.unchecked, 1);
        kmsg_record_unref(r);
        problems_free(ps.rules);
}
