/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The record grammar: header, escapes, dictionary (kmsg_record_parse()). */
#include <errno.h>
#include <stdlib.h>

#include "kmsg-private.h"
#include "tests.h"

static struct kmsg_record *parse_len(const char *s, size_t len, int line) {
        struct kmsg_record *r = NULL;
        int e = kmsg_record_parse(s, len, &r);

        if (e < 0) {
                test_fail(__FILE__, line, "parse of \"%.*s\" failed: %d", (int)len, s, e);
                return NULL;
        }
        return r;
}

#define parse(s) parse_len((s), strlen(s), __LINE__)
/* Literals that hold NUL bytes: their length is sizeof - 1. */
#define parse_lit(s) parse_len((s), sizeof(s) - 1, __LINE__)

static int parse_err(const char *s) {
        struct kmsg_record *r = (struct kmsg_record *)0x1;
        int e = kmsg_record_parse(s, strlen(s), &r);

        if (e == 0)
                kmsg_record_unref(r);
        else if (r != (struct kmsg_record *)0x1)
                e = -9999; /* ret was touched on failure */
        return e;
}

/* The decoded message must be exactly these bytes, NUL-terminated after them. */
static void check_message(const struct kmsg_record *r, const char *want, size_t want_len, int line) {
        size_t len = 0;
        const char *m = kmsg_record_get_message(r, &len);

        if (len != want_len || memcmp(m, want, len) != 0 || m[len] != '\0')
                test_fail(__FILE__, line, "message \"%.*s\" (%zu bytes), expected \"%.*s\" (%zu bytes)",
                          (int)len, m, len, (int)want_len, want, want_len);
}
#define CHECK_MSG(r, lit) check_message((r), (lit), sizeof(lit) - 1, __LINE__)

TEST(header_fields) {
        struct kmsg_record *r = parse("6,438,377378,-,caller=T1;acpi PNP0A08:00: _OSC\n");
        char kind = 0;
        uint32_t id = 0;

        if (!r)
                return;
        CHECK_INT(kmsg_record_get_priority(r), 6);
        CHECK_INT(kmsg_record_get_level(r), 6);
        CHECK_INT(kmsg_record_get_facility(r), 0);
        CHECK(kmsg_record_has_priority(r));
        CHECK(kmsg_record_has_seqnum(r));
        CHECK(kmsg_record_has_timestamp(r));
        CHECK_INT(kmsg_record_get_seqnum(r), 438);
        CHECK_INT(kmsg_record_get_timestamp(r), 377378);
        CHECK_STR(kmsg_record_get_flags(r), "-");
        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
        CHECK_INT(kind, 'T');
        CHECK_INT(id, 1);
        CHECK_STR(kmsg_record_get_caller_text(r), "T1");
        CHECK_STR(kmsg_record_get_fields(r), "caller=T1");
        CHECK_MSG(r, "acpi PNP0A08:00: _OSC");
        CHECK_INT(kmsg_record_get_dict_count(r), 0);
        kmsg_record_unref(r);
}

TEST(priority_facility_above_23) {
        /* Userspace writes: facility 1..255, so up to 255 << 3 | 7 = 2047. */
        static const struct {
                const char *in;
                unsigned pri, fac, lvl;
        } cases[] = {
                { "0,1,2,-;m", 0, 0, 0 },       { "7,1,2,-;m", 7, 0, 7 },
                { "14,1,2,-;m", 14, 1, 6 },     { "191,1,2,-;m", 191, 23, 7 },
                { "192,1,2,-;m", 192, 24, 0 },  { "100,1,2,-;m", 100, 12, 4 },
                { "2047,1,2,-;m", 2047, 255, 7 }, { "0006,1,2,-;m", 6, 0, 6 },
        };
        size_t i;

        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct kmsg_record *r = parse(cases[i].in);

                if (!r)
                        continue;
                CHECK_INT(kmsg_record_get_priority(r), cases[i].pri);
                CHECK_INT(kmsg_record_get_facility(r), cases[i].fac);
                CHECK_INT(kmsg_record_get_level(r), cases[i].lvl);
                kmsg_record_unref(r);
        }
}

