/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The journal export form, the syslog form and format detection. */
#include <errno.h>
#include <stdlib.h>

#include "kmsg-private.h"
#include "tests.h"
#include "memsrc.h"

/* A binary field: KEY\n + le64 length + bytes + \n; `len` is what the length field says. */
static size_t put_bin(char *p, const char *key, uint64_t len, const char *data, size_t n) {
        size_t k = strlen(key), i;

        memcpy(p, key, k);
        p[k] = '\n';
        for (i = 0; i < 8; i++)
                p[k + 1 + i] = (char)(len >> (8 * i) & 0xff);
        memcpy(p + k + 9, data, n);
        p[k + 9 + n] = '\n';
        return k + 10 + n;
}

static size_t put(char *p, const char *s) {
        size_t n = strlen(s);

        memcpy(p, s, n);
        return n;
}

TEST(export_mapping_every_boundary) {
        static char buf[4096];
        size_t n = 0;
        char *t;

        n += put(buf + n, "PRIORITY=3\n"            /* 1 */
                          "SYSLOG_FACILITY=0\n"
                          "SEQNUM=10\n"
                          "TIMESTAMP=1500\n"
                          "MESSAGE=text; message=x\n"
                          "_KERNEL_SUBSYSTEM=pci\n"
                          "_KERNEL_DEVICE=+pci:0000:00:02.0\n"
                          "CUSTOM=a=b\n"
                          "__REALTIME_TIMESTAMP=123\n"
                          "_BOOT_ID=0123\n"
                          "SYSLOG_IDENTIFIER=kernel\n"
                          "\n");                    /* 12 */
        n += put_bin(buf + n, "MESSAGE", 12, "bin\0ary\nmsg\\", 12); /* 13-15: newlines in data count */
        n += put(buf + n, "PRIORITY=6\n"            /* 16 */
                          "SEQNUM=11\n"
                          "_SOURCE_MONOTONIC_TIMESTAMP=2000\n"
                          "__MONOTONIC_TIMESTAMP=9999\n");
        n += put_bin(buf + n, "BINKEY", 3, "x\ny", 3); /* 20-22 */
        n += put(buf + n, "\n"                      /* 23 */
                          "\n"                      /* 24 */
                          "SYSLOG_FACILITY=24\n"    /* 25 */
                          "PRIORITY=1\n"
                          "SEQNUM=12\n"
                          "__MONOTONIC_TIMESTAMP=3000\n"
                          "MESSAGE=fac 24\r\n"
                          "KMSG_FLAGS=c\n"
                          "KMSG_FIELDS=caller=T9,x=y\n"
                          "\n"                      /* 32 */
                          "SEQNUM=13\nPRIORITY=9\nMESSAGE=bad priority\n\n" /* 33 */
                          "SEQNUM=14\n\n"           /* 37 */
                          "SEQNUM=x\nMESSAGE=m\n\n" /* 39 */
                          "MESSAGE=no blank line at the end"); /* 42 */

        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=3 seq=10 usec=1500 flags= fields= msg=text; message=x |SUBSYSTEM=pci "
                         "|DEVICE=+pci:0000:00:02.0 JCUSTOM=a=b J__REALTIME_TIMESTAMP=123 "
                         "JSYSLOG_IDENTIFIER=kernel\n"
                         "R@13 pri=6 seq=11 usec=2000 flags= fields= msg=bin\\00ary\\0amsg\\5c "
                         "J__MONOTONIC_TIMESTAMP=9999 JBINKEY=x\\0ay\n"
                         "R@25 pri=193 seq=12 usec=3000 flags=c fields=caller=T9,x=y caller=T9 msg=fac 24 "
                         "J__MONOTONIC_TIMESTAMP=3000\n"
                         "E-74@33 PRIORITY is not a number from 0 to 7\n"
                         "E-74@37 record has no MESSAGE field\n"
                         "E-74@39 SEQNUM is not a number\n"
                         "R@42 flags= fields= msg=no blank line at the end\n"
                         "EOF\n");
        free(t);
        /* Detected from the first bytes, also after blank lines. */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_AUTO, 0);
        CHECK(strncmp(t, "R@1 pri=3 seq=10", 16) == 0);
        free(t);
}

