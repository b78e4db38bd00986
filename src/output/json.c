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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "text/columns.h"
#include "select/device.h"
#include "text/escape.h"
#include "output/json.h"
#include "text/writer.h"
#include "output/sink.h"
#include "time/timefmt.h"
#include "text/utf8.h"

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

/*
 * The direct writer.  Text is escaped straight into the output buffer:
 * eight bytes at a time are copied while none of them needs a look
 * (nearly all text), and the UTF-8 is checked in the same pass.  A step
 * stores whole words, so its destination has room for the most it can
 * write and eight bytes more, of which those past its end are overwritten
 * by what follows.
 */
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Eight bytes as a little-endian word (byte i in bits 8i to 8i + 7), and back. */
static inline uint64_t load_le64(const unsigned char *p) {
        uint64_t w;

        memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        return w;
}

static inline void store_le64(char *o, uint64_t w) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        memcpy(o, &w, 8);
}

/* The n bytes at p (n < 8) as the low bytes of a word, the others zero; reads no byte past p[n - 1]. */
static inline uint64_t load_le_short(const unsigned char *p, size_t n) {
        if (n >= 4) {
                uint64_t lo = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
                const unsigned char *q = p + n - 4;
                uint64_t hi = (uint64_t)q[0] | (uint64_t)q[1] << 8 | (uint64_t)q[2] << 16 | (uint64_t)q[3] << 24;

                /* The two halves overlap with the same bytes. */
                return lo | hi << (8 * (n - 4));
        }
        if (n >= 2)
                return ((uint64_t)p[0] | (uint64_t)p[1] << 8) | ((uint64_t)p[n - 2] | (uint64_t)p[n - 1] << 8) << (8 * (n - 2));
        return n ? p[0] : 0;
}

/*
 * The high bit of each byte of w that needs a look of its own in a JSON
 * string: below 0x20, '"', '\\' or 0x80 and above.  Exact for the lowest
 * such byte, and so for "none": a subtraction sets the high bit of a
 * byte from 0x80 (marked anyway) or of one that borrows, below 0x20 or
 * equal to the character (marked rightly); its borrow can only mark bytes
 * above that one.
 */
static inline uint64_t json_word_special(uint64_t w) {
        return ((w - ONES * 0x20) | ((w ^ (ONES * '"')) - ONES) | ((w ^ (ONES * '\\')) - ONES) | w) & HIGHS;
}

/* The escapes json-c writes for the ASCII bytes that have one; the length is the last of the eight bytes. */
#define HEXC(n) ((n) < 10 ? '0' + (n) : 'a' + (n) - 10)
#define ESC_U(c) { '\\', 'u', '0', '0', HEXC((c) >> 4), HEXC((c) & 15), 0, 6 }
#define ESC_2(c) { '\\', c, 0, 0, 0, 0, 0, 2 }
static const char json_escapes['\\' + 1][8] = {
        ESC_U(0x00), ESC_U(0x01), ESC_U(0x02), ESC_U(0x03), ESC_U(0x04), ESC_U(0x05), ESC_U(0x06), ESC_U(0x07),
        ESC_2('b'),  ESC_2('t'),  ESC_2('n'),  ESC_U(0x0b), ESC_2('f'),  ESC_2('r'),  ESC_U(0x0e), ESC_U(0x0f),
        ESC_U(0x10), ESC_U(0x11), ESC_U(0x12), ESC_U(0x13), ESC_U(0x14), ESC_U(0x15), ESC_U(0x16), ESC_U(0x17),
        ESC_U(0x18), ESC_U(0x19), ESC_U(0x1a), ESC_U(0x1b), ESC_U(0x1c), ESC_U(0x1d), ESC_U(0x1e), ESC_U(0x1f),
        ['"'] = ESC_2('"'),
        ['\\'] = ESC_2('\\'),
};

