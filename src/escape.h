/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_ESCAPE_H
#define KDMESG_ESCAPE_H

#include <stddef.h>

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
        ESC_KMSG_HEADER = 1 << 7, /* a kmsg header field: all but control bytes (< 0x20, 0x7f), ',' and ';' */
        ESC_KMSG_FIELDS = 1 << 8, /* the kmsg header's fields after the flags: the same, ',' kept (it separates them) */
};

/* The classes of each byte value. */
extern const unsigned short byte_class[256];
/* Lower-case hexadecimal digits, for every \xNN and \u00NN. */
extern const char hexdigits[16];

/* \xNN for c into e, which has room for 4 bytes; returns 4. */
static inline size_t hex_escape(char *e, unsigned char c) {
        e[0] = '\\';
        e[1] = 'x';
        e[2] = hexdigits[c >> 4];
        e[3] = hexdigits[c & 15];
        return 4;
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
