/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An input that is no kernel log, said in one line (notklog.h). */
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "pipeline/notklog.h"
#include "text/diag.h"

/* The state is rd's from now on. */
static void follow_reader(struct notklog *nk, const struct kmsg_reader *rd) {
        if (nk->rd == rd)
                return;
        nk->rd = rd;
        nk->good = false;
        nk->n = 0;
}

/* all: the stream ended, and these were all its lines. */
static void say(const struct notklog *nk, const struct kmsg_reader *rd, bool all) {
        if (all)
                warnx_(P_("%s: not a kernel log: its %u line is no record (line %llu: %s)",
                          "%s: not a kernel log: none of its %u lines is a record (line %llu: %s)", nk->n),
                       kmsg_reader_get_name(rd), nk->n, (unsigned long long)nk->pos[0], nk->err[0]);
        else
                warnx_(_("%s: not a kernel log: none of its first %u lines is a record (line %llu: %s)"),
                       kmsg_reader_get_name(rd), nk->n, (unsigned long long)nk->pos[0], nk->err[0]);
}

bool notklog_hold(struct notklog *nk, const struct kmsg_reader *rd, bool *ret_verdict) {
        *ret_verdict = false;
        /* The device's records are the kernel's: each is said. */
        if (kmsg_reader_is_device(rd))
                return false;
        follow_reader(nk, rd);
        if (nk->good)
                return false;
        nk->pos[nk->n] = kmsg_reader_get_position(rd);
        snprintf(nk->err[nk->n], sizeof(nk->err[nk->n]), "%s", kmsg_reader_get_error(rd));
        if (++nk->n == NOTKLOG_LINES) {
                say(nk, rd, false);
                *ret_verdict = true;
        }
        return true;
}

void notklog_good(struct notklog *nk, const struct kmsg_reader *rd,
                  void (*print)(void *userdata, uint64_t pos, const char *err), void *userdata) {
        unsigned i;

        follow_reader(nk, rd);
        if (nk->good)
                return;
        nk->good = true;
        for (i = 0; i < nk->n; i++)
                print(userdata, nk->pos[i], nk->err[i]);
        nk->n = 0;
}

bool notklog_end(struct notklog *nk, const struct kmsg_reader *rd) {
        if (nk->rd != rd || nk->good || nk->n == 0)
                return false;
        say(nk, rd, true);
        nk->n = 0;
        return true;
}
