/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One pass over the common record of the /dev/kmsg text form.
 *
 * The splitter (scan_record() in stream-kmsg.c) and the general parser
 * (record_parse_lines()) each walk a record's bytes, with a memchr() per
 * line, per separator and per escape: five to eight passes over the same
 * 90 bytes.  Nearly every record of a dump is plain: a header of printable
 * ASCII, a message line of at most 2048 bytes, dictionary lines with plain
 * keys, all of it in the buffer.  For such a record kmsg_scan_record()
 * finds where it ends and parses it in one walk over its lines, sixteen
 * bytes a step.
 *
 * Anything else (a NUL byte or CR in the record, leading white space, a
 * malformed header, an escaped key, a line that may be a cut 6.3+ record,
 * a record over the size limit, a line that does not end in the buffer) is
 * left to the general path, which knows every case: kmsg_scan_record()
 * then returns 0, having changed nothing but the record, which the general
 * parser resets.  Where it parses, it makes the record the general path
 * makes, with the same calls in the same order (tests/unit/test-scan.c and
 * fuzz-reader compare the two on every input).
 */
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kmsg-private.h"

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

#if defined(__SSE2__)
/* The bytes of p[0..16 * blocks) below 0x20 or backslashes, as a mask: bit i for p[i] (blocks <= 4). */
static inline uint64_t block_stops(const char *p, int blocks) {
        const __m128i below = _mm_set1_epi8(0x1f), bs = _mm_set1_epi8('\\');
        uint64_t mask = 0;

        for (int i = 0; i < blocks; i++) {
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
                __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, below), v), _mm_cmpeq_epi8(v, bs));

                mask |= (uint64_t)(unsigned)_mm_movemask_epi8(hit) << (16 * i);
        }
        return mask;
}
#endif

/*
 * The first byte of p[0..end) below 0x20 or a backslash, or end: where a
 * line ends (newline), an escape starts, or the general path must look
 * (NUL, CR).  The lowest hit of the word tests is exact.  line_end() takes
 * blocks of sixty-four bytes itself (block_stops()); this is for the
 * line's last bytes before end.
 */
static inline const char *next_stop(const char *p, const char *end) {
#if defined(__SSE2__)
        while (end - p >= 16) {
                uint64_t mask = block_stops(p, 1);

                if (mask)
                        return p + __builtin_ctzll(mask);
                p += 16;
        }
#endif
        while (end - p >= 8) {
                uint64_t w, b, hit;

                memcpy(&w, p, 8);
                b = w ^ (ONES * '\\');
                hit = ((w - ONES * 0x20) & ~w & HIGHS) | ((b - ONES) & ~b & HIGHS);
                if (hit)
                        return p + (__builtin_ctzll(hit) >> 3);
                p += 8;
        }
        while (p < end && (unsigned char)*p >= 0x20 && *p != '\\')
                p++;
        return p;
}

/* Where a line's backslashes are, as line_end() found them: the first ESCAPES_KEPT of them. */
#define ESCAPES_KEPT 8
struct escapes {
        unsigned n; /* how many in all */
        const char *at[ESCAPES_KEPT];
};

/*
 * The newline that ends the line at p, before lim; where its backslashes
 * are goes to *e.  NULL when the line holds a NUL or CR, or does not end
 * before lim: the general path's cases.  short_line: a dictionary value.
 */
