/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=json: JSON Lines, one object per record, built with json-c.
 * The keys and their JSON types come from the column table (columns.c);
 * data/kdmesg-record.schema.json describes them.  Text that is not valid
 * UTF-8 is written as an array of its byte values, so the output is always
 * valid JSON and nothing is lost.  A loss event is an object of its own
 * with "cause" and "count" instead of "msg".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/printbuf.h>

#include "columns.h"
#include "device.h"
#include "escape.h"
#include "output-json.h"
#include "output.h"
#include "sink.h"
#include "timefmt.h"
#include "utf8.h"

static const int to_string_flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

/*
 * A time stamp is a double for json-c, but is written from the exact
 * microseconds it carries, with exactly six decimals: a double has no room
 * for every u64 and cannot be converted back past 2^64.
 */
static int usec_to_json(struct json_object *jso, struct printbuf *pb, int level, int flags) {
        const uint64_t *usec = json_object_get_userdata(jso);
        char tmp[28];
        size_t n = put_seconds(tmp, *usec, 0);

        return printbuf_memappend(pb, tmp, (int)n);
}

struct json_object *json_usec_new(uint64_t usec) {
        struct json_object *o = json_object_new_double((double)usec / 1e6);
        uint64_t *box;

        if (!o)
                return NULL;
        box = malloc(sizeof(*box));
        if (!box) {
                json_object_put(o);
                return NULL;
        }
        *box = usec;
        json_object_set_serializer(o, usec_to_json, box, json_object_free_userdata);
        return o;
}

struct json_object *json_bytes_new(const char *p, size_t len) {
        struct json_object *a;
        size_t i;

        if (utf8_is_valid(p, len))
                return json_object_new_string_len(p, (int)len);
        a = json_object_new_array_ext((int)len);
        if (!a)
                return NULL;
        for (i = 0; i < len; i++)
                json_object_array_add(a, json_object_new_int((unsigned char)p[i]));
        return a;
}

/* A dictionary key that is not UTF-8 (only possible from export input) gets \xNN escapes. */
static char *key_escape(const char *key) {
        size_t len = strlen(key);
        char *s = malloc(len * 4 + 1);

        if (s)
                escape_into(s, key, len, ESC_ASCII);
        return s;
}

struct json_object *json_dict_new(const struct kmsg_record *r) {
        struct json_object *d = json_object_new_object();
        size_t i, n = kmsg_record_get_dict_count(r);

