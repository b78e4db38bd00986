/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fuzz the stream readers: the input is read as a file through
 * kmsg_reader_new_fd() with format detection and with each format forced,
 * every record is taken apart with every accessor and fed to a sequence
 * tracker.  Each format is read from a memfd in large reads; one of them,
 * picked by the input's last byte, is read again in small reads (the
 * reads capped by a read callback, also steered by the last byte), so
 * that records straddle chunk boundaries.  Both reads must yield the same
 * records, errors and line numbers.  The kmsg form is read once more with
 * every record through the general path (not kmsg_scan_record()'s one
 * pass): again the same.  A second tracker with a small reorder
 * window gets the same records: each comes out of it once, or is a
 * duplicate.
 */
#include <errno.h>
#include <unistd.h>

#include "fuzz-common.h"
#include "reader-private.h"

/* read() on a descriptor, at most chunk bytes at a time: the reader's source in place of its own read(). */
struct capped_fd {
        int fd;
        size_t chunk;
};

static ssize_t capped_read(void *userdata, void *buf, size_t n) {
        const struct capped_fd *c = userdata;

        return read(c->fd, buf, n < c->chunk ? n : c->chunk);
}

static const struct kmsg_device_ops capped_ops = {
        .read = capped_read,
};

/* Pop what the tracker released; returns how many, adds their seqs to *h. */
static uint64_t pop_all(struct kmsg_seqtrack *t, uint64_t *h) {
        struct kmsg_record *released;
        const struct kmsg_loss *rl;
        uint64_t n = 0;
        int rf;

        while ((rf = kmsg_seqtrack_pop(t, &released, &rl)) >= 0) {
                FUZZ_ASSERT(!(rf & (KMSG_SEQ_DUPLICATE | KMSG_SEQ_HELD)));
                FUZZ_ASSERT(!(rf & KMSG_SEQ_LOSS) == !rl);
                FUZZ_ASSERT(!rl || kmsg_loss_get_count(rl) > 0);
                *h = digest_u64(*h, kmsg_record_get_seqnum(released));
                kmsg_record_unref(released);
                n++;
        }
        FUZZ_ASSERT(rf == -ENODATA);
        return n;
}

/*
 * Read everything from fd; returns a digest of records, errors and positions.
 * lines: 1 + the newline bytes in the input, the largest position there is.
 */
static uint64_t read_all(int fd, enum kmsg_format format, size_t chunk, bool general, uint64_t lines,
                         uint64_t *ret_records) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_seqtrack *track = NULL, *win = NULL;
        uint64_t win_out = 0;
        struct kmsg_record *kept = NULL, *r;
        uint64_t h = 14695981039346656037u, records = 0, kept_digest = 0, last, pos = 0;
        struct capped_fd capped = { .fd = fd, .chunk = chunk };
        int e = 0, i;

        FUZZ_ASSERT(kmsg_reader_new_fd(fd, "fuzz", format, &rd) == 0);
        if (chunk > 0)
                reader_set_source(rd, &capped_ops, &capped);
        rd->general_only = general;
        FUZZ_ASSERT(kmsg_seqtrack_new(&track) == 0);
        FUZZ_ASSERT(kmsg_seqtrack_new(&win) == 0);
        FUZZ_ASSERT(kmsg_seqtrack_set_reorder_window(win, 4) == 0);
        FUZZ_ASSERT(!kmsg_reader_is_device(rd));
        FUZZ_ASSERT(kmsg_reader_get_fd(rd) == fd);
        /* Bounded: every call consumes input or ends it. */
        for (i = 0; i < 1000000; i++) {
                const struct kmsg_loss *loss;
                int f;

                r = NULL;
                e = kmsg_reader_next(rd, &r);
                /* A record the caller kept is untouched by the reader moving on. */
                if (kept) {
                        FUZZ_ASSERT(e != 1 || r != kept);
                        FUZZ_ASSERT(exercise_record(kept, 0) == kept_digest);
                        kept = kmsg_record_unref(kept);
                }
                h = digest_u64(h, (uint64_t)(int64_t)e);
                h = digest_u64(h, kmsg_reader_get_position(rd));
                if (e == 0)
                        break;
                /* A line of the input (every newline byte counts), never going back. */
                FUZZ_ASSERT(kmsg_reader_get_position(rd) >= 1 && kmsg_reader_get_position(rd) <= lines);
                FUZZ_ASSERT(kmsg_reader_get_position(rd) >= pos);
                pos = kmsg_reader_get_position(rd);
                if (e < 0) {
                        const char *err = kmsg_reader_get_error(rd);

                        FUZZ_ASSERT(e == -EBADMSG || e == -E2BIG);
                        FUZZ_ASSERT(err && err[0]);
                        h = digest_str(h, err);
                        continue;
                }
                FUZZ_ASSERT(e == 1 && r);
                h = exercise_record(r, h);
                f = kmsg_seqtrack_feed(track, r, &loss);
                FUZZ_ASSERT(f >= 0 && f <= (KMSG_SEQ_LOSS | KMSG_SEQ_NEW_SEGMENT | KMSG_SEQ_DUPLICATE |
                                            KMSG_SEQ_HELD | KMSG_SEQ_CLASH));
                /* A clash is delivered as it is: no loss before it, no boot. */
                FUZZ_ASSERT(!(f & KMSG_SEQ_CLASH) || f == KMSG_SEQ_CLASH);
                h = digest_u64(h, (uint64_t)f);
                FUZZ_ASSERT(!(f & KMSG_SEQ_LOSS) == !loss);
                /* Before popping: that ends the loss's life. */
                if (f & KMSG_SEQ_LOSS) {
                        FUZZ_ASSERT(kmsg_loss_get_count(loss) > 0);
                        FUZZ_ASSERT(kmsg_loss_cause_to_name(kmsg_loss_get_cause(loss)));
                        h = digest_u64(h, kmsg_loss_get_first_seq(loss));
                        h = digest_u64(h, kmsg_loss_get_count(loss));
                        h = digest_u64(h, kmsg_loss_get_cause(loss));
                }
                if (f & KMSG_SEQ_HELD) {
                        struct kmsg_record *released;
                        const struct kmsg_loss *rl;
                        int rf;

                        while ((rf = kmsg_seqtrack_pop(track, &released, &rl)) >= 0) {
                                FUZZ_ASSERT(!(rf & (KMSG_SEQ_DUPLICATE | KMSG_SEQ_HELD)));
                                FUZZ_ASSERT(!(rf & KMSG_SEQ_LOSS) == !rl);
                                h = digest_u64(h, kmsg_record_get_seqnum(released));
                                kmsg_record_unref(released);
                        }
                        FUZZ_ASSERT(rf == -ENODATA);
                }
                {
                        const struct kmsg_loss *wl;
                        int wf = kmsg_seqtrack_feed(win, r, &wl);

                        FUZZ_ASSERT(wf >= 0);
                        FUZZ_ASSERT(!(wf & KMSG_SEQ_LOSS) == !wl);
                        h = digest_u64(h, (uint64_t)wf);
                        if (!(wf & (KMSG_SEQ_HELD | KMSG_SEQ_DUPLICATE)))
                                win_out++;
                        win_out += pop_all(win, &h);
                }
                if (records++ & 1) {
                        kept = kmsg_record_ref(r);
                        kept_digest = exercise_record(kept, 0);
                }
        }
        FUZZ_ASSERT(e == 0);
        /* The end is sticky. */
        r = NULL;
        FUZZ_ASSERT(kmsg_reader_next(rd, &r) == 0);
        h = digest_u64(h, kmsg_reader_get_format(rd));
        h = digest_u64(h, kmsg_seqtrack_get_lost(track));
        h = digest_u64(h, kmsg_seqtrack_get_duplicates(track));
        h = digest_u64(h, kmsg_seqtrack_get_segments(track));
        h = digest_u64(h, kmsg_seqtrack_get_last(track, &last) == 0 ? last : UINT64_MAX);
        FUZZ_ASSERT(kmsg_reader_get_format(rd) != KMSG_FORMAT_AUTO);
        FUZZ_ASSERT(strcmp(kmsg_reader_get_name(rd), "fuzz") == 0);
        kmsg_seqtrack_unref(track);
        /* Every record came out of the windowed tracker once, or was a duplicate. */
        FUZZ_ASSERT(kmsg_seqtrack_finish(win) == 0);
        win_out += pop_all(win, &h);
        FUZZ_ASSERT(win_out + kmsg_seqtrack_get_duplicates(win) == records);
        h = digest_u64(h, kmsg_seqtrack_get_lost(win));
        kmsg_seqtrack_unref(win);
        FUZZ_ASSERT(kmsg_reader_unref(rd) == NULL);
        *ret_records = records;
        return h;
}