TEST(u64_limits) {
        struct kmsg_record *r = parse("6,18446744073709551615,18446744073709551615,-;max");

        if (r) {
                CHECK(kmsg_record_get_seqnum(r) == UINT64_MAX);
                CHECK(kmsg_record_get_timestamp(r) == UINT64_MAX);
                kmsg_record_unref(r);
        }
        r = parse("6,0,0,-;zero");
        if (r) {
                CHECK(kmsg_record_get_seqnum(r) == 0);
                CHECK(kmsg_record_get_timestamp(r) == 0);
                kmsg_record_unref(r);
        }
        /* One past the maximum, and far past it: rejected, never wrapped. */
        CHECK_INT(parse_err("6,18446744073709551616,1,-;over"), -EBADMSG);
        CHECK_INT(parse_err("6,1,18446744073709551616,-;over"), -EBADMSG);
        CHECK_INT(parse_err("6,1,99999999999999999999999,-;over"), -EBADMSG);
        CHECK_INT(parse_err("4294967302,1,1,-;pri over u32"), -EBADMSG);
}

TEST(flags) {
        static const struct {
                const char *in, *flags;
                int fragment;
        } cases[] = {
                { "6,1,2,-;m", "-", 0 },  { "6,1,2,c;m", "c", 1 },    { "6,1,2,+;m", "+", 1 },
                { "6,1,2,x;m", "x", 0 },  { "6,1,2,zz9;m", "zz9", 0 }, { "6,1,2,;m", "", 0 },
                { "6,1,2,c,caller=C1;m", "c", 1 },
        };
        size_t i;

        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct kmsg_record *r = parse(cases[i].in);

                if (!r)
                        continue;
                CHECK_STR(kmsg_record_get_flags(r), cases[i].flags);
                CHECK_INT(!!kmsg_record_is_fragment(r), cases[i].fragment);
                CHECK_MSG(r, "m");
                kmsg_record_unref(r);
        }
}

TEST(three_field_header) {
        /* The first 3.5-rc format: PRIO,SEQ,USEC;TEXT */
        struct kmsg_record *r = parse("5,17,12345;old kernel\n");

        if (!r)
                return;
        CHECK_INT(kmsg_record_get_priority(r), 5);
        CHECK_INT(kmsg_record_get_seqnum(r), 17);
        CHECK_INT(kmsg_record_get_timestamp(r), 12345);
        CHECK_STR(kmsg_record_get_flags(r), "");
        CHECK_STR(kmsg_record_get_fields(r), "");
        CHECK(kmsg_record_get_caller_text(r) == NULL);
        CHECK_INT(kmsg_record_get_caller(r, NULL, NULL), -ENODATA);
        CHECK_MSG(r, "old kernel");
        kmsg_record_unref(r);
}

TEST(caller_field) {
        struct kmsg_record *r;
        char kind = 0;
        uint32_t id = 0;

        r = parse("6,1,2,-,caller=C4;cpu");
        if (r) {
                CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
                CHECK_INT(kind, 'C');
                CHECK_INT(id, 4);
                CHECK_STR(kmsg_record_get_caller_text(r), "C4");
                kmsg_record_unref(r);
        }
        r = parse("6,1,2,-,caller=T4294967295;max pid");
        if (r) {
                CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
                CHECK_INT(kind, 'T');
                CHECK(id == 4294967295u);
                kmsg_record_unref(r);
        }
        /* Odd caller text: kept verbatim, not understood, the record still parses. */
        {
                static const char *odd[] = { "caller=X12", "caller=T", "caller=T12a", "caller=T-1",
                                             "caller=T4294967296", "caller=t12", "caller=C 1" };
                size_t i;

                for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
                        char buf[128];

                        snprintf(buf, sizeof(buf), "6,1,2,-,%s;text", odd[i]);
                        r = parse(buf);
                        if (!r)
                                continue;
                        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), -ENODATA);
                        CHECK_STR(kmsg_record_get_caller_text(r), odd[i] + 7);
                        CHECK_STR(kmsg_record_get_fields(r), odd[i]);
                        CHECK_MSG(r, "text");
                        kmsg_record_unref(r);
                }
        }
        /* An empty caller= is no caller at all. */
        r = parse("6,1,2,-,caller=;text");
        if (r) {
                CHECK_INT(kmsg_record_get_caller(r, NULL, NULL), -ENODATA);
                kmsg_record_unref(r);
        }
}

