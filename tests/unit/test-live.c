/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The live /dev/kmsg, through the public API of the shared library only:
 * every record in the ring parses and the sequence numbers are consecutive
 * (the first one may be above 0: older records rotated out).  Skipped with
 * the reason where /dev/kmsg cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkmsg.h"
#include "tests.h"

static struct kmsg_reader *open_live(void) {
        struct kmsg_reader *rd = NULL;
        int e = kmsg_reader_new_device(NULL, KMSG_SEEK_START, &rd);

        if (e < 0) {
                test_fail(__FILE__, __LINE__, "/dev/kmsg: %s", strerror(-e));
                return NULL;
        }
        return rd;
}

/* Opened read-only and non-blocking: the end of the ring is -EAGAIN, never a wait. */
TEST(device_open_flags) {
        struct kmsg_reader *rd = open_live();
        int fl;

        if (!rd)
                return;
        fl = fcntl(kmsg_reader_get_fd(rd), F_GETFL);
        CHECK(fl >= 0);
        CHECK_INT(fl & O_ACCMODE, O_RDONLY);
        CHECK(fl & O_NONBLOCK);
        fl = fcntl(kmsg_reader_get_fd(rd), F_GETFD);
        CHECK(fl >= 0 && (fl & FD_CLOEXEC));
        kmsg_reader_unref(rd);
}

TEST(ring_parses_and_is_consecutive) {
        struct kmsg_reader *rd = open_live();
        uint64_t expect = 0, n = 0, first = 0, overruns = 0;
        bool have = false;

        if (!rd)
                return;
        CHECK(kmsg_reader_is_device(rd));
        CHECK(kmsg_reader_get_fd(rd) >= 0);
        for (;;) {
                struct kmsg_record *r;
                int e = kmsg_reader_next(rd, &r);

                if (e == -EAGAIN)
                        break;
                if (e == -EPIPE) {
                        /* Overrun while reading (a busy system): the next record is the oldest. */
                        overruns++;
                        have = false;
                        continue;
                }
                if (e != 1) {
                        test_fail(__FILE__, __LINE__, "record %" PRIu64 ": %d (%s)",
                                  kmsg_reader_get_position(rd), e, kmsg_reader_get_error(rd));
                        if (e != -EBADMSG && e != -EMSGSIZE)
                                break;
                        continue;
                }
                CHECK(kmsg_record_has_seqnum(r));
                CHECK(kmsg_record_has_priority(r));
                CHECK(kmsg_record_has_timestamp(r));
                if (have && kmsg_record_get_seqnum(r) != expect)
                        test_fail(__FILE__, __LINE__, "seq %" PRIu64 " after %" PRIu64, kmsg_record_get_seqnum(r),
                                  expect - 1);
                if (n == 0)
                        first = kmsg_record_get_seqnum(r);
                expect = kmsg_record_get_seqnum(r) + 1;
                have = true;
                n++;
        }
        CHECK(n > 0);
        printf("# %" PRIu64 " records, seq %" PRIu64 "..%" PRIu64 " (%" PRIu64 " rotated out), %" PRIu64
               " overruns\n",
               n, first, expect - 1, first, overruns);
        kmsg_reader_unref(rd);
}

TEST(tracker_agrees) {
        struct kmsg_reader *rd = open_live();
        struct kmsg_seqtrack *t = NULL;
        uint64_t gaps = 0, n = 0;

        if (!rd)
                return;
        CHECK_INT(kmsg_seqtrack_new(&t), 0);
        for (;;) {
                struct kmsg_record *r;
                const struct kmsg_loss *l;
                int e = kmsg_reader_next(rd, &r), f;

                if (e == -EAGAIN || (e < 0 && e != -EPIPE))
                        break;
                if (e == -EPIPE) {
                        kmsg_seqtrack_note_cause(t, KMSG_LOSS_OVERRUN);
                        continue;
                }
                f = kmsg_seqtrack_feed(t, r, &l);
                CHECK(f >= 0);
                CHECK(!(f & (KMSG_SEQ_DUPLICATE | KMSG_SEQ_NEW_SEGMENT)));
                if ((f & KMSG_SEQ_LOSS) && !(n == 0 && kmsg_loss_get_cause(l) == KMSG_LOSS_ROTATED) &&
                    kmsg_loss_get_cause(l) != KMSG_LOSS_OVERRUN)
                        gaps++;
                n++;
        }
        CHECK_INT(gaps, 0);
        CHECK_INT(kmsg_seqtrack_get_duplicates(t), 0);
        CHECK(n == 0 || kmsg_seqtrack_get_segments(t) == 1);
        kmsg_seqtrack_unref(t);
        kmsg_reader_unref(rd);
}

/* Skip the whole file where the device cannot be read (not root, dmesg_restrict, a container). */
const char *test_skip_reason(void) {
        static char reason[160];
        struct kmsg_reader *rd = NULL;
        int e = kmsg_reader_new_device(NULL, KMSG_SEEK_START, &rd);

        if (e >= 0) {
                struct kmsg_record *r;

                /* Old kernels open it but fail the read with EINVAL. */
                e = kmsg_reader_next(rd, &r);
                kmsg_reader_unref(rd);
                if (e == 1 || e == -EAGAIN || e == -EPIPE)
                        return NULL;
        }
        snprintf(reason, sizeof(reason), "/dev/kmsg is not readable here: %s",
                 e == 0 ? "read() gave end of file, not a kmsg device" : strerror(-e));
        return reason;
}
