/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_TEXT_JSON_H
#define KDMESG_TEXT_JSON_H

/*
 * The project's JSON toolkit (json.c): json-c objects for the parts of a
 * record, and a writer that escapes text straight into the output buffer
 * (text/writer.h) in exactly the form json-c gives it.  Its hot steps are
 * inline here, so that a sink's writer keeps them in its loop.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "libkmsg.h"
#include "text/writer.h"

/* A number written with exactly six decimals: seconds from microseconds. */
struct json_object *json_usec_new(uint64_t usec);
/* A string when p[0..len) is valid UTF-8, else an array of its byte values. */
struct json_object *json_bytes_new(const char *p, size_t len);
/* The record's dictionary as an object, pairs in order, duplicates kept. */
struct json_object *json_dict_new(const struct kmsg_record *r);
/* A loss event as the JSON object of --json and --lost --json; NULL: no memory. */
struct json_object *json_loss_new(const struct kmsg_loss *l);
/* Add v under key, a constant not yet in o: 0, or -ENOMEM when v is NULL (its constructor failed) or the add fails. */
int json_add(struct json_object *o, const char *key, struct json_object *v);

/*
 * Write p[0..len) as a JSON string: '"', '\\' and control characters
 * escaped as json-c and util-linux escape them, valid UTF-8 as it is, any
 * other byte as the text \xNN.
 */
void out_json_text(const char *p, size_t len);
/*
 * The same into o, which has room for JSON_TEXT_ROOM(len) bytes (the
 * bytes past the returned end are overwritten): json_put_text() the string
 * with its quotes; with strict, NULL at a byte that is not part of valid
 * UTF-8.  json_put_chars() writes it without the quotes, in 2 bytes less.
 */
#define JSON_TEXT_ROOM(len) (6 * (len) + 10)
char *json_put_chars(char *o, const char *p, size_t len, bool strict);
/* p[0..len) as the array of its byte values ("[104,0,255]") into o, which has room for 4 * len + 2 bytes. */
char *json_put_bytes(char *o, const char *p, size_t len);
/* The byte values of p[0..n) as numbers, each after a comma but the very first (first). */
char *json_put_byte_values(char *o, const unsigned char *p, size_t n, bool first);

/*
 * The direct writer.  Text is escaped straight into the output buffer:
 * eight bytes at a time are copied while none of them needs a look
 * (nearly all text), and the UTF-8 is checked in the same pass.  A step
 * stores whole words, so its destination has room for the most it can
 * write and eight bytes more, of which those past its end are overwritten
 * by what follows.
 */
#define JSON_ONES UINT64_C(0x0101010101010101)
#define JSON_HIGHS UINT64_C(0x8080808080808080)

/* A little-endian word stored at o (byte i from bits 8i to 8i + 7). */
static inline void json_store_le64(char *o, uint64_t w) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        memcpy(o, &w, 8);
}

/* The n bytes at p (n < 8) as the low bytes of a word, the others zero; reads no byte past p[n - 1]. */
static inline uint64_t json_load_le_short(const unsigned char *p, size_t n) {
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
        return ((w - JSON_ONES * 0x20) | ((w ^ (JSON_ONES * '"')) - JSON_ONES) | ((w ^ (JSON_ONES * '\\')) - JSON_ONES) | w) & JSON_HIGHS;
}

#ifdef __SSE2__
/* Whether one of the sixteen bytes at p needs a look (json_word_special()'s bytes); they are copied to o. */
static inline bool json_block_special(char *o, const char *p) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

        _mm_storeu_si128((__m128i *)(void *)o, v);
        /* Signed: below 0x20, and from 0x80. */
        return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                                           _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))) != 0;
}
#endif

/*
 * The string of p[0..n) (above).  A text that needs no look takes no call:
 * one of less than eight bytes in a word, a longer one (with SSE2) sixteen
 * bytes a step, its last step the sixteen bytes that end it.  At the first
 * step with a byte that needs a look, json_put_chars() goes on from that
 * step's start: the bytes before it are plain ASCII, so no UTF-8 sequence
 * is cut.
 */
static inline char *json_put_text(char *o, const char *p, size_t n, bool strict) {
        size_t i = 0;

        *o++ = '"';
        if (n < 8) {
                uint64_t w = json_load_le_short((const unsigned char *)p, n);

                if (!(json_word_special(w) & ((UINT64_C(1) << (8 * n)) - 1))) {
                        json_store_le64(o, w);
                        o[n] = '"';
                        return o + n + 1;
                }
        }
#ifdef __SSE2__
        else if (n >= 16) {
                while (n - i > 16 && !json_block_special(o + i, p + i))
                        i += 16;
                if (n - i <= 16 && !json_block_special(o + n - 16, p + n - 16)) {
                        o[n] = '"';
                        return o + n + 1;
                }
        }
#endif
        o = json_put_chars(o + i, p + i, n - i, strict);
        if (o)
                *o++ = '"';
        return o;
}


/*
 * The direct writer's state.  A record is written straight into the output buffer, at a pointer that
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
#define JW_TEXT_CHUNK ((OUT_BUF_SIZE - 64) / 6)

char *jw_room_slow(struct jw *w, char *o, size_t need);

/* o, or where to go on when there are less than need bytes of room (NULL: none). */
static inline char *jw_room(struct jw *w, char *o, size_t need) {
        if ((size_t)(w->lim - o) >= need)
                return o;
        return jw_room_slow(w, o, need);
}

/*
 * A text longer than fits now, as a string, or as the array of its byte
 * values when value and it is not UTF-8 (a text that must be a string was
 * checked before: the stream mode).  Over JW_TEXT_CHUNK bytes it is written
 * in pieces, cut where no valid UTF-8 sequence spans the cut, so that each
 * byte is written as in one piece.
 */
char *jw_text_long(struct jw *w, char *o, const char *p, size_t n, bool value);

/* A text that must be a string: not UTF-8 is JW_SLOW (checked before in stream mode: then as out_json_text()). */
static inline char *jw_text(struct jw *w, char *o, const char *p, size_t n) {
        if (n <= JW_TEXT_CHUNK && (size_t)(w->lim - o) >= JSON_TEXT_ROOM(n) + JW_SLACK) {
                o = json_put_text(o, p, n, !w->stream);
                if (!o)
                        w->fail = JW_SLOW;
                return o;
        }
        return jw_text_long(w, o, p, n, false);
}

/* A value: a string when it is UTF-8, else the array of its byte values (at most 4n + 2 bytes). */
static inline char *jw_value(struct jw *w, char *o, const char *p, size_t n) {
        if (n <= JW_TEXT_CHUNK && (size_t)(w->lim - o) >= JSON_TEXT_ROOM(n) + JW_SLACK) {
                char *e = json_put_text(o, p, n, true);

                return e ? e : json_put_bytes(o, p, n);
        }
        return jw_text_long(w, o, p, n, true);
}

#endif
