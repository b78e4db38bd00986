/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading kdmesg's JSON Lines back (lib/stream-json.c) and its detection. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "kmsg-private.h"
#include "tests.h"

/* A reader over the bytes of s, through a temporary file. */
static struct kmsg_reader *reader_for(const char *s, size_t len, enum kmsg_format f) {
        char path[] = "/tmp/test-json-XXXXXX";
        struct kmsg_reader *rd = NULL;
        int fd = mkstemp(path);

        CHECK(fd >= 0);
        CHECK(write(fd, s, len) == (ssize_t)len);
        CHECK(lseek(fd, 0, SEEK_SET) == 0);
        unlink(path);
        CHECK(kmsg_reader_new_fd(fd, "t.json", f, &rd) == 0);
        return rd;
}

#define READER(lit, f) reader_for(lit, sizeof(lit) - 1, f)

TEST(json_detected_and_mapped) {
        struct kmsg_reader *rd = READER(
                "{\"seq\":18446744073709551615,\"time\":6.193747,\"pri\":1500,\"facility\":\"187\","
                "\"level\":\"warn\",\"flags\":\"+\",\"caller\":\"T1\",\"fields\":\"caller=T1,foo=bar\","
                "\"msg\":\"a \\\"q\\\" \\u0000 b\",\"subsystem\":\"pci\",\"device\":\"b8:0\","
                "\"devname\":\"sda\",\"match\":\"text\",\"dict\":{\"SUBSYSTEM\":\"pci\",\"DEVICE\":\"b8:0\"}}\n",
                KMSG_FORMAT_AUTO);
        struct kmsg_record *r;
        const char *m, *k, *v;
        size_t len;
        char kind;
        uint32_t id;

        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_INT(kmsg_reader_get_format(rd), KMSG_FORMAT_JSON);
        CHECK(kmsg_record_has_seqnum(r));
        CHECK(kmsg_record_get_seqnum(r) == UINT64_MAX);
        CHECK(kmsg_record_get_timestamp(r) == 6193747);
        CHECK_INT(kmsg_record_get_priority(r), 1500);
        CHECK_STR(kmsg_record_get_flags(r), "+");
        CHECK_STR(kmsg_record_get_fields(r), "caller=T1,foo=bar");
        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
        CHECK_INT(kind, 'T');
        CHECK_INT(id, 1);
        m = kmsg_record_get_message(r, &len);
        CHECK_MEM(m, len, "a \"q\" \0 b", 9);
        CHECK_INT(kmsg_record_get_dict_count(r), 2);
        CHECK_STR(kmsg_record_get_subsystem(r), "pci");
        CHECK_STR(kmsg_record_get_device(r), "b8:0");
        CHECK_INT(kmsg_record_get_dict_entry(r, 1, &k, &v, &len), 0);
        CHECK_STR(k, "DEVICE");
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

TEST(json_byte_arrays_and_repeated_keys) {
        struct kmsg_reader *rd = READER(
                "{\"seq\":1,\"msg\":[104,0,255],\"dict\":{\"A\":\"1\",\"B\":[255],\"A\":\"2\"}}\n",
                KMSG_FORMAT_JSON);
        struct kmsg_record *r;
        const char *m, *k, *v;
        size_t len;

        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        m = kmsg_record_get_message(r, &len);
        CHECK_MEM(m, len, "h\0\xff", 3);
        /* json-c alone would keep one "A": every pair is kept, in order. */
        CHECK_INT(kmsg_record_get_dict_count(r), 3);
        CHECK_INT(kmsg_record_get_dict_entry(r, 0, &k, &v, &len), 0);
        CHECK_STR(k, "A");
        CHECK_MEM(v, len, "1", 1);
        CHECK_INT(kmsg_record_get_dict_entry(r, 1, &k, &v, &len), 0);
        CHECK_STR(k, "B");
        CHECK_MEM(v, len, "\xff", 1);
        CHECK_INT(kmsg_record_get_dict_entry(r, 2, &k, &v, &len), 0);
        CHECK_STR(k, "A");
        CHECK_MEM(v, len, "2", 1);
        kmsg_reader_unref(rd);
}

TEST(json_caller_alone_makes_the_fields) {
        struct kmsg_reader *rd = READER("{\"flags\":\"-\",\"caller\":\"C3\",\"msg\":\"m\",\"dict\":{}}\n",
                                        KMSG_FORMAT_JSON);
        struct kmsg_record *r;

        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_fields(r), "caller=C3");
        CHECK_STR(kmsg_record_get_caller_text(r), "C3");
        CHECK(!kmsg_record_has_seqnum(r));
        CHECK(!kmsg_record_has_timestamp(r));
        CHECK(!kmsg_record_has_priority(r));
        kmsg_reader_unref(rd);
}