static inline const char *line_end(const char *p, const char *lim, struct escapes *e, bool short_line) {
        e->n = 0;
#if defined(__SSE2__)
        /*
         * Sixty-four bytes a step while there are, in one mask: most lines
         * end in the first, and a loop that ends after a varying number of
         * steps costs a mispredicted branch.  A short line (a dictionary
         * value: "usb", "+pci:0000:00:1f.2") is looked for in thirty-two
         * bytes first, half the work.  The stops of a block are taken in
         * turn from its mask: a backslash costs no new search.
         */
        for (int blocks = short_line ? 2 : 4; lim - p >= 16 * blocks; p += 16 * blocks, blocks = 4) {
                for (uint64_t mask = block_stops(p, blocks); mask; mask &= mask - 1) {
                        const char *s = p + __builtin_ctzll(mask);

                        if (*s == '\n')
                                return s;
                        if (*s == '\0' || *s == '\r')
                                return NULL;
                        if (*s == '\\') {
                                if (e->n < ESCAPES_KEPT)
                                        e->at[e->n] = s;
                                e->n++;
                        }
                        /* A backslash or another control byte: part of the text. */
                }
        }
#endif
        for (;;) {
                p = next_stop(p, lim);
                if (p == lim || *p == '\0' || *p == '\r')
                        return NULL;
                if (*p == '\n')
                        return p;
                if (*p == '\\') {
                        if (e->n < ESCAPES_KEPT)
                                e->at[e->n] = p;
                        e->n++;
                }
                /* A backslash or another control byte: part of the text. */
                p++;
        }
}

/* What a byte may be in a plain header and a plain dictionary key. */
enum {
        FLAG_BYTE = 1,   /* printable ASCII but ',' and ';': the flags, and the fields with commas */
        FIELD_BYTE = 2,  /* the same and ',' */
        KEY_BYTE = 4,    /* [A-Za-z0-9._-] */
        CALLER_KIND = 8, /* 'T' or 'C' */
};

#define PRINT(b) ((b) >= 0x20 && (b) < 0x7f)
#define ALNUM(b) (((b) >= 'A' && (b) <= 'Z') || ((b) >= 'a' && (b) <= 'z') || ((b) >= '0' && (b) <= '9'))
#define CLASS(b)                                                                                                      \
        ((PRINT(b) && (b) != ',' && (b) != ';' ? FLAG_BYTE | FIELD_BYTE : 0) | ((b) == ',' ? FIELD_BYTE : 0) |      \
         (ALNUM(b) || (b) == '.' || (b) == '_' || (b) == '-' ? KEY_BYTE : 0) | ((b) == 'T' || (b) == 'C' ? CALLER_KIND : 0))
#define C4(b) CLASS(b), CLASS((b) + 1), CLASS((b) + 2), CLASS((b) + 3)
#define C16(b) C4(b), C4((b) + 4), C4((b) + 8), C4((b) + 12)
#define C64(b) C16(b), C16((b) + 16), C16((b) + 32), C16((b) + 48)

static const unsigned char byte_class[256] = { C64(0), C64(64), C64(128), C64(192) };

static inline bool is(const char *p, unsigned class) {
        return byte_class[(unsigned char)*p] & class;
}

static const uint64_t powers_of_ten[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };

/*
 * The leading digits of the eight bytes at p (0 to 8) and their value.
 * x holds the bytes less '0': a digit is a byte of 0 to 9; the lowest
 * byte that is not (the first in the text) is found exactly.  Then the
 * digits, moved to the top of the word behind zeros, are summed in pairs,
 * fours and eights, each step one multiplication.
 */
static inline unsigned eight_digits(const char *p, uint64_t *ret) {
        uint64_t w, x, stop;
        unsigned n;

        memcpy(&w, p, 8);
        x = w ^ (ONES * '0');
        stop = ((x + ONES * (0x80 - 10)) | x) & HIGHS;
        n = stop ? (unsigned)__builtin_ctzll(stop) >> 3 : 8;
        *ret = 0;
        if (n == 0)
                return 0;
        x <<= 8 * (8 - n);
        /*
         * Each step x * 10 + (x >> 8) and so on, as one product: (x *
         * (10 * 256 + 1)) >> 8 is the same number (what the product loses
         * past bit 63 lies in the bytes the mask clears), one
         * multiplication and a shift where the sum took four instructions.
         */
        x = (x * (10 * 256 + 1)) >> 8 & UINT64_C(0x00ff00ff00ff00ff);
        x = (x * (100 * 65536 + 1)) >> 16 & UINT64_C(0x0000ffff0000ffff);
        *ret = (x * (UINT64_C(10000) << 32 | 1)) >> 32;
        return n;
}

/* The same for a number of a digit or two (the priority), a byte at a time. */
static inline const char *small_number(const char *p, uint64_t *ret);

