/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kmsg_scan_record(), the one pass over a plain record of the /dev/kmsg
 * text form: what it takes and what it leaves to the general path, and
 * that a reader gives the same records with it as without it (the general
 * path alone, rd->general_only), down to the record's data area, on
 * hostile inputs drawn with a fixed seed (KMSG_SCAN_ITERATIONS for more)
 * and every read size.
 */
#include <errno.h>
#include <stdlib.h>

#include "kmsg-private.h"
#include "tests.h"
#include "memsrc.h"

/*
 * kmsg_scan_record() on s (a copy that ends in a NUL, as the reader's
 * buffer does): 1 when it took the record, with the bytes it took and its
 * lines (the message line and one a dictionary entry), else 0.
 */
static int scan(struct kmsg_record *r, const char *s, size_t len, bool complete, size_t *used, uint64_t *lines) {
        char *copy = malloc(len + 1);

        if (!copy)
                abort();
        memcpy(copy, s, len);
        copy[len] = '\0';
        *used = kmsg_scan_record(r, copy, len, complete, KMSG_DEFAULT_MAX_RECORD);
        *lines = *used ? 1 + r->n_dict : 0;
        free(copy);
        return *used > 0;
}

#define SCAN(s, complete) scan(r, s, sizeof(s) - 1, complete, &used, &lines)

TEST(scan_takes_plain_records) {
        struct kmsg_record *r = record_new();
        size_t used;
        uint64_t lines;
        char kind;
        uint32_t id;

        CHECK(r);
        CHECK_INT(SCAN("6,1,2,-;msg\n7,2,3,-;next\n", false), 1);
        CHECK_INT(used, 12);
        CHECK_INT(lines, 1);
        CHECK_INT(kmsg_record_get_priority(r), 6);
        CHECK_INT(kmsg_record_get_seqnum(r), 1);
        CHECK_INT(kmsg_record_get_timestamp(r), 2);
        CHECK_STR(kmsg_record_get_flags(r), "-");
        CHECK_STR(kmsg_record_get_message(r, NULL), "msg");

        /* The caller as the kernel writes it, and dictionary lines up to the next record. */
        CHECK_INT(SCAN("4,10,99,c,caller=T1234;a \\x5c b\\x0a\n SUBSYSTEM=usb\n DEVICE=+usb:1-1\n6,11,", false), 1);
        CHECK_INT(used, sizeof("4,10,99,c,caller=T1234;a \\x5c b\\x0a\n SUBSYSTEM=usb\n DEVICE=+usb:1-1\n") - 1);
        CHECK_INT(lines, 3);
        CHECK_STR(kmsg_record_get_fields(r), "caller=T1234");
        CHECK_STR(kmsg_record_get_caller_text(r), "T1234");
        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
        CHECK_INT(kind, 'T');
        CHECK_INT(id, 1234);
        CHECK_STR(kmsg_record_get_message(r, NULL), "a \\ b\n");
        CHECK_STR(kmsg_record_get_subsystem(r), "usb");
        CHECK_STR(kmsg_record_get_device(r), "+usb:1-1");
        CHECK_INT(kmsg_record_get_dict_count(r), 2);

        /* Numbers of up to 19 digits, eight at a time. */
        CHECK_INT(SCAN("30,12345678,1234567890123456789,-;m\n", true), 1);
        CHECK_INT(kmsg_record_get_seqnum(r), 12345678);
        CHECK(kmsg_record_get_timestamp(r) == 1234567890123456789u);
        CHECK_INT(SCAN("0,99999999,100000000,-;m\n", true), 1);
        CHECK_INT(kmsg_record_get_priority(r), 0);
        CHECK_INT(kmsg_record_get_seqnum(r), 99999999);
        CHECK_INT(kmsg_record_get_timestamp(r), 100000000);
        /* Escapes: more than the scanner keeps the places of, malformed ones, one cut by the end. */
        CHECK_INT(SCAN("6,1,2,-;\\x41\\x42\\x43\\x44\\x45\\x46\\x47\\x48\\x49\\x4a\n", true), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "ABCDEFGHIJ");
        CHECK_INT(SCAN("6,1,2,-;\\x41\\x42\\x43\\x44\\x45\\x46\\x47\\x48\\x49\n", true), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "ABCDEFGHI");
        CHECK_INT(SCAN("6,1,2,-;\\x41\\x42\\x43\\x44\\x45\\x46\\x47\\x48\n", true), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "ABCDEFGH");
        CHECK_INT(SCAN("6,1,2,-;a\\x4g\\\\x41\\x4\n K=\\x\\x7e\\\n", true), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "a\\x4g\\A\\x4");
        CHECK_STR(kmsg_record_get_dict_value(r, "K", NULL), "\\x~\\");
        /* The first SUBSYSTEM and DEVICE are the record's. */
        CHECK_INT(SCAN("6,1,2,-;m\n DEVICE=a\n SUBSYSTEM=b\n DEVICE=c\n SUBSYSTEM=d\n", true), 1);
        CHECK_INT(lines, 5);
        CHECK_STR(kmsg_record_get_subsystem(r), "b");
        CHECK_STR(kmsg_record_get_device(r), "a");
        /* Other fields, escaped values, no flags at all (3.5-rc). */
        CHECK_INT(SCAN("6,1,2,-,caller=C3,x=y;m\n K=\\x41\n", true), 1);
        CHECK_STR(kmsg_record_get_fields(r), "caller=C3,x=y");
        CHECK_STR(kmsg_record_get_caller_text(r), "C3");
        CHECK_STR(kmsg_record_get_dict_value(r, "K", NULL), "A");
        CHECK_INT(SCAN("6,1,2;old\n", true), 1);
        CHECK_INT(used, 10);
        CHECK_STR(kmsg_record_get_flags(r), "");
        /* A blank line right after the text is left to the general path (a NUL-separated dump's text may end so). */
        CHECK_INT(SCAN("6,1,2;old\n\n", true), 0);
        /* A line that is not a dictionary line ends the record before it. */
        CHECK_INT(SCAN("6,1,2,-;m\n =x\n", true), 1);
        CHECK_INT(used, 10);
        CHECK_INT(SCAN("6,1,2,-;m\n a b=c\n", true), 1);
        CHECK_INT(used, 10);
        /* The end of the input ends the record. */
        CHECK_INT(SCAN("6,1,2,-;m\n", true), 1);
        CHECK_INT(used, 10);
        kmsg_record_unref(r);
}

