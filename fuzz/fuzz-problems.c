/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz the problem rules' parser, problems_load_buffer(), and the
 * classifier: the input is a rules file, then after a NUL byte (if any)
 * the messages of records to classify, one per line.  A bad file gets
 * -EINVAL and one line "fuzz.rules:LINE: what" with LINE in the file; good
 * rules classify every record as a known kind or none, with a subject.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz-common.h"
#include "select/problems.h"

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

        for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
                if (kmsg_record_parse(fixed[i], strlen(fixed[i]), &r) >= 0) {
                        FUZZ_ASSERT(problems_classify(p, r, &h) == 0);
                        FUZZ_ASSERT(h.kind == PROBLEM_NONE || problem_kind_name(h.kind));
                        FUZZ_ASSERT(!h.opens || (h.subject && strlen(h.subject) < 256));
                        kmsg_record_unref(r);
                }
        while (len > 0) {
                const char *nl = memchr(text, '\n', len);
                size_t n = nl ? (size_t)(nl - text) : len;
                char buf[600];
                int k;

                k = snprintf(buf, sizeof(buf), "4,9,9,-;%.*s", (int)(n < 500 ? n : 500), text);
                if (k > 0 && kmsg_record_parse(buf, (size_t)k, &r) >= 0) {
                        FUZZ_ASSERT(problems_classify(p, r, &h) == 0);
                        FUZZ_ASSERT(h.kind == PROBLEM_NONE || problem_kind_name(h.kind));
                        FUZZ_ASSERT(!h.opens || h.subject);
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