TEST(other_fields_kept_and_skipped) {
        struct kmsg_record *r = parse("6,1,2,-,foo=bar,caller=T77,baz,x=y=z;msg");
        uint32_t id = 0;

        if (!r)
                return;
        CHECK_STR(kmsg_record_get_fields(r), "foo=bar,caller=T77,baz,x=y=z");
        CHECK_INT(kmsg_record_get_caller(r, NULL, &id), 0);
        CHECK_INT(id, 77);
        CHECK_STR(kmsg_record_get_flags(r), "-");
        CHECK_MSG(r, "msg");
        kmsg_record_unref(r);

        /* Only the first caller= counts. */
        r = parse("6,1,2,-,caller=T1,caller=C2;msg");
        if (r) {
                char kind = 0;

                CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
                CHECK_INT(kind, 'T');
                CHECK_INT(id, 1);
                kmsg_record_unref(r);
        }
}

TEST(message_after_first_semicolon) {
        struct kmsg_record *r = parse("6,1,2,-;a;b,c=d;e,7,8,-;f\n");

        if (!r)
                return;
        CHECK_MSG(r, "a;b,c=d;e,7,8,-;f");
        CHECK_STR(kmsg_record_get_fields(r), "");
        kmsg_record_unref(r);

        r = parse("6,1,2,-;");
        if (r) {
                CHECK_MSG(r, "");
                kmsg_record_unref(r);
        }
        r = parse("6,1,2,-;;\n");
        if (r) {
                CHECK_MSG(r, ";");
                kmsg_record_unref(r);
        }
        r = parse("6,1,2,-;  leading and trailing spaces  \n");
        if (r) {
                CHECK_MSG(r, "  leading and trailing spaces  ");
                kmsg_record_unref(r);
        }
}

TEST(escapes) {
        struct kmsg_record *r;

        r = parse("6,1,2,-;deg\\xc2\\xb0C tab\\x09 bs\\x5c esc\\x1b[0m del\\x7f\n");
        if (r) {
                CHECK_MSG(r, "deg\xc2\xb0" "C tab\t bs\\ esc\x1b[0m del\x7f");
                kmsg_record_unref(r);
        }
        /* Upper-case hex from other tools is decoded too. */
        r = parse("6,1,2,-;\\xC2\\xB0 \\x4A\\x4b");
        if (r) {
                CHECK_MSG(r, "\xc2\xb0 JK");
                kmsg_record_unref(r);
        }
        /* \x5cx2d: an escaped backslash followed by "x2d" decodes once, to "\x2d". */
        r = parse("6,1,2,-;a\\x5cx2d b\\x5c\\x5c");
        if (r) {
                CHECK_MSG(r, "a\\x2d b\\\\");
                kmsg_record_unref(r);
        }
        /* Malformed escapes stay literally. */
        r = parse("6,1,2,-;\\x4 \\xZZ \\xg1 \\y lone\\ \\\\ \\X41 \\x");
        if (r) {
                CHECK_MSG(r, "\\x4 \\xZZ \\xg1 \\y lone\\ \\\\ \\X41 \\x");
                kmsg_record_unref(r);
        }
        /* An escape cut at the end of the record (6.3+ truncation). */
        r = parse("6,1,2,-;cut\\x5");
        if (r) {
                CHECK_MSG(r, "cut\\x5");
                kmsg_record_unref(r);
        }
        r = parse("6,1,2,-;cut\\");
        if (r) {
                CHECK_MSG(r, "cut\\");
                kmsg_record_unref(r);
        }
        r = parse("6,1,2,-;cut\\x\n");
        if (r) {
                CHECK_MSG(r, "cut\\x");
                kmsg_record_unref(r);
        }
        /* A literal newline ends the text; a cut escape before it stays literal. */
        r = parse("6,1,2,-;cut\\x4\n");
        if (r) {
                CHECK_MSG(r, "cut\\x4");
                kmsg_record_unref(r);
        }
}

TEST(decoded_nul_and_newline) {
        struct kmsg_record *r = parse("6,1,2,-;one\\x0atwo\\x00three\\x0d\\x0a\n");

        if (!r)
                return;
        CHECK_MSG(r, "one\ntwo\0three\r\n");
        kmsg_record_unref(r);

        r = parse("6,1,2,-;\\x00");
        if (r) {
                CHECK_MSG(r, "\0");
                kmsg_record_unref(r);
        }
}

