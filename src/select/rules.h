/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SELECT_RULES_H
#define KDMESG_SELECT_RULES_H

/*
 * The problem rules as loaded (select/rules.c) and used by the classifier
 * (select/problems.c): private to these files and select/rule-literals.c.
 */
#include <locale.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select/problems.h"

/* A rules file larger than this is refused (the shipped one is a few KiB). */
#define MAX_RULES_FILE (1024 * 1024)
#define MAX_TEXT 8192
#define MAX_SUBJECT 256
#define MAX_LITERALS 8
#define MAX_FRAME 128

/* All rules together: over this many pieces (regex-cost.h) they are refused. */
#define MAX_TOTAL_PIECES 200000
/* A report ends at a record this much later than its last one (µs): a report is printed at once. */
#define REPORT_GAP_USEC 2000000

/*
 * RULE_FRAME: a line of an open report that names a function of its stack
 * (name=); RULE_SKIP: a function of the machinery that detects and reports
 * a bug, never the culprit (the regex is matched against the name);
 * RULE_ANCHOR: a function that runs the code of others (a system call's
 * entry, the VFS, socket, netlink, timer and task-work dispatch): for the
 * \F of a subject (code that loops, a stack that overflowed), the culprit
 * is the frame just before it (name=: the name its groups give, "sys_\3").
 */
enum rule_type { RULE_PROBLEM, RULE_PART, RULE_STOP, RULE_IGNORE, RULE_FRAME, RULE_SKIP, RULE_ANCHOR };
#define KIND_ANY (-2)

struct rule {
        enum rule_type type;
        int kind; /* KIND_ANY: a part or stop of any report */
        bool report, end;
        bool hidenext; /* part: the record after it names no frame of the trace (a lone address) */
        bool retitle; /* report: a part rule with subject= may give the subject */
        const char *source; /* the file (or "(built-in)"), in problems.sources */
        unsigned line;
        char *text;         /* the rule as written */
        bool have_levels;
        uint8_t levels;
        char *subsystem, *device;
        char *subject, *devname;
        char *name;   /* frame: the function, a template */
        char *access; /* part: the access of a report (Read, Write), a template */
        regex_t re;
        /* Pieces of text one of which every match contains (found in the regex), for memmem(). */
        char *literals[MAX_LITERALS];
        size_t literal_lens[MAX_LITERALS];
        bool literal_anchored[MAX_LITERALS]; /* at the start of a line */
        size_t n_literals;
        bool indexed;   /* every literal is in the index (two bytes and more) */
};

struct problems {
        /*
         * The C locale, in which the rules are compiled and matched: a
         * regex sees bytes, so that '.' matches a byte of invalid UTF-8 (a
         * garbled command name) in a UTF-8 locale too.  0 when it could not
         * be made: the locale of the program.
         */
        locale_t cloc;
        struct rule *rules;
        size_t n, cap;
        char **sources; /* the names rules came from */
        size_t n_sources;
        uint64_t pieces; /* of all rules */
        int open; /* the kind of the report still open, or PROBLEM_NONE */
        bool provisional;    /* its subject may still change (a "retitle" rule opened it) */
        bool have_last;      /* the time of its last record is known */
        uint64_t last;
        char text[MAX_TEXT + 1];
        char subject[MAX_SUBJECT], devname[MAX_SUBJECT];
        char open_subject[MAX_SUBJECT]; /* the open report's subject */
        /*
         * The open report's subject as a template: its groups expanded (a
         * backslash doubled), \f (the culprit frame) and \a (the access)
         * still to fill in; open_subject is what it gives so far.
         */
        char tmpl[MAX_SUBJECT];
        char access[MAX_FRAME];
        char culprit[MAX_FRAME];   /* the first frame no skip rule matches */
        bool found;                /* culprit is known: the frames after it do not matter */
        /*
         * The open report's subject has \F, the culprit an anchor names:
         * settled only when one does (anchored) or the report ends; prev is
         * the frame before the one being looked at, when no rule skips it.
         */
        bool anchoring, anchored;
        bool hide_frame; /* the record being classified names no frame (a 'part hidenext' came before it) */
        char prev[MAX_FRAME];
        char error[512];
        /* regexec() failed (REG_ESPACE ...) on a rule this many times; the last one's code. */
        uint64_t engine_errors;
        int engine_error;
        /* The index of the rules' literals (rule-index.c), built before the first record. */
        size_t indexed;          /* the rules it covers (bigrams NULL: none built) */
        uint8_t *bigrams;        /* a byte per two bytes, 1 where some literal is indexed by them */
        int32_t *heads;          /* per two bytes: the first of its entries, or -1 */
        struct lit_entry *entries;
        uint32_t *stamps, gen;   /* rule i may match the record when stamps[i] == gen */
        uint32_t *always;        /* the rules the index cannot rule out, in order */
        size_t n_always;
        uint32_t *hits;          /* the rules with a literal in the record */
        uint32_t *cand;          /* the rules that may match the record, in order */
        size_t n_cand;
};

struct lit_entry {
        uint32_t rule;
        uint16_t lit;   /* the literal's number in its rule */
        uint16_t at;    /* where in the literal its two indexed bytes are */
        int32_t next;   /* the next entry of the same two bytes, or -1 */
};

/*
 * The quick check of all rules at once: one pass over the text finds the
 * rules one of whose literals it holds.  rule_index_build() indexes the
 * rules loaded so far (0 or -ENOMEM); rule_index_scan() puts in p->cand
 * the rules that may match a text, in rule order: those with a literal in
 * it, and those without literals of two bytes and more.
 */
int rule_index_build(struct problems *p);
void rule_index_scan(struct problems *p, const char *text, size_t len);
void rule_index_free(struct problems *p);

extern const char problems_builtin_text[];
extern const size_t problems_builtin_size;

/*
 * The quick check before a regex: text that every match contains.  Each
 * branch of the regex's top-level alternation gives its longest run of
 * literal characters that no quantifier makes optional, also inside a
 * group that has no alternation and is not optional itself; a record that
 * holds none of them cannot match.  No check when a branch has none.
 */
struct lit {
        char s[128];
        size_t n;
        bool anchored; /* at the start of a line: the branch begins with "^" and it */
};

/*
 * A function name as the report names it, without what the compiler added:
 * the suffix from the first '.' on ("foo.cold", "foo.part.0", "foo.isra.3",
 * "foo.constprop.0", "foo.llvm.123": C names have no '.').  In place.
 */
void frame_strip_suffix(char *name);

/* Whether name is a function of the machinery for a report of kind (a skip rule matches it). */
bool frame_skipped(const struct problems *p, int kind, const char *name);
/*
 * The anchor rule of kind that name matches (its groups in m, 10 of them),
 * or NULL.
 */
const struct rule *frame_anchor(const struct problems *p, int kind, const char *name, regmatch_t *m);

/* The literals of the quick check, one per top-level branch; returns how many (0: no check). */
size_t rule_find_literals(const char *re, struct lit *lits, size_t max);

#endif