/* KMSG_DICT=KEY=VALUE: \xNN in KEY is a byte (kdmesg writes '=' and '\' so), the first '=' ends KEY. */
TEST(export_kmsg_dict_key_escapes) {
        static const char in[] = "MESSAGE=m\n"
                                 "KMSG_DICT=K\\x3dY=v=w\n"
                                 "KMSG_DICT=\\x3D=upper\n"
                                 "KMSG_DICT=a\\x5cb=c\n"
                                 "KMSG_DICT=lit\\zz=1\n"
                                 "KMSG_DICT=nul\\x00=2\n"
                                 "\n"
                                 "MESSAGE=m\n"
                                 "KMSG_DICT==x\n"
                                 "\n";
        char *t = check_all_boundaries(__FILE__, __LINE__, in, sizeof(in) - 1, KMSG_FORMAT_EXPORT, 0);

        check_transcript(__FILE__, __LINE__, t,
                         "R@1 flags= fields= msg=m |K=Y=v=w |==upper |a\\b=c |lit\\zz=1 |nul\\x00=2\n"
                         "E-74@8 KMSG_DICT is not KEY=VALUE\n"
                         "EOF\n");
        free(t);
}

TEST(export_caller_and_subsystem_accessors) {
        static const char in[] = "MESSAGE=m\n_KERNEL_SUBSYSTEM=usb\n_KERNEL_DEVICE=c189:1\nKMSG_FIELDS=caller=C3\n\n";
        struct memsrc m = { .data = in, .len = sizeof(in) - 1 };
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r = NULL;
        char kind = 0;
        uint32_t id = 0;

        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_AUTO, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_reader_get_format(rd), KMSG_FORMAT_EXPORT);
        CHECK_STR(kmsg_record_get_subsystem(r), "usb");
        CHECK_STR(kmsg_record_get_device(r), "c189:1");
        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
        CHECK_INT(kind, 'C');
        CHECK_INT(id, 3);
        CHECK(!kmsg_record_has_priority(r));
        CHECK(!kmsg_record_has_seqnum(r));
        CHECK(!kmsg_record_has_timestamp(r));
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

