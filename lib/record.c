/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record object and the parser for the /dev/kmsg text form: how a
 * record is built (its strings, dictionary and journal fields in one
 * buffer).  How it is read, the public getters, is record-get.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg-private.h"

struct kmsg_record *record_new(void) {
        struct kmsg_record *r = calloc(1, sizeof(*r));

        if (!r)
                return NULL;
        r->n_ref = 1;
        record_reset(r);
        return r;
}

int record_reserve(struct kmsg_record *r, size_t extra) {
        size_t need, cap;
        char *p;

        if (extra > SIZE_MAX / 2 - r->data_len)
                return -ENOMEM;
        need = r->data_len + extra + 1;
        if (need <= r->data_cap)
                return 0;
        cap = r->data_cap ? r->data_cap : 256;
        while (cap < need)
                cap *= 2;
        p = realloc(r->data, cap);
        if (!p)
                return -ENOMEM;
        if (r->data_cap == 0)
                p[0] = '\0';
        r->data = p;
        r->data_cap = cap;
        return 0;
}

int record_append(struct kmsg_record *r, const void *p, size_t len, size_t *ret_off) {
        int e;

        /* Offset 0 is reserved for the empty string. */
        if (r->data_len == 0)
                r->data_len = 1;
        e = record_reserve(r, len);
        if (e < 0)
                return e;
        if (r->data_len == 1)
                r->data[0] = '\0';
        if (len)
                memcpy(r->data + r->data_len, p, len);
        r->data[r->data_len + len] = '\0';
        *ret_off = r->data_len;
        r->data_len += len + 1;
        return 0;
}

size_t kmsg_unescape(char *dst, const char *src, size_t len) {
        const char *end = src + len;
        char *d = dst;

        while (src < end) {
                const char *bs = memchr(src, '\\', (size_t)(end - src));
                int hi, lo;

                if (!bs) {
                        memcpy(d, src, (size_t)(end - src));
                        d += end - src;
                        break;
                }
                memcpy(d, src, (size_t)(bs - src));
                d += bs - src;
                src = bs;
                if (end - src >= 4 && src[1] == 'x' && (hi = hexval((unsigned char)src[2])) >= 0 &&
                    (lo = hexval((unsigned char)src[3])) >= 0) {
                        *d++ = (char)(hi << 4 | lo);
                        src += 4;
                } else {
                        /* Malformed escape: keep the backslash literally. */
                        *d++ = *src++;
                }
        }
        return (size_t)(d - dst);
}

int record_append_unescaped(struct kmsg_record *r, const char *p, size_t len, size_t *ret_off,
                            size_t *ret_len) {
        size_t n;
        int e;

        if (r->data_len == 0)
                r->data_len = 1;
        e = record_reserve(r, len);
        if (e < 0)
                return e;
        if (r->data_len == 1)
                r->data[0] = '\0';
        n = kmsg_unescape(r->data + r->data_len, p, len);
        r->data[r->data_len + n] = '\0';
        *ret_off = r->data_len;
        *ret_len = n;
        r->data_len += n + 1;
        return 0;
}

int record_dict_grow(struct kmsg_record *r) {
        struct dict_entry *e;
        size_t cap;

        if (r->n_dict < r->dict_cap)
                return 0;
        cap = r->dict_cap ? r->dict_cap * 2 : 4;
        e = realloc(r->dict, cap * sizeof(*e));
        if (!e)
                return -ENOMEM;
        r->dict = e;
        r->dict_cap = cap;
        return 0;
}

