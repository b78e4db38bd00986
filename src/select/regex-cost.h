/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_REGEX_COST_H
#define KDMESG_REGEX_COST_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Whether an extended regex is cheap enough to hand to regcomp(): NULL, or
 * what is wrong (translated): a repetition right after a repetition
 * (undefined in POSIX), a bound over 255, more than 20000 pieces once the
 * repetitions are expanded, groups nested more than 32 deep, a
 * back-reference (glibc matches those by backtracking, in no bounded time).
 * The rules of --problems and -g/--grep are checked with it.
 */
const char *regex_cost_check(const char *re);
/* The same; *ret_pieces (may be NULL) gets the pieces once expanded, when it is cheap enough. */
const char *regex_cost_measure(const char *re, uint64_t *ret_pieces);
/*
 * The check of a problem rule's regex, which sees at most 8 KiB of each
 * record: the same, and no more than 64 pieces that a match may skip (?,
 * *, the copies of {m,n} past m, each copy of what holds such pieces):
 * glibc's work for each byte grows with them (regex-cost.c).  So every
 * rule that loads is matched in bounded time and memory.
 */
const char *regex_cost_rule(const char *re, uint64_t *ret_pieces);
/*
 * regexec() of text: 1 a match, 0 none, -1 when the engine failed
 * (REG_ESPACE: out of memory; *ret_error its code): no verdict then,
 * never a "no match".
 */
int regex_cost_exec(const regex_t *re, const char *text, size_t nmatch, regmatch_t *m, int *ret_error);

#endif