TEST(export_boot_id) {
        static const char in[] = "_BOOT_ID=0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e\nSEQNUM=1\nMESSAGE=a\n\n"
                                 "SEQNUM=2\nMESSAGE=b\n\n"
                                 "_BOOT_ID=\nSEQNUM=3\nMESSAGE=c\n\n"
                                 "_BOOT_ID\n\x02\0\0\0\0\0\0\0x\0\nSEQNUM=4\nMESSAGE=d\n\n";
        struct memsrc m = { .data = in, .len = sizeof(in) - 1 };
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r = NULL;

        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_EXPORT, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_boot_id(r), "0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e");
        /* It is not a dictionary entry. */
        CHECK_INT(kmsg_record_get_dict_count(r), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(kmsg_record_get_boot_id(r) == NULL);
        /* Empty, or with a NUL byte: not a boot id. */
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_STR(kmsg_reader_get_error(rd), "_BOOT_ID is empty or holds a NUL byte");
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

/*
 * A dictionary key is a C string: a _KERNEL_ field whose name holds a NUL
 * byte would be a key cut at it (the empty key of a fuzzed dump, which
 * --format=kmsg could not write back), so the entry is refused.
 */
TEST(export_kernel_field_name_with_nul) {
        static const char in[] = "SEQNUM=1\nMESSAGE=a\n_KERNEL_\0\x07X=v\n\n"
                                 "SEQNUM=2\nMESSAGE=b\n_KERNEL_DEVICE=b8:0\n\n";
        struct memsrc m = { .data = in, .len = sizeof(in) - 1 };
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r = NULL;
        const char *k, *v;

        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_EXPORT, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_STR(kmsg_reader_get_error(rd), "dictionary key (a _KERNEL_ field's name) holds a NUL byte");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "b");
        CHECK_INT(kmsg_record_get_dict_entry(r, 0, &k, &v, NULL), 0);
        CHECK_STR(k, "DEVICE");
        CHECK_STR(v, "b8:0");
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

/*
 * The same for KMSG_DICT's KEY of a binary field (fuzz-output's crash: a
 * key of NUL bytes was the empty key, one of "1\v\0" the key "1\v", and
 * --format=kmsg wrote what did not read back as the record); the text
 * \x00 stays a key as written.
 */
TEST(export_kmsg_dict_key_with_nul) {
        static char in[128];
        size_t n = 0;
        struct memsrc m = { .data = in };
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r = NULL;
        const char *k, *v;

        n += put(in + n, "SEQNUM=1\nMESSAGE=a\n");
        n += put_bin(in + n, "KMSG_DICT", 6, "1\v\0=xy", 6);
        n += put(in + n, "\nSEQNUM=2\nMESSAGE=b\n");
        n += put_bin(in + n, "KMSG_DICT", 4, "\0\0=x", 4);
        n += put(in + n, "\nSEQNUM=3\nMESSAGE=c\nKMSG_DICT=nul\\x00=2\n\n");
        m.len = n;
        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_EXPORT, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_STR(kmsg_reader_get_error(rd), "KMSG_DICT's KEY holds a NUL byte");
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_STR(kmsg_reader_get_error(rd), "KMSG_DICT's KEY holds a NUL byte");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "c");
        CHECK_INT(kmsg_record_get_dict_entry(r, 0, &k, &v, NULL), 0);
        CHECK_STR(k, "nul\\x00");
        CHECK_STR(v, "2");
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

/*
 * A position is a line as sed -n Np, grep -n and editors count them: every
 * newline byte before the record, also those inside binary data and inside
 * a little-endian length (10 is "\n\0\0\0\0\0\0\0").
 */
TEST(export_error_line_counts_every_newline_byte) {
        static char buf[512];
        size_t n = 0, bad, i;
        uint64_t line = 1, nth = 1;
        const char *p;
        char want[512];
        char *t;

        n += put(buf + n, "SEQNUM=1\n");
        n += put_bin(buf + n, "MESSAGE", 10, "a\nb\nc\nd\ne\n", 10);
        n += put(buf + n, "\n");
        bad = n;
        n += put(buf + n, "SEQNUM=2\nPRIORITY=99\nMESSAGE=bad\n\nMESSAGE=last\n\n");
        for (i = 0; i < bad; i++)
                line += buf[i] == '\n';
        CHECK_INT(line, 11); /* 1 + SEQNUM, key, length, 5 in the data, end of field, blank */
        /* Line `line` of the file, split at every newline byte, is the bad record's first. */
        for (p = buf; nth < line; p = memchr(p, '\n', n - (size_t)(p - buf)) + 1)
                nth++;
        CHECK(p == buf + bad);

        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_AUTO, 0);
        snprintf(want, sizeof(want),
                 "R@1 seq=1 flags= fields= msg=a\\0ab\\0ac\\0ad\\0ae\\0a\n"
                 "E-74@%llu PRIORITY is not a number from 0 to 7\n"
                 "R@%llu flags= fields= msg=last\n"
                 "EOF\n",
                 (unsigned long long)line, (unsigned long long)line + 4);
        check_transcript(__FILE__, __LINE__, t, want);
        free(t);
}

TEST(export_binary_length_mismatch) {
        static char buf[512];
        size_t n = 0;
        char *t;

        /* The length says 3, the data is 4 bytes: resynchronise at the blank line. */
        n += put_bin(buf + n, "MESSAGE", 3, "abcd", 4);
        n += put(buf + n, "SEQNUM=1\n\nMESSAGE=next\nSEQNUM=2\n\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "E-74@1 binary field length does not match its data\n"
                         "R@5 seq=2 flags= fields= msg=next\n"
                         "EOF\n");
        free(t);
}

