/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_NOTKLOG_H
#define KDMESG_NOTKLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "libkmsg.h"

/* Lines that are no record, at the start of an input, before it is called no kernel log. */
#define NOTKLOG_LINES 10

/*
 * A file that is no kernel log (-K /proc/cpuinfo) is one line, not a bad
 * record for each of its lines: the errors of a stream's first lines are
 * held while no record has come from it, and said as they were once one
 * does; NOTKLOG_LINES of them, or the end of the stream, before any record
 * make the one line.  One stream at a time (the run reads them in turn).
 */
struct notklog {
        const struct kmsg_reader *rd; /* the stream the state is of */
        bool good;                    /* a record came from it */
        unsigned n;                   /* errors held */
        uint64_t pos[NOTKLOG_LINES];
        char err[NOTKLOG_LINES][160];
};

/*
 * The error of rd's current record (kmsg_reader_get_error()): true when it
 * is held (nothing to print now).  *ret_verdict is set when that makes
 * NOTKLOG_LINES: the line is said, and the stream should not be read on.
 */
bool notklog_hold(struct notklog *nk, const struct kmsg_reader *rd, bool *ret_verdict);
/*
 * A record came from rd: the errors held are printed, each through
 * print(userdata, pos, text), and nothing more is held for rd.
 */
void notklog_good(struct notklog *nk, const struct kmsg_reader *rd,
                  void (*print)(void *userdata, uint64_t pos, const char *err), void *userdata);
/* rd ended: true, with the line said, when it held errors and gave no record. */
bool notklog_end(struct notklog *nk, const struct kmsg_reader *rd);

#endif
