/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdmesg's direct JSON writer (src/output-json.c) against json-c, byte for
 * byte, and utf8_is_valid() against a byte at a time: its string escaper
 * over every byte value at every position and
 * alignment, invalid UTF-8 anywhere, random text; whole records of the
 * json sink on its fast path against the same records through json-c
 * (KDMESG_JSON_SLOW=1), long texts and records larger than the output
 * buffer included.  Every input sits at the very end of a buffer of its
 * own, and every output buffer has just the room the writer asks for, so
 * that ASan sees a read or a write past either.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "select/device.h"
#include "text/json.h"
#include "text/writer.h"
#include "output/sink.h"
#include "tests.h"
#include "text/utf8.h"

static const int to_string_flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

/* What json-c writes for p[0..n) as a string, or NULL when it is not UTF-8. */
static char *jsonc_text(const char *p, size_t n) {
        struct json_object *o;
        char *s;

        if (!utf8_is_valid(p, n))
                return NULL;
        o = json_object_new_string_len(p, (int)n);
        s = strdup(json_object_to_json_string_ext(o, to_string_flags));
        json_object_put(o);
        return s;
}

/* The text as out_json_text() documents it, a byte at a time: another bytes' \xNN as text. */
static size_t ref_text(char *o, const unsigned char *p, size_t n) {
        char *start = o;
        size_t i, k;
        uint32_t cp;

        *o++ = '"';
        for (i = 0; i < n; i += k) {
                unsigned char b = p[i];

                k = 1;
                if (b == '"' || b == '\\') {
                        *o++ = '\\';
                        *o++ = (char)b;
                } else if (b < 0x20) {
                        const char *two = strchr("\bb\ff\nn\rr\tt", b);

                        if (b && two)
                                o += sprintf(o, "\\%c", two[1]);
                        else
                                o += sprintf(o, "\\u%04x", b);
                } else if (b < 0x80)
                        *o++ = (char)b;
                else if ((k = utf8_decode(p + i, n - i, &cp)) > 0) {
                        memcpy(o, p + i, k);
                        o += k;
                } else {
                        k = 1;
                        o += sprintf(o, "\\\\x%02x", b);
                }
        }
        *o++ = '"';
        return (size_t)(o - start);
}

/* Whether p[0..n) is UTF-8, a byte at a time. */
static bool ref_valid(const unsigned char *p, size_t n) {
        size_t i, k;
        uint32_t cp;

        for (i = 0; i < n; i += k) {
                k = 1;
                if (p[i] >= 0x80 && (k = utf8_decode(p + i, n - i, &cp)) == 0)
                        return false;
        }
        return true;
}

static unsigned long n_texts;

/* p[0..n) through json_put_text(), strict and not, at alignment off. */
static void check_text_at(const char *p, size_t n, size_t off) {
        char *in = malloc(off + n + (n == 0)), *out = malloc(JSON_TEXT_ROOM(n)), *ref = malloc(6 * n + 3), *want, *e;
        const char *text = in + off;
        size_t ref_len;

        CHECK(in && out && ref);
        /* The text ends where its buffer does. */
        memcpy(in + off, p, n);
        ref_len = ref_text(ref, (const unsigned char *)p, n);
        CHECK(utf8_is_valid(text, n) == ref_valid((const unsigned char *)p, n));
        want = jsonc_text(p, n);
        e = json_put_text(out, text, n, true);
        if (want) {
                /* The reference escapes as json-c does. */
                CHECK_MEM(ref, ref_len, want, strlen(want));
                CHECK(e != NULL);
                if (e)
                        CHECK_MEM(out, (size_t)(e - out), want, strlen(want));
        } else
                CHECK(e == NULL);
        e = json_put_text(out, text, n, false);
        CHECK_MEM(out, (size_t)(e - out), ref, ref_len);
        e = json_put_chars(out, text, n, false);
        CHECK_MEM(out, (size_t)(e - out), ref + 1, ref_len - 2);
        n_texts++;
        free(want);
        free(in);
        free(out);
        free(ref);
}

static void check_text(const char *p, size_t n) {
        size_t off;

        for (off = 0; off < 16; off++)
                check_text_at(p, n, off);
}

static const char *const invalid[] = {
        "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",
        "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xfe", "\x80", "\xbf",
        "\xc2", "\xe2\x82", "\xf0\x9f\x98", "\xc2\x20", "\xe2\x28\xa1", "\xf8\x88\x80\x80\x80",
};
static const char *const valid[] = {
        "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xe2\x82\xac", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
        "\xf0\x90\x80\x80", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xc2\xb0", "\"", "\\", "/", "\x7f",
};

