/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz kdmesg's output formats (src/output*.c and the escapers under
 * them, rewritten a word at a time for speed): the input is read as kdmesg
 * reads a dump, its form detected, and its records go through every view.
 *
 *  - The text views (classic, -x, -T, -e, iso with -d, -r, cat, table)
 *    let nothing a record holds reach a terminal raw: no C0 control byte
 *    but the newline (and the tab outside the table), no DEL, no C1
 *    control, only valid UTF-8, and only ASCII where the locale's
 *    character set is not UTF-8.  The checker below is written apart from
 *    the escapers it checks.
 *  - --format=kmsg reads back, the kmsg form forced, as the same records:
 *    priority, sequence number, time stamp, message and dictionary.
 *  - --json writes the bytes of the json-c path (KDMESG_JSON_SLOW=1), one
 *    JSON object a line; --json=dmesg one JSON document; both valid UTF-8.
 *  - --format=export writes something for every record, and never fails.
 */
#include <errno.h>
#include <json-c/json.h>
#include <unistd.h>

#include "text/columns.h"
#include "select/device.h"
#include "fuzz-common.h"
#include "text/writer.h"
#include "output/sink.h"
#include "select/match.h"

/* Records of one input that go through the views: enough for every path, few enough to stay fast. */
#define MAX_RECORDS 64

static struct {
        char *p;
        size_t len, cap;
} out;

static int capture(void *userdata, const void *p, size_t len) {
        if (out.len + len + 1 > out.cap) {
                out.cap = (out.len + len + 1) * 2;
                out.p = realloc(out.p, out.cap);
                FUZZ_ASSERT(out.p);
        }
        memcpy(out.p + out.len, p, len);
        out.len += len;
        out.p[out.len] = '\0';
        return 0;
}

/*
 * With problems: record i's match names a problem of its own making (a
 * kind, opening or not, its message's first bytes as the subject), as the
 * classification would hand it to the sink.
 */
static bool with_problems;

static void problem_of(struct kmsg_record *r, size_t i, struct match *m, char *subject, size_t size) {
        size_t len;
        const char *msg = kmsg_record_get_message(r, &len);

        *m = (struct match){ .problem.kind = PROBLEM_NONE };
        if (!with_problems)
                return;
        len = len < size - 1 ? len : size - 1;
        memcpy(subject, msg, len);
        subject[len] = '\0';
        m->problem.kind = (int)(i % (_PROBLEM_MAX + 1)) - 1;
        m->problem.opens = i % 3 != 1;
        m->problem.retitled = i % 5 == 4;
        m->problem.subject = m->problem.opens || m->problem.retitled ? subject : NULL;
}

/* The records through the sink called name, with settings st: what it wrote is in out. */
static void run_sink(const char *name, const struct output_settings *st, struct kmsg_record **recs, size_t n) {
        struct sink *s;
        size_t i;

        out.len = 0;
        out_set_writer(capture, NULL);
        s = sink_new(sink_lookup(name), st);
        FUZZ_ASSERT(s);
        for (i = 0; i < n; i++) {
                struct match m;
                char subject[64];

                problem_of(recs[i], i, &m, subject, sizeof(subject));
                FUZZ_ASSERT(s->ops->record(s, recs[i], &m) >= 0);
        }
        FUZZ_ASSERT(sink_finish(s) >= 0);
        sink_free(s);
        FUZZ_ASSERT(out_flush() == 0);
}

/*
 * The length of the valid UTF-8 sequence at p[0..n) (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0; its code
 * point in *cp.
 */
static size_t utf8_at(const unsigned char *p, size_t n, unsigned *cp) {
        unsigned c = p[0], len, i, v;

        if (c < 0x80) {
                *cp = c;
                return 1;
        }
        if (c >= 0xc2 && c <= 0xdf)
                len = 2, v = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
                len = 3, v = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
                len = 4, v = c & 0x07;
        else
                return 0;
        if (n < len)
                return 0;
        for (i = 1; i < len; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
                v = v << 6 | (p[i] & 0x3f);
        }
        if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
                return 0;
        *cp = v;
        return len;
}

static void check_utf8(const char *text, size_t n) {
        const unsigned char *p = (const unsigned char *)text;
        size_t i, k;
        unsigned cp;

        for (i = 0; i < n; i += k) {
                k = utf8_at(p + i, n - i, &cp);
                FUZZ_ASSERT(k > 0);
        }
}

/* What a terminal may be given: see the top. */
static void check_terminal_safe(const char *view, bool ascii, bool tab) {
        const unsigned char *p = (const unsigned char *)out.p;
        size_t i, k;
        unsigned cp;

        for (i = 0; i < out.len; i += k) {
                k = utf8_at(p + i, out.len - i, &cp);
                if (k == 0 || (cp < 0x20 && cp != '\n' && !(cp == '\t' && tab)) || (cp >= 0x7f && cp < 0xa0) ||
                    (ascii && cp >= 0x80)) {
                        fprintf(stderr, "%s (%s): byte %zu of %zu, 0x%02x, reaches the terminal raw\n", view,
                                ascii ? "ASCII" : "UTF-8", i, out.len, p[i]);
                        abort();
                }
        }
}

