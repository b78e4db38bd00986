/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_OUTPUT_H
#define KDMESG_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Buffered standard output.  Errors are remembered and reported by
 * out_close(); after a write error further output is discarded.
 */
static inline void out_write(const void *p, size_t len);
void out_puts(const char *s);
static inline void out_putc(char c);
static inline void out_u64(uint64_t v);
/* v right-aligned in width columns, padded with spaces. */
void out_u64_padded(uint64_t v, unsigned width);
/* "00" to "99", and 10^0 to 10^19 (output.c): for the decimal writers below and the table's. */
extern const char digit_pairs[201];
extern const uint64_t decimal_powers[20];

/* The number of decimal digits of v (1 for 0), without dividing. */
static inline unsigned digits10(uint64_t v) {
        /*
         * x = v | 1 has as many digits as v (an even v + 1 is never a power
         * of ten) and a bit set; with b bits it has t or t + 1 digits, where
         * t = b * log10(2) rounded down (1233 / 4096 is log10(2) closely enough).
         */
        uint64_t x = v | 1;
        unsigned t = (unsigned)(64 - __builtin_clzll(x)) * 1233 >> 12;

        return t + (x >= decimal_powers[t]);
}

/* The decimal digits of v, ending at end (right to left, two at a time). */
static inline void put_digits(char *end, uint64_t v) {
        while (v >= 100) {
                end -= 2;
                memcpy(end, digit_pairs + 2 * (v % 100), 2);
                v /= 100;
        }
        if (v >= 10)
                memcpy(end - 2, digit_pairs + 2 * v, 2);
        else
                end[-1] = (char)('0' + v);
}

/* usec as seconds with six decimals ("12.345678"), ending at end (right to left). */
static inline void put_seconds_at(char *end, uint64_t usec) {
        uint64_t sec = usec / 1000000;
        unsigned frac = (unsigned)(usec - sec * 1000000);

        memcpy(end - 6, digit_pairs + 2 * (frac / 10000), 2);
        memcpy(end - 4, digit_pairs + 2 * (frac / 100 % 100), 2);
        memcpy(end - 2, digit_pairs + 2 * (frac % 100), 2);
        end[-7] = '.';
        put_digits(end - 7, sec);
}

/*
 * v in decimal into buf, which must hold 20 bytes (below 10^8 all eight
 * bytes are written, those after the digits too), not NUL-terminated;
 * returns the length.
 */
size_t put_decimal(char *buf, uint64_t v);
/*
 * "    1.234567": seconds right-aligned in width columns, then six
 * decimals, NUL-terminated: the one seconds.microseconds
 * printer, for every view and report.  Written by hand: this runs for every record of
 * the classic view.  width is at most 20; buf must hold 28 bytes.  Returns
 * the length.
 */
size_t put_seconds(char *buf, uint64_t usec, unsigned width);
/* put_seconds() to standard output. */
void out_usec(uint64_t usec, unsigned width);
/*
 * Text from the kernel log, made safe for a terminal: control bytes, DEL,
 * C1 controls, bidirectional controls (utf8_is_bidi_control()) and bytes
 * that are not valid UTF-8 become \xNN; other valid UTF-8 is written as it
 * is, but in a locale whose character set is not UTF-8 (C, POSIX) every
 * byte from 0x80 becomes \xNN, as util-linux writes it.  With raw, the
 * bytes are written unchanged.
 */
void out_text(const char *p, size_t len, bool raw);
/* out_text() of p[0..len) up to its first newline; returns the length written (len when it has none). */
size_t out_text_line(const char *p, size_t len, bool raw);
/*
 * out_text(), and a backslash that would read back as the start of an
 * escape ("\x" and two hex digits) as \x5c: the text of -r, which -F reads
 * back as it was.  With raw, the bytes unchanged.
 */
void out_text_syslog(const char *p, size_t len, bool raw);
/*
 * The made-safe text of out_text() for a table cell, NUL-terminated, into
 * dst, which has room for len * 4 + 1 bytes; returns its length.  A tab is
 * escaped too (in a cell it would break the columns).  With raw, a copy.
 */
size_t text_safe_into(char *dst, const char *p, size_t len, bool raw);
/* The same as a new string; NULL when out of memory. */
char *text_safe_dup(const char *p, size_t len, bool raw);
/* Whether the text above keeps ASCII only: from the locale's character set (after setlocale()), or set. */
void out_init_locale(void);
void out_set_ascii(bool ascii);
/* Flush now. */
int out_flush(void);
/*
 * At the end of a record: flush when usec is 0, or when what is buffered
 * has waited usec microseconds or longer since the first record after the
 * last flush (following: a burst of records costs a few write(2)s, not one
 * each, and none waits long).
 */
