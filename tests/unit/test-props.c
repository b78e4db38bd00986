/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Property: whatever the read() pattern, a stream gives the same records
 * and errors.  Inputs are drawn (with a fixed seed) from fragments of all
 * three forms, well-formed and not; set KMSG_PROPS_ITERATIONS for a longer
 * run.
 */
#include <errno.h>
#include <stdlib.h>

#include "kmsg-private.h"
#include "tests.h"
#include "memsrc.h"

static void puts_(struct test_buf *b, const char *s) {
        test_buf_put(b, s, strlen(s));
}

static void fill(struct test_buf *b, size_t n, char c) {
        while (n--)
                test_buf_put(b, &c, 1);
}

static const char *const kmsg_frags[] = {
        "6,1,2,-;msg\n", "6,2,3,c,caller=T1;a;b=c\n", "5,3,4;old\n", " SUBSYSTEM=usb\n", " DEVICE=+usb:1-1\n",
        " K=v=w\r\n", " notakey\n", "\n", "\r\n", "   \n", "garbage\n", "\0", "\0\0", "  6,4,5,-;indented\n",
        "6,5,6,-;esc\\x1b\\x0a\\x5cx2d\\x4\n", "6,x,1,-;bad\n", "6,6,7,-", "6,7,8,-;no newline", " ",
        "2047,18446744073709551615,0,+;max\n", "6,1,2,-;crlf\r\n", "\t6,8,9,-;tab\n",
};

static const char *const syslog_frags[] = {
        "<6>[    1.234567] a\n", "[ 2.5] b\n", "<6>c\n", "\n", "\r\n", "  \n", "junk\n", "<6>nul\0x\n",
        "<30>[12.000001] d\\x0a\n", "<6>[1.0] no newline", "[3.25]", "<7", "[ 1.5 ] e\n",
};

static void gen_kmsg(struct test_buf *b) {
        size_t n = 1 + test_pick(12), i;

        for (i = 0; i < n; i++) {
                size_t k = test_pick(sizeof(kmsg_frags) / sizeof(kmsg_frags[0]) + 3);

                if (k < sizeof(kmsg_frags) / sizeof(kmsg_frags[0])) {
                        const char *f = kmsg_frags[k];

                        test_buf_put(b, f, f[0] ? strlen(f) : (k == 12 ? 2 : 1));
                } else if (k == sizeof(kmsg_frags) / sizeof(kmsg_frags[0])) {
                        /* A 6.3+ record cut at 2048 bytes (maybe mid-escape), no newline. */
                        size_t start = b->len;

                        puts_(b, "6,9,10,-;");
                        fill(b, 2048 - 9 - 2, 'x');
                        puts_(b, test_pick(2) ? "\\x" : "yz");
                        if (b->len - start != 2048)
                                abort();
                } else if (k == sizeof(kmsg_frags) / sizeof(kmsg_frags[0]) + 1) {
                        /* A long record, maybe over the 4096 limit. */
                        puts_(b, "6,10,11,-;");
                        fill(b, 2000 + test_pick(3000), 'L');
                        puts_(b, "\n");
                } else {
                        /* A header cut anywhere. */
                        const char *h = "6,11,12,-,caller=C0;t\n SUBSYSTEM=x\n";

                        test_buf_put(b, h, 1 + test_pick(strlen(h) - 1));
                }
        }
}

static void bin(struct test_buf *b, const char *key, uint64_t len, const char *data, size_t n) {
        unsigned char le[8];
        int i;

        puts_(b, key);
        puts_(b, "\n");
        for (i = 0; i < 8; i++)
                le[i] = (unsigned char)(len >> (8 * i));
        test_buf_put(b, le, 8);
        test_buf_put(b, data, n);
        puts_(b, "\n");
}

static void gen_export(struct test_buf *b) {
        size_t n = 1 + test_pick(6), i;

        for (i = 0; i < n; i++) {
                size_t f = 1 + test_pick(5), j;

                for (j = 0; j < f; j++) {
                        switch (test_pick(10)) {
                        case 0: puts_(b, "MESSAGE=text\n"); break;
                        case 1: puts_(b, "PRIORITY=3\n"); break;
                        case 2: puts_(b, "SEQNUM=7\n"); break;
                        case 3: puts_(b, "_KERNEL_DEVICE=b8:0\n"); break;
                        case 4: bin(b, "MESSAGE", 5, "a\0b\nc", 5); break;
                        case 5: bin(b, "X", 3, "abcd", 4); break; /* length mismatch */
                        case 6: puts_(b, "PRIORITY=99\n"); break;
                        case 7: puts_(b, "MESSAGE="); fill(b, test_pick(5000), 'M'); puts_(b, "\n"); break;
                        case 8: bin(b, "MESSAGE", (uint64_t)1 << 40, "", 0); break; /* longer than all */
                        default: puts_(b, "TIMESTAMP=12\n"); break;
                        }
                }
                if (test_pick(4))
                        puts_(b, "\n");
        }
        if (test_pick(3) == 0 && b->len > 0)
                b->len -= test_pick(b->len); /* cut anywhere */
}

