/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PARSE_U64_H
#define KDMESG_PARSE_U64_H

#include <stdint.h>

/* Parse an unsigned decimal number that fills all of s; 0 or -EINVAL/-ERANGE. */
int parse_u64(const char *s, uint64_t *ret);
/* The same for the digits at the head of *p, which is moved past them. */
int parse_u64_prefix(const char **p, uint64_t *ret);

#endif
