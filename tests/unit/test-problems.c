/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The problem rules: their format, its errors, and classifying a record stream with them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/problems.h"
#include "tests.h"

static struct kmsg_record *rec(const char *text) {
        struct kmsg_record *r = NULL;

        if (kmsg_record_parse(text, strlen(text), &r) < 0)
                test_fail(__FILE__, __LINE__, "cannot parse %s", text);
        return r;
}

static struct problems *load(const char *rules) {
        struct problems *p = problems_new();
        int e = problems_load_buffer(p, "t.rules", rules, strlen(rules));

        if (e < 0)
                test_fail(__FILE__, __LINE__, "load: %s", problems_error(p));
        return p;
}

/* The error of loading rules, or "" when they load. */
static const char *load_error(const char *rules) {
        static char err[512];
        struct problems *p = problems_new();

        err[0] = '\0';
        if (problems_load_buffer(p, "t.rules", rules, strlen(rules)) < 0)
                snprintf(err, sizeof(err), "%s", problems_error(p));
        problems_free(p);
        return err;
}

/* Classify the kmsg record text; the hit is kept until the next call. */
static struct problem_hit classify(struct problems *p, const char *text) {
        struct kmsg_record *r = rec(text);
        struct problem_hit h = { .kind = PROBLEM_NONE };

        if (r)
                CHECK_INT(problems_classify(p, r, &h), 0);
        kmsg_record_unref(r);
        return h;
}

TEST(kind_names_round_trip) {
        int k;

        for (k = 0; k < _PROBLEM_MAX; k++)
                CHECK_INT(problem_kind_from_name(problem_kind_name(k)), k);
        CHECK_STR(problem_kind_name(PROBLEM_OOM_KILL), "oom-kill");
        CHECK_STR(problem_kind_name(PROBLEM_LINK_DOWN), "link-down");
        CHECK_INT(problem_kind_from_name("oom"), -EINVAL);
        CHECK(problem_kind_name(_PROBLEM_MAX) == NULL);
        CHECK(problem_kind_name(PROBLEM_NONE) == NULL);
}