TEST(every_byte_at_every_position) {
        char buf[48];
        size_t len, pos;
        unsigned b;

        for (len = 1; len <= 40; len++)
                for (pos = 0; pos < len; pos++)
                        for (b = 0; b < 256; b++) {
                                memset(buf, 'a', len);
                                buf[pos] = (char)b;
                                check_text_at(buf, len, (len + pos + b) % 16);
                        }
        check_text("", 0);
}

TEST(sequences_at_every_alignment_and_at_the_end) {
        const char *const *sets[] = { invalid, valid };
        size_t counts[] = { sizeof(invalid) / sizeof(invalid[0]), sizeof(valid) / sizeof(valid[0]) };
        char buf[128];
        size_t s, i, pre, post;

        for (s = 0; s < 2; s++)
                for (i = 0; i < counts[s]; i++) {
                        size_t n = strlen(sets[s][i]);

                        for (pre = 0; pre <= 34; pre++)
                                for (post = 0; post <= 17; post++) {
                                        memset(buf, 'x', pre);
                                        memcpy(buf + pre, sets[s][i], n);
                                        memset(buf + pre + n, 'y', post);
                                        check_text(buf, pre + n + post);
                                }
                }
}

TEST(random_texts) {
        static const char *const parts[] = { "a", " ", "\"", "\\", "\n", "\t", "\x01", "\x1f", "\xc2\xb0",
                                             "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xff", "\xe2\x82", "\x80" };
        unsigned long x = 12345, before = n_texts;
        char buf[512];
        int t;

        for (t = 0; t < 20000; t++) {
                size_t n = 0, want;

                x = x * 6364136223846793005UL + 1442695040888963407UL;
                want = (x >> 33) % 200;
                while (n < want) {
                        x = x * 6364136223846793005UL + 1442695040888963407UL;
                        if ((x >> 60) < 8) {
                                /* Any byte. */
                                buf[n++] = (char)(x >> 40);
                        } else {
                                const char *p = parts[(x >> 40) % (sizeof(parts) / sizeof(parts[0]))];

                                memcpy(buf + n, p, strlen(p));
                                n += strlen(p);
                        }
                }
                check_text_at(buf, n, t % 16);
        }
        CHECK(n_texts - before == 20000);
}

TEST(byte_arrays_as_json_c_writes_them) {
        unsigned char buf[256];
        struct json_object *a = json_object_new_array();
        char out[4 * 256 + 2], *e;
        size_t i;

        for (i = 0; i < 256; i++) {
                buf[i] = (unsigned char)(255 - i);
                json_object_array_add(a, json_object_new_int(buf[i]));
                e = json_put_bytes(out, (const char *)buf, i + 1);
                CHECK_STR((*e = '\0', out), json_object_to_json_string_ext(a, to_string_flags));
        }
        json_object_put(a);
}

/* ------------------------------------------------------------------ */
/* Whole records: the json sink's output, captured.                    */

static char *cap;
static size_t cap_len, cap_size;
/* Bytes that filled the buffer before a record: not captured. */
static size_t cap_skip;

static int capture(void *userdata, const void *p, size_t len) {
        size_t skip = len < cap_skip ? len : cap_skip;

        p = (const char *)p + skip;
        len -= skip;
        cap_skip -= skip;
        if (cap_len + len + 1 > cap_size) {
                cap_size = (cap_len + len + 1) * 2;
                cap = realloc(cap, cap_size);
                if (!cap)
                        return -ENOMEM;
        }
        memcpy(cap + cap_len, p, len);
        cap_len += len;
        cap[cap_len] = '\0';
        return 0;
}

/* Everything out_*() wrote until now, as a new string. */
static char *captured(size_t *ret_len) {
        char *s;

        CHECK_INT(out_flush(), 0);
        s = malloc(cap_len + 1);
        memcpy(s, cap ? cap : "", cap_len);
        s[cap_len] = '\0';
        *ret_len = cap_len;
        cap_len = 0;
        return s;
}

/*
 * With pads, each record is written pads times, the i-th time into an
 * output buffer filled but for i + 1 bytes: every step of the writer meets
 * the end of the buffer at every offset.
 */
static unsigned pads;