/* Found by fuzz-json: a "caller" before "fields" kept its caller while the fields said another. */
TEST(json_fields_name_the_caller_in_any_order) {
        struct kmsg_reader *rd = READER("{\"caller\":\"T5\",\"fields\":\"caller=T7,x=y\",\"msg\":\"a\"}\n"
                                        "{\"fields\":\"caller=T7,x=y\",\"caller\":\"T5\",\"msg\":\"b\"}\n"
                                        "{\"caller\":\"T5\",\"fields\":\"x=y\",\"msg\":\"c\"}\n",
                                        KMSG_FORMAT_JSON);
        struct kmsg_record *r;
        char kind = 0;
        uint32_t id = 0;
        int i;

        for (i = 0; i < 2; i++) {
                CHECK_INT(kmsg_reader_next(rd, &r), 1);
                CHECK_STR(kmsg_record_get_fields(r), "caller=T7,x=y");
                CHECK_STR(kmsg_record_get_caller_text(r), "T7");
                CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
                CHECK_INT(id, 7);
        }
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_fields(r), "x=y");
        CHECK(kmsg_record_get_caller_text(r) == NULL);
        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), -ENODATA);
        kmsg_reader_unref(rd);
}

/* Found by fuzz-json: "caller":"" was an empty caller, where the header field "caller=" is none. */
TEST(json_empty_caller_is_none) {
        struct kmsg_reader *rd = READER("{\"caller\":\"\",\"msg\":\"a\"}\n{\"fields\":\"caller=\",\"msg\":\"b\"}\n",
                                        KMSG_FORMAT_JSON);
        struct kmsg_record *r;
        int i;

        for (i = 0; i < 2; i++) {
                CHECK_INT(kmsg_reader_next(rd, &r), 1);
                CHECK_STR(kmsg_record_get_fields(r), "caller=");
                CHECK(kmsg_record_get_caller_text(r) == NULL);
                CHECK_INT(kmsg_record_get_caller(r, NULL, NULL), -ENODATA);
        }
        kmsg_reader_unref(rd);
}

TEST(json_facility_and_level_without_pri) {
        struct kmsg_reader *rd = READER("{\"facility\":\"user\",\"level\":\"err\",\"msg\":\"m\"}\n", KMSG_FORMAT_JSON);
        struct kmsg_record *r;

        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(kmsg_record_has_priority(r));
        CHECK_INT(kmsg_record_get_priority(r), 11);
        kmsg_reader_unref(rd);
}

