/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PROBLEM_OPTIONS_H
#define KDMESG_PROBLEM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "output/sink.h"
#include "select/problem-select.h"

/* The settings of --problem, --fail-on-problem and the rules, and whether records are classified (problem-options.c). */
struct problem_options {
        bool report;          /* --problems: the report, or the rows of --timeline (set by cli from the sink table) */
        bool fail;            /* --fail-on-problem */
        bool counted;         /* --metrics counts the problems by kind */
        const char *rules_file; /* --problem-rules FILE: only these rules */
        bool list_rules;      /* --list-problem-rules */
        /* The output names each record's problem: on for --format=export and --upload (options_check()). */
        bool fields;
        unsigned long group;  /* --problem N: the records of row N of --problems (from 1); 0: none */
        /*
         * The selection the run loop makes (select/problem-select.h): the
         * rules, loaded by problem_options_setup() when any of these is
         * set, the kinds of --problem, and what was found.
         */
        struct problem_select sel;
};

enum {
        PROBOPT_PROBLEM = 0x500,
        PROBOPT_FAIL,
        PROBOPT_RULES,
        PROBOPT_LIST_RULES,
};

#define PROBLEM_LONGOPTS                                                   \
        { "problem", required_argument, NULL, PROBOPT_PROBLEM },            \
        { "fail-on-problem", no_argument, NULL, PROBOPT_FAIL },             \
        { "problem-rules", required_argument, NULL, PROBOPT_RULES },        \
        { "list-problem-rules", no_argument, NULL, PROBOPT_LIST_RULES }

#define PROBOPT_FIRST PROBOPT_PROBLEM
#define PROBOPT_LAST PROBOPT_LIST_RULES

#define EXIT_PROBLEM 4

/* Take one option; returns 0, or -EINVAL for an unknown kind (error in buf). */
int problem_options_add(struct problem_options *po, int opt, const char *arg, char *err, size_t size);
/* The --help lines of --problem, --fail-on-problem and the rules options. */
const char *problem_options_help(void);
/* Whether records are classified at all. */
bool problem_options_active(const struct problem_options *po);
/* Load the rules when needed; 0, or -errno after printing the error. */
int problem_options_setup(struct problem_options *po);
/* --list-problem-rules: every rule in the order they are tried, with its file and line; an exit status. */
int problem_options_list_rules(struct problem_options *po);
void problem_options_done(struct problem_options *po);

#endif