        if (!d)
                return NULL;
        for (i = 0; i < n; i++) {
                const char *key, *val;
                size_t len;

                if (kmsg_record_get_dict_entry(r, i, &key, &val, &len) < 0)
                        continue;
                /* KEY_IS_NEW: no look-up, so repeated keys are all kept, in order. */
                if (utf8_is_valid(key, strlen(key)))
                        json_object_object_add_ex(d, key, json_bytes_new(val, len), JSON_C_OBJECT_ADD_KEY_IS_NEW);
                else {
                        char *k = key_escape(key);

                        if (k)
                                json_object_object_add_ex(d, k, json_bytes_new(val, len),
                                                          JSON_C_OBJECT_ADD_KEY_IS_NEW);
                        free(k);
                }
        }
        return d;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/*
 * Non-zero when one of the eight bytes of w needs a look of its own in a
 * JSON string: below 0x20, '"', '\\' or 0x80 and above (exact for "none").
 */
static inline uint64_t json_word_special(uint64_t w) {
        uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');

        return ((w - ONES * 0x20) & ~w) | ((q - ONES) & ~q) | ((b - ONES) & ~b) | w;
}

/*
 * p[0..len) as a JSON string.  A byte that is not part of valid UTF-8 is
 * written as the text \\xNN; with strict, json_text() stops there instead
 * and returns false, having written part of the string.
 */
static bool json_text(const char *p, size_t len, bool strict) {
        const unsigned char *c = (const unsigned char *)p, *end = c + len, *run;

        out_putc('"');
        for (run = c; c < end;) {
                unsigned char b;
                uint32_t cp;
                size_t k;
                char e[6];

                /* Eight bytes at a time while none needs a look: nearly all text. */
                while ((size_t)(end - c) >= 8) {
                        uint64_t w;

                        memcpy(&w, c, 8);
                        if (json_word_special(w) & HIGHS)
                                break;
                        c += 8;
                }
                if (c == end)
                        break;
                if (end - c < 8 && len >= 8) {
                        /* The last bytes, in the word that ends the text (again some already seen). */
                        uint64_t w;

                        memcpy(&w, end - 8, 8);
                        if (!(json_word_special(w) & HIGHS)) {
                                c = end;
                                break;
                        }
                }
                b = *c;
                if (byte_class[b] & ESC_JSON) {
                        c++;
                        continue;
                }
                if (b >= 0x80 && (k = utf8_decode(c, (size_t)(end - c), &cp)) > 0) {
                        c += k;
                        continue;
                }
                if (b >= 0x80 && strict)
                        return false;
                out_write(run, (size_t)(c - run));
                switch (b) {
                case '"':
                        out_write("\\\"", 2);
                        break;
                case '\\':
                        out_write("\\\\", 2);
                        break;
                case '\b':
                        out_write("\\b", 2);
                        break;
                case '\f':
                        out_write("\\f", 2);
                        break;
                case '\n':
                        out_write("\\n", 2);
                        break;
                case '\r':
                        out_write("\\r", 2);
                        break;
                case '\t':
                        out_write("\\t", 2);
                        break;
                default:
                        e[0] = '\\';
                        e[1] = b < 0x20 ? 'u' : 'x';
                        if (b < 0x20) {
                                /* A control character: \u00NN. */
                                e[2] = '0';
                                e[3] = '0';
                                e[4] = hexdigits[b >> 4];
                                e[5] = hexdigits[b & 15];
                                out_write(e, 6);
                        } else {
                                /* Not UTF-8: the text \xNN (the backslash escaped). */
                                out_write("\\\\x", 3);
                                out_putc(hexdigits[b >> 4]);
                                out_putc(hexdigits[b & 15]);
                        }
                }
                c++;
                run = c;
        }
        out_write(run, (size_t)(c - run));
        out_putc('"');
        return true;
}

void out_json_text(const char *p, size_t len) {
        json_text(p, len, false);
}

static void put(struct json_object *o, enum column_id id, struct json_object *v) {
        json_object_object_add_ex(o, column_info[id].json_key, v,
                                  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static void put_string(struct json_object *o, enum column_id id, const char *s) {
        put(o, id, json_bytes_new(s, strlen(s)));
}

static int write_object(struct sink *s, struct json_object *o) {
        size_t len;
        const char *text = json_object_to_json_string_length(o, to_string_flags, &len);

        if (!text) {
                json_object_put(o);
                return -ENOMEM;
        }
        out_write(text, len);
        out_putc('\n');
        json_object_put(o);
        sink_end_item(s);
        return 0;
}

/* Whether the header's extra fields are just the caller (or nothing): then "caller" says it all. */
static bool fields_are_caller_only(const struct kmsg_record *r) {
        const char *f = kmsg_record_get_fields(r), *c = kmsg_record_get_caller_text(r);

        if (!*f)
                return true;
        /* The parser keeps the caller of "caller=T1" inside the fields' text: then they are the same at once. */
        if (c == f + 7)
                return memcmp(f, "caller=", 7) == 0;
        return c && strncmp(f, "caller=", 7) == 0 && strcmp(f + 7, c) == 0;
}

/* The general case: a new object tree for the record. */
static int json_record_slow(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct json_object *o = json_object_new_object();
        const char *msg, *v;
        size_t len;

        if (!o)
                return -ENOMEM;
        if (kmsg_record_has_seqnum(r))
                put(o, COL_SEQ, json_object_new_uint64(kmsg_record_get_seqnum(r)));
        if (kmsg_record_has_timestamp(r))
                put(o, COL_TIME, json_usec_new(kmsg_record_get_timestamp(r)));
        if (kmsg_record_has_priority(r)) {
                unsigned fac = kmsg_record_get_facility(r);
                char num[16];

                put(o, COL_PRI, json_object_new_uint64(kmsg_record_get_priority(r)));
                /* A facility without a name (> 23) is written as its number, still a string. */
                v = kmsg_facility_to_name(fac);
                if (!v) {
                        snprintf(num, sizeof(num), "%u", fac);
                        v = num;
                }
                put_string(o, COL_FACILITY, v);
                put_string(o, COL_LEVEL, kmsg_level_to_name(kmsg_record_get_level(r)));
        }
        put_string(o, COL_FLAGS, kmsg_record_get_flags(r));
        v = kmsg_record_get_caller_text(r);
        if (v)
                put_string(o, COL_CALLER, v);
        if (!fields_are_caller_only(r))
                json_object_object_add_ex(o, "fields", json_bytes_new(kmsg_record_get_fields(r),
                                                                      strlen(kmsg_record_get_fields(r))),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
        msg = kmsg_record_get_message(r, &len);
        put(o, COL_MESSAGE, json_bytes_new(msg, len));
        v = kmsg_record_get_subsystem(r);
        if (v)
                put_string(o, COL_SUBSYSTEM, v);
        v = kmsg_record_get_device(r);
        if (v)
                put_string(o, COL_DEVICE, v);
        v = (s->settings->devices ? devctx_devname(s->settings->devices, r) : NULL);
        if (v)
                put_string(o, COL_DEVNAME, v);
        /* Selected by --device-text from the message, not by the dictionary. */
        if (m->how == DEVMATCH_TEXT)
                put_string(o, COL_MATCH, "text");
        put(o, COL_DICT, json_dict_new(r));
        v = kmsg_record_get_boot_id(r);
        if (v)
                json_object_object_add_ex(o, "boot_id", json_bytes_new(v, strlen(v)),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
        return write_object(s, o);
}

/*
 * The fast path.  json-c's generic serializer costs about 1 µs a record
 * (about 0.96 million records per CPU second even with its objects reused),
 * below what --json must do; so records whose keys and texts are valid
 * UTF-8 (nearly all) are written here directly, in exactly the form
 * json-c gives for the same object tree (the JSON_C_TO_STRING_PLAIN layout,
 * its escapes), and the rest go through json_record_slow().  The tests
 * compare both paths on the same records (KDMESG_JSON_SLOW=1 forces the
 * slow one).
 */
static bool force_slow;

/* ',"key":' for each column, made once: the leading comma is left out for the first key. */
static struct {
        char s[32];
        size_t n;
} keys[_COL_MAX];

static void make_keys(void) {
        size_t i;

        for (i = 0; i < _COL_MAX; i++) {
                int n = snprintf(keys[i].s, sizeof(keys[i].s), ",\"%s\":", column_info[i].json_key);

                keys[i].n = n > 0 && (size_t)n < sizeof(keys[i].s) ? (size_t)n : 0;
        }
}

static void key(bool *first, enum column_id id) {
        if (keys[id].n == 0) {
                /* Not made (a key longer than the table holds): as it is. */
                if (!*first)
                        out_putc(',');
                out_putc('"');
                out_puts(column_info[id].json_key);
                out_write("\":", 2);
        } else if (OUT_BUF_SIZE - out_len >= sizeof(keys[id].s)) {
                /* A copy of fixed size (no call to memcpy()); what is past the key is overwritten next. */
                memcpy(out_buf + out_len, keys[id].s + *first, sizeof(keys[id].s) - 1);
                out_len += keys[id].n - *first;
        } else
                out_write(keys[id].s + *first, keys[id].n - *first);
        *first = false;
}

static void out_bytes_array(const char *p, size_t len) {
        size_t i;

        out_putc('[');
        for (i = 0; i < len; i++) {
                if (i)
                        out_putc(',');
                out_u64((unsigned char)p[i]);
        }
        out_putc(']');
}

/* A string value, or the byte array when it is not UTF-8. */
static void out_bytes(const char *p, size_t len) {
        if (len <= (OUT_BUF_SIZE - 2) / 6) {
                /*
                 * Room for the longest string it can make (\u00NN for every
                 * byte, the quotes): the buffer is not written out meanwhile, so
                 * a byte that is not UTF-8 takes back what was written.  One pass.
                 */
                size_t before;

                if (OUT_BUF_SIZE - out_len < 6 * len + 2)
                        out_drain();
                before = out_len;
                if (json_text(p, len, true))
                        return;
                out_len = before;
                out_bytes_array(p, len);
        } else if (utf8_is_valid(p, len))
                out_json_text(p, len);
        else
                out_bytes_array(p, len);
}

/* A text of the record and its length, 0 when absent. */
struct text {
        const char *p;
        size_t n;
};

/* Measures v into *t; whether it is absent or valid UTF-8. */
static bool text_ok(struct text *t, const char *v) {
        t->p = v;
        t->n = v ? strlen(v) : 0;
        return !v || utf8_is_valid(v, t->n);
}

/* A quoted name from a table of short ASCII names. */
static void out_name(const char *v) {
        out_putc('"');
        out_puts(v);
        out_putc('"');
}

static void text_member(bool *first, enum column_id id, const struct text *t) {
        if (t->p) {
                key(first, id);
                out_json_text(t->p, t->n);
        }
}

/* The members before "flags", each when the record has it; whether none was written. */
static bool json_head_slow(const struct kmsg_record *r) {
        bool first = true;
        const char *v;

        if (kmsg_record_has_seqnum(r)) {
                key(&first, COL_SEQ);
                out_u64(kmsg_record_get_seqnum(r));
        }
        if (kmsg_record_has_timestamp(r)) {
                key(&first, COL_TIME);
                out_usec(kmsg_record_get_timestamp(r), 0);
        }
        if (kmsg_record_has_priority(r)) {
                unsigned fac = kmsg_record_get_facility(r);

                key(&first, COL_PRI);
                out_u64(kmsg_record_get_priority(r));
                key(&first, COL_FACILITY);
                v = kmsg_facility_to_name(fac);
                if (v)
                        out_name(v);
                else {
                        out_putc('"');
                        out_u64(fac);
                        out_putc('"');
                }
                key(&first, COL_LEVEL);
                out_name(kmsg_level_to_name(kmsg_record_get_level(r)));
        }
        return first;
}

/* Room that json_head() may write into: five keys of fixed-size copies, three numbers, two names. */
#define HEAD_MAX 320

/* Key id (not the first) at o, copied at a fixed size. */
static inline char *put_key(char *o, enum column_id id) {
        memcpy(o, keys[id].s, sizeof(keys[id].s));
        return o + keys[id].n;
}

static inline char *put_u64(char *o, uint64_t v) {
        char tmp[20];
        size_t i = sizeof(tmp);

        do {
                tmp[--i] = (char)('0' + v % 10);
                v /= 10;
        } while (v);
        memcpy(o, tmp + i, sizeof(tmp) - i);
        return o + sizeof(tmp) - i;
}

static inline char *put_name(char *o, const char *v) {
        size_t n = strlen(v);

        *o++ = '"';
        memcpy(o, v, n);
        o += n;
        *o++ = '"';
        return o;
}

/*
 * The same members for a record that has them all (every record of a
 * /dev/kmsg dump), written straight into the output buffer: the one place
 * a record's head is put together, without a call per member.
 */
static void json_head(const struct kmsg_record *r) {
        unsigned fac = kmsg_record_get_facility(r);
        const char *v = kmsg_facility_to_name(fac);
        char *o;

        if (OUT_BUF_SIZE - out_len < HEAD_MAX)
                out_drain();
        o = out_buf + out_len;
        /* The first key, "seq", without its comma. */
        memcpy(o, keys[COL_SEQ].s + 1, sizeof(keys[COL_SEQ].s) - 1);
        o = put_u64(o + keys[COL_SEQ].n - 1, kmsg_record_get_seqnum(r));
        o = put_key(o, COL_TIME);
        o += put_seconds(o, kmsg_record_get_timestamp(r), 0);
        o = put_key(o, COL_PRI);
        o = put_u64(o, kmsg_record_get_priority(r));
        o = put_key(o, COL_FACILITY);
        if (v)
                o = put_name(o, v);
        else {
                *o++ = '"';
                o = put_u64(o, fac);
                *o++ = '"';
        }
        o = put_key(o, COL_LEVEL);
        o = put_name(o, kmsg_level_to_name(kmsg_record_get_level(r)));
        out_len = (size_t)(o - out_buf);
}

/* Whether json_head() can write every record's head: the keys made, the names short. */
static bool head_fast;

static int json_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        const char *msg, *v;
        struct text flags, caller, fields, subsystem, device, devname, boot_id;
        size_t len, i, n = kmsg_record_get_dict_count(r);
        bool first;

        if (force_slow || !text_ok(&flags, kmsg_record_get_flags(r)) ||
            !text_ok(&caller, kmsg_record_get_caller_text(r)) ||
            !text_ok(&fields, fields_are_caller_only(r) ? NULL : kmsg_record_get_fields(r)) ||
            !text_ok(&subsystem, kmsg_record_get_subsystem(r)) || !text_ok(&device, kmsg_record_get_device(r)) ||
            !text_ok(&devname, s->settings->devices ? devctx_devname(s->settings->devices, r) : NULL) ||
            !text_ok(&boot_id, kmsg_record_get_boot_id(r)))
                return json_record_slow(s, r, m);
        for (i = 0; i < n; i++) {
                struct text k;

                if (kmsg_record_get_dict_entry(r, i, &v, &msg, &len) == 0 && !text_ok(&k, v))
                        return json_record_slow(s, r, m);
        }

        out_putc('{');
        if (head_fast && kmsg_record_has_seqnum(r) && kmsg_record_has_timestamp(r) && kmsg_record_has_priority(r)) {
                json_head(r);
                first = false;
        } else
                first = json_head_slow(r);
        key(&first, COL_FLAGS);
        if (flags.n == 1 && flags.p[0] == '-')
                out_write("\"-\"", 3);
        else
                out_json_text(flags.p, flags.n);
        text_member(&first, COL_CALLER, &caller);
        if (fields.p) {
                out_write(",\"fields\":", 10);
                out_json_text(fields.p, fields.n);
        }
        key(&first, COL_MESSAGE);
        msg = kmsg_record_get_message(r, &len);
        out_bytes(msg, len);
        text_member(&first, COL_SUBSYSTEM, &subsystem);
        text_member(&first, COL_DEVICE, &device);
        text_member(&first, COL_DEVNAME, &devname);
        /* Selected by --device-text from the message, not by the dictionary. */
        if (m->how == DEVMATCH_TEXT) {
                key(&first, COL_MATCH);
                out_puts("\"text\"");
        }
        key(&first, COL_DICT);
        out_putc('{');
        for (i = 0; i < n; i++) {
                const char *k;

                if (kmsg_record_get_dict_entry(r, i, &k, &v, &len) < 0)
                        continue;
                if (i)
                        out_putc(',');
                out_json_text(k, strlen(k));
                out_putc(':');
                out_bytes(v, len);
        }
        if (boot_id.p) {
                /* Export input's _BOOT_ID: last, after the dictionary. */
                out_write("},\"boot_id\":", 12);
                out_json_text(boot_id.p, boot_id.n);
                out_write("}\n", 2);
        } else
                out_write("}}\n", 3);
        sink_end_item(s);
        return 0;
}

struct json_object *json_loss_new(const struct kmsg_loss *l) {
        struct json_object *o = json_object_new_object();
        const unsigned fl = JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY;
        enum kmsg_loss_cause cause = kmsg_loss_get_cause(l);
        uint64_t first = kmsg_loss_get_first_seq(l);
        uint64_t count = kmsg_loss_get_count(l);

        if (!o)
                return NULL;
        json_object_object_add_ex(o, "first_seq", json_object_new_uint64(first), fl);
        /* A count of 0 is a loss of unknown size (a previous boot's unread tail): null. */
        json_object_object_add_ex(o, "last_seq",
                                  count ? json_object_new_uint64(first + count - 1) : NULL, fl);
        json_object_object_add_ex(o, "count", count ? json_object_new_uint64(count) : NULL, fl);
        json_object_object_add_ex(o, "cause", json_object_new_string(kmsg_loss_cause_to_name(cause)), fl);
        if (kmsg_loss_has_before(l))
                json_object_object_add_ex(o, "time_before", json_usec_new(kmsg_loss_get_usec_before(l)), fl);
        /* A reboot's tail and an interrupted write have no record after them. */
        if (count && cause != KMSG_LOSS_INTERRUPTED)
                json_object_object_add_ex(o, "time_after", json_usec_new(kmsg_loss_get_usec_after(l)), fl);
        return o;
}

static int json_loss(struct sink *s, const struct kmsg_loss *l) {
        struct json_object *o = json_loss_new(l);

        if (!o)
                return -ENOMEM;
        return write_object(s, o);
}

/* {"boot":2,"first_seq":100,"boot_id":"..."}: told apart from records and losses by its "boot" key. */
static int json_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        struct json_object *o = json_object_new_object();
        const unsigned fl = JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY;
        const char *id = kmsg_record_get_boot_id(r);

        if (!o)
                return -ENOMEM;
        json_object_object_add_ex(o, "boot", json_object_new_uint64(n), fl);
        json_object_object_add_ex(o, "first_seq", json_object_new_uint64(kmsg_record_get_seqnum(r)), fl);
        if (id)
                json_object_object_add_ex(o, "boot_id", json_bytes_new(id, strlen(id)), fl);
        return write_object(s, o);
}

static int json_finish(struct sink *s) {
        return 0;
}

static void json_free(struct sink *s) {
        free(s);
}

static int json_init(struct sink *s) {
        const char *slow = getenv("KDMESG_JSON_SLOW");

        force_slow = slow && *slow == '1';
        make_keys();
        head_fast = true;
        for (unsigned i = 0; i < _COL_MAX; i++)
                if (keys[i].n == 0)
                        head_fast = false;
        for (unsigned f = 0; f < 256; f++)
                if (kmsg_facility_to_name(f) && strlen(kmsg_facility_to_name(f)) > 16)
                        head_fast = false;
        for (unsigned l = 0; l < 8; l++)
                if (strlen(kmsg_level_to_name(l)) > 16)
                        head_fast = false;
        return 0;
}

const struct sink_ops sink_json_ops = {
        .size = sizeof(struct sink),
        .init = json_init,
        .record = json_record,
        .loss = json_loss,
        .boot = json_boot,
        .finish = json_finish,
        .free = json_free,
};

int json_add(struct json_object *o, const char *key, struct json_object *v) {
        if (!v)
                return -ENOMEM;
        return json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY) < 0
                       ? -ENOMEM
                       : 0;
}
