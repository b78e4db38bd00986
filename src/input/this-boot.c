/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A dump of the running boot: its records are still in the ring, with the
 * same sequence numbers, time stamps and messages, or it carries this
 * boot's id (export and JSON dumps).  The ring is read once into a table of
 * (seq, time stamp, hash of the message); each dump is read until one of
 * its records decides.  Records the ring no longer holds (rotated out)
 * decide nothing: a later one of the same dump may still be there.  A
 * dump where an earlier boot comes before the record that decides (the
 * time drops by more than 30 s, or the numbers start at 0 again with it) is
 * not one of the running boot alone: its earlier records would get this
 * boot's times and id.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/this-boot.h"
#include "base/bootid.h"
#include "base/i18n.h"

/* A drop of the time stamps by more than this is a new boot (as the sequence tracker has it). */
#define BOOT_DROP_USEC 30000000u

struct ring_entry {
        uint64_t seq, usec, hash;
};

struct this_boot {
        const char *device;
        bool read;
        struct ring_entry *e;
        size_t n, size;
};

/* FNV-1a over the message's bytes. */
static uint64_t hash_message(const struct kmsg_record *r) {
        size_t len, i;
        const char *m = kmsg_record_get_message(r, &len);
        uint64_t h = 0xcbf29ce484222325ull;

        for (i = 0; i < len; i++)
                h = (h ^ (unsigned char)m[i]) * 0x100000001b3ull;
        return h;
}

static int ring_read(struct this_boot *ring, const char *device) {
        struct kmsg_reader *rd;
        struct kmsg_record *r;
        int e;

        e = kmsg_reader_new_device(device, KMSG_SEEK_START, &rd);
        if (e < 0)
                return e;
        /* An overrun while reading (EPIPE) moves on to what is still there: the table stays in seq order. */
        while ((e = kmsg_reader_next(rd, &r)) != 0 && e != -EAGAIN) {
                if (e < 0) {
                        if (e == -EPIPE || e == -EBADMSG || e == -E2BIG || e == -EMSGSIZE)
                                continue;
                        break;
                }
                if (!kmsg_record_has_seqnum(r) || !kmsg_record_has_timestamp(r))
                        continue;
                if (ring->n == ring->size) {
                        size_t size = ring->size ? ring->size * 2 : 1024;
                        struct ring_entry *a = realloc(ring->e, size * sizeof(*a));

                        if (!a) {
                                e = -ENOMEM;
                                break;
                        }
                        ring->e = a;
                        ring->size = size;
                }
                ring->e[ring->n++] = (struct ring_entry){ kmsg_record_get_seqnum(r), kmsg_record_get_timestamp(r),
                                                          hash_message(r) };
        }
        kmsg_reader_unref(rd);
        return e == -EAGAIN ? 0 : e;
}

static const struct ring_entry *ring_find(const struct this_boot *ring, uint64_t seq) {
        size_t lo = 0, hi = ring->n;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;

                if (ring->e[mid].seq < seq)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return lo < ring->n && ring->e[lo].seq == seq ? &ring->e[lo] : NULL;
}

struct this_boot *this_boot_new(const char *device) {
        struct this_boot *tb = calloc(1, sizeof(*tb));

        if (tb)
                tb->device = device;
        return tb;
}

struct this_boot *this_boot_free(struct this_boot *tb) {
        if (tb)
                free(tb->e);
        free(tb);
        return NULL;
}

int this_boot_dump(struct this_boot *ring, const char *path, enum kmsg_format format, const char **ret_why) {
        struct kmsg_reader *rd;
        struct kmsg_record *r;
        struct stat st;
        char boot[33];
        bool have_boot = boot_id_read(boot) == 0, have_prev = false, earlier = false;
        uint64_t prev_seq = 0, prev_usec = 0;
        int e, verdict = -1;

        /* A pipe read here would be gone for the run. */
        if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
                *ret_why = _("it is not a regular file: read twice, it would be gone");
                return 0;
        }
        e = kmsg_reader_new_path(path, format, &rd);
        if (e < 0) {
                *ret_why = _("it cannot be opened");
                return 0;
        }
        *ret_why = _("none of its records is still in the ring, none carries a boot id: "
                     "whose boot it is cannot be told");
        while (verdict < 0 && (e = kmsg_reader_next(rd, &r)) != 0) {
                const char *id;
                const struct ring_entry *re;

                if (e < 0) {
                        if (e == -EBADMSG || e == -E2BIG)
                                continue;
                        *ret_why = _("it cannot be read");
                        verdict = 0;
                        break;
                }
                id = kmsg_record_get_boot_id(r);
                if (id && have_boot) {
                        verdict = strcmp(id, boot) == 0;
                        if (!verdict)
                                *ret_why = _("its boot id is not this boot's");
                        break;
                }
                if (!kmsg_record_has_seqnum(r) || !kmsg_record_has_timestamp(r))
                        continue;
                /*
                 * A new boot before the record that decides: the time drops by more than 30 s, or the
                 * numbers start again at 0 with it (out of order records of one boot are neither).
                 */
                if (have_prev && (kmsg_record_get_timestamp(r) + BOOT_DROP_USEC < prev_usec ||
                                  (kmsg_record_get_seqnum(r) == 0 && prev_seq > 0 &&
                                   kmsg_record_get_timestamp(r) < prev_usec)))
                        earlier = true;
                have_prev = true;
                prev_seq = kmsg_record_get_seqnum(r);
                prev_usec = kmsg_record_get_timestamp(r);
                if (!ring->read) {
                        ring->read = true;
                        e = ring_read(ring, ring->device);
                        if (e == -ENOMEM) {
                                kmsg_reader_unref(rd);
                                return e;
                        }
                        if (e < 0) {
                                *ret_why = _("the ring (/dev/kmsg) cannot be read to compare");
                                verdict = 0;
                                break;
                        }
                }
                if (ring->n == 0) {
                        *ret_why = _("the ring (/dev/kmsg) cannot be read to compare");
                        verdict = 0;
                        break;
                }
                /* Rotated out of the ring since: a later record may still be there. */
                if (kmsg_record_get_seqnum(r) < ring->e[0].seq)
                        continue;
                re = ring_find(ring, kmsg_record_get_seqnum(r));
                verdict = re && re->usec == kmsg_record_get_timestamp(r) && re->hash == hash_message(r);
                if (!verdict)
                        *ret_why = _("its records are not those of the ring: another boot's");
                else if (earlier) {
                        *ret_why = _("an earlier boot comes before this boot's records in it");
                        verdict = 0;
                }
        }
        kmsg_reader_unref(rd);
        return verdict > 0;
}
