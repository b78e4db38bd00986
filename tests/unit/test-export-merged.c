/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * KMSG_MERGED in the journal export form: the fields kdmesg's export
 * writes past the collector's limit of fields per entry, one NAME=VALUE
 * line each, read back as the fields they were, in their place.
 */
#include <errno.h>
#include <stdarg.h>
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

/* put_bin() of a value given as a string literal (NUL bytes in it included). */
#define PUT_BIN(p, key, lit) put_bin(p, key, sizeof(lit) - 1, lit, sizeof(lit) - 1)
/* test_buf_put() of a string literal. */
#define PUTS(b, lit) test_buf_put(b, lit, sizeof(lit) - 1)

/* The binary form and the text form; the lines are the fields they name, in their place. */
TEST(export_merged_forms_and_order) {
        static char buf[4096];
        size_t n = 0;
        char *t;

        n += put(buf + n, "SEQNUM=1\n"                   /* 1 */
                          "MESSAGE=m\n"
                          "_KERNEL_SUBSYSTEM=pci\n"
                          "_KERNEL_A=1\n"
                          "KMSG_FLAGS=-\n");
        /* 6-11: every kind the writer merges; a value holds a tab, a CR, a NUL and a byte that is no UTF-8. */
        n += PUT_BIN(buf + n, "KMSG_MERGED",
                     "_KERNEL_B=2\n"
                     "KMSG_DICT=k\\x5cx3dx=v=w\n"
                     "_KERNEL_C=tab\tcr\rnul\0x\xff\n"
                     "_UDEV_DEVLINK=/dev/disk/by-id/a\n"
                     "CUSTOM=a=b");
        n += put(buf + n, "\n"                            /* 12 */
                          "SEQNUM=2\n"                    /* 13: the text form, CR LF */
                          "MESSAGE=t\n"
                          "_KERNEL_A=1\n"
                          "KMSG_MERGED=_KERNEL_B=2\r\n"
                          "_KERNEL_C=3\n"
                          "\n"                            /* 18 */
                          "SEQNUM=3\n"                    /* 19: in the middle, fields after it */
                          "MESSAGE=x\n"
                          "_KERNEL_A=1\n");
        n += PUT_BIN(buf + n, "KMSG_MERGED", "_KERNEL_B=2\n_KERNEL_C=3"); /* 22-24 */
        n += put(buf + n, "_KERNEL_D=4\n"                 /* 25 */
                          "\n"
                          "_KERNEL_A=1\n");               /* 27: the record's own fields, a newline at the end */
        n += PUT_BIN(buf + n, "KMSG_MERGED", "MESSAGE=from merged\nSEQNUM=4\nPRIORITY=3\nTIMESTAMP=77\n");
        n += PUT_BIN(buf + n, "KMSG_MERGED", ""); /* empty: no field */
        n += put(buf + n, "\n"
                          "MESSAGE=lost\n"                /* a loss entry of kdmesg, said in a merged line: passed over */
                          "KMSG_MERGED=KDMESG_LOST=3\n"
                          "\n"
                          "SEQNUM=6\nMESSAGE=last\n\n");

        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 seq=1 flags=- fields= msg=m |SUBSYSTEM=pci |A=1 |B=2 |k=x=v=w "
                         "|C=tab\\09cr\\0dnul\\00x\\ff J_UDEV_DEVLINK=/dev/disk/by-id/a JCUSTOM=a=b\n"
                         "R@13 seq=2 flags= fields= msg=t |A=1 |B=2 |C=3\n"
                         "R@19 seq=3 flags= fields= msg=x |A=1 |B=2 |C=3 |D=4\n"
                         "R@27 pri=3 seq=4 usec=77 flags= fields= msg=from merged |A=1\n"
                         "R@40 seq=6 flags= fields= msg=last\n"
                         "EOF\n");
        free(t);
        /* Found by format detection too. */
        t = read_mem(buf, n, KMSG_FORMAT_AUTO, 0, 0, 0, NULL);
        CHECK(strncmp(t, "R@1 seq=1 flags=- fields= msg=m |SUBSYSTEM=pci |A=1 |B=2", 56) == 0);
        free(t);
}