char *json_put_chars(char *o, const char *p, size_t n, bool strict) {
        const unsigned char *c = (const unsigned char *)p, *end = c + n;
        uint64_t w, sp;
        uint32_t cp;
        size_t k;

        for (;;) {
#ifdef __SSE2__
                /* Sixteen bytes at a time where the processor has SSE2 (every x86-64). */
                while ((size_t)(end - c) >= 16) {
                        __m128i v = _mm_loadu_si128((const __m128i *)c);
                        unsigned mask;

                        _mm_storeu_si128((__m128i *)o, v);
                        /* Signed: below 0x20, and from 0x80. */
                        mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(
                                _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
                        if (mask) {
                                k = (size_t)__builtin_ctz(mask);
                                goto found;
                        }
                        c += 16;
                        o += 16;
                }
#endif
                while ((size_t)(end - c) >= 8) {
                        w = load_le64(c);
                        store_le64(o, w);
                        sp = json_word_special(w);
                        if (sp)
                                goto look;
                        c += 8;
                        o += 8;
                }
                k = (size_t)(end - c);
                if (k == 0)
                        return o;
                /* One to seven bytes left: the text's last word shifted down (when it has eight bytes), or they alone. */
                w = n >= 8 ? load_le64(end - 8) >> (64 - 8 * k) : load_le_short(c, k);
                store_le64(o, w);
                sp = json_word_special(w) & ((UINT64_C(1) << (8 * k)) - 1);
                if (!sp)
                        return o + k;
        look:
                k = (size_t)__builtin_ctzll(sp) / 8;
#ifdef __SSE2__
        found:
#endif
                /* The bytes before the first that needs a look, k, are copied already. */
                c += k;
                o += k;
                if (*c < 0x80) {
                        /* A control character, '"' or '\\'. */
                        memcpy(o, json_escapes[*c], 8);
                        o += json_escapes[*c][7];
                        c++;
                } else if ((k = utf8_decode(c, (size_t)(end - c), &cp)) > 0) {
                        o[0] = (char)c[0];
                        o[1] = (char)c[1];
                        if (k > 2) {
                                o[2] = (char)c[2];
                                if (k > 3)
                                        o[3] = (char)c[3];
                        }
                        c += k;
                        o += k;
                } else if (strict)
                        return NULL;
                else {
                        /* Not UTF-8: the text \xNN (the backslash escaped). */
                        o[0] = '\\';
                        o[1] = '\\';
                        o[2] = 'x';
                        o[3] = hexdigits[*c >> 4];
                        o[4] = hexdigits[*c & 15];
                        o += 5;
                        c++;
                }
        }
}

/* json_put_text(), where a text of less than eight bytes that needs no look takes no call. */
static inline char *put_text(char *o, const char *p, size_t n, bool strict) {
        *o++ = '"';
        if (n < 8) {
                uint64_t w = load_le_short((const unsigned char *)p, n);

                if (!(json_word_special(w) & ((UINT64_C(1) << (8 * n)) - 1))) {
                        store_le64(o, w);
                        o[n] = '"';
                        return o + n + 1;
                }
        }
        o = json_put_chars(o, p, n, strict);
        if (o)
                *o++ = '"';
        return o;
}

char *json_put_text(char *o, const char *p, size_t n, bool strict) {
        return put_text(o, p, n, strict);
}

/* The byte values of p[0..n) as numbers, each after a comma but the very first (first). */
static char *json_put_byte_values(char *o, const unsigned char *p, size_t n, bool first) {
        size_t i;

        for (i = 0; i < n; i++) {
                unsigned b = p[i];

                *o = ',';
                o += !(first && i == 0);
                if (b >= 100) {
                        *o++ = (char)('0' + b / 100);
                        b %= 100;
                        *o++ = (char)('0' + b / 10);
                } else if (b >= 10)
                        *o++ = (char)('0' + b / 10);
                *o++ = (char)('0' + b % 10);
        }
        return o;
}

char *json_put_bytes(char *o, const char *p, size_t n) {
        *o++ = '[';
        o = json_put_byte_values(o, (const unsigned char *)p, n, true);
        *o++ = ']';
        return o;
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

/* Whether the header's extra fields f say more than the caller (or are none): else "caller" says it all. */
static bool fields_say_more(const char *f, const char *caller) {
        if (!*f)
                return false;
        /* The parser keeps the caller of "caller=T1" inside the fields' text: then they are the same at once. */
        if (caller == f + 7)
                return memcmp(f, "caller=", 7) != 0;
        return !caller || strncmp(f, "caller=", 7) != 0 || strcmp(f + 7, caller) != 0;
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
        if (fields_say_more(kmsg_record_get_fields(r), kmsg_record_get_caller_text(r)))
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

/* A text and its length. */
struct text {
        const char *p;
        size_t n;
};

/*
 * A record is written straight into the output buffer, at a pointer that
 * each step returns, up to lim.  The buffer is written out only between
 * records, so that a record can be taken back whole: where a text that
 * must be a string is not UTF-8 (json-c then writes the record: JW_SLOW),
 * and where it does not fit (JW_NO_ROOM; written again after the buffer is
 * written out).  A record too large for the buffer is written with stream
 * set: its texts checked first, the buffer written out whenever it is
 * full, long texts in pieces.  After each step the buffer has room for
 * JW_SLACK bytes more.
 */
enum jw_fail {
        JW_NO_ROOM = 1,
        JW_SLOW,
};

struct jw {
        char *lim;
        bool stream;
        enum jw_fail fail;
};

#define JW_SLACK 16
/* The longest text that is written in one step, with room to spare in an empty buffer. */
#define TEXT_CHUNK ((OUT_BUF_SIZE - 64) / 6)

static char *jw_room_slow(struct jw *w, char *o, size_t need) {
        if (!w->stream || need > OUT_BUF_SIZE) {
                w->fail = JW_NO_ROOM;
                return NULL;
        }
        out_len = (size_t)(o - out_buf);
        out_drain();
        return out_buf + out_len;
}

/* o, or where to go on when there are less than need bytes of room (NULL: none). */
static inline char *jw_room(struct jw *w, char *o, size_t need) {
        if ((size_t)(w->lim - o) >= need)
                return o;
        return jw_room_slow(w, o, need);
}

/*
 * A text longer than fits now, as a string, or as the array of its byte
 * values when value and it is not UTF-8 (a text that must be a string was
 * checked before: the stream mode).  Over TEXT_CHUNK bytes it is written
 * in pieces, cut where no valid UTF-8 sequence spans the cut, so that each
 * byte is written as in one piece.
 */
static char *jw_text_long(struct jw *w, char *o, const char *p, size_t n, bool value) {
        const unsigned char *c = (const unsigned char *)p;
        bool bytes;

        if (!w->stream) {
                w->fail = JW_NO_ROOM;
                return NULL;
        }
        if (n <= TEXT_CHUNK) {
                char *e;

                o = jw_room(w, o, JSON_TEXT_ROOM(n) + JW_SLACK);
                e = json_put_text(o, p, n, value);
                if (e)
                        return e;
                return json_put_bytes(o, p, n);
        }
        bytes = value && !utf8_is_valid(p, n);
        o = jw_room(w, o, 1);
        *o++ = bytes ? '[' : '"';
        while (n > 0) {
                size_t k = n, i;

                if (k > TEXT_CHUNK) {
                        k = TEXT_CHUNK;
                        /*
                         * No valid sequence spans a cut before a byte that
                         * continues none, nor one inside four continuation
                         * bytes (no lead byte is near enough before it).
                         */
                        for (i = 0; !bytes && i < 4 && (c[k - i] & 0xc0) == 0x80; i++)
                                ;
                        if (i < 4)
                                k -= i;
                }
                o = jw_room(w, o, JSON_TEXT_ROOM(k));
                o = bytes ? json_put_byte_values(o, c, k, c == (const unsigned char *)p)
                          : json_put_chars(o, (const char *)c, k, false);
                c += k;
                n -= k;
        }
        o = jw_room(w, o, 1 + JW_SLACK);
        *o++ = bytes ? ']' : '"';
        return o;
}

/* A text that must be a string: not UTF-8 is JW_SLOW (checked before in stream mode: then as out_json_text()). */
static inline char *jw_text(struct jw *w, char *o, const char *p, size_t n) {
        if (n <= TEXT_CHUNK && (size_t)(w->lim - o) >= JSON_TEXT_ROOM(n) + JW_SLACK) {
                o = put_text(o, p, n, !w->stream);
                if (!o)
                        w->fail = JW_SLOW;
                return o;
        }
        return jw_text_long(w, o, p, n, false);
}

/* A value: a string when it is UTF-8, else the array of its byte values (at most 4n + 2 bytes). */
static inline char *jw_value(struct jw *w, char *o, const char *p, size_t n) {
        if (n <= TEXT_CHUNK && (size_t)(w->lim - o) >= JSON_TEXT_ROOM(n) + JW_SLACK) {
                char *e = put_text(o, p, n, true);

                return e ? e : json_put_bytes(o, p, n);
        }
        return jw_text_long(w, o, p, n, true);
}

/* ',"key":' of each member, made once, copied at a fixed size: the first member's comma becomes '{'. */
enum {
        KEY_FIELDS = _COL_MAX,
        KEY_BOOT_ID,
        N_KEYS,
};

#define KEY_SIZE 32
static struct {
        char s[KEY_SIZE];
        size_t n;
} keys[N_KEYS];

/* ',"level":"err"' for levels 0 to 7. */
static struct {
        char s[KEY_SIZE];
        size_t n;
} level_members[8];

/* ',"pri":14,"facility":"user","level":"info"' for the priorities of the named facilities, 0 to 23. */
#define N_FACILITIES 24
#define PRI_SIZE 56
static struct {
        char s[PRI_SIZE];
        size_t n;
} pri_members[N_FACILITIES * 8];

static inline char *put_key(char *o, unsigned id) {
        memcpy(o, keys[id].s, KEY_SIZE);
        return o + keys[id].n;
}

/* v in decimal at o, which has room for 20 bytes (put_decimal() writes no more). */
static inline char *put_u64(char *o, uint64_t v) {
        return o + put_decimal(o, v);
}

/* A key and a text that must be a string. */
static inline char *jw_text_member(struct jw *w, char *o, unsigned id, const struct text *t) {
        o = jw_room(w, o, KEY_SIZE);
        if (!o)
                return NULL;
        return jw_text(w, put_key(o, id), t->p, t->n);
}

/*
 * What the members before the record's end need, measured once: absent
 * texts are NULL.  "fields" is absent when it says no more than "caller".
 */
struct record_texts {
        struct text flags, caller, fields, subsystem, device, devname, boot_id;
        size_t n_dict;
};

static void text_set(struct text *t, const char *v) {
        t->p = v;
        t->n = v ? strlen(v) : 0;
}

static void record_texts(const struct sink *s, const struct kmsg_record *r, struct record_texts *t) {
        const char *flags = kmsg_record_get_flags(r), *fields = kmsg_record_get_fields(r);
        struct devctx *d = s->settings->devices;

        t->flags.p = flags;
        /* "-", as nearly every record has. */
        t->flags.n = flags[0] == '-' && !flags[1] ? 1 : strlen(flags);
        text_set(&t->caller, kmsg_record_get_caller_text(r));
        text_set(&t->fields, fields_say_more(fields, t->caller.p) ? fields : NULL);
        /* The shorthands of two dictionary entries: none without a dictionary. */
        t->n_dict = kmsg_record_get_dict_count(r);
        text_set(&t->subsystem, t->n_dict ? kmsg_record_get_subsystem(r) : NULL);
        text_set(&t->device, t->n_dict ? kmsg_record_get_device(r) : NULL);
        /*
         * Without sysfs (a dump, no --resolve or --sysroot), only a
         * "+subsystem:name" value has a name: the others are not looked up.
         */
        text_set(&t->devname, d && t->device.p && (t->device.p[0] == '+' || devnames_from_sysfs(d->names))
                                      ? devctx_devname(d, r)
                                      : NULL);
        text_set(&t->boot_id, kmsg_record_get_boot_id(r));
}

static bool text_valid(const struct text *t) {
        return !t->p || utf8_is_valid(t->p, t->n);
}

/* Whether the stream mode can write the record: every text that must be a string is UTF-8. */
static bool record_texts_valid(const struct kmsg_record *r, const struct record_texts *t) {
        size_t i;

        if (!text_valid(&t->flags) || !text_valid(&t->caller) || !text_valid(&t->fields) ||
            !text_valid(&t->subsystem) || !text_valid(&t->device) || !text_valid(&t->devname) ||
            !text_valid(&t->boot_id))
                return false;
        /* A facility past 23 with a name (none has one): json-c writes it. */
        if (kmsg_record_has_priority(r) && kmsg_record_get_priority(r) >> 3 >= N_FACILITIES &&
            kmsg_facility_to_name(kmsg_record_get_priority(r) >> 3))
                return false;
        for (i = 0; i < t->n_dict; i++) {
                const char *k;

                if (kmsg_record_get_dict_entry(r, i, &k, NULL, NULL) == 0 && !utf8_is_valid(k, strlen(k)))
                        return false;
        }
        return true;
}

/*
 * Room for the members before the value of "flags" and a "-": at most 148
 * bytes with the whole copies (seq and time of 20 and 21 characters, a
 * priority past the table).
 */
#define HEAD_ROOM 256

/* The record at o, in json-c's form of the same object (json_record_slow()); its end, or NULL (w->fail). */
static char *json_put_record(struct jw *w, char *o, const struct kmsg_record *r, const struct match *m,
                             const struct record_texts *t) {
        const char *msg;
        char *start;
        size_t i, len;

        o = jw_room(w, o, HEAD_ROOM + JW_SLACK);
        if (!o)
                return NULL;
        /* Each key with its comma; the first comma is then the '{'. */
        start = o;
        if (kmsg_record_has_seqnum(r))
                o = put_u64(put_key(o, COL_SEQ), kmsg_record_get_seqnum(r));
        if (kmsg_record_has_timestamp(r)) {
                o = put_key(o, COL_TIME);
                o += put_seconds(o, kmsg_record_get_timestamp(r), 0);
        }
        if (kmsg_record_has_priority(r)) {
                unsigned pri = kmsg_record_get_priority(r);

                if (pri < N_FACILITIES * 8) {
                        memcpy(o, pri_members[pri].s, PRI_SIZE);
                        o += pri_members[pri].n;
                } else if (!kmsg_facility_to_name(pri >> 3)) {
                        /* A facility without a name is written as its number, still a string. */
                        o = put_u64(put_key(o, COL_PRI), pri);
                        o = put_key(o, COL_FACILITY);
                        *o++ = '"';
                        o = put_u64(o, pri >> 3);
                        *o++ = '"';
                        memcpy(o, level_members[pri & 7].s, KEY_SIZE);
                        o += level_members[pri & 7].n;
                } else {
                        w->fail = JW_SLOW;
                        return NULL;
                }
        }
        o = put_key(o, COL_FLAGS);
        *start = '{';
        if (t->flags.n == 1 && t->flags.p[0] == '-') {
                memcpy(o, "\"-\"", 3);
                o += 3;
        } else if (!(o = jw_text(w, o, t->flags.p, t->flags.n)))
                return NULL;
        if (t->caller.p && !(o = jw_text_member(w, o, COL_CALLER, &t->caller)))
                return NULL;
        if (t->fields.p && !(o = jw_text_member(w, o, KEY_FIELDS, &t->fields)))
                return NULL;
        msg = kmsg_record_get_message(r, &len);
        o = jw_room(w, o, KEY_SIZE);
        if (!o || !(o = jw_value(w, put_key(o, COL_MESSAGE), msg, len)))
                return NULL;
        if (t->subsystem.p && !(o = jw_text_member(w, o, COL_SUBSYSTEM, &t->subsystem)))
                return NULL;
        if (t->device.p && !(o = jw_text_member(w, o, COL_DEVICE, &t->device)))
                return NULL;
        if (t->devname.p && !(o = jw_text_member(w, o, COL_DEVNAME, &t->devname)))
                return NULL;
        o = jw_room(w, o, 2 * KEY_SIZE + JW_SLACK);
        if (!o)
                return NULL;
        /* Selected by --device-text from the message, not by the dictionary. */
        if (m->how == DEVMATCH_TEXT) {
                o = put_key(o, COL_MATCH);
                memcpy(o, "\"text\"", 6);
                o += 6;
        }
        o = put_key(o, COL_DICT);
        *o++ = '{';
        for (i = 0; i < t->n_dict; i++) {
                const char *k, *v;

                if (kmsg_record_get_dict_entry(r, i, &k, &v, &len) < 0)
                        continue;
                if (i)
                        *o++ = ',';
                if (!(o = jw_text(w, o, k, strlen(k))))
                        return NULL;
                *o++ = ':';
                if (!(o = jw_value(w, o, v, len)))
                        return NULL;
        }
        *o++ = '}';
        /* Export input's _BOOT_ID: last, after the dictionary. */
        if (t->boot_id.p && !(o = jw_text_member(w, o, KEY_BOOT_ID, &t->boot_id)))
                return NULL;
        *o++ = '}';
        *o++ = '\n';
        return o;
}

/*
 * The fast path.  json-c's generic serializer costs about 1 µs a record,
 * below what --json must do; so records are written here directly, in
 * exactly the form json-c gives for the same object tree (the
 * JSON_C_TO_STRING_PLAIN layout, its escapes), and those with a text that
 * is not UTF-8 where only a string will do (a key, the flags, the caller)
 * go through json_record_slow().  The tests compare both paths on the same
 * records (KDMESG_JSON_SLOW=1 forces the slow one).
 */
static bool force_slow;

static int json_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct jw w = { .lim = out_buf + OUT_BUF_SIZE };
        struct record_texts t;
        char *end;

        if (force_slow)
                return json_record_slow(s, r, m);
        record_texts(s, r, &t);
        end = json_put_record(&w, out_buf + out_len, r, m, &t);
        if (!end && w.fail == JW_NO_ROOM && out_len > 0) {
                out_drain();
                end = json_put_record(&w, out_buf + out_len, r, m, &t);
        }
        if (!end && w.fail == JW_NO_ROOM && record_texts_valid(r, &t)) {
                w.stream = true;
                end = json_put_record(&w, out_buf + out_len, r, m, &t);
        }
        if (!end)
                return json_record_slow(s, r, m);
        out_len = (size_t)(end - out_buf);
        sink_end_item(s);
        return 0;
}

bool json_direct(void) {
        return !force_slow;
}

void out_json_text(const char *p, size_t len) {
        struct jw w = { .lim = out_buf + OUT_BUF_SIZE, .stream = true };

        out_len = (size_t)(jw_text(&w, out_buf + out_len, p, len) - out_buf);
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

/*
 * ',"key":' into k (KEY_SIZE bytes) as json-c writes the key: whether it
 * fits, with the whole words the copy may store.
 */
static bool make_member(char *k, size_t *n, const char *key, const char *value) {
        char tmp[2 * JSON_TEXT_ROOM(KEY_SIZE) + 2];
        size_t klen = strlen(key), vlen = value ? strlen(value) : 0;
        char *o = tmp;

        if (klen > KEY_SIZE || vlen > KEY_SIZE)
                return false;
        *o++ = ',';
        o = json_put_text(o, key, klen, true);
        if (!o)
                return false;
        *o++ = ':';
        if (value && !(o = json_put_text(o, value, vlen, true)))
                return false;
        if ((size_t)(o - tmp) > KEY_SIZE)
                return false;
        memset(k, 0, KEY_SIZE);
        memcpy(k, tmp, (size_t)(o - tmp));
        *n = (size_t)(o - tmp);
        return true;
}

static int json_init(struct sink *s) {
        const char *slow = getenv("KDMESG_JSON_SLOW");
        bool ok = true;
        unsigned i;

        for (i = 0; i < N_KEYS; i++)
                ok &= make_member(keys[i].s, &keys[i].n,
                                  i == KEY_FIELDS ? "fields" : i == KEY_BOOT_ID ? "boot_id" : column_info[i].json_key,
                                  NULL);
        for (i = 0; i < 8; i++)
                ok &= make_member(level_members[i].s, &level_members[i].n, column_info[COL_LEVEL].json_key,
                                  kmsg_level_to_name(i));
        for (i = 0; ok && i < N_FACILITIES * 8; i++) {
                const char *name = kmsg_facility_to_name(i >> 3);
                char num[16], fac[KEY_SIZE], *o = pri_members[i].s;
                size_t n;

                /* A facility without a name is written as its number, still a string. */
                if (!name) {
                        snprintf(num, sizeof(num), "%u", i >> 3);
                        name = num;
                }
                ok = make_member(fac, &n, column_info[COL_FACILITY].json_key, name) &&
                     keys[COL_PRI].n + 3 + n + level_members[i & 7].n <= PRI_SIZE;
                if (!ok)
                        break;
                memset(o, 0, PRI_SIZE);
                o = put_u64(put_key(o, COL_PRI), i);
                memcpy(o, fac, n);
                memcpy(o + n, level_members[i & 7].s, level_members[i & 7].n);
                pri_members[i].n = (size_t)(o + n + level_members[i & 7].n - pri_members[i].s);
        }
        /* Names or keys that do not fit the tables (none): json-c writes every record. */
        force_slow = !ok || (slow && *slow == '1');
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