static bool same_bytes(const char *a, size_t alen, const char *b, size_t blen) {
        return alen == blen && memcmp(a, b, alen) == 0;
}

/* What --format=kmsg wrote (in out) read back: the same records. */
static void check_kmsg_readback(struct kmsg_record **recs, size_t n) {
        struct kmsg_reader *rd = NULL;
        int fd = fuzz_memfd(out.p, out.len), e;
        size_t i, j;

        FUZZ_ASSERT(kmsg_reader_new_fd(fd, "kmsg-out", KMSG_FORMAT_KMSG, &rd) == 0);
        for (i = 0; i <= n; i++) {
                struct kmsg_record *r = NULL, *o;
                const char *m, *om;
                size_t len, olen;

                e = kmsg_reader_next(rd, &r);
                if (i == n) {
                        FUZZ_ASSERT(e == 0);
                        break;
                }
                if (e != 1)
                        fprintf(stderr, "record %zu of %zu written as kmsg does not read back: %d %s\n%s", i, n, e,
                                e < 0 ? kmsg_reader_get_error(rd) : "", out.p);
                FUZZ_ASSERT(e == 1);
                o = recs[i];
                if (kmsg_record_has_priority(o))
                        FUZZ_ASSERT(kmsg_record_get_priority(r) == kmsg_record_get_priority(o));
                if (kmsg_record_has_seqnum(o))
                        FUZZ_ASSERT(kmsg_record_get_seqnum(r) == kmsg_record_get_seqnum(o));
                if (kmsg_record_has_timestamp(o))
                        FUZZ_ASSERT(kmsg_record_get_timestamp(r) == kmsg_record_get_timestamp(o));
                m = kmsg_record_get_message(r, &len);
                om = kmsg_record_get_message(o, &olen);
                FUZZ_ASSERT(same_bytes(m, len, om, olen));
                FUZZ_ASSERT(kmsg_record_get_dict_count(r) == kmsg_record_get_dict_count(o));
                for (j = 0; j < kmsg_record_get_dict_count(o); j++) {
                        const char *k, *v, *ok, *ov;
                        size_t vlen, ovlen;

                        FUZZ_ASSERT(kmsg_record_get_dict_entry(r, j, &k, &v, &vlen) == 0);
                        FUZZ_ASSERT(kmsg_record_get_dict_entry(o, j, &ok, &ov, &ovlen) == 0);
                        FUZZ_ASSERT(strcmp(k, ok) == 0);
                        FUZZ_ASSERT(same_bytes(v, vlen, ov, ovlen));
                }
        }
        kmsg_reader_unref(rd);
        close(fd);
}

/*
 * --json through both writers: the same bytes, a JSON object of valid UTF-8
 * a line; st: also with a boot time and id (realtime, boot_id) and the
 * records' problems (problem_of()).
 */
static void check_json(struct kmsg_record **recs, size_t n, const struct output_settings *sp) {
        const struct output_settings st = *sp;
        char *fast;
        size_t fast_len, lines = 0;
        const char *p, *nl;

        setenv("KDMESG_JSON_SLOW", "0", 1);
        run_sink("json", &st, recs, n);
        fast = malloc(out.len + 1);
        FUZZ_ASSERT(fast);
        memcpy(fast, out.p, out.len);
        fast_len = out.len;
        setenv("KDMESG_JSON_SLOW", "1", 1);
        run_sink("json", &st, recs, n);
        unsetenv("KDMESG_JSON_SLOW");
        if (!same_bytes(fast, fast_len, out.p, out.len))
                fprintf(stderr, "direct:\n%.*s\njson-c:\n%s\n", (int)fast_len, fast, out.p);
        FUZZ_ASSERT(same_bytes(fast, fast_len, out.p, out.len));
        check_utf8(fast, fast_len);
        for (p = fast; p < fast + fast_len; p = nl + 1) {
                struct json_tokener *tok = json_tokener_new();
                struct json_object *o;

                nl = memchr(p, '\n', (size_t)(fast + fast_len - p));
                FUZZ_ASSERT(nl);
                o = json_tokener_parse_ex(tok, p, (int)(nl - p));
                FUZZ_ASSERT(o && json_object_is_type(o, json_type_object));
                FUZZ_ASSERT(json_tokener_get_parse_end(tok) == (size_t)(nl - p));
                json_object_put(o);
                json_tokener_free(tok);
                lines++;
        }
        FUZZ_ASSERT(lines == n);
        free(fast);
}