int record_add_dict(struct kmsg_record *r, const char *key, size_t key_len, const char *val,
                    size_t val_len, bool unescape) {
        struct dict_entry *e;
        size_t key_off, val_off, n;
        int err;

        err = record_dict_reserve(r);
        if (err < 0)
                return err;
        if (unescape && memchr(key, '\\', key_len)) {
                /* The kernel escapes keys as it escapes values; a key is a C string, so keep a \x00. */
                size_t before = r->data_len;

                err = record_append_unescaped(r, key, key_len, &key_off, &n);
                if (err >= 0 && strlen(r->data + key_off) != n) {
                        r->data_len = before;
                        err = record_append(r, key, key_len, &key_off);
                }
        } else
                err = record_append(r, key, key_len, &key_off);
        if (err < 0)
                return err;
        if (unescape)
                err = record_append_unescaped(r, val, val_len, &val_off, &n);
        else {
                err = record_append(r, val, val_len, &val_off);
                n = val_len;
        }
        if (err < 0)
                return err;
        e = &r->dict[r->n_dict];
        e->key_off = key_off;
        e->val_off = val_off;
        e->val_len = n;
        /* The decoded key, as kmsg_record_get_dict_value() and the entries see it; the first one wins. */
        if (r->subsystem_idx < 0 && strcmp(r->data + key_off, "SUBSYSTEM") == 0)
                r->subsystem_idx = (ssize_t)r->n_dict;
        else if (r->device_idx < 0 && strcmp(r->data + key_off, "DEVICE") == 0)
                r->device_idx = (ssize_t)r->n_dict;
        r->n_dict++;
        return 0;
}

int record_add_journal(struct kmsg_record *r, const char *key, size_t key_len, const char *val, size_t val_len) {
        struct dict_entry *e;
        size_t key_off, val_off;
        int err;

        if (r->n_jf == r->jf_cap) {
                size_t cap = r->jf_cap ? r->jf_cap * 2 : 8;

                e = realloc(r->jf, cap * sizeof(*e));
                if (!e)
                        return -ENOMEM;
                r->jf = e;
                r->jf_cap = cap;
        }
        err = record_append(r, key, key_len, &key_off);
        if (err >= 0)
                err = record_append(r, val, val_len, &val_off);
        if (err < 0)
                return err;
        e = &r->jf[r->n_jf++];
        e->key_off = key_off;
        e->val_off = val_off;
        e->val_len = val_len;
        return 0;
}

static inline bool is_key_char(unsigned char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
               c == '_' || c == '-';
}

int dict_line_check(const char *p, size_t len) {
        size_t i;

        if (len == 0)
                return -1;
        if (p[0] != ' ')
                return 0;
        for (i = 1; i < len; i++) {
                unsigned char c = (unsigned char)p[i];

                if (c == '=')
                        return i > 1 ? 1 : 0;
                if (c == '\\') {
                        /* An escaped byte, \xNN, as the kernel escapes keys and values. */
                        if ((i + 1 < len && p[i + 1] != 'x') || (i + 2 < len && hexval((unsigned char)p[i + 2]) < 0) ||
                            (i + 3 < len && hexval((unsigned char)p[i + 3]) < 0))
                                return 0;
                        if (i + 3 >= len)
                                return -1;
                        i += 3;
                        continue;
                }
                if (!is_key_char(c))
                        return 0;
        }
        return -1;
}

bool header_check(const char *p, size_t len) {
        const char *end = p + len;
        uint64_t v;
        size_t n;
        int i;

        for (i = 0; i < 3; i++) {
                n = scan_u64(p, end, &v);
                if (n == 0)
                        return false;
                p += n;
                if (p >= end)
                        return false;
                if (i < 2 && *p != ',')
                        return false;
                if (i < 2)
                        p++;
        }
        return *p == ',' || *p == ';';
}

static const char *line_end(const char *p, const char *end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));

        return nl ? nl : end;
}

int record_set_caller(struct kmsg_record *r, const char *v, size_t len) {
        size_t off;
        int e;

        e = record_append(r, v, len, &off);
        if (e < 0)
                return e;
        record_parse_caller(r, v, len, off);
        return 0;
}

/*
 * Keep the header fields as written and take the first caller= among them.
 * Inline in the header parser, which runs it for every record.
 */
static inline int set_fields(struct kmsg_record *r, const char *p, size_t len) {
        const char *f, *fend, *end = p + len;
        int e;

        e = record_append(r, p, len, &r->fields_off);
        for (f = p; e == 0 && f < end; f = fend + 1) {
                fend = memchr(f, ',', (size_t)(end - f));
                if (!fend)
                        fend = end;
                if (fend - f > 7 && memcmp(f, "caller=", 7) == 0 && r->caller_off == SIZE_MAX) {
                        if (fend == end)
                                /* The last field: its text ends where the copy of the fields does. */
                                record_parse_caller(r, f + 7, (size_t)(fend - f - 7), r->fields_off + (size_t)(f + 7 - p));
                        else
                                e = record_set_caller(r, f + 7, (size_t)(fend - f - 7));
                }
        }
        return e;
}