/* \xNN in a merged value is the byte: a newline the writer escaped stays in its value, never a field of its own. */
TEST(export_merged_escapes) {
        static char buf[1024];
        size_t n = 0;
        char *t;

        n += put(buf + n, "SEQNUM=1\nMESSAGE=a\n"
                          "KMSG_MERGED=_KERNEL_A=x\\x0aSEQNUM=7\\x0a\n"
                          "\n"
                          "SEQNUM=2\nMESSAGE=b\n"
                          "KMSG_MERGED=_KERNEL_B=C:\\x5cx41 \\x5c\\x5c \\q \\x4\n"
                          "\n");
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "R@1 seq=1 flags= fields= msg=a |A=x\\0aSEQNUM=7\\0a\n"
                         "R@5 seq=2 flags= fields= msg=b |B=C:\\5cx41 \\5c\\5c \\5cq \\5cx4\n"
                         "EOF\n");
        free(t);
}

/* A merged line is the field it names: the rules of that field hold, and its error names the line. */
TEST(export_merged_field_rules) {
        static char buf[1024];
        size_t n = 0;
        char *t;

        n += put(buf + n, "SEQNUM=1\nMESSAGE=a\n");        /* 1-2 */
        n += PUT_BIN(buf + n, "KMSG_MERGED", "SEQNUM=2"); /* 3-4 */
        n += put(buf + n, "\n"                             /* 5 */
                          "MESSAGE=b\n"                    /* 6 */
                          "_BOOT_ID=fedcba9876543210fedcba9876543210\n"
                          "KMSG_MERGED=_BOOT_ID=0123456789abcdef0123456789abcdef\n"
                          "\n"
                          "MESSAGE=short\n"                /* 10: KMSG_MESSAGE wins over MESSAGE, in a merged line too */
                          "PRIORITY=5\nSYSLOG_FACILITY=1\n"
                          "KMSG_MERGED=KMSG_MESSAGE=  sshd:  two\n"
                          "SYSLOG_IDENTIFIER=sshd\n"
                          "\n"
                          "MESSAGE=c\nSEQNUM=9\n\n");      /* 16 */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "E-74@1 line 4 (line 1 of KMSG_MERGED): SEQNUM twice in one entry, with two values\n"
                         "E-74@6 line 8 (line 1 of KMSG_MERGED): _BOOT_ID twice in one entry, with two values\n"
                         "R@10 pri=13 flags= fields= msg=  sshd:  two JSYSLOG_IDENTIFIER=sshd\n"
                         "R@16 seq=9 flags= fields= msg=c\n"
                         "EOF\n");
        free(t);
}

/* What is not NAME=VALUE with NAME a field name, and KMSG_MERGED in KMSG_MERGED: an error naming the line. */
TEST(export_merged_malformed_lines) {
        static char buf[8192];
        size_t n = 0;
        char *t;

        n += put(buf + n, "SEQNUM=1\nMESSAGE=a\n");                              /* 1-2 */
        n += PUT_BIN(buf + n, "KMSG_MERGED", "_KERNEL_A=1\nNO EQUALS SIGN\n_KERNEL_B=2"); /* 3-6 */
        n += put(buf + n, "\n");                                                 /* 7 */
        n += put(buf + n, "MESSAGE=b\n");                                        /* 8 */
        n += PUT_BIN(buf + n, "KMSG_MERGED", "_KERNEL_A=1\n\n_KERNEL_B=2");      /* 9-12: a blank line */
        n += put(buf + n, "\n"
                          "MESSAGE=c\n"                                          /* 14 */
                          "KMSG_MERGED==empty name\n"
                          "\n"
                          "MESSAGE=d\n"                                          /* 17 */
                          "KMSG_MERGED=A B=a name with a space\n"
                          "\n"
                          "MESSAGE=e\n");                                        /* 20 */
        n += PUT_BIN(buf + n, "KMSG_MERGED", "_KERNEL_A=1\n_KERNEL_\0B=nul"); /* 21-23 */
        n += put(buf + n, "\n"
                          "MESSAGE=f\n"                                          /* 25 */
                          "KMSG_MERGED=KMSG_MERGED=_KERNEL_A=1\n"
                          "\n"
                          "MESSAGE=g\n");                                        /* 28 */
        n += PUT_BIN(buf + n, "KMSG_MERGED", "_KERNEL_A=1\nPRIORITY=9");      /* 29-31 */
        n += put(buf + n, "\n"
                          "MESSAGE=h\n"                                          /* 33 */
                          "KMSG_MERGED=KMSG_DICT=no value\n"
                          "\n"
                          "MESSAGE=i\n"                                          /* 36 */
                          "KMSG_MERGED=garbage\n"
                          "\n"
                          "SEQNUM=9\nMESSAGE=after\n\n");                        /* 39 */
        t = check_all_boundaries(__FILE__, __LINE__, buf, n, KMSG_FORMAT_EXPORT, 0);
        check_transcript(__FILE__, __LINE__, t,
                         "E-74@1 line 5 (line 2 of KMSG_MERGED): not NAME=VALUE\n"
                         "E-74@8 line 11 (line 2 of KMSG_MERGED): not NAME=VALUE\n"
                         "E-74@14 line 15 (line 1 of KMSG_MERGED): NAME is empty or holds a byte other than "
                         "A-Z, a-z, 0-9 and _\n"
                         "E-74@17 line 18 (line 1 of KMSG_MERGED): NAME is empty or holds a byte other than "
                         "A-Z, a-z, 0-9 and _\n"
                         "E-74@20 line 23 (line 2 of KMSG_MERGED): NAME is empty or holds a byte other than "
                         "A-Z, a-z, 0-9 and _\n"
                         "E-74@25 line 26 (line 1 of KMSG_MERGED): KMSG_MERGED inside KMSG_MERGED\n"
                         "E-74@28 line 31 (line 2 of KMSG_MERGED): PRIORITY is not a number from 0 to 7\n"
                         "E-74@33 line 34 (line 1 of KMSG_MERGED): KMSG_DICT is not KEY=VALUE\n"
                         "E-74@36 line 37 (line 1 of KMSG_MERGED): not NAME=VALUE\n"
                         "R@39 seq=9 flags= fields= msg=after\n"
                         "EOF\n");
        free(t);
}