/* --json=dmesg: one document, util-linux's form, valid UTF-8. */
static void check_json_dmesg(struct kmsg_record **recs, size_t n) {
        const struct output_settings st = { 0 };
        struct json_tokener *tok;
        struct json_object *o;
        size_t i, shown = 0, len;

        /* util-linux leaves out a record with an empty message; no record, no document. */
        for (i = 0; i < n; i++)
                shown += kmsg_record_get_message(recs[i], &len) && len > 0;
        run_sink("json-dmesg", &st, recs, n);
        check_utf8(out.p, out.len);
        if (shown == 0) {
                FUZZ_ASSERT(out.len == 0);
                return;
        }
        tok = json_tokener_new();
        o = json_tokener_parse_ex(tok, out.p, (int)out.len);
        FUZZ_ASSERT(o && json_object_is_type(o, json_type_object));
        json_object_put(o);
        json_tokener_free(tok);
}

/* The table's default columns, and every column (a dictionary key's too, MESSAGE not last). */
static struct columns defaults, every;

static void columns_once(void) {
        char list[] = "SEQ,TIME,PRI,FACILITY,LEVEL,FLAGS,CALLER,MESSAGE,SUBSYSTEM,DEVICE,DEVNAME,MATCH,DICT,DEV.A";
        const char *bad;

        if (defaults.n)
                return;
        FUZZ_ASSERT(columns_add_defaults(&defaults) == 0);
        FUZZ_ASSERT(columns_parse(&every, list, &bad) == 0);
}

/* Time format f, with the boot at 2023-11-14 22:13:20 UTC. */
static void with_time(struct output_settings *st, enum time_format f) {
        timefmt_add(&st->time, f);
        st->time.have_boot = true;
        st->time.boot_usec = INT64_C(1700000000000000);
}

static void check_text_views(struct kmsg_record **recs, size_t n, bool ascii) {
        struct output_settings st = { .columns = &defaults };

        columns_once();
        out_set_ascii(ascii);
        run_sink("short", &st, recs, n);
        check_terminal_safe("short", ascii, true);
        run_sink("syslog", &st, recs, n);
        check_terminal_safe("syslog", ascii, true);
        run_sink("cat", &st, recs, n);
        check_terminal_safe("cat", ascii, true);
        run_sink("table", &st, recs, n);
        check_terminal_safe("table", ascii, false);

        /* -x, and -T with a known boot time. */
        st.decode = true;
        with_time(&st, TIME_CTIME);
        run_sink("short", &st, recs, n);
        check_terminal_safe("short -x -T", ascii, true);
        run_sink("table", &st, recs, n);
        check_terminal_safe("table -x -T", ascii, false);
        st.columns = &every;
        run_sink("table", &st, recs, n);
        check_terminal_safe("table -o every column", ascii, false);

        /* The other time formats: -e (reltime), and iso with the delta. */
        st = (struct output_settings){ .columns = &defaults };
        with_time(&st, TIME_RELTIME);
        run_sink("short", &st, recs, n);
        check_terminal_safe("short -e", ascii, true);
        st = (struct output_settings){ .columns = &defaults };
        with_time(&st, TIME_ISO);
        timefmt_add(&st.time, TIME_SHOW_DELTA);
        run_sink("short", &st, recs, n);
        check_terminal_safe("short iso -d", ascii, true);
        run_sink("table", &st, recs, n);
        check_terminal_safe("table iso -d", ascii, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const struct output_settings st = { 0 };
        struct kmsg_record *recs[MAX_RECORDS];
        struct kmsg_reader *rd = NULL;
        int fd = fuzz_memfd(data, size), e, i;
        size_t n = 0, k;

        FUZZ_ASSERT(kmsg_reader_new_fd(fd, "fuzz", KMSG_FORMAT_AUTO, &rd) == 0);
        /* Bounded: every call consumes input or ends it. */
        for (i = 0; i < 1000000 && n < MAX_RECORDS; i++) {
                struct kmsg_record *r = NULL;

                e = kmsg_reader_next(rd, &r);
                if (e == 0)
                        break;
                if (e > 0)
                        recs[n++] = kmsg_record_ref(r);
        }
        kmsg_reader_unref(rd);
        close(fd);

        check_text_views(recs, n, true);
        check_text_views(recs, n, false);
        out_set_ascii(false);
        run_sink("kmsg", &st, recs, n);
        check_kmsg_readback(recs, n);
        check_json(recs, n, &st);
        {
                /* A boot time from the first record's number: any time from 1970 to past the year 10000. */
                struct output_settings placed = { .boot_id = "0123456789abcdef0123456789abcdef", .problem_fields = true };

                placed.time.have_boot = true;
                placed.time.boot_usec = n && kmsg_record_has_seqnum(recs[0])
                                                ? (int64_t)(kmsg_record_get_seqnum(recs[0]) % (UINT64_C(1) << 59))
                                                : 1700000000000000;
                with_problems = true;
                check_json(recs, n, &placed);
                run_sink("export", &placed, recs, n);
                with_problems = false;
        }
        check_json_dmesg(recs, n);
        run_sink("export", &st, recs, n);
        FUZZ_ASSERT(n == 0 || out.len > 0);

        for (k = 0; k < n; k++)
                kmsg_record_unref(recs[k]);
        return 0;
}