/*
 * The decimal at p, 1 to 19 digits (which cannot overflow): the byte after
 * it, or NULL.  A longer one is the general path's (scan_u64()).  The
 * sixteen bytes at p as two words of eight digits where they are in the
 * buffer (nearly always: a record goes on after its numbers), without a
 * loop; else a byte at a time, stopped by the buffer's end mark.
 */
static inline const char *number(const char *p, const char *end, uint64_t *ret) {
        uint64_t head, tail;
        unsigned n;

        if (end - p < 16)
                return small_number(p, ret);
        n = eight_digits(p, &head);
        if (n < 8) {
                *ret = head;
                return n ? p + n : NULL;
        }
        n = eight_digits(p + 8, &tail);
        if (n == 8)
                /* Sixteen digits or more: seldom. */
                return small_number(p, ret);
        *ret = head * powers_of_ten[n] + tail;
        return p + 8 + n;
}

static inline const char *small_number(const char *p, uint64_t *ret) {
        const char *s = p;
        uint64_t v = 0;
        unsigned d;

        while ((d = (unsigned)(unsigned char)*p - '0') <= 9) {
                v = v * 10 + d;
                p++;
        }
        *ret = v;
        return (size_t)(p - s) - 1 < 19 ? p : NULL;
}

/* Room the scanner asks for in a record's data area beyond what it writes there: see copy(). */
#define SLACK 32

/*
 * n bytes from src to dst, where src_end is where the readable bytes after
 * src end and dst has room for SLACK bytes more than n.  A short text (the
 * flags, the fields, a dictionary key or value, a run between escapes) is
 * copied as two blocks of sixteen whatever its length: a copy that chose
 * its way by the length would mispredict a branch for texts whose lengths
 * vary from record to record.
 */
static inline void copy(char *dst, const char *src, size_t n, const char *src_end) {
        if (n <= 32 && src_end - src >= 32) {
                memcpy(dst, src, 16);
                memcpy(dst + 16, src + 16, 16);
        } else
                memcpy(dst, src, n);
}

/*
 * copy() for a message: one of 33 to 64 bytes (two thirds of them in a
 * dump) as four blocks of sixteen, not a call to memcpy(), where the
 * sixty-four bytes read are in the buffer.  The blocks write at most 31
 * bytes past n (n > 32), within SLACK.  Only for the plain message: in
 * put() it made the compiler keep unescape_found() out of line.
 */
static inline void copy_text(char *dst, const char *src, size_t n, const char *src_end) {
        if (n > 32 && n <= 64 && src_end - src >= 64) {
                memcpy(dst, src, 16);
                memcpy(dst + 16, src + 16, 16);
                memcpy(dst + 32, src + 32, 16);
                memcpy(dst + 48, src + 48, 16);
        } else
                copy(dst, src, n, src_end);
}

/* Whether the four bytes at p (p + 4 <= end) are an escape \xNN; its byte to *ret. */
static inline bool escape_at(const char *p, const char *end, char *ret) {
        static const signed char hex[256] = {
                ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
                ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
                ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
        };
        int hi, lo;

        if (end - p < 4 || p[1] != 'x' || !(hi = hex[(unsigned char)p[2]]) || !(lo = hex[(unsigned char)p[3]]))
                return false;
        *ret = (char)((hi - 1) << 4 | (lo - 1));
        return true;
}

/*
 * p[0..n) decoded into dst as kmsg_unescape() decodes it, its backslashes
 * being where e says (all of them: e->n <= ESCAPES_KEPT): the runs between
 * them copied, no search.  Returns the decoded length.
 */
static size_t unescape_found(char *dst, const char *p, size_t n, const struct escapes *e, const char *src_end) {
        const char *end = p + n;
        char *d = dst;

        for (unsigned i = 0; i < e->n; i++) {
                const char *b = e->at[i];

                copy(d, p, (size_t)(b - p), src_end);
                d += b - p;
                /* No backslash is inside an escape (its bytes are 'x' and hex digits): each starts here. */
                if (escape_at(b, end, d))
                        p = b + 4;
                else {
                        /* Malformed escape: the backslash kept literally. */
                        *d = '\\';
                        p = b + 1;
                }
                d++;
        }
        copy(d, p, (size_t)(end - p), src_end);
        return (size_t)(d - dst) + (size_t)(end - p);
}