int record_set_fields(struct kmsg_record *r, const char *p, size_t len) {
        return set_fields(r, p, len);
}

int record_parse_into(struct kmsg_record *r, const char *buf, size_t len, const char **ret_err) {
        return record_parse_lines(r, buf, len, (size_t)(line_end(buf, buf + len) - buf), ret_err);
}

int record_parse_lines(struct kmsg_record *r, const char *buf, size_t len, size_t eol_off, const char **ret_err) {
        const char *p = buf, *end = buf + len, *eol = buf + eol_off, *semi, *f;
        uint64_t pri;
        size_t n, tlen;
        int e;

        record_reset(r);

        /* A header may be preceded by white space (not a newline: it would end the line before). */
        while (p < eol && (*p == ' ' || *p == '\t'))
                p++;
        semi = memchr(p, ';', (size_t)(eol - p));
        if (!semi) {
                *ret_err = "bad header: no ';' before the end of the line";
                return -EBADMSG;
        }

        n = scan_u64(p, semi, &pri);
        if (n == 0 || pri > UINT32_MAX) {
                *ret_err = "bad header: priority is not a number";
                return -EBADMSG;
        }
        p += n;
        if (p >= semi || *p != ',') {
                *ret_err = "bad header: expected ',' after the priority";
                return -EBADMSG;
        }
        p++;
        n = scan_u64(p, semi, &r->seqnum);
        if (n == 0) {
                *ret_err = "bad header: sequence number is not a number";
                return -EBADMSG;
        }
        p += n;
        if (p >= semi || *p != ',') {
                *ret_err = "bad header: expected ',' after the sequence number";
                return -EBADMSG;
        }
        p++;
        n = scan_u64(p, semi, &r->usec);
        if (n == 0) {
                *ret_err = "bad header: time stamp is not a number";
                return -EBADMSG;
        }
        p += n;
        if (p < semi && *p != ',') {
                *ret_err = "bad header: expected ',' or ';' after the time stamp";
                return -EBADMSG;
        }
        r->priority = (unsigned)pri;
        r->has_priority = r->has_seqnum = r->has_timestamp = true;

        /* Flags: up to the next ',' or ';', kept verbatim. */
        if (p < semi) {
                p++;
                f = p;
                while (p < semi && *p != ',')
                        p++;
                e = record_append(r, f, (size_t)(p - f), &r->flags_off);
                if (e < 0)
                        return e;
        }
        /* Other fields, kept as written; caller= is understood. */
        if (p < semi) {
                p++;
                e = set_fields(r, p, (size_t)(semi - p));
                if (e < 0)
                        return e;
        }

        /* The message: after the first ';' up to the newline. */
        p = semi + 1;
        tlen = (size_t)(eol - p);
        if (tlen > 0 && p[tlen - 1] == '\r')
                tlen--;
        e = record_append_unescaped(r, p, tlen, &r->msg_off, &r->msg_len);
        if (e < 0)
                return e;

        /* Dictionary lines. */
        for (p = eol; p < end;) {
                const char *key, *eq;

                p++; /* the newline */
                if (p >= end)
                        break;
                eol = line_end(p, end);
                tlen = (size_t)(eol - p);
                if (tlen > 0 && p[tlen - 1] == '\r')
                        tlen--;
                if (tlen == 0) {
                        /* Blank lines after a record carry nothing. */
                        p = eol;
                        continue;
                }
                if (dict_line_check(p, tlen) != 1) {
                        *ret_err = "bad dictionary line: expected ' KEY=VALUE'";
                        return -EBADMSG;
                }
                key = p + 1;
                eq = memchr(key, '=', tlen - 1);
                e = record_add_dict(r, key, (size_t)(eq - key), eq + 1, (size_t)(p + tlen - eq - 1), true);
                if (e < 0)
                        return e;
                p = eol;
        }
        return 0;
}

_public_ int kmsg_record_parse(const char *buf, size_t len, struct kmsg_record **ret) {
        struct kmsg_record *r;
        const char *err;
        int e;

        if (!buf || !ret)
                return -EINVAL;
        r = record_new();
        if (!r)
                return -ENOMEM;
        e = record_parse_into(r, buf, len, &err);
        if (e < 0) {
                kmsg_record_unref(r);
                return e;
        }
        *ret = r;
        return 0;
}
