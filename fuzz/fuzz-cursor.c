/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz the cursor file's parser, cursor_parse(): the input is the file's
 * bytes.  It returns 0 or -EBADMSG with a one-line message and leaves the
 * result alone on failure; what it accepts is a state a run can resume
 * from (a boot id, no seq that would wrap, a pending range after seq); and
 * cursor_format() of that state, as a save writes it, parses back to the
 * same state.
 */
#include <errno.h>
#include <string.h>

#include "ship/cursor.h"
#include "fuzz-common.h"

static void check_state(const struct cursor_state *s) {
        size_t n = strnlen(s->boot_id, sizeof(s->boot_id));

        FUZZ_ASSERT(s->loaded);
        FUZZ_ASSERT(n > 0 && n < sizeof(s->boot_id));
        FUZZ_ASSERT(!memchr(s->boot_id, '\n', n));
        FUZZ_ASSERT(!s->has_seq || s->seq != UINT64_MAX);
        if (s->has_pending) {
                FUZZ_ASSERT(s->pending != UINT64_MAX && s->pending_from != UINT64_MAX);
                FUZZ_ASSERT(s->pending_from <= s->pending);
                FUZZ_ASSERT(!s->has_seq || s->pending_from > s->seq);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct cursor_state s, untouched, again;
        char err[128] = "", buf[320];
        int e, len;

        memset(&s, 0x5a, sizeof(s));
        untouched = s;
        e = cursor_parse((const char *)data, size, &s, err, sizeof(err));
        if (e < 0) {
                FUZZ_ASSERT(e == -EBADMSG);
                FUZZ_ASSERT(memcmp(&s, &untouched, sizeof(s)) == 0);
                FUZZ_ASSERT(err[0] && !strchr(err, '\n'));
                return 0;
        }
        FUZZ_ASSERT(e == 0);
        if (!s.loaded) {
                FUZZ_ASSERT(size == 0);
                return 0;
        }
        check_state(&s);

        /* What a save writes reads back the same. */
        len = cursor_format(&s, buf, sizeof(buf));
        FUZZ_ASSERT(len > 0 && (size_t)len < sizeof(buf));
        memset(&again, 0, sizeof(again));
        e = cursor_parse(buf, (size_t)len, &again, err, sizeof(err));
        if (e != 0)
                fprintf(stderr, "written cursor refused: %s\n", err);
        FUZZ_ASSERT(e == 0);
        check_state(&again);
        FUZZ_ASSERT(strcmp(again.boot_id, s.boot_id) == 0);
        FUZZ_ASSERT(again.has_seq == s.has_seq);
        FUZZ_ASSERT(!s.has_seq || (again.seq == s.seq && again.usec == s.usec));
        FUZZ_ASSERT(again.newest == s.newest);
        FUZZ_ASSERT(again.has_pending == s.has_pending);
        FUZZ_ASSERT(!s.has_pending || (again.pending_from == s.pending_from && again.pending == s.pending));
        return 0;
}