/* Read the input in fd from its start. */
static uint64_t read_from_start(int fd, enum kmsg_format format, size_t chunk, bool general, uint64_t lines,
                                uint64_t *ret_records) {
        FUZZ_ASSERT(lseek(fd, 0, SEEK_SET) == 0);
        return read_all(fd, format, chunk, general, lines, ret_records);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const enum kmsg_format formats[] = {
                KMSG_FORMAT_AUTO, KMSG_FORMAT_KMSG, KMSG_FORMAT_EXPORT, KMSG_FORMAT_SYSLOG, KMSG_FORMAT_JSON,
        };
        const size_t n_formats = sizeof(formats) / sizeof(formats[0]);
        /*
         * The last byte picks the format read a second time in small reads
         * and their size, so that the fuzzer steers the boundaries.
         */
        unsigned char steer = size ? data[size - 1] : 0;
        size_t chunk = 1 + (size_t)(steer / n_formats) % 51, i;
        uint64_t lines = 1;

        int fd = fuzz_memfd(data, size);

        for (i = 0; i < size; i++)
                lines += data[i] == '\n';
        /* Keep the run time bounded: tiny reads only for small inputs. */
        if (size / chunk > 4096)
                chunk = size / 4096 + 1;
        for (i = 0; i < n_formats; i++) {
                uint64_t whole_records, chunked_records, whole, chunked;

                whole = read_from_start(fd, formats[i], 0, false, lines, &whole_records);
                if (formats[i] == KMSG_FORMAT_KMSG) {
                        uint64_t general_records, general = read_from_start(fd, formats[i], 0, true, lines,
                                                                             &general_records);

                        if (whole != general) {
                                fprintf(stderr, "kmsg form: %llu records in one pass, %llu by the general "
                                                "path: the results differ\n",
                                        (unsigned long long)whole_records, (unsigned long long)general_records);
                                abort();
                        }
                }
                if (steer % n_formats != i)
                        continue;
                chunked = read_from_start(fd, formats[i], chunk, false, lines, &chunked_records);
                if (whole != chunked) {
                        fprintf(stderr, "format %d: %llu records read whole, %llu in %zu-byte reads: "
                                        "the results differ\n",
                                (int)formats[i], (unsigned long long)whole_records,
                                (unsigned long long)chunked_records, chunk);
                        abort();
                }
        }
        close(fd);
        return 0;
}