TEST(scan_leaves_the_rest_to_the_general_path) {
        struct kmsg_record *r = record_new();
        char long_line[2100];
        size_t used;
        uint64_t lines;

        CHECK(r);
        /* Not known yet: a dictionary line may follow, the line or the key is not complete. */
        CHECK_INT(SCAN("6,1,2,-;msg\n", false), 0);
        CHECK_INT(SCAN("6,1,2,-;msg", true), 0);
        CHECK_INT(SCAN("6,1,2,-;m\n SUBSYS", true), 0);
        CHECK_INT(SCAN("6,1,2,-;m\n K=v", true), 0);
        CHECK_INT(SCAN("6,1,2", true), 0);
        /* NUL bytes and CR, anywhere. */
        CHECK_INT(SCAN("6,1,2,-;a\0b\n", true), 0);
        CHECK_INT(SCAN("6,1,2,-;ab\r\n", true), 0);
        CHECK_INT(SCAN("6,1,2,-;ab\n K=v\r\n", true), 0);
        CHECK_INT(SCAN("6,1,2,-;ab\n K=v\0\n", true), 0);
        /* What the general parser reports, or reads its own way. */
        CHECK_INT(SCAN(" 6,1,2,-;indented\n", true), 0);
        CHECK_INT(SCAN("6,1,2,-msg\n", true), 0);
        CHECK_INT(SCAN("6;1,2,-;m\n", true), 0);
        CHECK_INT(SCAN("x,1,2,-;m\n", true), 0);
        CHECK_INT(SCAN("4294967296,1,2,-;m\n", true), 0);
        CHECK_INT(SCAN("6,12345678901234567890,2,-;m\n", true), 0);
        CHECK_INT(SCAN("6,1,2,\x01;m\n", true), 0);
        CHECK_INT(SCAN("6,1,2,-,caller=T1\x80;m\n", true), 0);
        CHECK_INT(SCAN("6,1,2,-;m\n \\x41=v\n", true), 0);
        /* A line over 2048 bytes may be a 6.3+ record cut there. */
        memset(long_line, 'a', sizeof(long_line));
        memcpy(long_line, "6,1,2,-;", 8);
        long_line[2048] = '\n';
        CHECK_INT(scan(r, long_line, 2049, true, &used, &lines), 1);
        long_line[2048] = 'a';
        long_line[2049] = '\n';
        CHECK_INT(scan(r, long_line, 2050, true, &used, &lines), 0);
        kmsg_record_unref(r);
}