/* Hostile input: KMSG_MERGED nested 100,000 deep in one line, and 100,000 merged lines of it, in little stack. */
TEST(export_merged_nested_deep) {
        struct test_buf b = { 0 };
        char *t;
        size_t i;

        PUTS(&b, "MESSAGE=a\nKMSG_MERGED=");
        for (i = 0; i < 100000; i++)
                PUTS(&b, "KMSG_MERGED=");
        PUTS(&b, "_KERNEL_A=1\n\nMESSAGE=b\nKMSG_MERGED\n");
        {
                size_t len = 100000 * 13;
                char le[8];

                for (i = 0; i < 8; i++)
                        le[i] = (char)(len >> (8 * i) & 0xff);
                test_buf_put(&b, le, 8);
                for (i = 0; i < 100000; i++)
                        PUTS(&b, "KMSG_MERGED=\n");
                PUTS(&b, "\n\nMESSAGE=after\n\n");
        }
        t = read_mem(b.p, b.len, KMSG_FORMAT_EXPORT, 0, 0, 0, NULL);
        check_transcript(__FILE__, __LINE__, t,
                         "E-74@1 line 2 (line 1 of KMSG_MERGED): KMSG_MERGED inside KMSG_MERGED\n"
                         "E-74@4 line 6 (line 1 of KMSG_MERGED): KMSG_MERGED inside KMSG_MERGED\n"
                         "R@100008 flags= fields= msg=after\n"
                         "EOF\n");
        free(t);
        free(b.p);
}

/* n lines "KMSG_DICT=kNNNNN=" (17 bytes and a newline each as written, 8 decoded: "kNNNNN", "", two NULs). */
static void put_dict_lines(struct test_buf *b, size_t first, size_t n) {
        size_t i;

        for (i = 0; i < n; i++) {
                char line[32];
                int k = snprintf(line, sizeof(line), "%sKMSG_DICT=k%05zx=", i ? "\n" : "", first + i);

                test_buf_put(b, line, (size_t)k);
        }
}

static void put_le64(struct test_buf *b, uint64_t v) {
        char le[8];
        int i;

        for (i = 0; i < 8; i++)
                le[i] = (char)(v >> (8 * i) & 0xff);
        test_buf_put(b, le, 8);
}

/* The line of buf[off]: 1 + the newline bytes before it. */
static unsigned long long line_at(const struct test_buf *b, size_t off) {
        unsigned long long line = 1;
        size_t i;

        for (i = 0; i < off; i++)
                line += b->p[i] == '\n';
        return line;
}

static void putf(struct test_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct test_buf *b, const char *fmt, ...) {
        char s[512];
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(s, sizeof(s), fmt, ap);
        va_end(ap);
        test_buf_put(b, s, (size_t)n);
}