TEST(dictionary) {
        struct kmsg_record *r = parse("3,5,6,-;usb 1-1: fail\n"
                                      " SUBSYSTEM=usb\n"
                                      " DEVICE=+usb:1-1\n"
                                      " X=a=b=c\n"
                                      " DEVICE=c189:1\n"
                                      " ESC=\\x1b\\x00z\\x5cx41\n"
                                      " E=\n"
                                      " k.e-y_9=v\n");
        const char *k, *v;
        size_t len = 0;

        if (!r)
                return;
        CHECK_MSG(r, "usb 1-1: fail");
        CHECK_INT(kmsg_record_get_dict_count(r), 7);
        CHECK_INT(kmsg_record_get_dict_entry(r, 0, &k, &v, &len), 0);
        CHECK_STR(k, "SUBSYSTEM");
        CHECK_STR(v, "usb");
        CHECK_INT(len, 3);
        CHECK_INT(kmsg_record_get_dict_entry(r, 1, &k, &v, &len), 0);
        CHECK_STR(k, "DEVICE");
        CHECK_STR(v, "+usb:1-1");
        CHECK_INT(kmsg_record_get_dict_entry(r, 2, &k, &v, &len), 0);
        CHECK_STR(k, "X");
        CHECK_STR(v, "a=b=c");
        CHECK_INT(kmsg_record_get_dict_entry(r, 3, &k, &v, &len), 0);
        CHECK_STR(k, "DEVICE");
        CHECK_STR(v, "c189:1");
        CHECK_INT(kmsg_record_get_dict_entry(r, 4, &k, &v, &len), 0);
        CHECK_STR(k, "ESC");
        CHECK_MEM(v, len, "\x1b\0z\\x41", 7);
        CHECK_INT(kmsg_record_get_dict_entry(r, 5, &k, &v, &len), 0);
        CHECK_STR(k, "E");
        CHECK_STR(v, "");
        CHECK_INT(len, 0);
        CHECK_INT(kmsg_record_get_dict_entry(r, 6, &k, &v, &len), 0);
        CHECK_STR(k, "k.e-y_9");
        CHECK_INT(kmsg_record_get_dict_entry(r, 7, &k, &v, &len), -ERANGE);

        /* Accessors: the first of duplicates. */
        CHECK_STR(kmsg_record_get_subsystem(r), "usb");
        CHECK_STR(kmsg_record_get_device(r), "+usb:1-1");
        CHECK_STR(kmsg_record_get_dict_value(r, "DEVICE", &len), "+usb:1-1");
        CHECK_INT(len, 8);
        CHECK_STR(kmsg_record_get_dict_value(r, "X", NULL), "a=b=c");
        CHECK(kmsg_record_get_dict_value(r, "NOPE", NULL) == NULL);
        CHECK(kmsg_record_get_dict_value(r, "SUBSYS", NULL) == NULL);
        kmsg_record_unref(r);

        /* No dictionary: accessors say so. */
        r = parse("6,1,2,-;plain\n");
        if (r) {
                CHECK(kmsg_record_get_subsystem(r) == NULL);
                CHECK(kmsg_record_get_device(r) == NULL);
                CHECK_INT(kmsg_record_get_dict_count(r), 0);
                CHECK_INT(kmsg_record_get_dict_entry(r, 0, NULL, NULL, NULL), -ERANGE);
                kmsg_record_unref(r);
        }
        /* Escapes are not decoded into the text from the dictionary, nor the other way. */
        r = parse("6,1,2,-;text\\x0a\n SUBSYSTEM=a\\x0ab\n");
        if (r) {
                CHECK_MSG(r, "text\n");
                CHECK_STR(kmsg_record_get_subsystem(r), "a\nb");
                kmsg_record_unref(r);
        }
}

