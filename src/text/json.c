/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The project's JSON toolkit (json.h): json-c objects for the parts of a
 * record (time stamps, bytes, the dictionary, a loss event), and the
 * direct writer, which escapes text straight into the output buffer in
 * exactly the form json-c gives it.  The json sink (output/json.c), the
 * util-linux document (output/json-dmesg.c) and the reports' JSON Lines use
 * it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/printbuf.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "text/escape.h"
#include "text/json.h"
#include "text/utf8.h"
#include "text/writer.h"

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

/* Eight bytes as a little-endian word (byte i in bits 8i to 8i + 7); json_store_le64() stores one back. */
static inline uint64_t load_le64(const unsigned char *p) {
        uint64_t w;

        memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        return w;
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
                        json_store_le64(o, w);
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
                w = n >= 8 ? load_le64(end - 8) >> (64 - 8 * k) : json_load_le_short(c, k);
                json_store_le64(o, w);
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

/* The byte values of p[0..n) as numbers, each after a comma but the very first (first). */
char *json_put_byte_values(char *o, const unsigned char *p, size_t n, bool first) {
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

char *jw_room_slow(struct jw *w, char *o, size_t need) {
        if (!w->stream || need > OUT_BUF_SIZE) {
                w->fail = JW_NO_ROOM;
                return NULL;
        }
        out_len = (size_t)(o - out_buf);
        out_drain();
        return out_buf + out_len;
}

/*
 * A text longer than fits now, as a string, or as the array of its byte
 * values when value and it is not UTF-8 (a text that must be a string was
 * checked before: the stream mode).  Over JW_TEXT_CHUNK bytes it is written
 * in pieces, cut where no valid UTF-8 sequence spans the cut, so that each
 * byte is written as in one piece.
 */
char *jw_text_long(struct jw *w, char *o, const char *p, size_t n, bool value) {
        const unsigned char *c = (const unsigned char *)p;
        bool bytes;

        if (!w->stream) {
                w->fail = JW_NO_ROOM;
                return NULL;
        }
        if (n <= JW_TEXT_CHUNK) {
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

                if (k > JW_TEXT_CHUNK) {
                        k = JW_TEXT_CHUNK;
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

int json_add(struct json_object *o, const char *key, struct json_object *v) {
        if (!v)
                return -ENOMEM;
        return json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY) < 0
                       ? -ENOMEM
                       : 0;
}
