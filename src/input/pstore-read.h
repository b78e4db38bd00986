/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PSTORE_READ_H
#define KDMESG_PSTORE_READ_H

#include "pipeline/run.h"

struct input;
/* --pstore: read the chosen dump (newest by default) through the pipeline. */
void read_pstore(struct run *run, const struct input *in);
/* --pstore --list: one line per dump, newest first; returns the exit status. */
int pstore_list(const char *root);

#endif