TEST(json_loss_objects_and_blank_lines_are_skipped) {
        struct kmsg_reader *rd = READER(
                "\n{\"first_seq\":2,\"last_seq\":3,\"count\":2,\"cause\":\"gap\",\"time_after\":1.5}\n"
                "  \r\n{\"seq\":4,\"msg\":\"after\"}",
                KMSG_FORMAT_AUTO);
        struct kmsg_record *r;

        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(kmsg_record_get_seqnum(r) == 4);
        CHECK_INT(kmsg_reader_get_position(rd), 4);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

TEST(json_bad_lines_are_reported_and_skipped) {
        struct kmsg_reader *rd = READER("{bad\n"
                                        "{\"seq\":1}\n"
                                        "{\"msg\":[1,256]}\n"
                                        "{\"msg\":\"x\",\"time\":-1}\n"
                                        "{\"msg\":\"x\",\"flags\":\"a;b\"}\n"
                                        "{\"msg\":\"x\"} tail\n"
                                        "[1]\n"
                                        "{\"msg\":\"ok\"}\n",
                                        KMSG_FORMAT_JSON);
        struct kmsg_record *r;
        int i;

        for (i = 1; i <= 7; i++) {
                CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
                CHECK_INT(kmsg_reader_get_position(rd), i);
                CHECK(strncmp(kmsg_reader_get_error(rd), "bad JSON record: ", 17) == 0);
        }
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "ok");
        kmsg_reader_unref(rd);
}

/* Time in any form of JSON number (jq writes 2e-06 and 99000), exact to the microsecond. */
TEST(json_time_in_any_number_form) {
        static const struct {
                const char *time;
                int64_t usec; /* -1: an error */
        } t[] = {
                { "6.193747", 6193747 },
                { "99000", 99000000000 },
                { "2e-06", 2 },
                { "2E-6", 2 },
                { "1.5e+2", 150000000 },
                { "1e3", 1000000000 },
                { "0.1234567", 123456 },         /* past the microsecond: dropped */
                { "1e-400", 0 },
                { "0e400", 0 },
                { "0.000000", 0 },
                { "18446744073709.551615", -2 }, /* UINT64_MAX */
                { "18446744073709551615e-6", -2 },
                { "18446744073709.551616", -1 },
                { "18446744073709.999999", -1 },
                { "1e400", -1 },
                { "-1", -1 },
                { "-0.5", -1 },
        };
        size_t i;

        for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                char line[128];
                struct kmsg_reader *rd;
                struct kmsg_record *r;
                int n = snprintf(line, sizeof(line), "{\"msg\":\"m\",\"time\":%s}\n", t[i].time);

                rd = reader_for(line, (size_t)n, KMSG_FORMAT_JSON);
                if (t[i].usec == -1) {
                        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
                        CHECK_STR(kmsg_reader_get_error(rd), "bad JSON record: time is not a number of seconds");
                } else {
                        int e = kmsg_reader_next(rd, &r);

                        CHECK_INT(e, 1);
                        if (e == 1) {
                                CHECK(kmsg_record_has_timestamp(r));
                                if (t[i].usec == -2)
                                        CHECK(kmsg_record_get_timestamp(r) == UINT64_MAX);
                                else
                                        CHECK(kmsg_record_get_timestamp(r) == (uint64_t)t[i].usec);
                        }
                }
                kmsg_reader_unref(rd);
        }
}

TEST(json_line_over_the_limit_is_skipped) {
        size_t n = 8192, i;
        char *buf = malloc(n + 64);
        struct kmsg_reader *rd;
        struct kmsg_record *r;

        CHECK(buf != NULL);
        memcpy(buf, "{\"msg\":\"", 8);
        for (i = 8; i < n; i++)
                buf[i] = 'a';
        memcpy(buf + n, "\"}\n{\"msg\":\"small\"}\n", 19);
        rd = reader_for(buf, n + 19, KMSG_FORMAT_JSON);
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4096), 0);
        CHECK_INT(kmsg_reader_next(rd, &r), -E2BIG);
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "small");
        kmsg_reader_unref(rd);
        free(buf);
}