/* Issue 13 #6: one impossible length loses the entry it is in, no more, and says so. */
TEST(export_bad_length_resynchronises_at_the_blank_line) {
        static char buf[1024];
        size_t n = 0;
        char *t;

        n += put(buf + n, "MESSAGE=first\nSEQNUM=1\n\n"); /* 1-3 */
        n += put(buf + n, "SEQNUM=2\n");                   /* 4 */
        /* 2^63 announced: binary data that never ends, text to the blank line. */
        n += put_bin(buf + n, "MESSAGE", (uint64_t)1 << 63, "short data", 10); /* 5-6 */
        n += put(buf + n, "PRIORITY=3\nODD\nLINES\n\n");   /* 7-10 */
        n += put(buf + n, "MESSAGE=third\nSEQNUM=3\n\n");   /* 11-13 */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 seq=1 flags= fields= msg=first\n"
                         "E-74@4 line 5: binary field length 9223372036854775808 is over the 1048576-byte "
                         "record limit: 58 bytes skipped to the next blank line\n"
                         "R@11 seq=3 flags= fields= msg=third\n"
                         "EOF\n");
        free(t);

        /* A text line without '=': the next 8 bytes ("SEQNUM=1") are no length. */
        n = 0;
        n += put(buf + n, "MESSAGE=a\nGARBAGE\nSEQNUM=1\nPRIORITY=3\n\n"); /* 1-5 */
        n += put(buf + n, "MESSAGE=next\nSEQNUM=2\n\n");                  /* 6-8 */
        n += put(buf + n, "MESSAGE=x\nNOEQ\nSEQNUM=3\n");                 /* 9-11, cut */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "E-74@1 line 2: binary field length 3548077110219326803 is over the 1048576-byte "
                         "record limit: 39 bytes skipped to the next blank line\n"
                         "R@6 seq=2 flags= fields= msg=next\n"
                         "E-74@9 line 10: binary field length 3692192298295182675 is over the 1048576-byte "
                         "record limit: 24 bytes skipped to the end of the input\n"
                         "EOF\n");
        free(t);
}

/*
 * Issue 12: a kmsg dump read with --input-format export says what it is
 * (no export form), not "record larger than 1048576 bytes" nor a length
 * made of its text; the entries after a blank line are read.
 */
TEST(export_line_that_is_no_field_says_so) {
        static char buf[1024];
        size_t n = 0;
        char *t;

        n += put(buf + n, "6,1,100,-;hello\n SUBSYSTEM=pci\n6,2,200,-;x=y\n\n"); /* 1-4 */
        n += put(buf + n, "MESSAGE=ok\nSEQNUM=3\n\n");                          /* 5-7 */
        n += put(buf + n, "PRIORITY=3\nMESSAGE=a\n<6>[    1.000000] syslog form"); /* 8-10, no newline */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "E-74@1 line 1 is neither a KEY=VALUE field nor the name of a binary one: not the "
                         "export form; 46 bytes skipped to the next blank line\n"
                         "R@5 seq=3 flags= fields= msg=ok\n"
                         "E-74@8 line 10 is neither a KEY=VALUE field nor the name of a binary one: not the "
                         "export form; 50 bytes skipped to the end of the input\n"
                         "EOF\n");
        free(t);
}

/*
 * Issue 12: every entry is read whatever the position of a binary field,
 * the first entry of the file included.  Each field kind, binary and text,
 * at the first, a middle and the last position of the first, a middle and
 * the last entry.
 */
TEST(export_binary_field_at_every_position) {
        static const char *const kinds[][2] = {
                { "MESSAGE", "m\nx" },     { "PRIORITY", "3" },   { "SYSLOG_FACILITY", "1" },
                { "SEQNUM", "7" },         { "TIMESTAMP", "99" }, { "_KERNEL_SUBSYSTEM", "pci" },
                { "_KERNEL_DEVICE", "b8:0" }, { "KMSG_FLAGS", "c" }, { "KMSG_FIELDS", "caller=T1" },
                { "KMSG_DICT", "K\\x3d=v" }, { "CUSTOM", "a\n\nb" },
        };
        static char buf[2048];
        size_t k, pos, entry, i;

        for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
                for (pos = 0; pos < 3; pos++)
                        for (entry = 0; entry < 3; entry++) {
                                const char *key = kinds[k][0], *val = kinds[k][1];
                                bool is_msg = strcmp(key, "MESSAGE") == 0;
                                /* Three text fields around the binary one (MESSAGE among them unless it is the one). */
                                const char *text[3] = { is_msg ? "X_A=1" : "MESSAGE=text", "X_B=2", "X_C=3" };
                                size_t n = 0;
                                char *t, *want;
                                struct memsrc m;
                                struct kmsg_reader *rd = NULL;
                                struct kmsg_record *r;
                                int got = 0, e;

                                for (i = 0; i < 3; i++) {
                                        size_t f;

                                        if (i != entry) {
                                                n += (size_t)sprintf(buf + n, "MESSAGE=plain %zu\n\n", i);
                                                continue;
                                        }
                                        for (f = 0; f < 4; f++) {
                                                size_t slot = f < pos ? f : f - 1;

                                                if (f == (pos == 0 ? 0 : pos == 1 ? 2 : 3))
                                                        n += put_bin(buf + n, key, strlen(val), val, strlen(val));
                                                else if (slot < 3)
                                                        n += (size_t)sprintf(buf + n, "%s\n", text[slot]);
                                        }
                                        n += put(buf + n, "\n");
                                }
                                m = (struct memsrc){ .data = buf, .len = n };
                                CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_AUTO,
                                                                     &rd), 0);
                                while ((e = kmsg_reader_next(rd, &r)) != 0) {
                                        if (e != 1) {
                                                test_fail(__FILE__, __LINE__, "%s at %zu of entry %zu: %d %s", key,
                                                          pos, entry, e, kmsg_reader_get_error(rd));
                                                break;
                                        }
                                        got++;
                                }
                                CHECK_INT(kmsg_reader_get_format(rd), KMSG_FORMAT_EXPORT);
                                if (got != 3)
                                        test_fail(__FILE__, __LINE__, "%s at %zu of entry %zu: %d entries read",
                                                  key, pos, entry, got);
                                kmsg_reader_unref(rd);
                                /* And the same at every read boundary (binary MESSAGE only: time). */
                                if (!is_msg)
                                        continue;
                                want = read_mem(buf, n, KMSG_FORMAT_AUTO, 0, 0, 0, NULL);
                                t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_AUTO, 0);
                                check_transcript(__FILE__, __LINE__, t, want);
                                free(t);
                                free(want);
                        }
}

