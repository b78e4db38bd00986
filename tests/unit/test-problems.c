/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The problem rules: their format, its errors, and classifying a record stream with them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "select/problems.h"
#include "select/rules.h"
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
                  "hung-task, mce, oom-kill, fs-error, io-error, thermal, lockdep, memory-leak, segfault, warning, link-down, any or ignore)");
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
        CHECK_STR(load_error("oops part level=err /x/\n"), "t.rules:1: a 'part' rule takes no conditions and no devname");
        CHECK_STR(load_error("oops part devname=x /x/\n"), "t.rules:1: a 'part' rule takes no conditions and no devname");
        CHECK_STR(load_error("oops stop subject=x /x/\n"), "t.rules:1: a 'stop' rule takes no conditions and no subject");
        CHECK_STR(load_error("oops report stop /x/\n"), "t.rules:1: unknown word 'stop'");
        CHECK_STR(load_error("oops retitle /x/\n"), "t.rules:1: unknown word 'retitle'");
        CHECK_STR(load_error("oops subject=\\s /x/\n"), "t.rules:1: subject=: \\s (the report's subject) is for 'part' rules");
        CHECK_STR(load_error("any part subject=\"\\s in \\1\" /(x)/\nany stop /y/\n"), "");
        CHECK_STR(load_error("any report /x/\n"), "t.rules:1: 'any' is only for 'part', 'stop', 'frame', 'skip' and 'anchor' rules");
        CHECK_STR(load_error("oops level=loud /x/\n"), "t.rules:1: unknown level 'loud'");
        CHECK_STR(load_error("oops //\n"), "t.rules:1: an empty regex");
        CHECK(strncmp(load_error("oops /[/\n"), "t.rules:1: bad regex: ", 22) == 0);
        /* What regcomp() would take gigabytes for is refused before it is asked. */
        CHECK_STR(load_error("oops /se++++++++++++++++++++++++lf/\n"),
                  "t.rules:1: regex too costly: a repetition of a repetition (undefined in POSIX)");
        CHECK_STR(load_error("oops /a*{2}/\n"), "t.rules:1: regex too costly: a repetition of a repetition (undefined in POSIX)");
        CHECK_STR(load_error("oops /a{256}/\n"), "t.rules:1: regex too costly: a repetition bound over 255");
        /* Back-references are matched by backtracking: "^(a*)*\1X$" took gigabytes on 8 KB. */
        CHECK_STR(load_error("oops /^(a*)*\\1X$/\n"),
                  "t.rules:1: regex too costly: a back-reference (\\1 to \\9): its matching time has no bound");
        CHECK_STR(load_error("oops /(a)\\9/\n"),
                  "t.rules:1: regex too costly: a back-reference (\\1 to \\9): its matching time has no bound");
        /* In a bracket a backslash is itself; an escaped backslash before a digit is no reference. */
        CHECK_STR(load_error("oops /[\\1]x\\\\1/\n"), "");
        CHECK_STR(load_error("oops /a{1,999999999999999999999}/\n"), "t.rules:1: regex too costly: a repetition bound over 255");
        CHECK_STR(load_error("oops /((a{200}){200})/\n"),
                  "t.rules:1: regex too costly: over 20000 pieces once its repetitions are expanded");
        CHECK_STR(load_error("oops /(((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))/\n"),
                  "t.rules:1: regex too costly: groups nested more than 32 deep");
        /* Near them, and fine: a bracket holding '+' and '{', an escaped '+', bounds that multiply to 10000. */
        CHECK_STR(load_error("oops /[+*{]+ \\++ (a{100}){100} x{1,}[[:space:]]+ ([]+])+/\n"), "");
        CHECK_STR(load_error("a\r\n\toops  level=err+   /x/i  \r\n"), "t.rules:1: unknown kind 'a' (expected panic, "
                  "oops, hard-lockup, soft-lockup, rcu-stall, hung-task, mce, oom-kill, fs-error, io-error, thermal, "
                  "lockdep, memory-leak, segfault, warning, link-down, any or ignore)");
}

TEST(a_nul_byte_in_a_rules_file) {
        struct problems *p = problems_new();

        CHECK_INT(problems_load_buffer(p, "t.rules", "oops /a/\noops /b\0/\n", 19), -EINVAL);
        CHECK_STR(problems_error(p), "t.rules:2: a NUL byte");
        problems_free(p);
}

