/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kmsg-errors: print the records at level "err" or worse from a kernel log
 * dump (any form kdmesg -K reads) or, without an argument, from /dev/kmsg,
 * as "SEQ LEVEL MESSAGE".  An example of libkmsg's reader and record API:
 *
 *     cc kmsg-errors.c $(pkg-config --cflags --libs libkmsg) -o kmsg-errors
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libkmsg.h>

int main(int argc, char **argv) {
        struct kmsg_reader *rd;
        struct kmsg_record *r;
        int e;

        if (argc > 1)
                e = kmsg_reader_new_path(argv[1], KMSG_FORMAT_AUTO, &rd);
        else
                e = kmsg_reader_new_device(NULL, KMSG_SEEK_START, &rd);
        if (e < 0) {
                fprintf(stderr, "%s: %s\n", argc > 1 ? argv[1] : "/dev/kmsg", strerror(-e));
                return 1;
        }

        /* 1: a record; 0: end of a dump; -EAGAIN: the device has no more for now. */
        while ((e = kmsg_reader_next(rd, &r)) != 0 && e != -EAGAIN) {
                size_t len;
                const char *msg;

                if (e < 0) {
                        /* Skipped records and overruns: say so and go on. */
                        fprintf(stderr, "%s:%" PRIu64 ": %s\n", kmsg_reader_get_name(rd),
                                kmsg_reader_get_position(rd),
                                e == -EBADMSG || e == -E2BIG ? kmsg_reader_get_error(rd) : strerror(-e));
                        if (e == -EBADMSG || e == -E2BIG || e == -EPIPE || e == -EMSGSIZE)
                                continue;
                        break;
                }
                if (!kmsg_record_has_priority(r) || kmsg_record_get_level(r) > 3)
                        continue;
                /* The message may hold newlines and other bytes: a real tool escapes them. */
                msg = kmsg_record_get_message(r, &len);
                printf("%" PRIu64 " %s %.*s\n", kmsg_record_get_seqnum(r),
                       kmsg_level_to_name(kmsg_record_get_level(r)), (int)len, msg);
        }
        kmsg_reader_unref(rd);
        return e < 0 && e != -EAGAIN ? 1 : 0;
}
