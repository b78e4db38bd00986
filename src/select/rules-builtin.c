/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules built into kdmesg: data/problems.rules as it was at build time
 * (tools/embed-rules makes select/problems-rules.inc of it), so that a
 * kdmesg run from its build tree, or installed without its data files,
 * knows every problem the shipped file names.
 */
#include <stddef.h>

#include "select/rules.h"

const char problems_builtin_text[] =
#include "select/problems-rules.inc"
        ;

const size_t problems_builtin_size = sizeof(problems_builtin_text) - 1;