TEST(dictionary_duplicates_first_wins_order_kept) {
        /* SUBSYSTEM and DEVICE twice each, interleaved: the accessors give the first, the entries keep all. */
        struct kmsg_record *r = parse("6,1,2,-;m\n SUBSYSTEM=first\n DEVICE=d1\n SUBSYSTEM=second\n DEVICE=d2\n");
        const char *k, *v;

        if (!r)
                return;
        CHECK_STR(kmsg_record_get_subsystem(r), "first");
        CHECK_STR(kmsg_record_get_device(r), "d1");
        CHECK_STR(kmsg_record_get_dict_value(r, "SUBSYSTEM", NULL), "first");
        CHECK_INT(kmsg_record_get_dict_count(r), 4);
        CHECK_INT(kmsg_record_get_dict_entry(r, 2, &k, &v, NULL), 0);
        CHECK_STR(k, "SUBSYSTEM");
        CHECK_STR(v, "second");
        CHECK_INT(kmsg_record_get_dict_entry(r, 3, &k, &v, NULL), 0);
        CHECK_STR(k, "DEVICE");
        CHECK_STR(v, "d2");
        kmsg_record_unref(r);
}

TEST(dictionary_escaped_keys_match_decoded) {
        /* \x44EVICE is DEVICE: the accessors compare the decoded key, as the lookup and the entries do. */
        struct kmsg_record *r = parse("6,1,2,-;m\n \\x53UBSYSTEM=block\n \\x44EVICE=b8:0\n DEVICE=b8:1\n");
        const char *k;

        if (!r)
                return;
        CHECK_INT(kmsg_record_get_dict_entry(r, 1, &k, NULL, NULL), 0);
        CHECK_STR(k, "DEVICE");
        CHECK_STR(kmsg_record_get_subsystem(r), "block");
        CHECK_STR(kmsg_record_get_device(r), "b8:0");
        CHECK_STR(kmsg_record_get_dict_value(r, "DEVICE", NULL), "b8:0");
        kmsg_record_unref(r);
}

TEST(invalid_dictionary_lines) {
        /* Lines that start with white space but are not " KEY=VALUE". */
        CHECK_INT(parse_err("6,1,2,-;m\n notakey\n"), -EBADMSG);
        CHECK_INT(parse_err("6,1,2,-;m\n =value\n"), -EBADMSG);
        CHECK_INT(parse_err("6,1,2,-;m\n K Y=v\n"), -EBADMSG);
        CHECK_INT(parse_err("6,1,2,-;m\n K:Y=v\n"), -EBADMSG);
        CHECK_INT(parse_err("6,1,2,-;m\n  KEY=v\n"), -EBADMSG);
        CHECK_INT(parse_err("6,1,2,-;m\nKEY=v\n"), -EBADMSG);

        CHECK_INT(dict_line_check(" KEY=v", 6), 1);
        CHECK_INT(dict_line_check(" notakey\n", 9), 0);
        CHECK_INT(dict_line_check(" KE", 3), -1);
        CHECK_INT(dict_line_check(" =v", 3), 0);
        CHECK_INT(dict_line_check("\tKEY=v", 6), 0);
        CHECK_INT(dict_line_check("", 0), -1);
        /* Escaped bytes in a key, as the kernel escapes them. */
        CHECK_INT(dict_line_check(" a\\x20b=v", strlen(" a\\x20b=v")), 1);
        CHECK_INT(dict_line_check(" \\x3d=v", strlen(" \\x3d=v")), 1);
        CHECK_INT(dict_line_check(" a\\x2", strlen(" a\\x2")), -1);
        CHECK_INT(dict_line_check(" a\\x", strlen(" a\\x")), -1);
        CHECK_INT(dict_line_check(" a\\", strlen(" a\\")), -1);
        CHECK_INT(dict_line_check(" a\\q=v", strlen(" a\\q=v")), 0);
        CHECK_INT(dict_line_check(" a\\x2g=v", strlen(" a\\x2g=v")), 0);
        CHECK_INT(parse_err("6,1,2,-;m\n a\\x2=v\n"), -EBADMSG);
}