TEST(errors_name_the_line) {
        CHECK_STR(load_error("# c\n\nsegfault /a/\n  bogus /b/\n"),
                  "t.rules:4: unknown kind 'bogus' (expected panic, oops, hard-lockup, soft-lockup, rcu-stall, "
                  "hung-task, mce, oom-kill, fs-error, io-error, thermal, segfault, warning, link-down, any or ignore)");
        CHECK_STR(load_error("oops\n"), "t.rules:1: no /regex/");
        /* The regex runs to the last '/'. */
        CHECK_STR(load_error("oops /x/ /y/\n"), "");
        CHECK_STR(load_error("oops /x/ /y\n"), "t.rules:1: 'y' after the regex");
        CHECK_STR(load_error("oops /x\n"), "t.rules:1: the regex has no closing '/'");
        CHECK_STR(load_error("oops /x/g\n"), "t.rules:1: 'g' after the regex");
        CHECK_STR(load_error("oops subject=\\3 /(a)(b)/\n"), "t.rules:1: subject=: \\3, but the regex has 2 groups");
        CHECK_STR(load_error("oops devname=\\1 /a/\n"), "t.rules:1: devname=: \\1, but the regex has 0 groups");
        CHECK_STR(load_error("oops subject=\"a /x/\n"), "t.rules:1: a quoted value has no closing '\"'");
        CHECK_STR(load_error("\"oops /x/\n"), "t.rules:1: a quoted value has no closing '\"'");
        CHECK_STR(load_error("oops end /x/\n"), "t.rules:1: unknown word 'end'");
        CHECK_STR(load_error("ignore part /x/\n"), "t.rules:1: unknown word 'part'");
        CHECK_STR(load_error("oops part level=err /x/\n"), "t.rules:1: a 'part' rule takes no conditions and no subject");
        CHECK_STR(load_error("any report /x/\n"), "t.rules:1: 'any' is only for 'part' rules");
        CHECK_STR(load_error("oops level=loud /x/\n"), "t.rules:1: unknown level 'loud'");
        CHECK_STR(load_error("oops //\n"), "t.rules:1: an empty regex");
        CHECK(strncmp(load_error("oops /[/\n"), "t.rules:1: bad regex: ", 22) == 0);
        /* What regcomp() would take gigabytes for is refused before it is asked. */
        CHECK_STR(load_error("oops /se++++++++++++++++++++++++lf/\n"),
                  "t.rules:1: regex too costly: a repetition of a repetition (undefined in POSIX)");
        CHECK_STR(load_error("oops /a*{2}/\n"), "t.rules:1: regex too costly: a repetition of a repetition (undefined in POSIX)");
        CHECK_STR(load_error("oops /a{256}/\n"), "t.rules:1: regex too costly: a repetition bound over 255");
        CHECK_STR(load_error("oops /a{1,999999999999999999999}/\n"), "t.rules:1: regex too costly: a repetition bound over 255");
        CHECK_STR(load_error("oops /((a{200}){200})/\n"),
                  "t.rules:1: regex too costly: over 20000 pieces once its repetitions are expanded");
        CHECK_STR(load_error("oops /(((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))/\n"),
                  "t.rules:1: regex too costly: groups nested more than 32 deep");
        /* Near them, and fine: a bracket holding '+' and '{', an escaped '+', bounds that multiply to 10000. */
        CHECK_STR(load_error("oops /[+*{]+ \\++ (a{100}){100} x{1,}[[:space:]]+ ([]+])+/\n"), "");
        CHECK_STR(load_error("a\r\n\toops  level=err+   /x/i  \r\n"), "t.rules:1: unknown kind 'a' (expected panic, "
                  "oops, hard-lockup, soft-lockup, rcu-stall, hung-task, mce, oom-kill, fs-error, io-error, thermal, "
                  "segfault, warning, link-down, any or ignore)");
}

TEST(a_nul_byte_in_a_rules_file) {
        struct problems *p = problems_new();

        CHECK_INT(problems_load_buffer(p, "t.rules", "oops /a/\noops /b\0/\n", 19), -EINVAL);
        CHECK_STR(problems_error(p), "t.rules:2: a NUL byte");
        problems_free(p);
}

TEST(subjects_from_templates_and_quotes) {
        struct problems *p = load("oops subject=\"\\2 at \\1\" devname=\\2 /^crash in ([a-z]+) on ([a-z0-9]+)$/\n"
                                  "segfault subject=\\\\lit /^seg/\n");
        struct problem_hit h;

        h = classify(p, "4,0,0,-;crash in foo on sda1");
        CHECK_INT(h.kind, PROBLEM_OOPS);
        CHECK(h.opens);
        CHECK_STR(h.subject, "sda1 at foo");
        CHECK_STR(h.devname, "sda1");
        h = classify(p, "4,1,0,-;segv");
        CHECK_INT(h.kind, PROBLEM_SEGFAULT);
        CHECK_STR(h.subject, "\\lit");
        CHECK(h.devname == NULL);
        h = classify(p, "4,2,0,-;nothing");
        CHECK_INT(h.kind, PROBLEM_NONE);
        CHECK_INT(problems_count(p), 2);
        problems_free(p);
}

TEST(conditions_level_subsystem_device) {
        struct problems *p = load("io-error level=err+ subsystem=bl* device=b8:* /boom/\n");

        CHECK_INT(classify(p, "3,0,0,-;boom\n SUBSYSTEM=block\n DEVICE=b8:0").kind, PROBLEM_IO_ERROR);
        CHECK_INT(classify(p, "4,1,0,-;boom\n SUBSYSTEM=block\n DEVICE=b8:0").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "3,2,0,-;boom\n SUBSYSTEM=block\n DEVICE=b9:0").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "3,3,0,-;boom\n SUBSYSTEM=net\n DEVICE=b8:0").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "3,4,0,-;boom").kind, PROBLEM_NONE);
        problems_free(p);
}

