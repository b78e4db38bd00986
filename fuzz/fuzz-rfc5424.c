/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz the RFC 5424 messages of --upload relp:// (rfc5424_from_export(),
 * src/ship/upload-rfc5424.c): the input is an export stream, cut
 * into entries by export_entry_len() as the upload queue cuts it, and
 * each entry made a message.  It returns 0, or -EBADMSG or -ENOMEM with
 * the buffer as it was; appended after other bytes it appends the same
 * message; and every message it makes is one that a strict reading of
 * RFC 5424's grammar takes, field by field: PRI 0 to 191, version 1, a
 * time stamp or "-", HOSTNAME, APP-NAME and PROCID of printable ASCII
 * within their lengths, one of kdmesg's MSGIDs, structured data whose
 * SD-IDs and parameter names are SD-NAMEs, no SD-ID twice, values that
 * end at their unescaped '"' with no unescaped ']', and a MSG of valid
 * UTF-8 with no control character but the tab (C1 controls neither).  The whole message is
 * valid UTF-8.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "fuzz-common.h"
#include "output/export.h"
#include "ship/upload-rfc5424.h"
#include "text/escape.h"

static bool printusascii(const char *p, size_t n) {
        size_t i;

        for (i = 0; i < n; i++)
                if ((unsigned char)p[i] < 33 || (unsigned char)p[i] > 126)
                        return false;
        return n > 0;
}

static bool sd_name(const char *p, size_t n) {
        return n <= 32 && printusascii(p, n) && !memchr(p, '=', n) && !memchr(p, ']', n) && !memchr(p, '"', n);
}

static bool valid_utf8(const char *p, size_t n) {
        const unsigned char *s = (const unsigned char *)p;
        size_t i = 0, u;
        uint32_t cp;

        while (i < n) {
                if (s[i] < 0x80) {
                        i++;
                        continue;
                }
                u = utf8_decode(s + i, n - i, &cp);
                if (u == 0)
                        return false;
                i += u;
        }
        return true;
}

/* A header field up to the next space: at most max printable ASCII characters, or "-". */
static size_t header(const char *m, size_t n, size_t at, size_t max) {
        const char *sp = memchr(m + at, ' ', n - at);
        size_t k;

        FUZZ_ASSERT(sp);
        k = (size_t)(sp - (m + at));
        FUZZ_ASSERT(k >= 1 && k <= max && printusascii(m + at, k));
        return at + k + 1;
}

/* The structured data from at: "-" or SD-ELEMENTs; returns where it ends. */
static size_t structured_data(const char *m, size_t n, size_t at) {
        char ids[8][33];
        size_t n_ids = 0, i;

        if (m[at] == '-')
                return at + 1;
        FUZZ_ASSERT(m[at] == '[');
        while (at < n && m[at] == '[') {
                size_t s = ++at;

                while (at < n && m[at] != ' ' && m[at] != ']')
                        at++;
                FUZZ_ASSERT(at < n && sd_name(m + s, at - s));
                for (i = 0; i < n_ids; i++)
                        FUZZ_ASSERT(strlen(ids[i]) != at - s || memcmp(ids[i], m + s, at - s) != 0);
                FUZZ_ASSERT(n_ids < 8);
                memcpy(ids[n_ids], m + s, at - s);
                ids[n_ids++][at - s] = '\0';
                while (m[at] == ' ') {
                        s = ++at;
                        while (at < n && m[at] != '=')
                                at++;
                        FUZZ_ASSERT(at + 1 < n && sd_name(m + s, at - s) && m[at + 1] == '"');
                        for (at += 2; at < n && m[at] != '"'; at++) {
                                FUZZ_ASSERT(m[at] != ']');
                                if (m[at] == '\\')
                                        at++;
                        }
                        FUZZ_ASSERT(at < n);
                        at++;
                }
                FUZZ_ASSERT(at < n && m[at] == ']');
                at++;
        }
        return at;
}