/* A length within the limit that runs past the end of the input: the entries after its blank line are read. */
TEST(export_length_past_the_end_resynchronises) {
        static char buf[1024];
        size_t n = 0;
        char *t;

        n += put(buf + n, "MESSAGE=first\nSEQNUM=1\n\n");               /* 1-3 */
        n += put_bin(buf + n, "MESSAGE", 500, "short", 5);             /* 4-5 */
        n += put(buf + n, "SEQNUM=2\n\nMESSAGE=third\nSEQNUM=3\n\n");  /* 6-10 */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 seq=1 flags= fields= msg=first\n"
                         "E-74@4 line 4: binary field length 500 runs past the end of the input: "
                         "32 bytes skipped to the next blank line\n"
                         "R@8 seq=3 flags= fields= msg=third\n"
                         "EOF\n");
        free(t);
}

TEST(export_binary_truncated_at_eof) {
        static char buf[512];
        size_t n = 0, cut;
        char *t;

        n += put(buf + n, "MESSAGE=first\n\n");
        cut = n;
        /* The length says 100; only 5 bytes are there. */
        n += put_bin(buf + n, "MESSAGE", 100, "short", 5);
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 flags= fields= msg=first\n"
                         "E-74@3 truncated binary field at the end of the input\n"
                         "EOF\n");
        free(t);

        /* Cut inside the length field itself, and right after the key. */
        t = check_all_boundaries(__FILE__, __LINE__, buf, cut + 8 + 3, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 flags= fields= msg=first\n"
                         "E-74@3 truncated binary field at the end of the input\n"
                         "EOF\n");
        free(t);
        t = check_all_boundaries(__FILE__, __LINE__, buf, cut + 7, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 flags= fields= msg=first\n"
                         "E-74@3 truncated binary field\n"
                         "EOF\n");
        free(t);
}

TEST(export_huge_length_is_streamed_not_allocated) {
        static char buf[300000];
        struct memsrc m;
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        size_t n = 0, max_cap = 0;
        int e;

        n += put(buf + n, "MESSAGE=first\n\n");
        /* 2^62 bytes announced, 256 KiB there. */
        n += put_bin(buf + n, "MESSAGE", (uint64_t)1 << 62, "", 0) - 1;
        memset(buf + n, 'q', 256 * 1024);
        n += 256 * 1024;
        n += put(buf + n, "\n\nMESSAGE=after\n\n");

        m = (struct memsrc){ .data = buf, .len = n, .chunk = 4096 };
        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_AUTO, &rd), 0);
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4096), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        e = kmsg_reader_next(rd, &r);
        CHECK_INT(e, -EBADMSG);
        CHECK_INT(kmsg_reader_get_position(rd), 3);
        CHECK_STR(kmsg_reader_get_error(rd), "line 3: binary field length 4611686018427387904 is over the "
                                             "4096-byte record limit: 262162 bytes skipped to the next blank line");
        if (rd->cap > max_cap)
                max_cap = rd->cap;
        /* The entry after the blank line is read. */
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_reader_get_position(rd), 6);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        CHECK(max_cap <= 256 * 1024);
        CHECK(rd->rec->data_cap <= 4096);
        /* Every byte was read, in small pieces. */
        CHECK_INT(m.pos, n);
        kmsg_reader_unref(rd);

        /* With the default limit (1 MiB) too, and whole reads. */
        m = (struct memsrc){ .data = buf, .len = n };
        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_EXPORT, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        CHECK(rd->cap <= 1024 * 1024);
        kmsg_reader_unref(rd);
}