/* A record of max bytes is taken, one of max + 1 is the general path's to report. */
TEST(scan_record_limit) {
        struct kmsg_record *r = record_new();
        char rec[4098];

        CHECK(r);
        memset(rec, 'v', sizeof(rec));
        memcpy(rec, "6,1,2,-;m\n K=", 13);
        rec[4095] = '\n';
        rec[4096] = '\0';
        CHECK_INT(kmsg_scan_record(r, rec, 4096, true, 4096), 4096);
        CHECK_INT(r->n_dict, 1);
        rec[4095] = 'v';
        rec[4096] = '\n';
        rec[4097] = '\0';
        CHECK_INT(kmsg_scan_record(r, rec, 4097, true, 4096), 0);
        kmsg_record_unref(r);
}

/* Every field of two records, their data areas byte for byte. */
static bool same_record(const struct kmsg_record *a, const struct kmsg_record *b) {
        size_t i;

        if (a->priority != b->priority || a->seqnum != b->seqnum || a->usec != b->usec ||
            a->has_priority != b->has_priority || a->has_seqnum != b->has_seqnum ||
            a->has_timestamp != b->has_timestamp || a->has_caller != b->has_caller ||
            a->caller_kind != b->caller_kind || a->caller_id != b->caller_id || a->data_len != b->data_len ||
            a->flags_off != b->flags_off || a->fields_off != b->fields_off || a->caller_off != b->caller_off ||
            a->boot_id_off != b->boot_id_off || a->msg_off != b->msg_off || a->msg_len != b->msg_len ||
            a->n_dict != b->n_dict || a->subsystem_idx != b->subsystem_idx || a->device_idx != b->device_idx ||
            a->n_jf != b->n_jf)
                return false;
        if (a->data_len > 0 && memcmp(a->data, b->data, a->data_len) != 0)
                return false;
        for (i = 0; i < a->n_dict; i++)
                if (a->dict[i].key_off != b->dict[i].key_off || a->dict[i].val_off != b->dict[i].val_off ||
                    a->dict[i].val_len != b->dict[i].val_len)
                        return false;
        return true;
}

static void puts_(struct test_buf *b, const char *s) {
        test_buf_put(b, s, strlen(s));
}

#define PICK(a) (a)[test_pick(sizeof(a) / sizeof((a)[0]))]