TEST(first_rule_wins_and_ignore) {
        struct problems *p = load("ignore /harmless/\nwarning /^W/\noops /^W/\n");

        CHECK_INT(classify(p, "4,0,0,-;W harmless").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "4,1,0,-;W bad").kind, PROBLEM_WARNING);
        problems_free(p);
}

TEST(reports_take_their_parts_until_a_line_that_is_none) {
        struct problems *p = load("oops report subject=\\1 /^BUG: (.*)$/\n"
                                  "oops part /^Oops: /\n"
                                  "any part /^ |^Call Trace:/\n"
                                  "any part end /^---\\[ end trace/\n"
                                  "warning report /^WARNING: /\n");
        struct problem_hit h;

        h = classify(p, "1,0,0,-;BUG: null");
        CHECK(h.kind == PROBLEM_OOPS && h.opens);
        CHECK_STR(h.subject, "null");
        h = classify(p, "4,1,0,-;Oops: 0000 [#1]");
        CHECK(h.kind == PROBLEM_OOPS && !h.opens);
        h = classify(p, "4,2,0,-;Call Trace:");
        CHECK(h.kind == PROBLEM_OOPS && !h.opens);
        h = classify(p, "4,3,0,-; func+0x1/0x2");
        CHECK(h.kind == PROBLEM_OOPS && !h.opens);
        h = classify(p, "4,4,0,-;---[ end trace 0 ]---");
        CHECK(h.kind == PROBLEM_OOPS && !h.opens);
        /* After the end, a part is no longer a part. */
        CHECK_INT(classify(p, "4,5,0,-;Call Trace:").kind, PROBLEM_NONE);
        /* An "oops part" is not a part of a warning; a line that is none closes the report. */
        CHECK(classify(p, "4,6,0,-;WARNING: x").opens);
        CHECK_INT(classify(p, "4,7,0,-;Oops: 0000 [#2]").kind, PROBLEM_NONE);
        CHECK(classify(p, "4,8,0,-;WARNING: y").opens);
        CHECK_INT(classify(p, "6,9,0,-;usb 1-1: new device").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "4,10,0,-; func+0x1/0x2").kind, PROBLEM_NONE);
        /* A new problem while one is open is a problem of its own. */
        CHECK(classify(p, "1,11,0,-;BUG: a").opens);
        CHECK(classify(p, "1,12,0,-;BUG: b").opens);
        problems_break(p);
        CHECK_INT(classify(p, "4,13,0,-;Call Trace:").kind, PROBLEM_NONE);
        problems_free(p);
}

TEST(lines_of_a_multi_line_message_and_nul) {
        struct problems *p = load("panic /^second$/\noops /^after$/\n");

        CHECK_INT(classify(p, "0,0,0,-;first\\x0asecond").kind, PROBLEM_PANIC);
        /* The regex sees the message up to a NUL in it. */
        CHECK_INT(classify(p, "0,1,0,-;x\\x00\\x0aafter").kind, PROBLEM_NONE);
        problems_free(p);
}