static void write_padded(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        unsigned i;

        for (i = 0; i < (pads ? pads : 1); i++) {
                if (pads) {
                        CHECK_INT(out_flush(), 0);
                        /* What the buffer holds is written out, not captured: no need to copy anything there. */
                        cap_skip = OUT_BUF_SIZE - i - 1;
                        out_len = cap_skip;
                }
                CHECK_INT(s->ops->record(s, r, m), 0);
        }
}

/* The records of an input through the json sink; slow: through json-c. */
static char *json_of(const char *input, size_t len, enum kmsg_format f, bool slow, const struct match *m,
                     size_t *ret_len) {
        struct output_settings settings = { 0 };
        char path[] = "/tmp/test-json-writer-XXXXXX";
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        struct sink *s;
        int fd = mkstemp(path), e;

        out_set_writer(capture, NULL);
        CHECK(fd >= 0);
        CHECK(write(fd, input, len) == (ssize_t)len);
        CHECK(lseek(fd, 0, SEEK_SET) == 0);
        unlink(path);
        CHECK_INT(kmsg_reader_new_fd(fd, "t", f, &rd), 0);
        CHECK_INT(kmsg_reader_set_max_record_size(rd, 4 << 20), 0);
        setenv("KDMESG_JSON_SLOW", slow ? "1" : "0", 1);
        s = sink_new(sink_lookup("json"), &settings);
        CHECK(s != NULL);
        CHECK(json_direct() == !slow);
        while ((e = kmsg_reader_next(rd, &r)) != 0)
                if (e > 0)
                        write_padded(s, r, m);
        sink_free(s);
        kmsg_reader_unref(rd);
        unsetenv("KDMESG_JSON_SLOW");
        return captured(ret_len);
}

/* Both paths give the same bytes, one valid JSON object a line. */
static void check_records(const char *input, size_t len, enum kmsg_format f, const struct match *m) {
        size_t fast_len, slow_len, lines = 0;
        char *fast = json_of(input, len, f, false, m, &fast_len), *slow = json_of(input, len, f, true, m, &slow_len);
        const char *p, *nl;

        CHECK_MEM(fast, fast_len, slow, slow_len);
        CHECK(fast_len > 0);
        /* memchr(): strchr() under ASan's strict_string_checks would read the whole rest each time. */
        for (p = fast; p < fast + fast_len; p = nl + 1) {
                struct json_tokener *tok = json_tokener_new();
                struct json_object *o;

                nl = memchr(p, '\n', (size_t)(fast + fast_len - p));
                CHECK(nl != NULL);
                if (!nl)
                        break;
                o = json_tokener_parse_ex(tok, p, (int)(nl - p));
                CHECK(o != NULL && json_object_is_type(o, json_type_object));
                json_object_put(o);
                json_tokener_free(tok);
                lines++;
        }
        CHECK(lines > 0);
        free(fast);
        free(slow);
}

/* A growing input. */
struct buf {
        char *p;
        size_t len, size;
};

static void add(struct buf *b, const void *p, size_t n) {
        if (b->len + n > b->size) {
                b->size = (b->len + n) * 2 + 4096;
                b->p = realloc(b->p, b->size);
        }
        memcpy(b->p + b->len, p, n);
        b->len += n;
}

static void addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(struct buf *b, const char *fmt, ...) {
        char tmp[4096];
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
        va_end(ap);
        add(b, tmp, (size_t)n);
}

/* p[0..n) as a kmsg message or dictionary value: every byte as \xNN. */
static void add_escaped(struct buf *b, const char *p, size_t n) {
        size_t i;

        for (i = 0; i < n; i++) {
                unsigned char c = (unsigned char)p[i];
                char e[4] = { '\\', 'x', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15] };

                add(b, e, 4);
        }
}

static const struct match no_match;