TEST(escaped_dictionary_keys) {
        /* Bytes outside [A-Za-z0-9._-] in a key are \xNN, decoded once; a \x00 stays as written. */
        struct kmsg_record *r = parse("6,1,2,-;m\n a\\x20b\\x3dc=v\\x0a\n \\xc3\\xa9=x\n k\\x00=z\n k\\x5cx41=w\n");
        const char *key, *val;
        size_t len;

        if (!r)
                return;
        CHECK_INT((int)kmsg_record_get_dict_count(r), 4);
        CHECK_INT(kmsg_record_get_dict_entry(r, 0, &key, &val, &len), 0);
        CHECK_STR(key, "a b=c");
        CHECK_STR(val, "v\n");
        CHECK_INT(kmsg_record_get_dict_entry(r, 1, &key, &val, &len), 0);
        CHECK_STR(key, "\xc3\xa9");
        CHECK_INT(kmsg_record_get_dict_entry(r, 2, &key, &val, &len), 0);
        CHECK_STR(key, "k\\x00");
        CHECK_STR(val, "z");
        CHECK_INT(kmsg_record_get_dict_entry(r, 3, &key, &val, &len), 0);
        CHECK_STR(key, "k\\x41");
        CHECK_STR(kmsg_record_get_dict_value(r, "a b=c", &len), "v\n");
        kmsg_record_unref(r);
}

TEST(crlf) {
        struct kmsg_record *r = parse("6,1,2,-;crlf line\r\n SUBSYSTEM=pci\r\n DEVICE=+pci:0000:00:01.0\r\n");

        if (!r)
                return;
        CHECK_MSG(r, "crlf line");
        CHECK_STR(kmsg_record_get_subsystem(r), "pci");
        CHECK_STR(kmsg_record_get_device(r), "+pci:0000:00:01.0");
        kmsg_record_unref(r);

        /* An escaped CR inside the text is data. */
        r = parse("6,1,2,-;a\\x0d\r\n");
        if (r) {
                CHECK_MSG(r, "a\r");
                kmsg_record_unref(r);
        }
}

TEST(leading_white_space) {
        struct kmsg_record *r = parse("  \t6,9,10,-;indented\n");

        if (!r)
                return;
        CHECK_INT(kmsg_record_get_seqnum(r), 9);
        CHECK_MSG(r, "indented");
        kmsg_record_unref(r);
}

TEST(no_final_newline_and_unterminated_buffer) {
        char buf[] = "6,1,2,-;abcXXXX";
        struct kmsg_record *r = parse_len(buf, 11, __LINE__);

        if (!r)
                return;
        CHECK_MSG(r, "abc");
        kmsg_record_unref(r);
}

TEST(malformed_headers) {
        static const char *bad[] = {
                "",
                "\n",
                "no header at all\n",
                "6,1,2,-\n",                /* no ';' */
                "6,1,2,-\n;text after the newline",
                "6;text",
                "6,1;text",
                "6,1,;text",
                ",1,2,-;text",
                "a,1,2,-;text",
                "6,x,2,-;text",
                "6,1,y,-;text",
                "6,1,2x,-;text",
                "-6,1,2,-;text",
                "6,-1,2,-;text",
                "6 ,1,2,-;text",
                "6,1,2.5,-;text",
                " SUBSYSTEM=usb\n",
                "6,1,2,-;m\n notakey\n",
        };
        size_t i;

        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                int e = parse_err(bad[i]);

                if (e != -EBADMSG)
                        test_fail(__FILE__, __LINE__, "\"%s\" gave %d, expected -EBADMSG", bad[i], e);
        }
        CHECK_INT(kmsg_record_parse(NULL, 0, NULL), -EINVAL);
}

TEST(header_check) {
        CHECK(header_check("6,1,2,-;x", 9));
        CHECK(header_check("6,1,2;x", 7));
        CHECK(header_check("12,345,6789,", 12));
        CHECK(!header_check("6,1,2", 5));
        CHECK(!header_check("6,1,;", 5));
        CHECK(!header_check("6,1,2 ;", 7));
        CHECK(!header_check("x6,1,2;", 7));
        CHECK(!header_check("", 0));
}

TEST(ref_unref) {
        struct kmsg_record *r = parse("6,1,2,-;m");

        if (!r)
                return;
        CHECK(kmsg_record_ref(r) == r);
        CHECK(kmsg_record_unref(r) == NULL);
        CHECK_MSG(r, "m");
        CHECK(kmsg_record_unref(r) == NULL);
        CHECK(kmsg_record_unref(NULL) == NULL);
        CHECK(kmsg_record_ref(NULL) == NULL);
        /* Accessors on NULL do not crash. */
        CHECK(kmsg_record_get_message(NULL, NULL) == NULL);
        CHECK_INT(kmsg_record_get_dict_count(NULL), 0);
        CHECK_INT(kmsg_record_get_caller(NULL, NULL, NULL), -EINVAL);
}