TEST(the_quick_check_keeps_what_the_regex_matches) {
        /* Each of these is found by the regex; the literal pre-check must not reject it. */
        static const struct {
                const char *re, *text;
        } cases[] = {
                { "a+b", "aaab" },
                { "ab?c", "ac" },
                { "ab*c", "ac" },
                { "ab{0,1}c", "ac" },
                { "ab{2}c", "abbc" },
                { "(ab){1,2}c", "ababc" },
                { "x(yz)?w", "xw" },
                { "x|yw", "yw" },
                { "(a|b)cd", "bcd" },
                { "\\[Hardware Error\\]: x", "[Hardware Error]: x" },
                { "I\\/O error", "I/O error" },
                { "[[:space:]]foo", " foo" },
                { "a[]b]c", "a]c" },
                { "a[^]x]c", "abc" },
                { "Kill(ed)? process", "Kill process" },
                { "^abc$", "abc" },
                { "a.c", "abc" },
                { "^(ata[0-9]+)(\\.[0-9]+)?: (x|yz)", "ata1.00: yz" },
                { "^(ata[0-9]+)(\\.[0-9]+)?: (x|yz)", "ata1: x" },
                { "abc|de", "de" },
                { "^(.*: )?Critical temp|^ACPI: crit", "ACPI: crit" },
                { "^(.*: )?Critical temp|^ACPI: crit", "thermal: Critical temp" },
                { "(abc)?d", "d" },
                { "(ab){0,2}c", "c" },
                { "ab{0}c", "ac" },
                { "x(ab)+c", "xababc" },
                { "a\\.?b", "ab" },
                { "((ab)c)?d", "d" },
                { "(a(bc|de)f)g", "adefg" },
                { "[(]x|y", "y" },
                { "p[[:alpha:]]+q", "pzzq" },
                { "^abc", "x\\x0aabc" },
                { "^abcd?e", "abce" },
                { "^ab(c)?d", "abd" },
                { "^(rcu: )?INFO: x", "INFO: x" },
                { "^a\\[b", "a[b" },
        };
        size_t i;

        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char rules[128], text[128];
                struct problems *p;

                snprintf(rules, sizeof(rules), "oops /%s/\n", cases[i].re);
                snprintf(text, sizeof(text), "4,%zu,0,-;%s", i, cases[i].text);
                p = load(rules);
                if (classify(p, text).kind != PROBLEM_OOPS)
                        test_fail(__FILE__, __LINE__, "/%s/ does not match \"%s\"", cases[i].re, cases[i].text);
                problems_free(p);
        }
}

TEST(user_rules_come_before_the_shipped_file) {
        char dir[] = "/tmp/test-problems-XXXXXX", path[256];
        struct problems *p;
        FILE *f;

        CHECK(mkdtemp(dir) != NULL);
        snprintf(path, sizeof(path), "%s/b.rules", dir);
        f = fopen(path, "w");
        fputs("ignore /^x$/\n", f);
        fclose(f);
        snprintf(path, sizeof(path), "%s/a.rules", dir);
        f = fopen(path, "w");
        fputs("thermal /^y$/\n", f);
        fclose(f);
        snprintf(path, sizeof(path), "%s/c.rules.bak", dir);
        f = fopen(path, "w");
        fputs("nonsense\n", f);
        fclose(f);
        snprintf(path, sizeof(path), "%s/shipped", dir);
        f = fopen(path, "w");
        fputs("panic /^x$/\npanic /^y$/\n", f);
        fclose(f);
        setenv("KDMESG_PROBLEMS_DIR", dir, 1);
        setenv("KDMESG_PROBLEMS_RULES", path, 1);
        p = problems_new();
        CHECK_INT(problems_load_default(p), 0);
        CHECK_INT(problems_count(p), 4);
        CHECK_INT(classify(p, "0,0,0,-;x").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "0,1,0,-;y").kind, PROBLEM_THERMAL);
        problems_free(p);

        /* A missing shipped file is an error; a missing directory is not. */
        setenv("KDMESG_PROBLEMS_DIR", "/nonexistent", 1);
        setenv("KDMESG_PROBLEMS_RULES", "/nonexistent/problems.rules", 1);
        p = problems_new();
        CHECK_INT(problems_load_default(p), -ENOENT);
        CHECK_STR(problems_error(p),
                  "cannot read the problem rules /nonexistent/problems.rules: No such file or directory");
        problems_free(p);
        unlink(path);
        snprintf(path, sizeof(path), "%s/a.rules", dir);
        unlink(path);
        snprintf(path, sizeof(path), "%s/b.rules", dir);
        unlink(path);
        snprintf(path, sizeof(path), "%s/c.rules.bak", dir);
        unlink(path);
        rmdir(dir);
}
