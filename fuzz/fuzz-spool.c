/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz the loading of --upload's spool, spool_load(): the input is the
 * file FILE.spool/units.  Whatever it holds, loading never reads past a
 * frame's length, hands over only whole frames whose CRC matches (a
 * boot id NUL-terminated, data within the file), leaves out and cuts off
 * the rest at a frame's start, and leaves a file that loads again to the
 * same units with nothing left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ship/upload-spool.h"
#include "fuzz-common.h"

struct seen {
        size_t units;
        uint64_t bytes;
        uint32_t digest;
};

static int on_unit(void *userdata, const struct spool_rec *r, const char *data, size_t len) {
        struct seen *s = userdata;

        FUZZ_ASSERT(memchr(r->boot, '\0', sizeof(r->boot)) != NULL);
        s->units++;
        s->bytes += len;
        s->digest = spool_crc32(s->digest, data, len);
        s->digest = spool_crc32(s->digest, &r->seq, sizeof(r->seq));
        return 0;
}

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char cursor[128], path[160], err[256];
        struct seen a = { 0 }, b = { 0 };
        uint64_t bad_at, bad_len, size_after;
        struct spool *s = NULL;
        int fd, e;

        if (!dir[0]) {
                snprintf(dir, sizeof(dir), "/tmp/fuzz-spool-XXXXXX");
                FUZZ_ASSERT(mkdtemp(dir) != NULL);
        }
        snprintf(cursor, sizeof(cursor), "%s/c", dir);
        snprintf(path, sizeof(path), "%s/c.spool/units", dir);
        snprintf(err, sizeof(err), "%s/c.spool", dir);
        mkdir(err, 0700);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        FUZZ_ASSERT(fd >= 0);
        FUZZ_ASSERT(size == 0 || write(fd, data, size) == (ssize_t)size);
        close(fd);

        e = spool_open(cursor, "export", &s, err, sizeof(err));
        FUZZ_ASSERT(e == 0 && s);
        e = spool_load(s, on_unit, &a, &bad_at, &bad_len);
        FUZZ_ASSERT(e == 0);
        size_after = spool_size(s);
        if (size == 0)
                FUZZ_ASSERT(a.units == 0 && bad_len == 0);
        else if (bad_len > 0 && bad_at == 0)
                /* Not a spool of this format: left out whole, a header of the right one in its place. */
                FUZZ_ASSERT(a.units == 0 && bad_len == size && size_after == SPOOL_FILE_HEAD);
        else {
                FUZZ_ASSERT(bad_at + bad_len == size || bad_len == 0);
                FUZZ_ASSERT(size_after == (bad_len ? bad_at : size));
                FUZZ_ASSERT(a.bytes + a.units * SPOOL_FRAME_HEAD + SPOOL_FILE_HEAD == size_after);
        }
        spool_free(s);

        /* What is left loads again, the same units, nothing left out. */
        e = spool_open(cursor, "export", &s, err, sizeof(err));
        FUZZ_ASSERT(e == 0 && s);
        FUZZ_ASSERT(spool_load(s, on_unit, &b, &bad_at, &bad_len) == 0);
        FUZZ_ASSERT(bad_len == 0);
        FUZZ_ASSERT(b.units == a.units && b.bytes == a.bytes && b.digest == a.digest);
        spool_free(s);
        unlink(path);
        return 0;
}