TEST(records_every_byte_in_every_member) {
        static const char *const flags[] = { "-", "c", "+", "-x", "\xff", "\xc2\xb0", "\"q\"", "a/b", "" };
        static const char *const fields[] = { "", ",caller=T1", ",caller=C12345", ",caller=T\xff", ",caller=T1,foo=bar",
                                              ",foo=bar", ",caller=", ",caller=T\xc2\xb0", ",caller=\"" };
        static const unsigned long pris[] = { 6, 0, 191, 192, 193, 1023, 2147483648UL, 4294967295UL };
        struct buf b = { 0 };
        char msg[24];
        unsigned c, i = 0;
        size_t pos;

        for (c = 0; c < 256; c++)
                for (pos = 0; pos < 17; pos += 4, i++) {
                        memset(msg, 'm', sizeof(msg));
                        msg[pos] = (char)c;
                        addf(&b, "%lu,%u,%u,%s%s;", pris[i % 8], i, i * 10, flags[i % 9], fields[(i / 9) % 9]);
                        add_escaped(&b, msg, 7 + pos % 11);
                        add(&b, "\n", 1);
                        if (i % 3 == 0) {
                                add(&b, " SUBSYSTEM=", 11);
                                add_escaped(&b, msg + pos % 3, 5);
                                addf(&b, "\n DEVICE=%s\n K.%u=", i % 2 ? "+pci:0000:00:1f.2" : "b8:0", c);
                                add_escaped(&b, msg, pos);
                                add(&b, "\n", 1);
                        }
                }
        check_records(b.p, b.len, KMSG_FORMAT_KMSG, &no_match);
        free(b.p);
}

TEST(records_with_invalid_utf8_everywhere_from_export_input) {
        struct buf b = { 0 };
        size_t i, j;

        for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
                for (j = 0; j < 8; j++) {
                        const char *v = invalid[i];
                        uint64_t n = strlen(v) + 2;

                        addf(&b, "SEQNUM=%zu\n", i * 8 + j);
                        if (j != 6)
                                addf(&b, "PRIORITY=%zu\nSYSLOG_FACILITY=%zu\n", j, (i * 7) % 40);
                        /* The message, the flags, the fields, a key, a value, the boot id: one of them bad. */
                        add(&b, "MESSAGE\n", 8);
                        add(&b, &n, 8);
                        addf(&b, "%c%s%c\n", j == 0 ? 'a' : 'b', v, 'c');
                        addf(&b, "KMSG_FLAGS=%s\n", j == 1 ? v : "-");
                        addf(&b, "KMSG_FIELDS=caller=T%s,x=%s\n", j == 2 ? v : "7", j == 3 ? v : "y");
                        addf(&b, "KMSG_DICT=K%s=%s\n", j == 4 ? v : "", j == 5 ? v : "w");
                        addf(&b, "_KERNEL_SUBSYSTEM=%s\n_KERNEL_DEVICE=+x:%s\n", j == 6 ? v : "s", j == 7 ? v : "d");
                        addf(&b, "_BOOT_ID=%s\n\n", j == 7 ? v : "0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e");
                }
        check_records(b.p, b.len, KMSG_FORMAT_EXPORT, &no_match);
        free(b.p);
}

TEST(records_without_seq_time_or_priority) {
        static const char input[] =
                "{\"msg\":\"no head\"}\n"
                "{\"seq\":3,\"msg\":\"seq only\",\"flags\":\"\"}\n"
                "{\"time\":1.5,\"msg\":[104,0,255]}\n"
                "{\"facility\":\"user\",\"level\":\"err\",\"msg\":\"\\u0000\",\"dict\":{\"K\\u00b0\":\"v\"}}\n"
                "{\"pri\":4294967295,\"msg\":\"\",\"caller\":\"T1\",\"fields\":\"caller=T1,x=y\"}\n";

        check_records(input, sizeof(input) - 1, KMSG_FORMAT_JSON, &no_match);
}

TEST(records_marked_as_selected_by_their_text) {
        static const char input[] = "6,0,1,-;sda: text\n6,1,2,-;x\n SUBSYSTEM=block\n DEVICE=b8:0\n";
        const struct match m = { .how = DEVMATCH_TEXT, .name = "sda", .device = "b8:0" };

        check_records(input, sizeof(input) - 1, KMSG_FORMAT_KMSG, &m);
}

