/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_REGEX_COST_H
#define KDMESG_REGEX_COST_H

/*
 * Whether an extended regex is cheap enough to hand to regcomp(): NULL, or
 * what is wrong (translated): a repetition right after a repetition
 * (undefined in POSIX), a bound over 255, more than 20000 pieces once the
 * repetitions are expanded, groups nested more than 32 deep.  The rules of
 * --problems and -g/--grep are checked with it.
 */
const char *regex_cost_check(const char *re);

#endif
