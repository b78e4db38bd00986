/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UTF8_H
#define KDMESG_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether p[0..len) is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
bool utf8_is_valid(const char *p, size_t len);

#endif