TEST(export_size_limit_text) {
        static char buf[16384];
        size_t n = 0;
        char *t;

        n += put(buf + n, "MESSAGE=");
        memset(buf + n, 'L', 5000);
        n += 5000;
        n += put(buf + n, "\nSEQNUM=1\n\nMESSAGE=after\n\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 4096);
        check_transcript(__FILE__, __LINE__, t,
                         "E-7@1 record larger than 4096 bytes skipped\n"
                         "R@4 flags= fields= msg=after\n"
                         "EOF\n");
        free(t);
}

TEST(syslog_form_every_boundary) {
        static const char in[] =
                "<6>[    1.234567] msg one\n"        /* 1 */
                "[ 1.5] msg two\n"                   /* 2 */
                "<6>msg three\n"                     /* 3 */
                "<30>[   12.000001] daemon\\x0a; x\n" /* 4 */
                "\n"                                 /* 5 */
                "<14>[0.5]no space\n"                /* 6 */
                "garbage\n"                          /* 7 */
                "<6>bin\0ary\n"                      /* 8 */
                "<2048>x\n"                          /* 9 */
                "[ 1.5 ] spaces\n"                   /* 10 */
                "<4>[    2.000000] crlf\r\n"         /* 11 */
                "<191>[5.1234567] fac 23\n"          /* 12 */
                "[3.25] end";                        /* 13 */
        char *t = check_all_boundaries(__FILE__, __LINE__, in, sizeof(in) - 1, KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 usec=1234567 flags= fields= msg=msg one\n"
                         "R@2 usec=1500000 flags= fields= msg=msg two\n"
                         "R@3 pri=6 flags= fields= msg=msg three\n"
                         /* The blank line after it is its last line, as util-linux 2.43 reads it. */
                         "R@4 pri=30 usec=12000001 flags= fields= msg=daemon\\0a; x\\0a\n"
                         /* A line that starts no record continues the one before it. */
                         "R@6 pri=14 usec=500000 flags= fields= msg=no space\\0agarbage\n"
                         "E-74@8 binary data (NUL byte) in a syslog-form line\n"
                         /* After a line that could not be read, nothing to continue: text of its own. */
                         "R@9 flags= fields= msg=<2048>x\n"
                         "R@10 flags= fields= msg=[ 1.5 ] spaces\n"
                         "R@11 pri=4 usec=2000000 flags= fields= msg=crlf\n"
                         "R@12 pri=191 usec=5123456 flags= fields= msg=fac 23\n"
                         "R@13 usec=3250000 flags= fields= msg=end\n"
                         "EOF\n");
        free(t);
        t = check_all_boundaries(__FILE__, __LINE__, in, sizeof(in) - 1, KMSG_FORMAT_AUTO, 0);
        CHECK(strncmp(t, "R@1 pri=6 usec=1234567", 22) == 0);
        free(t);
}

TEST(syslog_blank_lines) {
        static const char in[] = "\n  \n\t\r\n<6>[1.0] a\n \n\r\n<6>[2.0] b\n   ";
        char *t = check_all_boundaries(__FILE__, __LINE__, in, sizeof(in) - 1, KMSG_FORMAT_SYSLOG, 0);

        check_transcript(__FILE__, __LINE__, t,
                         /* Blank lines before the first record carry nothing; after one, they are its lines. */
                         "R@4 pri=6 usec=1000000 flags= fields= msg=a\\0a \\0a\n"
                         "R@7 pri=6 usec=2000000 flags= fields= msg=b\\0a   \n"
                         "EOF\n");
        free(t);
}

TEST(syslog_size_limit) {
        static char buf[16384];
        size_t n = 0;
        char *t;

        n += put(buf + n, "<6>[1.0] a\n<6>[2.0] ");
        memset(buf + n, 'L', 5000);
        n += 5000;
        n += put(buf + n, "\n<6>[3.0] c\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_SYSLOG, 4096);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 usec=1000000 flags= fields= msg=a\n"
                         "E-7@2 line longer than 4096 bytes skipped\n"
                         "R@3 pri=6 usec=3000000 flags= fields= msg=c\n"
                         "EOF\n");
        free(t);
}

TEST(format_detection) {
        static const struct {
                const char *in;
                enum kmsg_format want;
        } cases[] = {
                { "6,1,2,-;m\n", KMSG_FORMAT_KMSG },
                { "\n\n\0 6,1,2,-;m\n", KMSG_FORMAT_KMSG },
                { "PRIORITY=6\nMESSAGE=m\n\n", KMSG_FORMAT_EXPORT },
                { "MESSAGE\n\x01\0\0\0\0\0\0\0x\n\n", KMSG_FORMAT_EXPORT },
                { "__CURSOR=s=1\nMESSAGE=m\n\n", KMSG_FORMAT_EXPORT },
                { "\n\nMESSAGE=m\n\n", KMSG_FORMAT_EXPORT },
                { "<6>[    1.000000] m\n", KMSG_FORMAT_SYSLOG },
                { "[    1.000000] m\n", KMSG_FORMAT_SYSLOG },
                { "<6>m\n", KMSG_FORMAT_SYSLOG },
                { "Linux version 6.1\n", KMSG_FORMAT_KMSG },
                { "", KMSG_FORMAT_KMSG },
        };
        size_t i, n;

        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                size_t len = strlen(cases[i].in);

                if (i == 1)
                        len = sizeof("\n\n\0 6,1,2,-;m\n") - 1;
                if (i == 3)
                        len = sizeof("MESSAGE\n\x01\0\0\0\0\0\0\0x\n\n") - 1;
                for (n = 0; n <= len; n++) {
                        enum kmsg_format f = KMSG_FORMAT_AUTO;
                        char *t = read_mem(cases[i].in, len, KMSG_FORMAT_AUTO, n, 0, 0, &f);

                        if (f != cases[i].want)
                                test_fail(__FILE__, __LINE__, "case %zu, chunk %zu: format %d, expected %d", i, n,
                                          f, cases[i].want);
                        free(t);
                }
        }
}