TEST(index_finds_a_literal_at_every_position_and_none_past_the_text) {
        char text[64];
        size_t len, at;

        /* The scan takes two positions a turn: the literal at even and odd places, at the end, alone. */
        for (len = 2; len <= 24; len++)
                for (at = 0; at + 2 <= len; at++) {
                        struct problems *p = load("segfault /QZ/\n");
                        struct problem_hit h;

                        snprintf(text, sizeof(text), "4,0,0,-;%.*sQZ%.*s", (int)at, "aaaaaaaaaaaaaaaaaaaaaaaa",
                                 (int)(len - at - 2), "bbbbbbbbbbbbbbbbbbbbbbbb");
                        h = classify(p, text);
                        CHECK_INT(h.kind, PROBLEM_SEGFAULT);
                        /* Its first byte last: no match, and no byte read past the message. */
                        snprintf(text, sizeof(text), "4,1,0,-;%.*sQ", (int)(len - 1), "aaaaaaaaaaaaaaaaaaaaaaaa");
                        h = classify(p, text);
                        CHECK_INT(h.kind, PROBLEM_NONE);
                        problems_free(p);
                }
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

TEST(reports_take_the_records_up_to_their_end) {
        struct problems *p = load("oops report subject=\\1 /^BUG: (.*)$/\n"
                                  "oops part /^Oops: /\n"
                                  "any part end /^---\\[ end trace/\n"
                                  "any stop /^-+\\[ cut here \\]-+$/\n"
                                  "warning report /^WARNING: /\n"
                                  "segfault /segfault/\n"
                                  "ignore /^Oops: boring/\n");
        struct problem_hit h;

        h = classify(p, "1,0,1000000,-;BUG: null");
        CHECK(h.kind == PROBLEM_OOPS && h.opens && !h.provisional);
        CHECK_STR(h.subject, "null");
        CHECK(problems_report_open(p));
        /* A part rule of the kind, and any line at all after it: the report goes on. */
        h = classify(p, "4,1,1000100,-;Oops: 0000 [#1]");
        CHECK(h.kind == PROBLEM_OOPS && !h.opens);
        CHECK_INT(classify(p, "4,2,1000200,-;task: ffff88003a1c0000 ti: ffff88003a1c4000 task.ti: ffff88003a1c4000").kind,
                  PROBLEM_OOPS);
        CHECK_INT(classify(p, "4,3,1000300,-;").kind, PROBLEM_OOPS);
        CHECK_INT(classify(p, "4,4,1000400,-;Read of size 4 at addr ffff888012345678 by task a/1").kind, PROBLEM_OOPS);
        /* An ignored line does not end it; its end line is its last. */
        CHECK_INT(classify(p, "4,5,1000500,-;Oops: boring").kind, PROBLEM_OOPS);
        h = classify(p, "4,6,1000600,-;---[ end trace 0 ]---");
        CHECK(h.kind == PROBLEM_OOPS && !h.opens);
        CHECK(!problems_report_open(p));
        CHECK_INT(classify(p, "4,7,1000700,-;Call Trace:").kind, PROBLEM_NONE);

        /* Another problem ends it, and is a problem of its own. */
        CHECK(classify(p, "1,8,1000800,-;BUG: a").opens);
        CHECK(classify(p, "1,9,1000900,-;BUG: b").opens);
        h = classify(p, "6,10,1001000,-;x[1]: segfault at 0");
        CHECK(h.kind == PROBLEM_SEGFAULT && h.opens);
        CHECK(!problems_report_open(p));
        /* A stop rule ends it: the line is classified as if no report was open. */
        CHECK(classify(p, "4,11,1001100,-;WARNING: x").opens);
        CHECK_INT(classify(p, "4,12,1001200,-;------------[ cut here ]------------").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "4,13,1001300,-; func+0x1/0x2").kind, PROBLEM_NONE);
        /* More than two seconds after its last record, or before it: something else (a little before it
         * is another CPU's line, stamped before ours and printed after them: the report's). */
        CHECK(classify(p, "4,14,1001400,-;WARNING: y").opens);
        CHECK_INT(classify(p, "4,15,3001400,-;two seconds on").kind, PROBLEM_WARNING);
        CHECK_INT(classify(p, "4,16,5001401,-;two seconds and a bit").kind, PROBLEM_NONE);
        CHECK(classify(p, "4,17,6000000,-;WARNING: z").opens);
        CHECK_INT(classify(p, "4,18,5999999,-;a little earlier").kind, PROBLEM_WARNING);
        CHECK_INT(classify(p, "4,18,3999998,-;two seconds and a bit earlier").kind, PROBLEM_NONE);
        /* A record from user space (facility user: 14 = 1 * 8 + 6) ends it and is no problem. */
        CHECK(classify(p, "4,19,7000000,-;WARNING: w").opens);
        CHECK_INT(classify(p, "14,20,7000001,-;BUG: from a program").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "4,21,7000002,-;after it").kind, PROBLEM_NONE);
        /* A loss or another source in between. */
        CHECK(classify(p, "1,22,8000000,-;BUG: c").opens);
        problems_break(p);
        CHECK_INT(classify(p, "4,23,8000001,-;Call Trace:").kind, PROBLEM_NONE);
        problems_free(p);
}