void out_flush_within(unsigned usec);
/* Flush and return 0, or -errno of the first write error (-ECANCELED: see out_set_write_hooks()). */
int out_close(void);
/* -errno of the first write error so far, or 0 (does not flush; inline below: asked after every record). */
static inline int out_failed(void);

/* Bytes buffered, not yet written. */
size_t out_pending(void);
/* Bytes of output so far, written or buffered: a record's size is the difference. */
static inline uint64_t out_position(void);
/*
 * Functions called right before and right after each write(2) of buffered
 * output (--cursor-file marks the records in flight).  NULL: none.  When
 * before returns less than 0, what is buffered is not written, nor is
 * anything after it: out_failed() and out_close() return -ECANCELED (the
 * hook reports why).
 */
void out_set_write_hooks(int (*before)(void *userdata), void (*after)(void *userdata), void *userdata);

/*
 * Send the buffered output to writer instead of standard output (--upload):
 * it returns 0, or -errno, which is kept as the write error.
 */
void out_set_writer(int (*writer)(void *userdata, const void *p, size_t len), void *userdata);

#define OUT_BUF_SIZE 65536
/*
 * The writer's state: the one mutable singleton of kdmesg that stays (the
 * others are the program's name, the signal flag, the colors and the RELP
 * session that librelp's debug function reports to).  Standard output is one per process, every sink, report and
 * message goes through it in order, and its buffer is filled inline
 * (out_putc()) for every record: so it is reached directly, not through a
 * pointer handed around.
 */
struct out_state {
        char buf[OUT_BUF_SIZE];
        size_t len;
        uint64_t drained; /* bytes that left the buffer (written, or lost to an error) */
        int error;        /* the first write error (errno); 0: none */
        bool ascii;       /* the locale's character set is not UTF-8: text keeps ASCII only */
        int (*hook_before)(void *userdata);
        void (*hook_after)(void *userdata);
        void *hook_userdata;
        int (*writer)(void *userdata, const void *p, size_t len);
        void *writer_userdata;
        /* out_flush_within(): whether a wait runs, when it began, and drained then. */
        bool waiting;
        uint64_t since_ns, since_drained;
};
extern struct out_state out_state;
/* The buffer, for the inline writers here and the JSON writer's steps (text/json.h). */
#define out_buf (out_state.buf)

static inline int out_failed(void) {
        return out_state.error ? -out_state.error : 0;
}
#define out_len (out_state.len)
#define out_drained (out_state.drained)

static inline uint64_t out_position(void) {
        return out_drained + out_len;
}
void out_drain(void);
void out_write_slow(const void *p, size_t len);

static inline void out_write(const void *p, size_t len) {
        if (len <= OUT_BUF_SIZE - out_len) {
                memcpy(out_buf + out_len, p, len);
                out_len += len;
        } else
                out_write_slow(p, len);
}

/*
 * out_write() of p[0..len), where p can be read for 64 bytes (an array at
 * least that long): a piece that short is copied 64 bytes at once.
 */
static inline void out_write_from64(const void *p, size_t len) {
        if (len <= 64 && OUT_BUF_SIZE - out_len >= 64) {
                memcpy(out_buf + out_len, p, 64);
                out_len += len;
        } else
                out_write(p, len);
}

static inline void out_putc(char c) {
        if (out_len == OUT_BUF_SIZE)
                out_drain();
        out_buf[out_len++] = c;
}

/* out_u64() but for its inline case. */
void out_u64_digits(uint64_t v);

/* v in decimal to standard output. */
static inline void out_u64(uint64_t v) {
        if (v < 10 && out_len < OUT_BUF_SIZE)
                /* A level, a priority: one digit, without a call. */
                out_buf[out_len++] = (char)('0' + v);
        else
                out_u64_digits(v);
}

/* p[0..len) to standard output, bytes not in class (escape.h) as \xNN. */
void out_escaped(const char *p, size_t len, unsigned class);

struct libscols_table;
/*
 * The end of a report's table: print tb and a newline when e >= 0, then
 * free it (table-layout.c).  Returns 0, e when it was < 0, or the print's error.
 */
int table_print_free(struct libscols_table *tb, int e);

#endif