static void check_message(const char *m, size_t n) {
        size_t at = 1, k, i;
        unsigned pri = 0;

        FUZZ_ASSERT(n > 0 && m[0] == '<');
        for (k = 0; at < n && m[at] >= '0' && m[at] <= '9'; at++, k++)
                pri = pri * 10 + (unsigned)(m[at] - '0');
        FUZZ_ASSERT(k >= 1 && k <= 3 && pri <= 191 && (k == 1 || m[1] != '0'));
        FUZZ_ASSERT(at + 3 <= n && memcmp(m + at, ">1 ", 3) == 0);
        at += 3;
        /* TIMESTAMP: "-" or 2023-11-14T22:13:21.500000Z. */
        if (m[at] == '-') {
                FUZZ_ASSERT(at + 1 < n && m[at + 1] == ' ');
                at += 2;
        } else {
                static const char shape[] = "dddd-dd-ddTdd:dd:dd.ddddddZ ";

                FUZZ_ASSERT(at + sizeof(shape) - 1 <= n);
                for (i = 0; i < sizeof(shape) - 1; i++)
                        FUZZ_ASSERT(shape[i] == 'd' ? m[at + i] >= '0' && m[at + i] <= '9' : m[at + i] == shape[i]);
                at += sizeof(shape) - 1;
        }
        at = header(m, n, at, 255);
        at = header(m, n, at, 48);
        at = header(m, n, at, 128);
        k = at;
        at = header(m, n, at, 32);
        k = at - k - 1;
        FUZZ_ASSERT((k == strlen(RFC5424_MSGID_RECORD) && memcmp(m + at - k - 1, RFC5424_MSGID_RECORD, k) == 0) ||
                    (k == strlen(RFC5424_MSGID_LOST) && memcmp(m + at - k - 1, RFC5424_MSGID_LOST, k) == 0) ||
                    (k == strlen(RFC5424_MSGID_BOOT) && memcmp(m + at - k - 1, RFC5424_MSGID_BOOT, k) == 0));
        FUZZ_ASSERT(at < n);
        at = structured_data(m, n, at);
        if (at < n) {
                FUZZ_ASSERT(m[at] == ' ' && at + 1 < n);
                for (i = at + 1; i < n; i++) {
                        FUZZ_ASSERT(m[i] == '\t' || ((unsigned char)m[i] >= 0x20 && m[i] != 0x7f));
                        /* No C1 control (U+0080-U+009F: 0xc2 0x80-0x9f) either. */
                        FUZZ_ASSERT(!((unsigned char)m[i] == 0xc2 && i + 1 < n && (unsigned char)m[i + 1] >= 0x80 &&
                                      (unsigned char)m[i + 1] <= 0x9f));
                }
                FUZZ_ASSERT(valid_utf8(m + at + 1, n - at - 1));
        }
        FUZZ_ASSERT(valid_utf8(m, n));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *p = (const char *)data;
        size_t o = 0, k;

        while (o < size && (k = export_entry_len(p + o, size - o)) > 0) {
                char *buf = NULL, *again = NULL;
                size_t cap = 0, len = 0, cap2 = 0, len2 = 3;
                int e;

                FUZZ_ASSERT(k <= size - o);
                e = rfc5424_from_export(p + o, k, &buf, &cap, &len);
                if (e < 0) {
                        FUZZ_ASSERT(e == -EBADMSG || e == -ENOMEM);
                        FUZZ_ASSERT(len == 0);
                } else {
                        FUZZ_ASSERT(e == 0);
                        check_message(buf, len);
                        /* Appended after other bytes: the same message after them, which stay. */
                        again = malloc(4);
                        FUZZ_ASSERT(again);
                        memcpy(again, "ab\n", 3);
                        cap2 = 4;
                        FUZZ_ASSERT(rfc5424_from_export(p + o, k, &again, &cap2, &len2) == 0);
                        FUZZ_ASSERT(len2 == 3 + len && memcmp(again, "ab\n", 3) == 0);
                        FUZZ_ASSERT(memcmp(again + 3, buf, len) == 0);
                }
                free(buf);
                free(again);
                o += k;
        }
        return 0;
}