/*
 * journald's export of kernel records read back: every dictionary line
 * from _KERNEL_KEY, every other field kept as a journal field, the
 * "ident[pid]: " prefix of a userspace facility put back on the message,
 * KMSG_MESSAGE as the exact message, and loss entries (KDMESG_LOST) skipped.
 */
TEST(export_journal_fields_kept) {
        static const char in[] = "__CURSOR=s=1;i=2\n"
                                 "__REALTIME_TIMESTAMP=1700000000001000\n"
                                 "_BOOT_ID=aba7d49a3f9a484a8905db37a872b9f5\n"
                                 "_SOURCE_MONOTONIC_TIMESTAMP=1000\n"
                                 "_TRANSPORT=kernel\n"
                                 "PRIORITY=6\n"
                                 "SYSLOG_IDENTIFIER=kernel\n"
                                 "MESSAGE=sd 0:0:0:0: [sda] ok\n"
                                 "_KERNEL_SUBSYSTEM=block\n"
                                 "_KERNEL_DEVICE=b8:0\n"
                                 "_KERNEL_DRIVER=sd\n"
                                 "_UDEV_SYSNAME=sda\n"
                                 "_UDEV_DEVNODE=/dev/sda\n"
                                 "_UDEV_DEVLINK=/dev/disk/by-id/a\n"
                                 "_UDEV_DEVLINK=/dev/disk/by-id/b\n"
                                 "_HOSTNAME=h1\n"
                                 "\n"
                                 "_SOURCE_MONOTONIC_TIMESTAMP=2000\n"
                                 "PRIORITY=6\n"
                                 "SYSLOG_FACILITY=3\n"
                                 "SYSLOG_IDENTIFIER=systemd\n"
                                 "SYSLOG_PID=1\n"
                                 "MESSAGE=Started foo.\n"
                                 "\n"
                                 "MESSAGE_ID=9ac1b3703093449dace9a589386bdafe\n"
                                 "MESSAGE=-- 2 messages lost (seq 5-6, gap) --\n"
                                 "KDMESG_LOST=2\n"
                                 "KDMESG_LOST_FIRST_SEQ=5\n"
                                 "KDMESG_LOST_CAUSE=gap\n"
                                 "\n"
                                 "PRIORITY=5\n"
                                 "SYSLOG_FACILITY=1\n"
                                 "SYSLOG_IDENTIFIER=sshd\n"
                                 "MESSAGE= two\n"
                                 "KMSG_MESSAGE=  sshd:  two\n"
                                 "\n"
                                 "PRIORITY=5\n"
                                 "SYSLOG_FACILITY=1\n"
                                 "SYSLOG_IDENTIFIER=kernel\n"
                                 "MESSAGE=foo[2]: older kdmesg wrote the whole message\n"
                                 "\n";
        struct kmsg_reader *rd;
        struct kmsg_record *r;
        const char *k, *v;
        size_t len;
        char *t;

        t = check_all_boundaries(__FILE__, __LINE__, in, sizeof(in) - 1, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 pri=6 usec=1000 flags= fields= msg=sd 0:0:0:0: [sda] ok |SUBSYSTEM=block "
                         "|DEVICE=b8:0 |DRIVER=sd J__CURSOR=s=1;i=2 J__REALTIME_TIMESTAMP=1700000000001000 "
                         "J_TRANSPORT=kernel JSYSLOG_IDENTIFIER=kernel "
                         "J_UDEV_SYSNAME=sda J_UDEV_DEVNODE=/dev/sda J_UDEV_DEVLINK=/dev/disk/by-id/a "
                         "J_UDEV_DEVLINK=/dev/disk/by-id/b J_HOSTNAME=h1\n"
                         "R@18 pri=30 usec=2000 flags= fields= msg=systemd[1]: Started foo. "
                         "JSYSLOG_IDENTIFIER=systemd JSYSLOG_PID=1\n"
                         "R@31 pri=13 flags= fields= msg=  sshd:  two JSYSLOG_IDENTIFIER=sshd\n"
                         "R@37 pri=13 flags= fields= msg=foo[2]: older kdmesg wrote the whole message "
                         "JSYSLOG_IDENTIFIER=kernel\n"
                         "EOF\n");
        free(t);

        CHECK_INT(kmsg_reader_new_buffer(in, sizeof(in) - 1, "x", KMSG_FORMAT_EXPORT, &rd), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        /* _BOOT_ID is the record's own (kmsg_record_get_boot_id()). */
        CHECK_INT(kmsg_record_get_journal_count(r), 9);
        CHECK_STR(kmsg_record_get_boot_id(r), "aba7d49a3f9a484a8905db37a872b9f5");
        CHECK(kmsg_record_get_journal_value(r, "_BOOT_ID", NULL) == NULL);
        CHECK_INT(kmsg_record_get_journal_field(r, 7, &k, &v, &len), 0);
        CHECK_STR(k, "_UDEV_DEVLINK");
        CHECK_MEM(v, len, "/dev/disk/by-id/b", 17);
        CHECK_INT(kmsg_record_get_journal_field(r, 9, &k, &v, &len), -ERANGE);
        CHECK_INT(kmsg_record_get_journal_field(NULL, 0, &k, &v, &len), -EINVAL);
        /* The first of a repeated field. */
        CHECK_STR(kmsg_record_get_journal_value(r, "_UDEV_DEVLINK", &len), "/dev/disk/by-id/a");
        CHECK_INT(len, 17);
        CHECK(kmsg_record_get_journal_value(r, "_KERNEL_DRIVER", NULL) == NULL);
        CHECK(kmsg_record_get_journal_value(r, "MESSAGE", NULL) == NULL);
        CHECK_STR(kmsg_record_get_dict_value(r, "DRIVER", NULL), "sd");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_journal_count(r), 2);
        kmsg_reader_unref(rd);

        /* Records of the other forms have none. */
        CHECK_INT(kmsg_record_parse("6,1,2,-;m\n K=v\n", 15, &r), 0);
        CHECK_INT(kmsg_record_get_journal_count(r), 0);
        CHECK(kmsg_record_get_journal_value(r, "K", NULL) == NULL);
        kmsg_record_unref(r);
        CHECK_INT(kmsg_record_get_journal_count(NULL), 0);
}