/* An entry "SEQNUM=seq", "MESSAGE=m", then the binary field key of n bytes of data; returns where it starts. */
static size_t put_entry(struct test_buf *b, unsigned seq, const char *key, uint64_t len, const char *data, size_t n) {
        size_t at = b->len;

        putf(b, "SEQNUM=%u\nMESSAGE=m\n%s\n", seq, key);
        put_le64(b, len);
        test_buf_put(b, data, n);
        test_buf_put(b, "\n\n", 2);
        return at;
}

/*
 * The limits: KMSG_MERGED may take more bytes than a record holds (up to
 * the entry's limit, 8 times that), what it decodes to may not; every
 * other binary field is held to the record's limit.
 */
TEST(export_merged_limits) {
        static const size_t chunks[] = { 0, 1, 7, 4096, 5000, 65536 };
        struct test_buf b = { 0 }, v = { 0 }, big = { 0 }, want = { 0 };
        size_t i, at[7];
        char *t;
        struct memsrc m;
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        const char *k, *val;

        /* 400 lines, 7199 bytes as written, 3200 decoded (and the message): over the 4096-byte limit as written only. */
        put_dict_lines(&v, 0x10000, 400);
        CHECK_INT(v.len, 7199);
        at[0] = put_entry(&b, 1, "KMSG_MERGED", v.len, v.p, v.len);
        /* 600 lines, 4800 bytes decoded: over it. */
        put_dict_lines(&big, 0x20000, 600);
        at[1] = put_entry(&b, 2, "KMSG_MERGED", big.len, big.p, big.len);
        /* More than the entry's limit (8 x 4096) announced: passed to the blank line. */
        for (i = 0; i < 400; i++)
                PUTS(&big, "\n_KERNEL_A=0123456789012345678901234567890123456789012345678901234567890123456789");
        at[2] = put_entry(&b, 3, "KMSG_MERGED", 40000, big.p, big.len);
        /* Another field as long as the first KMSG_MERGED, and names that are almost KMSG_MERGED. */
        at[3] = put_entry(&b, 4, "CUSTOM", v.len, v.p, v.len);
        at[4] = put_entry(&b, 5, "KMSG_MERGE", v.len, v.p, v.len);
        at[5] = put_entry(&b, 6, "KMSG_MERGEDX", v.len, v.p, v.len);
        at[6] = b.len;
        PUTS(&b, "SEQNUM=7\nMESSAGE=after\n\n");

        putf(&want, "R@1 seq=1 flags= fields= msg=m");
        for (i = 0; i < 400; i++)
                putf(&want, " |k%05zx=", 0x10000 + i);
        putf(&want, "\nE-7@%llu record larger than 4096 bytes skipped\n", line_at(&b, at[1]));
        putf(&want,
             "E-74@%llu line %llu: binary field length 40000 is over the 32768-byte entry limit: %zu bytes "
             "skipped to the next blank line\n",
             line_at(&b, at[2]), line_at(&b, at[2]) + 2, at[3] - at[2]);
        for (i = 3; i < 6; i++)
                putf(&want,
                     "E-74@%llu line %llu: binary field length 7199 is over the 4096-byte record limit: %zu bytes "
                     "skipped to the next blank line\n",
                     line_at(&b, at[i]), line_at(&b, at[i]) + 2, at[i + 1] - at[i]);
        putf(&want, "R@%llu seq=7 flags= fields= msg=after\nEOF\n", line_at(&b, at[6]));
        test_buf_put(&want, "", 1);
        for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
                t = read_mem(b.p, b.len, KMSG_FORMAT_EXPORT, chunks[i], 0, 4096, NULL);
                check_transcript(__FILE__, __LINE__, t, want.p);
                free(t);
        }

        /* The first record: its 400 entries, in order, and nothing else. */
        m = (struct memsrc){ .data = b.p, .len = b.len };
        CHECK_INT(kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_EXPORT, &rd), 0);
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4096), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_record_get_dict_count(r), 400);
        CHECK_INT(kmsg_record_get_dict_entry(r, 399, &k, &val, NULL), 0);
        CHECK_STR(k, "k1018f");
        CHECK_INT(kmsg_record_get_journal_count(r), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), -E2BIG);
        kmsg_reader_unref(rd);
        free(b.p);
        free(v.p);
        free(big.p);
        free(want.p);
}