/*
 * Copy n bytes to the data area at *o (room reserved, with SLACK), decoding
 * the escapes e found; NUL-terminate.  Returns the offset.
 */
static inline size_t put(char *data, size_t *o, const char *p, size_t n, const struct escapes *e,
                         const char *src_end, size_t *ret_len) {
        size_t at = *o;

        if (!e || e->n == 0)
                copy(data + at, p, n, src_end);
        else if (e->n <= ESCAPES_KEPT)
                n = unescape_found(data + at, p, n, e, src_end);
        else
                n = kmsg_unescape(data + at, p, n);
        data[at + n] = '\0';
        *o = at + n + 1;
        if (ret_len)
                *ret_len = n;
        return at;
}

size_t kmsg_scan_record(struct kmsg_record *r, const char *buf, size_t len, bool complete, size_t max) {
        const char *p = buf, *end = buf + len, *flags = NULL, *fields = NULL, *caller_end = NULL, *c, *semi, *msg,
                   *eol, *lim;
        size_t flags_len = 0, fields_len = 0, o;
        char *data;
        uint64_t pri, seq, usec, caller_id;
        uint32_t caller = 0;
        struct escapes esc;
        bool commas = false;

        /*
         * The header: PRI,SEQ,USEC[,FLAGS[,FIELDS]]; the priority of a
         * kernel record (facility 0) is one digit, taken without the loop
         * (buf[1] can be read: buf[len] is the end mark).
         */
        if ((unsigned)(unsigned char)p[0] - '0' <= 9 && p[1] == ',') {
                pri = (unsigned char)p[0] - '0';
                p += 2;
        } else if (!(p = small_number(p, &pri)) || pri > UINT32_MAX || *p++ != ',')
                return 0;
        if (!(p = number(p, end, &seq)) || *p++ != ',' || !(p = number(p, end, &usec)))
                return 0;
        if (*p == ',') {
                flags = ++p;
                while (is(p, FLAG_BYTE))
                        p++;
                flags_len = (size_t)(p - flags);
                /*
                 * The kernel's caller=T123 or C4 alone.  'T' or 'C' by the
                 * table, in one test: half the records of a busy machine are
                 * each, in no order a branch predictor could learn.
                 */
                if (*p == ',' && end - p > 10 && memcmp(p + 1, "caller=", 7) == 0 && is(p + 8, CALLER_KIND) &&
                    (c = number(p + 9, end, &caller_id)) && *c == ';' && caller_id <= UINT32_MAX) {
                        /* Only the caller, as the kernel writes it. */
                        caller = (uint32_t)caller_id;
                        fields = p + 1;
                        p = caller_end = c;
                } else if (*p == ',') {
                        fields = ++p;
                        for (; is(p, FIELD_BYTE); p++)
                                commas |= *p == ',';
                }
                fields_len = fields ? (size_t)(p - fields) : 0;
        }
        if (*p != ';')
                return 0;
        semi = p;
        msg = semi + 1;

        /* The message line: at most KMSG_TRUNCATED_RECORD bytes, or it may be a cut record. */
        lim = len > KMSG_TRUNCATED_RECORD ? buf + KMSG_TRUNCATED_RECORD + 1 : end;
        eol = line_end(msg, lim, &esc, false);
        if (!eol)
                return 0;

        record_reset_fields(r);
        r->priority = (unsigned)pri;
        r->seqnum = seq;
        r->usec = usec;
        r->has_priority = r->has_seqnum = r->has_timestamp = true;
        /* Offset 0 is the empty string; then the flags, the fields, the message, as the general parser lays them. */
        if (record_room(r, 1 + flags_len + 1 + fields_len + 1 + (size_t)(eol - msg) + 1 + SLACK) < 0)
                return 0;
        /*
         * The data area in a variable: r->data read again after every byte
         * stored (a char store may change any field) cost a load a copy.
         */
        data = r->data;
        data[0] = '\0';
        o = 1;
        if (flags)
                r->flags_off = put(data, &o, flags, flags_len, NULL, end, NULL);
        if (caller_end) {
                /* Its text is the end of the fields' copy. */
                r->fields_off = put(data, &o, fields, fields_len, NULL, end, NULL);
                r->caller_off = r->fields_off + 7;
                r->caller_len = fields_len - 7;
                r->has_caller = true;
                r->caller_kind = fields[7];
                r->caller_id = caller;
        } else if (fields && !commas && fields_len > 7 && memcmp(fields, "caller=", 7) == 0) {
                r->fields_off = put(data, &o, fields, fields_len, NULL, end, NULL);
                record_parse_caller(r, fields + 7, fields_len - 7, r->fields_off + 7);
        } else if (fields) {
                r->data_len = o;
                if (record_set_fields(r, fields, fields_len) < 0 || record_room(r, (size_t)(eol - msg) + SLACK) < 0)
                        return 0;
                o = r->data_len;
                data = r->data;
        }
        if (esc.n == 0) {
                /* The usual message: plain text (put() without escapes, with copy_text()). */
                copy_text(data + o, msg, (size_t)(eol - msg), end);
                r->msg_off = o;
                r->msg_len = (size_t)(eol - msg);
                o += r->msg_len;
                data[o++] = '\0';
        } else
                r->msg_off = put(data, &o, msg, (size_t)(eol - msg), &esc, end, &r->msg_len);

        /* Dictionary lines: " KEY=VALUE", the key plain. */
        lim = len > max ? buf + max + 1 : end;
        for (p = eol + 1;; p = eol + 1) {
                enum { NONE, SUBSYSTEM, DEVICE } which;
                struct dict_entry *d;
                const char *key, *eq;

                if (p == end) {
                        /* Whether a dictionary line follows is not known yet. */
                        if (!complete)
                                return 0;
                        break;
                }
                /* A blank line right after the text: a NUL-separated dump may end the text so (the general path). */
                if (*p == '\n' && r->n_dict == 0)
                        return 0;
                if (*p != ' ')
                        break;
                key = p + 1;
                /*
                 * The two keys the kernel writes, by fixed-size compares: a
                 * loop over the key would end after 9 or 6 bytes, in no
                 * order a branch predictor could learn.
                 */
                which = NONE;
                if (end - key >= 10 && memcmp(key, "SUBSYSTEM=", 10) == 0) {
                        eq = key + 9;
                        which = SUBSYSTEM;
                } else if (end - key >= 7 && memcmp(key, "DEVICE=", 7) == 0) {
                        eq = key + 6;
                        which = DEVICE;
                } else {
                        for (eq = key; is(eq, KEY_BYTE); eq++)
                                ;
                        if (eq == end || *eq == '\\')
                                return 0;
                        if (*eq != '=' || eq == key)
                                /* Not a dictionary line: the record ends before it. */
                                break;
                }
                eol = line_end(eq + 1, lim, &esc, true);
                r->data_len = o;
                if (!eol || record_dict_reserve(r) < 0 || record_room(r, (size_t)(eol - key) + SLACK) < 0)
                        return 0;
                data = r->data;
                d = &r->dict[r->n_dict];
                d->key_off = put(data, &o, key, (size_t)(eq - key), NULL, end, NULL);
                d->val_off = put(data, &o, eq + 1, (size_t)(eol - eq - 1), &esc, end, &d->val_len);
                if (which == SUBSYSTEM && r->subsystem_idx < 0)
                        r->subsystem_idx = (ssize_t)r->n_dict;
                else if (which == DEVICE && r->device_idx < 0)
                        r->device_idx = (ssize_t)r->n_dict;
                r->n_dict++;
        }
        r->data_len = o;
        /* Not 0 for a record taken: it took its message line's newline at least. */
        return (size_t)(p - buf) <= max ? (size_t)(p - buf) : 0;
}
