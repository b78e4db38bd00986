/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_MISSING_H
#define KDMESG_MISSING_H

#include "libkmsg.h"
#include "pipeline/run.h"

/*
 * A record read from rd, before the filters: when a filter asks for a field
 * it does not carry (a level, a time, a dictionary), say so once on stderr.
 */
void missing_check(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r);
/* The end of input: --device and the like over input none of whose records had a dictionary. */
void missing_finish(struct run *run);

#endif