/* Texts longer than a step writes and records longer than the output buffer: written in pieces. */
TEST(records_larger_than_the_output_buffer) {
        static const char *const across[] = { "\xc2\xb0", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x80\x80\x80\x80\x80",
                                              "\xe2\x82", "\n" };
        static const size_t lens[] = { 10911, 10912, 10913, 20000, 65536, 70000 };
        struct buf b = { 0 };
        unsigned seq = 0;
        size_t i, j, k;
        int cut;

        for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
                char *m = malloc(lens[i] + 8);

                for (j = 0; j < 4; j++) {
                        memset(m, j == 1 ? '\n' : 'L', lens[i]);
                        if (j == 2)
                                m[lens[i] - 1] = (char)0xff;
                        if (j == 3)
                                memcpy(m + lens[i] / 2, "\xe2\x82\xac", 3);
                        addf(&b, "6,%u,1,-;", seq++);
                        add_escaped(&b, m, lens[i]);
                        addf(&b, "\n V=");
                        add_escaped(&b, m, lens[i]);
                        add(&b, "\n", 1);
                }
                /* A sequence across the cut of a long text's first piece. */
                for (cut = -4; cut <= 4; cut++)
                        for (k = 0; k < sizeof(across) / sizeof(across[0]) && lens[i] == 20000; k++) {
                                memset(m, 'a', lens[i]);
                                memcpy(m + 10912 + cut, across[k], strlen(across[k]));
                                addf(&b, "6,%u,1,-;", seq++);
                                add_escaped(&b, m, lens[i]);
                                add(&b, "\n", 1);
                        }
                free(m);
        }
        /* Many dictionary lines, a part not UTF-8. */
        addf(&b, "6,%u,1,-;many\n", seq++);
        for (i = 0; i < 20000; i++)
                addf(&b, " A%zu=%s\n", i, i % 3 ? "v\\x0a\\x22" : "\\xff");
        check_records(b.p, b.len, KMSG_FORMAT_KMSG, &no_match);
        free(b.p);
}

/* A long text through out_json_text(): in pieces, the same as in one. */
TEST(out_json_text_long) {
        static const char *const across[] = { "\xc2\xb0", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x80\x80\x80\x80",
                                              "\xe2\x82", "\xff", "\x01" };
        size_t n = 70000, k, len;
        char *p = malloc(n), *ref = malloc(6 * n + 3), *got;
        int cut;

        out_set_writer(capture, NULL);
        for (k = 0; k < sizeof(across) / sizeof(across[0]); k++)
                for (cut = -5; cut <= 5; cut++) {
                        memset(p, 'a', n);
                        memcpy(p + 10912 + cut, across[k], strlen(across[k]));
                        memcpy(p + 2 * 10912 + cut, across[k], strlen(across[k]));
                        out_json_text(p, n);
                        got = captured(&len);
                        CHECK_MEM(got, len, ref, ref_text(ref, (const unsigned char *)p, n));
                        free(got);
                }
        free(p);
        free(ref);
}

/* ------------------------------------------------------------------ */
/* --json=dmesg: util-linux's document, written straight into the buffer. */

/* The records of a kmsg input through the json-dmesg sink. */
static char *json_dmesg_of(const char *input, size_t len, bool decode, size_t *ret_len) {
        struct output_settings settings = { .decode = decode };
        struct kmsg_record *r;
        const char *p = input, *end = input + len, *nl;
        struct sink *s;

        out_set_writer(capture, NULL);
        s = sink_new(sink_lookup("json-dmesg"), &settings);
        CHECK(s != NULL);
        for (; p < end; p = nl + 1) {
                nl = memchr(p, '\n', (size_t)(end - p));
                CHECK_INT(kmsg_record_parse(p, (size_t)(nl - p), &r), 0);
                write_padded(s, r, &no_match);
                kmsg_record_unref(r);
        }
        CHECK_INT(sink_finish(s), 0);
        sink_free(s);
        return captured(ret_len);
}

/* The document as util-linux's form says it, made with printf(): n records of the test below, each written reps times. */
static void json_dmesg_want(struct buf *in, struct buf *want, unsigned n, unsigned reps, bool decode) {
        char msg[800], caller[16], ref[6 * 800 + 3];
        unsigned i, k, rep;

        for (i = 0; i < n; i++) {
                unsigned pri = (i * 7) % 200, fac = pri >> 3, len = 1 + (i * 13) % 700;

                for (k = 0; k < len; k++)
                        msg[k] = "ab\n\"\\c\xc2\xb0\xff"[(i + k) % 8];
                snprintf(caller, sizeof(caller), i % 3 ? "T%u" : "C%u\x01", i);
                addf(in, "%u,%u,%u,-%s%s;", pri, i, i * 1000 + 17, i % 4 ? ",caller=" : "", i % 4 ? caller : "");
                add_escaped(in, msg, len);
                add(in, "\n", 1);
                for (rep = 0; rep < reps; rep++) {
                        addf(want, i || rep ? "},{\n" : "{\n   \"dmesg\": [\n      {\n");
                        if (fac < 24 && decode)
                                addf(want, "         \"fac\": \"%s\",\n         \"pri\": \"%s\",\n",
                                     kmsg_facility_to_name(fac), kmsg_level_to_name(pri & 7));
                        else if (fac < 24)
                                addf(want, "         \"pri\": %u,\n", pri);
                        addf(want, "         \"time\": %5u.%06u,\n", (i * 1000 + 17) / 1000000,
                             (i * 1000 + 17) % 1000000);
                        if (i % 4) {
                                addf(want, "         \"caller\": ");
                                add(want, ref, ref_text(ref, (const unsigned char *)caller, strlen(caller)));
                                addf(want, ",\n");
                        }
                        addf(want, "         \"msg\": ");
                        add(want, ref, ref_text(ref, (const unsigned char *)msg, len));
                        addf(want, "\n      ");
                }
        }
        addf(want, "}\n   ]\n}\n");
}

