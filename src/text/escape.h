/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_ESCAPE_H
#define KDMESG_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "text/utf8.h"

/*
 * Byte classes: which bytes each output form writes as they are.  Every
 * other byte becomes \xNN with lower-case digits (text and cell views keep
 * valid UTF-8 on top of their class; see out_text()).
 */
enum {
        ESC_TEXT = 1 << 0,       /* text views: printable ASCII and the tab */
        ESC_CELL = 1 << 1,       /* a table cell: printable ASCII (a tab would break the columns) */
        ESC_KMSG = 1 << 2,       /* the kernel's kmsg escaping: printable ASCII but '\' */
        ESC_KMSG_KEY = 1 << 3,   /* a kmsg dictionary key: [A-Za-z0-9._-] */
        ESC_ASCII = 1 << 4,      /* a JSON dictionary key: ASCII */
        ESC_EXPORT_KEY = 1 << 5, /* an export KMSG_DICT key: all but '=' and '\' */
        ESC_JSON = 1 << 6,       /* a JSON string: ASCII from 0x20 but '"' and '\' */
        ESC_KMSG_HEADER = 1 << 7, /* a kmsg header field: printable ASCII but ',' and ';', and see header_keeps() */
        ESC_KMSG_FIELDS = 1 << 8, /* the kmsg header's fields after the flags: the same, ',' kept (it separates them) */
};

/* The classes of each byte value. */
extern const unsigned short byte_class[256];
/* Lower-case hexadecimal digits, for every \xNN and \u00NN. */
extern const char hexdigits[16];

/*
 * Eight bytes at a time: w holds them as memcpy() reads them.  Each test
 * gives, for each byte of w that passes it, that byte's high bit, and
 * nothing for the others (no carry runs from one byte into the next), so
 * first_marked() finds the first such byte.
 */
#define SWAR_ONES UINT64_C(0x0101010101010101)
#define SWAR_HIGHS UINT64_C(0x8080808080808080)
#define SWAR_LOW7S UINT64_C(0x7f7f7f7f7f7f7f7f)

/* Bytes below lo or above hi (lo <= 0x80, hi <= 0x7f); every byte from 0x80 is above. */
static inline uint64_t bytes_outside(uint64_t w, unsigned lo, unsigned hi) {
        uint64_t t = w & SWAR_LOW7S;

        return (~(t + SWAR_ONES * (0x80 - lo)) | (t + SWAR_ONES * (0x7f - hi)) | w) & SWAR_HIGHS;
}

/* Bytes equal to c. */
static inline uint64_t bytes_equal(uint64_t w, unsigned char c) {
        uint64_t x = w ^ (SWAR_ONES * c);

        return ~(((x & SWAR_LOW7S) + SWAR_LOW7S) | x) & SWAR_HIGHS;
}

/* The index of the first byte marked in m (not 0), in the order of memory. */
static inline size_t first_marked(uint64_t m) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        return (size_t)__builtin_clzll(m) / 8;
#else
        return (size_t)__builtin_ctzll(m) / 8;
#endif
}

/* \xNN for c into e, which has room for 4 bytes; returns 4. */
static inline size_t hex_escape(char *e, unsigned char c) {
        e[0] = '\\';
        e[1] = 'x';
        e[2] = hexdigits[c >> 4];
        e[3] = hexdigits[c & 15];
        return 4;
}

/*
 * A byte from 0x80 in a kmsg header field (ESC_KMSG_HEADER, ESC_KMSG_FIELDS)
 * at p[0..len): how many bytes to write as they are, from it; 0 when it is
 * written as \xNN.  A valid UTF-8 character is kept, but not a C1 control
 * (U+0080 to U+009F: U+009B is CSI) nor a bidirectional control, whose
 * first byte is escaped, and then its other bytes, which continue nothing
 * written; a byte that continues no character (0x80 to 0xbf: on an 8-bit
 * terminal 0x80 to 0x9f are the C1 controls themselves) is escaped.  A
 * byte from 0xc0 that starts no character (a stray lead byte, 0xff) is
 * kept: readers take the header as written, and no terminal acts on it.
 */
static inline size_t header_keeps(const unsigned char *p, size_t len) {
        uint32_t cp;
        size_t n;

        if (p[0] < 0xc0)
                return p[0] < 0x80;
        n = utf8_decode(p, len, &cp);
        if (n == 0)
                return 1;
        return cp <= 0x9f || utf8_is_bidi_control(cp) ? 0 : n;
}

/*
 * p[0..len) into dst (room for len * 4 + 1 bytes), bytes not in class as
 * \xNN, NUL-terminated; returns the length.
 */
size_t escape_into(char *dst, const char *p, size_t len, unsigned class);

/*
 * The width of text p[0..len) on the screen in the current locale: wide
 * (East Asian, emoji) characters take two columns, combining ones none, and
 * a byte that is not a printable character counts as the four of \xNN.
 * With ret_cut, the length of the longest prefix no wider than max.  The
 * classic view's continuation indent and the table's column widths both
 * use it.
 */
size_t text_width(const char *p, size_t len, size_t max, size_t *ret_cut);

#endif