static const char *const numbers[] = {
        "0", "1", "6", "7", "42", "999", "4294967295", "1234567890123456789", "00012", "1700000000123456",
};
static const char *const odd_numbers[] = {
        "4294967296", "18446744073709551615", "18446744073709551616", "9999999999999999999", "", "x", "1x", "-1",
};
static const char *const flags[] = { "-", "c", "+", "", "-x", "\x01", "a b", "\x80", "\\x2c" };
static const char *const fields[] = {
        "caller=T1", "caller=C0", "caller=T4294967295", "caller=T4294967296", "caller=T", "caller=", "caller=X1",
        "caller=T1,x=y", "x=y,caller=C2", "x=y", "", ",", "caller=T1,caller=T2", "caller=T12 ", "caller=\x7f",
        "caller=T1\t", "a;b",
};
static const char *const keys[] = {
        "SUBSYSTEM", "DEVICE", "K", "a.b-c_d", "\\x41B", "", "SUB SYS", "SUBSYSTEMX", "DEVIC", "\\x00", "\\xZZ",
};
/* Message bytes: mostly text, then what the scanner must notice. */
static const char text_bytes[] = "abcdefghijklmnopqrstuvwxyz0123456789 :.,;=-_[]()";
static const char hard_bytes[] = { '\\', 'x', '4', '1', 'f', 'G', '\n', '\0', '\r', '\t', '\x1b', '\x7f',
                                   '\x80', '\xc2', '\xff', ' ', '=', ';', ',' };

static void gen_text(struct test_buf *b, size_t n) {
        while (n--) {
                char c = test_pick(8) ? text_bytes[test_pick(sizeof(text_bytes) - 1)] : PICK(hard_bytes);

                if (c == '\\' && test_pick(2))
                        puts_(b, PICK(((const char *const[]){ "\\x41", "\\x0a", "\\x5c", "\\xc2\\xb0", "\\x00" })));
                else
                        test_buf_put(b, &c, 1);
        }
}

static void gen_record(struct test_buf *b) {
        size_t i, n;

        if (!test_pick(20))
                puts_(b, PICK(((const char *const[]){ " ", "\n", "\0", "\r\n", "  \n", "junk\n" })));
        for (i = 0; i < 3; i++) {
                puts_(b, test_pick(10) ? PICK(numbers) : PICK(odd_numbers));
                if (i < 2)
                        puts_(b, ",");
        }
        if (test_pick(8)) {
                puts_(b, ",");
                puts_(b, test_pick(4) ? "-" : PICK(flags));
                if (test_pick(3)) {
                        puts_(b, ",");
                        puts_(b, test_pick(3) ? "caller=T1" : PICK(fields));
                }
        }
        if (test_pick(30))
                puts_(b, ";");
        /* Around the 2048 bytes of a line that may be a cut record, now and then. */
        n = test_pick(40) ? test_pick(100) : 2020 + test_pick(60);
        gen_text(b, n);
        if (test_pick(40))
                puts_(b, test_pick(30) ? "\n" : "\r\n");
        for (i = test_pick(4) ? 0 : test_pick(4); i > 0; i--) {
                puts_(b, test_pick(20) ? " " : "  ");
                puts_(b, PICK(keys));
                puts_(b, test_pick(15) ? "=" : "");
                /* Now and then over the smallest record limit. */
                gen_text(b, test_pick(50) ? test_pick(30) : 4000 + test_pick(200));
                if (test_pick(30))
                        puts_(b, "\n");
        }
}

/* Read data whole or in reads of chunk bytes, one pass or general path only: each result into *out. */
struct result {
        int e;
        uint64_t pos;
        char err[256];
        struct kmsg_record *r;
};

static size_t read_results(const char *data, size_t len, size_t chunk, size_t max, bool general,
                           struct result **ret) {
        struct memsrc m = { .data = data, .len = len, .chunk = chunk };
        struct kmsg_reader *rd = NULL;
        struct result *v = NULL;
        size_t n = 0;

        if (kmsg_reader_new_stream_ops(&memsrc_ops, &m, "mem", KMSG_FORMAT_KMSG, &rd) < 0 ||
            (max && kmsg_reader_set_max_record_size(rd, max) < 0))
                abort();
        rd->general_only = general;
        for (;;) {
                struct kmsg_record *r = NULL;
                int e = kmsg_reader_next(rd, &r);

                v = realloc(v, (n + 1) * sizeof(*v));
                if (!v)
                        abort();
                v[n].e = e;
                v[n].pos = kmsg_reader_get_position(rd);
                snprintf(v[n].err, sizeof(v[n].err), "%s", e < 0 ? kmsg_reader_get_error(rd) : "");
                v[n].r = e == 1 ? kmsg_record_ref(r) : NULL;
                n++;
                if (e == 0 || (e < 0 && e != -EBADMSG && e != -E2BIG) || n > 100000)
                        break;
        }
        kmsg_reader_unref(rd);
        *ret = v;
        return n;
}

