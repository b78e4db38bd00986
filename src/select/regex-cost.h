/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_REGEX_COST_H
#define KDMESG_REGEX_COST_H

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

#endif