/* Records of every length from 1 to 700 bytes, with and without -x; then a few, each at every offset of the buffer's end. */
TEST(json_dmesg_as_util_linux_writes_it) {
        struct buf in = { 0 }, want = { 0 };
        size_t len;
        char *got;
        int x;

        for (x = 0; x < 4; x++) {
                pads = x < 2 ? 0 : 400;
                json_dmesg_want(&in, &want, x < 2 ? 2100 : 12, x < 2 ? 1 : pads, x % 2);
                got = json_dmesg_of(in.p, in.len, x % 2, &len);
                CHECK_MEM(got, len, want.p, want.len);
                free(got);
                in.len = want.len = 0;
        }
        pads = 0;
        free(in.p);
        free(want.p);
}

/* Bytes that take six each: eleven escaped for kmsg input, seven as they are. */
#define SEVEN "\1\2\3\4\5\6\7"
#define CONTROLS "\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x0b\\x0e\\x0f\\x10"

/* Each member of a few records meets the end of the output buffer at every offset. */
TEST(records_at_every_offset_of_the_buffer) {
        static const char kmsg[] = "6,1,1000,-,caller=T123;a message of some length, with \\x0a and \\xc2\\xb0 in it\n"
                                   " SUBSYSTEM=pci\n DEVICE=+pci:0000:00:1f.2\n K=\\xff\\xfe\n"
                                   "190,2,2000,\\xe2\\x82\\xac,caller=C1,x=y;\\x22\\x5c\\x01\n"
                                   "4294967295,3,18446744073709551615,+;\\xff\n"
                                   "6,4,3000,-;\n"
                                   "6,5,3001,;x\n"
                                   "6,6,3002,-;y\n K=\n"
                                   /* Texts that take the most they can: the steps after them have the least room. */
                                   "6,7,4000,-;" CONTROLS CONTROLS CONTROLS CONTROLS CONTROLS "\n"
                                   " A=" CONTROLS CONTROLS CONTROLS CONTROLS CONTROLS "\n B=" CONTROLS "\n"
                                   "6,8,4001,-;\\x1f\n"
                                   /* The longest head. */
                                   "4294967295,18446744073709551615,18446744073709551615,-;m\n";
        static const char export[] = "SEQNUM=7\nMESSAGE=m\nKMSG_FIELDS=caller=T1,a=b\n_BOOT_ID=0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e\n\n"
                                     "SEQNUM=8\nMESSAGE=m\nKMSG_FLAGS\n\3\0\0\0\0\0\0\0\1\2\3\n"
                                     "KMSG_FIELDS\n\x11\0\0\0\0\0\0\0caller=\1\2\3\4,a=\5\6\7\n"
                                     "_KERNEL_SUBSYSTEM\n\3\0\0\0\0\0\0\0\1\1\1\n_BOOT_ID\n\3\0\0\0\0\0\0\0\1\1\1\n\n"
                                     "SEQNUM=9\nMESSAGE=m\nKMSG_FIELDS\n\x38\0\0\0\0\0\0\0caller=" SEVEN SEVEN SEVEN SEVEN
                                     SEVEN SEVEN SEVEN "\n\n";
        const struct match m = { .how = DEVMATCH_TEXT, .name = "sda", .device = "b8:0" };

        pads = 800;
        check_records(kmsg, sizeof(kmsg) - 1, KMSG_FORMAT_KMSG, &no_match);
        check_records(kmsg, sizeof(kmsg) - 1, KMSG_FORMAT_KMSG, &m);
        check_records(export, sizeof(export) - 1, KMSG_FORMAT_EXPORT, &no_match);
        pads = 0;
}
