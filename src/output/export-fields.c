/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields of an export entry (export-fields.h): a value that is not
 * printable UTF-8 on one line is written in the binary form, "KEY\n", a
 * little-endian u64 length, the bytes, "\n".  journald and
 * systemd-journal-remote take at most EXPORT_FIELDS_MAX fields per entry
 * and drop the connection at an entry with more: the fields a record can
 * have many of go past that into one, KMSG_MERGED, written last, a line
 * NAME=VALUE each, the value's newlines and backslashes written \x0a and
 * \x5c; kdmesg -K reads its lines back as those fields
 * (lib/stream-export-build.c).
 */
#include <stdlib.h>
#include <string.h>

#include "output/export-fields.h"
#include "output/export.h"
#include "text/escape.h"
#include "text/utf8.h"
#include "text/writer.h"

/* The fields written after the dictionary that are kdmesg's own (udev's 2, SEQNUM, KMSG_*), and KMSG_MERGED. */
#define FIELDS_AFTER_DICT 6

/*
 * Whether a value must use the binary form: a control byte but tab, or
 * not UTF-8.  Printable ASCII is passed over eight bytes at a time, and
 * only a value with a byte over 0x7f is checked for UTF-8.
 */
static bool needs_binary(const char *p, size_t len) {
        bool high = false;
        size_t i = 0;

        while (i < len) {
                unsigned char c;

                if (len - i >= 8) {
                        uint64_t w;

                        memcpy(&w, p + i, 8);
                        if (!bytes_outside(w, 0x20, 0x7e)) {
                                i += 8;
                                continue;
                        }
                }
                c = (unsigned char)p[i++];
                if ((c < 0x20 && c != '\t') || c == 0x7f)
                        return true;
                high |= c >= 0x80;
        }
        return high && !utf8_is_valid(p, len);
}

static void out_le64(uint64_t v) {
        char b[8];
        int i;

        for (i = 0; i < 8; i++) {
                b[i] = (char)(v & 0xff);
                v >>= 8;
        }
        out_write(b, 8);
}

static void count(struct export_entry *e, const char *key) {
        if (key[0] != '_' || key[1] != '_')
                e->n++;
}

void export_entry_begin(struct export_entry *e) {
        char *merged = e->merged;
        size_t cap = e->merged_cap;

        *e = (struct export_entry){ .merged = merged, .merged_cap = cap };
}

void export_field(struct export_entry *e, const char *key, const char *val, size_t len) {
        count(e, key);
        out_puts(key);
        if (needs_binary(val, len)) {
                out_putc('\n');
                out_le64(len);
        } else
                out_putc('=');
        out_write(val, len);
        out_putc('\n');
}

void export_field_str(struct export_entry *e, const char *key, const char *val) {
        export_field(e, key, val, strlen(val));
}

void export_field_u64(struct export_entry *e, const char *key, uint64_t v) {
        count(e, key);
        out_puts(key);
        out_putc('=');
        out_u64(v);
        out_putc('\n');
}

void export_var_field(struct export_entry *e, const char *key, const char *val, size_t len) {
        size_t k = strlen(key), need, i, esc;
        char *d;

        if (!e->limited || e->budget > 0) {
                if (e->limited)
                        e->budget--;
                export_field(e, key, val, len);
                return;
        }
        /* A value's newlines and backslashes as \x0a and \x5c: a newline would start a line, a field, of its own. */
        for (i = 0, esc = 0; i < len; i++)
                esc += val[i] == '\n' || val[i] == '\\';
        need = e->merged_len + k + 1 + len + 3 * esc + 1;
        if (need > e->merged_cap) {
                size_t cap = e->merged_cap ? e->merged_cap : 4096;
                char *p;

                while (cap < need)
                        cap *= 2;
                p = realloc(e->merged, cap);
                if (!p) {
                        e->merge_failed = true;
                        return;
                }
                e->merged = p;
                e->merged_cap = cap;
        }
        memcpy(e->merged + e->merged_len, key, k);
        e->merged[e->merged_len + k] = '=';
        if (esc == 0)
                memcpy(e->merged + e->merged_len + k + 1, val, len);
        for (i = 0, d = e->merged + e->merged_len + k + 1; esc > 0 && i < len; i++) {
                if (val[i] == '\n' || val[i] == '\\') {
                        memcpy(d, val[i] == '\n' ? "\\x0a" : "\\x5c", 4);
                        d += 4;
                } else
                        *d++ = val[i];
        }
        e->merged[need - 1] = '\n';
        e->merged_len = need;
        e->n_merged++;
}

void export_entry_limit(struct export_entry *e, unsigned max) {
        if (max == 0)
                max = EXPORT_FIELDS_MAX;
        e->limited = true;
        e->budget = max > e->n + FIELDS_AFTER_DICT ? max - e->n - FIELDS_AFTER_DICT : 0;
}

void export_entry_end(struct export_entry *e) {
        if (e->n_merged > 0)
                export_field(e, "KMSG_MERGED", e->merged, e->merged_len - 1);
        e->limited = false;
        out_putc('\n');
}

void export_entry_free(struct export_entry *e) {
        free(e->merged);
        *e = (struct export_entry){};
}

uint64_t export_clamp_time(int64_t v, bool wall, bool *clamped) {
        if (wall && v < 1) {
                *clamped = true;
                return 1;
        }
        if (v < 0 || (uint64_t)v > EXPORT_TIME_MAX) {
                *clamped = true;
                return v < 0 ? 0 : EXPORT_TIME_MAX;
        }
        return (uint64_t)v;
}