static void gen_syslog(struct test_buf *b) {
        size_t n = 1 + test_pick(10), i;

        for (i = 0; i < n; i++) {
                size_t k = test_pick(sizeof(syslog_frags) / sizeof(syslog_frags[0]) + 1);

                if (k < sizeof(syslog_frags) / sizeof(syslog_frags[0])) {
                        const char *f = syslog_frags[k];

                        test_buf_put(b, f, k == 7 ? 10 : strlen(f));
                } else {
                        puts_(b, "<6>[1.0] ");
                        fill(b, 3000 + test_pick(3000), 'S');
                        puts_(b, "\n");
                }
        }
}

static const char *const json_frags[] = {
        "{\"seq\":1,\"time\":0.000138,\"pri\":3,\"flags\":\"-\",\"caller\":\"C1\",\"msg\":\"a; b\"}\n",
        "{\"seq\":2,\"time\":1.5,\"facility\":\"user\",\"level\":\"info\",\"msg\":\"c\",\"dict\":{\"SUBSYSTEM\":\"pci\",\"DEVICE\":\"+pci:0000:00:1f.2\"}}\n",
        "{\"seq\":3,\"time\":2.0,\"pri\":6,\"msg\":[104,105,0,255]}\n",
        "{\"first_seq\":4,\"count\":2,\"cause\":\"gap\"}\n",
        "\n", "\r\n", "  \n", "not json\n", "{\"seq\":\"x\",\"msg\":1}\n", "{\"msg\":\"no newline\"}", "{",
        "{\"seq\":7,\"pri\":6,\"msg\":\"e\",\"dict\":{\"K\":\"1\",\"K\":\"2\"}}\n",
};

static void gen_json(struct test_buf *b) {
        size_t n = 1 + test_pick(10), i;

        for (i = 0; i < n; i++) {
                size_t k = test_pick(sizeof(json_frags) / sizeof(json_frags[0]) + 1);

                if (k < sizeof(json_frags) / sizeof(json_frags[0]))
                        puts_(b, json_frags[k]);
                else {
                        puts_(b, "{\"seq\":9,\"pri\":6,\"msg\":\"");
                        fill(b, 3000 + test_pick(3000), 'J');
                        puts_(b, "\"}\n");
                }
        }
}

static void check_one(enum kmsg_format fmt, const struct test_buf *b, size_t iteration) {
        static const size_t chunks[] = { 1, 2, 3, 5, 8, 13, 64, 2047, 2048, 2049, 4097 };
        size_t limit = test_pick(2) ? 4096 : 0, i;
        char *ref = read_mem(b->p, b->len, fmt, 0, 0, limit, NULL);
        char *aut = read_mem(b->p, b->len, KMSG_FORMAT_AUTO, 0, 0, limit, NULL);

        for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]) + 3; i++) {
                size_t c = i < sizeof(chunks) / sizeof(chunks[0]) ? chunks[i] : 0;
                size_t split = c ? 0 : (b->len ? 1 + test_pick(b->len) : 0);
                char *t = read_mem(b->p, b->len, fmt, c, split, limit, NULL);

                if (strcmp(ref, t) != 0) {
                        char name[64];

                        snprintf(name, sizeof(name), "format %d iteration %zu chunk/split", fmt, iteration);
                        report_diff(__FILE__, __LINE__, name, c ? c : split, ref, t);
                        if (getenv("KMSG_PROPS_DUMP")) {
                                FILE *f = fopen(getenv("KMSG_PROPS_DUMP"), "wb");

                                if (f) {
                                        fwrite(b->p, 1, b->len, f);
                                        fclose(f);
                                }
                        }
                        free(t);
                        break;
                }
                free(t);
                /* Format detection too does not depend on the read pattern. */
                t = read_mem(b->p, b->len, KMSG_FORMAT_AUTO, c, split, limit, NULL);
                if (strcmp(aut, t) != 0) {
                        report_diff(__FILE__, __LINE__, "auto-detected, chunk/split", c ? c : split, aut, t);
                        free(t);
                        break;
                }
                free(t);
        }
        free(ref);
        free(aut);
}

static size_t iterations(void) {
        const char *s = getenv("KMSG_PROPS_ITERATIONS");

        return s ? strtoul(s, NULL, 10) : 150;
}

static void run(enum kmsg_format fmt, void (*gen)(struct test_buf *), uint64_t seed) {
        size_t n = iterations(), i;

        test_seed(seed);
        for (i = 0; i < n; i++) {
                struct test_buf b = {};

                gen(&b);
                check_one(fmt, &b, i);
                free(b.p);
        }
}

TEST(kmsg_any_read_pattern) {
        run(KMSG_FORMAT_KMSG, gen_kmsg, 0x9e3779b97f4a7c15ull);
}

TEST(export_any_read_pattern) {
        run(KMSG_FORMAT_EXPORT, gen_export, 0xd1b54a32d192ed03ull);
}

TEST(json_any_read_pattern) {
        run(KMSG_FORMAT_JSON, gen_json, 0x2545f4914f6cdd1dull);
}

TEST(syslog_any_read_pattern) {
        run(KMSG_FORMAT_SYSLOG, gen_syslog, 0x8cb92ba72f3d8dd7ull);
}
