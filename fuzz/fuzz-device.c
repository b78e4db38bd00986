/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fuzz the device reader through its test double.  The first byte sets
 * the record size limit (bit 7: the minimum, 4096, below the 16 KiB read
 * buffer, so that it never grows); the rest is a script of what read() on
 * /dev/kmsg returns, one step at a time:
 *
 *   byte % 8 < 5   a record: the next two bytes are its length (LE), the
 *                  bytes after it its text.  Longer than the reader's
 *                  buffer (16 KiB at first): EINVAL, and the record is
 *                  gone, as the kernel does (-EMSGSIZE; -EINVAL once the
 *                  buffer is at the size limit and cannot grow).
 *   5  EAGAIN   6  EPIPE   7  EINTR
 *
 * After the script, read() returns EAGAIN.  Every record is taken apart
 * with every accessor and fed to a sequence tracker with the causes the
 * reader reports.  The script is run twice, the second time with every
 * record through the general parser (not kmsg_scan_record()): both runs
 * must give the same results.
 */
#include <errno.h>

#include "fuzz-common.h"
#include "reader-private.h"

struct script {
        const uint8_t *p;
        const uint8_t *end;
};

static ssize_t script_read(void *userdata, void *buf, size_t n) {
        struct script *s = userdata;
        size_t len;

        if (s->p >= s->end) {
                errno = EAGAIN;
                return -1;
        }
        switch (*s->p++ % 8) {
        case 5:
                errno = EAGAIN;
                return -1;
        case 6:
                errno = EPIPE;
                return -1;
        case 7:
                errno = EINTR;
                return -1;
        }
        len = 0;
        if (s->end - s->p >= 2) {
                len = (size_t)(s->p[0] | s->p[1] << 8);
                s->p += 2;
        }
        if (len > (size_t)(s->end - s->p))
                len = (size_t)(s->end - s->p);
        if (len == 0) {
                /* The device never returns 0 bytes. */
                errno = EAGAIN;
                return -1;
        }
        if (len > n) {
                s->p += len;
                errno = EINVAL;
                return -1;
        }
        memcpy(buf, s->p, len);
        s->p += len;
        return (ssize_t)len;
}

static off_t script_seek(void *userdata, off_t off, int whence) {
        return 0;
}

static const struct kmsg_device_ops script_ops = {
        .read = script_read,
        .seek = script_seek,
};

/* Run the script; returns a digest of what the reader gave. */
static uint64_t run(const uint8_t *data, size_t size, bool general) {
        struct script s = { size ? data + 1 : data, data + size };
        struct kmsg_reader *rd = NULL;
        struct kmsg_seqtrack *track = NULL;
        uint64_t records = 0, last_pos = 0, h = 14695981039346656037u;
        int e, i;

        FUZZ_ASSERT(kmsg_reader_new_device_ops(&script_ops, &s, KMSG_SEEK_START, &rd) == 0);
        rd->general_only = general;
        FUZZ_ASSERT(kmsg_reader_is_device(rd));
        FUZZ_ASSERT(kmsg_reader_get_format(rd) == KMSG_FORMAT_KMSG);
        FUZZ_ASSERT(kmsg_seqtrack_new(&track) == 0);
        /* A small limit, so that the buffer stops growing within reach. */
        if (size > 0 && data[0] & 0x80)
                FUZZ_ASSERT(kmsg_reader_set_max_record_size(rd, 4096) == 0);
        for (i = 0; i < 100000; i++) {
                struct kmsg_record *r = NULL;
                const struct kmsg_loss *loss;
                int f;

                e = kmsg_reader_next(rd, &r);
                h = digest_u64(h, (uint64_t)(int64_t)e);
                if (e == -EAGAIN) {
                        if (s.p >= s.end)
                                break;
                        continue;
                }
                /* Records are counted as they are read, whether they parse or not. */
                FUZZ_ASSERT(kmsg_reader_get_position(rd) >= last_pos);
                last_pos = kmsg_reader_get_position(rd);
                switch (e) {
                case 1:
                        FUZZ_ASSERT(r);
                        h = exercise_record(r, h);
                        f = kmsg_seqtrack_feed(track, r, &loss);
                        FUZZ_ASSERT(f >= 0);
                        FUZZ_ASSERT(!(f & KMSG_SEQ_LOSS) == !loss);
                        /* Before popping: that ends the loss's life. */
                        if (f & KMSG_SEQ_LOSS)
                                FUZZ_ASSERT(kmsg_loss_get_count(loss) > 0 &&
                                            kmsg_loss_cause_to_name(kmsg_loss_get_cause(loss)));
                        if (f & KMSG_SEQ_HELD) {
                                struct kmsg_record *released;

                                while (kmsg_seqtrack_pop(track, &released, NULL) >= 0)
                                        kmsg_record_unref(released);
                        }
                        records++;
                        break;
                case -EPIPE:
                        kmsg_seqtrack_note_cause(track, KMSG_LOSS_OVERRUN);
                        break;
                case -EMSGSIZE:
                        kmsg_seqtrack_note_cause(track, KMSG_LOSS_TOOBIG);
                        FUZZ_ASSERT(kmsg_reader_get_error(rd)[0]);
                        break;
                case -EBADMSG:
                        FUZZ_ASSERT(kmsg_reader_get_error(rd)[0]);
                        break;
                case -EINVAL:
                        /* EINVAL with the buffer at the size limit: not a record size problem. */
                        FUZZ_ASSERT(kmsg_reader_get_error(rd)[0]);
                        break;
                default:
                        fprintf(stderr, "unexpected kmsg_reader_next() result %d\n", e);
                        abort();
                }
        }
        FUZZ_ASSERT(e == -EAGAIN);
        FUZZ_ASSERT(kmsg_reader_next(rd, &(struct kmsg_record *){ NULL }) == -EAGAIN);
        FUZZ_ASSERT(kmsg_seqtrack_get_segments(track) <= records);
        h = digest_u64(h, kmsg_seqtrack_get_lost(track));
        h = digest_u64(h, kmsg_seqtrack_get_segments(track));
        kmsg_seqtrack_unref(track);
        FUZZ_ASSERT(kmsg_reader_unref(rd) == NULL);
        return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        if (run(data, size, false) != run(data, size, true)) {
                fprintf(stderr, "the scanner and the general parser read the records differently\n");
                abort();
        }
        return 0;
}