TEST(reports_without_time_stamps_end_at_what_ends_them) {
        static const char text[] = "<3>INFO: task a:1 blocked\n"
                                   "<6>a               D    0     1      2 0x00000000\n"
                                   "<6>systemd[1]: Started.\n"
                                   "<6>after it\n";
        static const int kinds[] = { PROBLEM_HUNG_TASK, PROBLEM_HUNG_TASK, PROBLEM_NONE, PROBLEM_NONE };
        struct problems *p = load("hung-task report /^INFO: task /\n"
                                  "any stop /^[a-z]+\\[[0-9]+\\]: /\n");
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        struct problem_hit h;
        size_t n = 0;

        /* Records without time stamps (a dmesg without them): no gap can end the report. */
        CHECK_INT(kmsg_reader_new_buffer(text, sizeof(text) - 1, "t", KMSG_FORMAT_SYSLOG, &rd), 0);
        while (n < 4 && kmsg_reader_next(rd, &r) > 0) {
                CHECK(!kmsg_record_has_timestamp(r));
                CHECK_INT(problems_classify(p, r, &h), 0);
                CHECK_INT(h.kind, kinds[n]);
                n++;
        }
        CHECK_INT(n, 4);
        kmsg_reader_unref(rd);
        problems_free(p);
}

TEST(a_later_line_retitles_a_provisional_subject) {
        struct problems *p = load("oops report retitle subject=\"BUG: null\" /^BUG: null/\n"
                                  "oops report subject=\"kernel BUG\" /^kernel BUG/\n"
                                  "any part subject=\"\\s in \\1\" /^RIP: ([a-z_]+)\\+/\n");
        struct problem_hit h;

        h = classify(p, "1,0,1000000,-;BUG: null");
        CHECK(h.opens && h.provisional && !h.retitled);
        CHECK_STR(h.subject, "BUG: null");
        h = classify(p, "4,1,1000001,-;Oops: 0000 [#1]");
        CHECK(!h.opens && !h.retitled);
        h = classify(p, "4,2,1000002,-;RIP: foo_bar+0x1/0x2");
        CHECK(!h.opens && h.retitled);
        CHECK_STR(h.subject, "BUG: null in foo_bar");
        /* Once. */
        h = classify(p, "4,3,1000003,-;RIP: other+0x1/0x2");
        CHECK(h.kind == PROBLEM_OOPS && !h.retitled);
        /* A report that is not "retitle" keeps its subject. */
        h = classify(p, "1,4,1000004,-;kernel BUG at x.c:1!");
        CHECK(h.opens && !h.provisional);
        h = classify(p, "4,5,1000005,-;RIP: foo_bar+0x1/0x2");
        CHECK(h.kind == PROBLEM_OOPS && !h.retitled);
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
                /* The index keys a literal by its rarest two bytes, anywhere in it. */
                { "segfault at", "x[1]: segfault at 0" },
                { "^ab,cd", "q\\x0aab,cd" },
                { "abc:", "abc:" },
                { "ab", "xxab" },
                { "zq", "zq" },
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

static void write_file(const char *dir, const char *name, const char *text) {
        char path[512];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        f = fopen(path, "w");
        if (!f) {
                test_fail(__FILE__, __LINE__, "cannot write %s", path);
                return;
        }
        fputs(text, f);
        fclose(f);
}

TEST(the_built_in_rules_are_the_shipped_file) {
        struct problems *b = problems_new(), *f = problems_new();
        struct problem_rule_info ib, ifile;
        size_t i;

        CHECK_INT(problems_load_builtin(b), 0);
        CHECK_INT(problems_load_file(f, SOURCE_ROOT "/data/problems.rules"), 0);
        CHECK(problems_count(b) > 80);
        CHECK_INT(problems_count(b), problems_count(f));
        for (i = 0; i < problems_count(b); i++) {
                CHECK_INT(problems_rule_info(b, i, &ib), 0);
                CHECK_INT(problems_rule_info(f, i, &ifile), 0);
                CHECK_STR(ib.source, "<built-in>");
                CHECK_STR(ifile.source, SOURCE_ROOT "/data/problems.rules");
                CHECK_INT(ib.line, ifile.line);
                CHECK_STR(ib.text, ifile.text);
        }
        CHECK_INT(problems_rule_info(b, i, &ib), -ENOENT);
        problems_free(b);
        problems_free(f);
}

TEST(many_rules_one_pass) {
        /* Rules that share the two bytes they are indexed by, anchored or not, and one without a literal. */
        struct problems *p = load("thermal /^Xy-one/\n"
                                  "mce /Xy-two$/\n"
                                  "panic /^[a-z]+$/\n"
                                  "segfault /a-Xy-one/\n");

        CHECK_INT(classify(p, "4,0,0,-;Xy-one").kind, PROBLEM_THERMAL);
        CHECK_INT(classify(p, "4,1,0,-;q Xy-two").kind, PROBLEM_MCE);
        CHECK_INT(classify(p, "4,2,0,-;abc").kind, PROBLEM_PANIC);
        CHECK_INT(classify(p, "4,3,0,-;a-Xy-one").kind, PROBLEM_SEGFAULT);
        CHECK_INT(classify(p, "4,4,0,-;a-Xy-on").kind, PROBLEM_NONE);
        CHECK_INT(classify(p, "4,5,0,-;Xy").kind, PROBLEM_NONE);
        problems_free(p);
}

TEST(no_rules_no_problem) {
        struct problems *p = problems_new();

        CHECK_INT(classify(p, "0,0,0,-;Kernel panic - not syncing: x").kind, PROBLEM_NONE);
        CHECK_INT(problems_load_buffer(p, "t.rules", "panic /^Kernel panic/\n", 22), 0);
        /* Rules loaded after the first record are used from the next one on. */
        CHECK_INT(classify(p, "0,1,0,-;Kernel panic - not syncing: x").kind, PROBLEM_PANIC);
        problems_free(p);
}

TEST(all_rules_together_have_a_budget) {
        /* 20000 pieces a rule pass alone; the eleventh such rule is refused, by its line. */
        char *rules = malloc(11 * 40), *t = rules;
        int i;

        for (i = 0; i < 11; i++)
                t += sprintf(t, "oops /((abcdefghij){199}){10}x%d/\n", i % 10);
        CHECK_STR(load_error(rules), "t.rules:11: rules too costly: all rules together over 200000 pieces");
        free(rules);
}

TEST(only_regular_files_are_read) {
        char dir[] = "/tmp/test-problems-XXXXXX", path[256];
        struct problems *p;

        CHECK(mkdtemp(dir) != NULL);
        /* A FIFO is refused at once, not waited on. */
        snprintf(path, sizeof(path), "%s/fifo.rules", dir);
        CHECK_INT(mkfifo(path, 0600), 0);
        p = problems_new();
        CHECK_INT(problems_load_file(p, path), -EINVAL);
        CHECK(strstr(problems_error(p), "fifo.rules: not a regular file") != NULL);
        problems_free(p);
        /* Among the drop-ins too. */
        setenv("KDMESG_PROBLEMS_DIR", dir, 1);
        setenv("KDMESG_PROBLEMS_RULES", "", 1);
        p = problems_new();
        CHECK_INT(problems_load_default(p), -EINVAL);
        problems_free(p);
        unlink(path);
        /* A directory is refused; /dev/null (a masked drop-in) holds no rules. */
        p = problems_new();
        CHECK_INT(problems_load_file(p, dir), -EISDIR);
        CHECK_INT(problems_load_file(p, "/dev/null"), 0);
        CHECK_INT(problems_count(p), 0);
        CHECK_INT(problems_load_file(p, "/dev/zero"), -EINVAL);
        problems_free(p);
        rmdir(dir);
}

TEST(drop_ins_of_earlier_directories_hide_later_ones) {
        char a[] = "/tmp/test-problems-XXXXXX", b[] = "/tmp/test-problems-XXXXXX", list[128], path[256];
        struct problem_rule_info info;
        struct problems *p;

        CHECK(mkdtemp(a) != NULL);
        CHECK(mkdtemp(b) != NULL);
        write_file(a, "20-x.rules", "thermal /^a20$/\n");
        write_file(b, "20-x.rules", "nonsense that is never read\n");
        write_file(b, "10-y.rules", "\n\npanic /^b10$/\n");
        snprintf(path, sizeof(path), "%s/30-z.rules", a);
        CHECK_INT(symlink("/dev/null", path), 0);
        write_file(b, "30-z.rules", "nonsense that is masked\n");
        snprintf(list, sizeof(list), "%s:/nonexistent:%s", a, b);
        setenv("KDMESG_PROBLEMS_DIR", list, 1);
        setenv("KDMESG_PROBLEMS_RULES", "", 1);
        p = problems_new();
        CHECK_INT(problems_load_default(p), 0);
        /* b's 10-y, a's 20-x, then the built-in rules. */
        CHECK_INT(problems_rule_info(p, 0, &info), 0);
        snprintf(path, sizeof(path), "%s/10-y.rules", b);
        CHECK_STR(info.source, path);
        CHECK_INT(info.line, 3);
        CHECK_STR(info.text, "panic /^b10$/");
        CHECK_INT(problems_rule_info(p, 1, &info), 0);
        snprintf(path, sizeof(path), "%s/20-x.rules", a);
        CHECK_STR(info.source, path);
        CHECK_INT(problems_rule_info(p, 2, &info), 0);
        CHECK_STR(info.source, "<built-in>");
        CHECK_INT(classify(p, "0,0,0,-;a20").kind, PROBLEM_THERMAL);
        problems_free(p);
        snprintf(path, sizeof(path), "%s/20-x.rules", a);
        unlink(path);
        snprintf(path, sizeof(path), "%s/30-z.rules", a);
        unlink(path);
        snprintf(path, sizeof(path), "%s/10-y.rules", b);
        unlink(path);
        snprintf(path, sizeof(path), "%s/20-x.rules", b);
        unlink(path);
        snprintf(path, sizeof(path), "%s/30-z.rules", b);
        unlink(path);
        rmdir(a);
        rmdir(b);
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

TEST(frame_suffixes_dropped) {
        static const char *const cases[][2] = {
                { "pn533_send_complete.cold", "pn533_send_complete" },
                { "nmi_cpu_backtrace.cold.3", "nmi_cpu_backtrace" },
                { "kobject_add_internal.part.0", "kobject_add_internal" },
                { "tcp_v4_rcv.isra.12", "tcp_v4_rcv" },
                { "ip6_fragment.constprop.0", "ip6_fragment" },
                { "foo.llvm.1234567", "foo" },
                { "foo.isra.0.cold", "foo" },
                { "plain_name", "plain_name" },
                { ".only_a_suffix", ".only_a_suffix" },
                { "", "" },
        };
        char buf[64];

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                snprintf(buf, sizeof(buf), "%s", cases[i][0]);
                frame_strip_suffix(buf);
                CHECK_STR(buf, cases[i][1]);
        }
}

TEST(frame_skip_rules_by_kind) {
        struct problems *p = load("any skip /^lock_acquire$|^_raw_spin_/\n"
                                  "hung-task skip /^schedule$/\n");

        CHECK(frame_skipped(p, PROBLEM_OOPS, "lock_acquire"));
        CHECK(frame_skipped(p, PROBLEM_OOPS, "_raw_spin_lock_irqsave"));
        CHECK(!frame_skipped(p, PROBLEM_OOPS, "lock_acquire_x"));
        CHECK(!frame_skipped(p, PROBLEM_OOPS, "ucma_close"));
        /* A scheduler frame is the machinery of a hung task only. */
        CHECK(!frame_skipped(p, PROBLEM_OOPS, "schedule"));
        CHECK(frame_skipped(p, PROBLEM_HUNG_TASK, "schedule"));
        /* A skip rule is never an opener: a record holding its text opens nothing. */
        CHECK_INT(classify(p, "0,0,0,-;lock_acquire").kind, PROBLEM_NONE);
        CHECK_STR(load_error("oops skip subject=x /x/\n"), "t.rules:1: a 'frame', 'skip' or 'anchor' rule takes no conditions and no subject");
        CHECK_STR(load_error("any frame /x/\n"), "t.rules:1: a 'frame' rule needs name=");
        CHECK_STR(load_error("oops subject=\"a in \\f\" /x/\n"), "t.rules:1: subject=: \\f is for the subject of a report");
        CHECK_STR(load_error("any part access=\\2 /(R)/\n"), "t.rules:1: access=: \\2, but the regex has 1 groups");
        problems_free(p);
}

/* The rules of a culprit: frames in order, machinery skipped, the access from its own line. */
static const char culprit_rules[] =
        "oops report subject=\"KASAN: \\1\\a in \\f\" /^BUG: KASAN: ([a-z-]+) in /\n"
        "oops part access=\\1 /^(Read|Write) of size [0-9]+ at addr/\n"
        "hung-task report subject=\"INFO: task hung in \\f\" /^INFO: task .*:[0-9]+ blocked for more than/\n"
        "any frame name=\\2 /^ *(\\[<[0-9a-f]+>\\] )?([A-Za-z_][A-Za-z0-9_.]*)\\+0x[0-9a-f]+\\/0x[0-9a-f]+/\n"
        "any skip /^(dump_stack|kasan_report|__asan_load[0-9]|memcpy)$/\n"
        "hung-task skip /^(__)?schedule$|^mutex_lock$/\n";

TEST(culprit_frame_names_the_report) {
        struct problems *p = load(culprit_rules);
        struct problem_hit h;

        h = classify(p, "3,0,1000000,-;BUG: KASAN: use-after-free in memcpy+0x1/0x2");
        CHECK(h.opens && h.provisional);
        /* No frame yet: the report names none so far, it would be cut short here. */
        CHECK_STR(h.subject, "KASAN: use-after-free in corrupted");
        h = classify(p, "3,1,1000001,-;Read of size 8 at addr ffff888012345678 by task x/1");
        CHECK(h.retitled && h.provisional);
        CHECK_STR(h.subject, "KASAN: use-after-free Read in corrupted");
        h = classify(p, "3,2,1000002,-; dump_stack+0x1/0x2");
        CHECK(!h.retitled);
        CHECK_STR(p->subject, "KASAN: use-after-free Read in corrupted");
        h = classify(p, "3,3,1000003,-; ? stale_guess+0x1/0x2");
        CHECK(!h.retitled);
        h = classify(p, "3,4,1000004,-; kasan_report.cold+0x1/0x2");
        CHECK(!h.retitled);
        h = classify(p, "3,5,1000005,-; [<ffffffff81234567>] pn533_send_complete.cold+0x1/0x2");
        CHECK(h.retitled && !h.provisional);
        CHECK_STR(h.subject, "KASAN: use-after-free Read in pn533_send_complete");
        /* Settled: later frames change nothing. */
        h = classify(p, "3,6,1000006,-; usb_hcd_giveback_urb+0x1/0x2");
        CHECK(h.kind == PROBLEM_OOPS && !h.retitled);

        /* Where a hung task sleeps: the scheduler and the lock it waits for are skipped for this kind only. */
        h = classify(p, "3,7,9000000,-;INFO: task kworker/0:1:123 blocked for more than 120 seconds.");
        CHECK(h.opens && h.kind == PROBLEM_HUNG_TASK);
        CHECK_STR(h.subject, "INFO: task hung in corrupted");
        classify(p, "6,8,9000001,-; __schedule+0x1/0x2");
        classify(p, "6,9,9000002,-; schedule+0x1/0x2");
        classify(p, "6,10,9000003,-; mutex_lock+0x1/0x2");
        h = classify(p, "6,11,9000004,-; rtnl_lock+0x1/0x2");
        CHECK(h.retitled && !h.provisional);
        CHECK_STR(h.subject, "INFO: task hung in rtnl_lock");
        problems_free(p);
}

TEST(every_frame_machinery_is_corrupted) {
        struct problems *p = load(culprit_rules);
        struct problem_hit h;

        h = classify(p, "3,0,1000000,-;BUG: KASAN: slab-out-of-bounds in memcpy+0x1/0x2");
        classify(p, "3,1,1000001,-; memcpy+0x1/0x2");
        h = classify(p, "3,2,1000002,-; dump_stack+0x1/0x2");
        CHECK(!h.retitled);
        /* The report ends: no culprit, unsettled. */
        h = classify(p, "3,3,9000000,-;something else");
        CHECK(h.kind == PROBLEM_NONE);
        problems_free(p);
        p = load(culprit_rules);
        h = classify(p, "3,0,1000000,-;BUG: KASAN: slab-out-of-bounds in memcpy+0x1/0x2");
        CHECK(h.opens && h.provisional);
        /* Every frame the machinery's: the report is cut short, its culprit unknown. */
        CHECK_STR(h.subject, "KASAN: slab-out-of-bounds in corrupted");
        h = classify(p, "3,1,1000001,-; memcpy+0x1/0x2");
        CHECK(!h.retitled);
        problems_free(p);
}

/*
 * A stall's culprit: the frame before the first anchor (the VFS's write, from kernel/rcu/tree_stall.h's
 * report and show_trace_log_lvl()'s lines), or the system call an anchor's name= names; unsettled until then.
 */
static const char anchor_rules[] =
        "rcu-stall report subject=\"INFO: rcu detected stall in \\F\" /^INFO: rcu_[a-z]+ detected stalls?/\n"
        "oops report subject=\"BUG: oops in \\f\" /^BUG: oops$/\n"
        "any frame name=\\2 /^ *(\\[<[0-9a-f]+>\\] )?([A-Za-z_][A-Za-z0-9_.]*)\\+0x[0-9a-f]+\\/0x[0-9a-f]+/\n"
        "any skip /^(memcpy|apic_timer_interrupt)$/\n"
        "rcu-stall anchor /^(__vfs_write|vfs_write|(__x64_)?(sys|SyS)_write)$/\n"
        "rcu-stall anchor name=\"sys_\\3\" /^(__x64_|__do_)?(sys|SyS)_([a-z0-9_]+)$/\n";

TEST(anchor_names_the_stalled_code) {
        struct problems *p = load(anchor_rules);
        struct problem_hit h;

        h = classify(p, "4,0,1000000,-;INFO: rcu_sched detected stalls on CPUs/tasks:");
        CHECK(h.opens && h.kind == PROBLEM_RCU_STALL);
        classify(p, "4,1,1000001,-; apic_timer_interrupt+0xa9/0xb0");
        classify(p, "4,2,1000002,-; memcpy+0x37/0x50");
        h = classify(p, "4,3,1000003,-; mulaw_decode+0x52f/0x770");
        /* The first frame no rule skips, for now: an anchor may come. */
        CHECK(h.retitled && h.provisional);
        CHECK_STR(h.subject, "INFO: rcu detected stall in mulaw_decode");
        classify(p, "4,4,1000004,-; snd_pcm_oss_write2.isra.3+0x260/0x420");
        h = classify(p, "4,5,1000005,-; snd_pcm_oss_write+0x5fe/0x830");
        CHECK(!h.retitled);
        h = classify(p, "4,6,1000006,-; __vfs_write+0xef/0x970");
        CHECK(h.retitled && !h.provisional);
        CHECK_STR(h.subject, "INFO: rcu detected stall in snd_pcm_oss_write");
        h = classify(p, "4,7,1000007,-; vfs_write+0x189/0x510");
        CHECK(h.kind == PROBLEM_RCU_STALL && !h.retitled);
        problems_free(p);

        /* A system call that is no anchor of its own: named by its name, whatever its wrapper. */
        p = load(anchor_rules);
        classify(p, "4,0,1000000,-;INFO: rcu_preempt detected stalls on CPUs/tasks:");
        classify(p, "4,1,1000001,-; d_walk+0x1/0x2");
        classify(p, "4,2,1000002,-; do_rmdir+0x1/0x2");
        h = classify(p, "4,3,1000003,-; __x64_sys_rmdir+0x1/0x2");
        CHECK(h.retitled && !h.provisional);
        CHECK_STR(h.subject, "INFO: rcu detected stall in sys_rmdir");
        problems_free(p);

        /* The frame before the anchor is machinery: no culprit from it, the first frame stands. */
        p = load(anchor_rules);
        classify(p, "4,0,1000000,-;INFO: rcu_sched detected stalls on CPUs/tasks:");
        classify(p, "4,1,1000001,-; foo+0x1/0x2");
        classify(p, "4,2,1000002,-; memcpy+0x1/0x2");
        h = classify(p, "4,3,1000003,-; vfs_write+0x1/0x2");
        CHECK(!h.retitled);
        h = classify(p, "4,4,1000004,-; SyS_write+0x1/0x2");
        CHECK(!h.retitled);
        CHECK_STR(p->subject, "INFO: rcu detected stall in foo");
        /* Without an anchor, the report's end settles it (a record past it ends the report). */
        h = classify(p, "4,5,9000000,-;something else");
        CHECK(h.kind == PROBLEM_NONE);
        problems_free(p);

        /* \f is the first frame no rule skips: anchors do not move it. */
        p = load(anchor_rules);
        h = classify(p, "4,0,1000000,-;BUG: oops");
        h = classify(p, "4,1,1000001,-; snd_pcm_oss_write+0x5fe/0x830");
        CHECK(h.retitled && !h.provisional);
        h = classify(p, "4,2,1000002,-; __vfs_write+0xef/0x970");
        CHECK(!h.retitled);
        CHECK_STR(p->subject, "BUG: oops in snd_pcm_oss_write");
        problems_free(p);

        CHECK_STR(load_error("oops anchor subject=x /x/\n"), "t.rules:1: a 'frame', 'skip' or 'anchor' rule takes no conditions and no subject");
        CHECK_STR(load_error("oops anchor name=\\2 /(x)/\n"), "t.rules:1: name=: \\2, but the regex has 1 groups");
        CHECK_STR(load_error("any anchor /^x$/\n"), "");
}

/*
 * kernel/sched/core.c's __schedule_bug(): "Preemption disabled at:" and print_ip_sym()'s address on the
 * next line, before the trace: a 'part hidenext' line makes the record after it name no frame.
 */
TEST(hidenext_keeps_a_lone_address_out_of_the_culprit) {
        struct problems *p = load("oops report subject=\"BUG: scheduling while atomic in \\f\" /^BUG: scheduling while atomic: /\n"
                                  "any part hidenext /^Preemption disabled at:$/\n"
                                  "any frame name=\\2 /^ *(\\[<[0-9a-f]+>\\] )?([A-Za-z_][A-Za-z0-9_.]*)\\+0x[0-9a-f]+\\/0x[0-9a-f]+/\n"
                                  "any skip /^(dump_stack|__schedule_bug|__schedule|schedule)$/\n");
        struct problem_hit h;

        h = classify(p, "3,0,1000000,-;BUG: scheduling while atomic: syz/123/0x00000002");
        CHECK(h.opens && h.kind == PROBLEM_OOPS);
        h = classify(p, "3,1,1000001,-;Preemption disabled at:");
        CHECK(h.kind == PROBLEM_OOPS);
        h = classify(p, "3,2,1000002,-;[<ffffffff812b2934>] kernel_fpu_begin_mask+0x64/0x260");
        CHECK(h.kind == PROBLEM_OOPS && !h.retitled);
        CHECK_STR(p->subject, "BUG: scheduling while atomic in corrupted");
        classify(p, "4,3,1000003,-; dump_stack+0x1/0x2");
        classify(p, "4,4,1000004,-; __schedule_bug.cold+0x1/0x2");
        classify(p, "4,5,1000005,-; __schedule+0x1/0x2");
        classify(p, "4,6,1000006,-; schedule+0x1/0x2");
        h = classify(p, "4,7,1000007,-; exit_to_user_mode_prepare+0x1/0x2");
        CHECK(h.retitled && !h.provisional);
        CHECK_STR(h.subject, "BUG: scheduling while atomic in exit_to_user_mode_prepare");
        problems_free(p);
        CHECK_STR(load_error("oops hidenext /x/\n"), "t.rules:1: unknown word 'hidenext'");
}
