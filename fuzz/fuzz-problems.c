/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz the problem rules' parser, problems_load_buffer(), and the
 * classifier: the input is a rules file, then after a NUL byte (if any)
 * the messages of records to classify, one per line.  A bad file gets
 * -EINVAL and one line "fuzz.rules:LINE: what" with LINE in the file; good
 * rules classify every record as a known kind or none, with a subject.
 * The lines' records step in time and facility by their first byte (so
 * that reports end by time and by origin too), and the built-in rules
 * classify them as well.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz-common.h"
#include "select/problems.h"

/* The built-in rules, loaded once: every input's lines go through them too. */
static struct problems *builtin;

static void check_hit(struct problems *p, const struct kmsg_record *r) {
        struct problem_hit h;

        FUZZ_ASSERT(problems_classify(p, r, &h) == 0);
        FUZZ_ASSERT(h.kind == PROBLEM_NONE || problem_kind_name(h.kind));
        FUZZ_ASSERT(!h.opens || h.subject);
        FUZZ_ASSERT(!h.retitled || (h.subject && !h.opens && h.kind != PROBLEM_NONE));
        /* Provisional: a problem opened or retitled whose subject may still change. */
        FUZZ_ASSERT(!h.provisional || h.opens || h.retitled);
        if (h.subject)
                FUZZ_ASSERT(strlen(h.subject) < 256 && !strchr(h.subject, '\n'));
}

static void classify_lines(struct problems *p, const char *text, size_t len) {
        static const char *const fixed[] = {
                "1,0,0,-;BUG: kernel NULL pointer dereference, address: 0000000000000008",
                "4,1,1,-;Call Trace:",
                "4,2,2,-; dump_stack+0x1/0x2",
                "4,3,3,-;---[ end trace 0000000000000000 ]---",
                "3,4,4,-;blk_update_request: I/O error, dev sda, sector 8\n SUBSYSTEM=block\n DEVICE=b8:0",
        };
        struct problem_hit h;
        struct kmsg_record *r;
        size_t i;

        if (!builtin) {
                builtin = problems_new();
                FUZZ_ASSERT(builtin && problems_load_builtin(builtin) == 0);
        }

        for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
                if (kmsg_record_parse(fixed[i], strlen(fixed[i]), &r) >= 0) {
                        FUZZ_ASSERT(problems_classify(p, r, &h) == 0);
                        FUZZ_ASSERT(h.kind == PROBLEM_NONE || problem_kind_name(h.kind));
                        FUZZ_ASSERT(!h.opens || (h.subject && strlen(h.subject) < 256));
                        kmsg_record_unref(r);
                }
        for (i = 0; len > 0; i++) {
                const char *nl = memchr(text, '\n', len);
                size_t n = nl ? (size_t)(nl - text) : len;
                /* The first byte picks the record's time step (a report ends after 2 s) and facility. */
                unsigned step = n > 0 ? (unsigned char)text[0] : 0;
                char buf[600];
                int k;

                k = snprintf(buf, sizeof(buf), "%u,%zu,%llu,-;%.*s", step & 0x80 ? 12u : 4u, i + 10,
                             (unsigned long long)(1000000 + i * 100000 * (step & 0x3f)), (int)(n < 500 ? n : 500),
                             text);
                if (k > 0 && kmsg_record_parse(buf, (size_t)k, &r) >= 0) {
                        check_hit(p, r);
                        /* The built-in rules on the same records. */
                        if (builtin)
                                check_hit(builtin, r);
                        kmsg_record_unref(r);
                }
                text += n + (nl ? 1 : 0);
                len -= n + (nl ? 1 : 0);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *text = (const char *)data, *nul = memchr(data, '\0', size);
        size_t rules_len = nul ? (size_t)(nul - text) : size;
        struct problems *p = problems_new();
        int e;

        if (!p)
                return 0;
        e = problems_load_buffer(p, "fuzz.rules", text, rules_len);
        if (e < 0) {
                const char *err = problems_error(p);
                unsigned line = 0;
                int n = 0;

                FUZZ_ASSERT(e == -EINVAL || e == -ENOMEM);
                if (e == -EINVAL) {
                        FUZZ_ASSERT(sscanf(err, "fuzz.rules:%u: %n", &line, &n) == 1 && n > 0);
                        FUZZ_ASSERT(line >= 1 && !strchr(err, '\n'));
                }
        } else
                classify_lines(p, nul ? nul + 1 : text + size, nul ? size - rules_len - 1 : 0);
        problems_free(p);
        return 0;
}