static void free_results(struct result *v, size_t n) {
        for (size_t i = 0; i < n; i++)
                kmsg_record_unref(v[i].r);
        free(v);
}

/* The same results with and without the one pass; returns whether they were, and counts records. */
static bool check_same(const struct test_buf *b, size_t chunk, size_t max, size_t iteration, size_t *records) {
        struct result *fast, *slow;
        size_t nf = read_results(b->p, b->len, chunk, max, false, &fast);
        size_t ns = read_results(b->p, b->len, chunk, max, true, &slow);
        bool same = nf == ns;

        for (size_t i = 0; same && i < nf; i++) {
                same = fast[i].e == slow[i].e && fast[i].pos == slow[i].pos && strcmp(fast[i].err, slow[i].err) == 0 &&
                       (!fast[i].r || same_record(fast[i].r, slow[i].r));
                if (!same)
                        test_fail(__FILE__, __LINE__,
                                  "iteration %zu, reads of %zu, result %zu: one pass %d@%llu \"%s\", general path "
                                  "%d@%llu \"%s\"%s",
                                  iteration, chunk, i, fast[i].e, (unsigned long long)fast[i].pos, fast[i].err,
                                  slow[i].e, (unsigned long long)slow[i].pos, slow[i].err,
                                  fast[i].r ? " (the records differ)" : "");
                *records += fast[i].r != NULL;
        }
        if (nf != ns)
                test_fail(__FILE__, __LINE__, "iteration %zu, reads of %zu: %zu results in one pass, %zu by the general path",
                          iteration, chunk, nf, ns);
        free_results(fast, nf);
        free_results(slow, ns);
        return same;
}

TEST(scan_same_as_general_path) {
        const char *s = getenv("KMSG_SCAN_ITERATIONS");
        size_t iterations = s ? strtoul(s, NULL, 10) : 3000, i, records = 0, fails = 0;

        test_seed(0x5ca11ab1e5eedull);
        for (i = 0; i < iterations && fails < 3; i++) {
                struct test_buf b = { 0 };
                size_t k, n = 1 + test_pick(8);
                /* The smallest limit now and then, so that records over it are met. */
                size_t max = test_pick(4) ? 0 : 4096;

                for (k = 0; k < n; k++)
                        gen_record(&b);
                if (!check_same(&b, 0, max, i, &records) || !check_same(&b, 1 + test_pick(97), max, i, &records))
                        fails++;
                free(b.p);
        }
        /* Not an empty comparison. */
        CHECK(records > iterations);
}

/* A plain dump, read whole and in every read size up to 64. */
TEST(scan_same_on_plain_dumps) {
        static const char dump[] = "6,0,0,-,caller=T0;Linux version 6.1\n"
                                   "4,1,120,-,caller=T1;a: b \\x1b[1m\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:1f.2\n"
                                   "12,2,130,-,caller=C1;user line\n"
                                   "6,4,140,c,caller=T2;frag\n"
                                   "6,5,141,+,caller=T2;ment\n"
                                   "3,6,150,-;no caller\n SUBSYSTEM=block\n DEVICE=b8:0\n K=\\xff\\x00v\n\n\n"
                                   "6,7,160,-,caller=T3;last";
        struct test_buf b = { .p = (char *)dump, .len = sizeof(dump) - 1 };
        size_t records = 0, chunk;

        for (chunk = 0; chunk <= 64; chunk++)
                check_same(&b, chunk, 0, 0, &records);
        CHECK_INT(records, 65 * 7);
}