/* Issue 13 #11: impossible values are refused, naming the line, not clamped or cut. */
TEST(json_impossible_values_are_refused) {
        struct kmsg_reader *rd = READER("{\"seq\":18446744073709551616,\"msg\":\"over\"}\n"
                                        "{\"seq\":-1,\"msg\":\"negative\"}\n"
                                        "{\"seq\":99999999999999999999999,\"msg\":\"far over\"}\n"
                                        "{\"msg\":\"nul key\",\"dict\":{\"DEV\\u0000ICE\":\"b8:0\"}}\n"
                                        "{\"msg\":\"nul keys\",\"dict\":{\"A\\u0000x\":\"1\",\"A\\u0000y\":\"2\"}}\n"
                                        "{\"seq\":18446744073709551615,\"msg\":\"max\",\"dict\":"
                                        "{\"K\\\\u0000\":\"literal\"}}\n"
                                        "{\"seq\" : 18446744073709551615 ,\"msg\":\"max\"}\n",
                                        KMSG_FORMAT_JSON);
        static const char *const why[] = { "seq is not a number", "seq is not a number",
                                           "seq is not a number", "dictionary key holds a NUL",
                                           "dictionary key holds a NUL" };
        struct kmsg_record *r;
        const char *k, *v;
        char want[128];
        int i;

        for (i = 1; i <= 5; i++) {
                CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
                CHECK_INT(kmsg_reader_get_position(rd), i);
                snprintf(want, sizeof(want), "bad JSON record: %s", why[i - 1]);
                CHECK_STR(kmsg_reader_get_error(rd), want);
        }
        /* The largest seq is possible, and "\\u0000" is no NUL. */
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(kmsg_record_get_seqnum(r) == UINT64_MAX);
        CHECK_INT(kmsg_record_get_dict_entry(r, 0, &k, &v, NULL), 0);
        CHECK_STR(k, "K\\u0000");
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK(kmsg_record_get_seqnum(r) == UINT64_MAX);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

/*
 * An empty dictionary key has no line in the kmsg form (" =VALUE" would end
 * the record there, and --format=kmsg lost it and every pair after it): the
 * record is refused, naming the line, whether its dictionary is read as an
 * object or pair by pair (a repeated key).
 */
TEST(json_empty_dictionary_key_is_refused) {
        struct kmsg_reader *rd = READER("{\"msg\":\"a\",\"dict\":{\"\":\"v\",\"A\":\"b\"}}\n"
                                        "{\"msg\":\"b\",\"dict\":{\"A\":\"1\",\"A\":\"2\",\"\":\"3\"}}\n"
                                        "{\"msg\":\"c\",\"dict\":{\"A\":\"b\"}}\n",
                                        KMSG_FORMAT_JSON);
        struct kmsg_record *r;
        int i;

        for (i = 1; i <= 2; i++) {
                CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
                CHECK_INT(kmsg_reader_get_position(rd), i);
                CHECK_STR(kmsg_reader_get_error(rd), "bad JSON record: dictionary key is empty");
        }
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "c");
        CHECK_INT(kmsg_record_get_dict_count(r), 1);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}

TEST(json_boot_id_and_boot_marks) {
        struct kmsg_reader *rd = READER(
                "{\"seq\":1,\"flags\":\"-\",\"msg\":\"a\",\"dict\":{},\"boot_id\":\"0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e\"}\n"
                "{\"boot\":2,\"first_seq\":0,\"boot_id\":\"9e8d7c6b5a4f43e2a1b0c9d8e7f6a5b4\"}\n"
                "{\"seq\":0,\"flags\":\"-\",\"msg\":\"b\",\"dict\":{}}\n"
                "{\"seq\":1,\"flags\":\"-\",\"msg\":\"c\",\"dict\":{},\"boot_id\":\"\"}\n",
                KMSG_FORMAT_JSON);
        struct kmsg_record *r;

        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_boot_id(r), "0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e");
        /* The boot mark is no record. */
        CHECK_INT(kmsg_reader_next(rd, &r), 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "b");
        CHECK(kmsg_record_get_boot_id(r) == NULL);
        CHECK_INT(kmsg_reader_next(rd, &r), -EBADMSG);
        CHECK_INT(kmsg_reader_get_position(rd), 4);
        CHECK_INT(kmsg_reader_next(rd, &r), 0);
        kmsg_reader_unref(rd);
}
