/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An entry of the export stream as an RFC 5424 message (upload-rfc5424.h
 * says which field goes where).  The export form is what the queue, the
 * cursor and a spool hold for every transport; the RELP transport makes
 * its messages from it as it sends them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/export.h"
#include "ship/upload-rfc5424.h"
#include "text/escape.h"

/* The fields the message is made of. */
enum {
        F_REALTIME,
        F_HOSTNAME,
        F_IDENTIFIER,
        F_PID,
        F_FACILITY,
        F_PRIORITY,
        F_MESSAGE,
        F_MESSAGE_ID,
        F_SEQNUM,
        F_MONOTONIC,
        F_FLAGS,
        F_FIELDS,
        F_BOOT_ID,
        F_MACHINE_ID,
        F_LOST,
        F_LOST_FIRST,
        F_LOST_CAUSE,
        F_REFUSED_REASON,
        F_BOOT,
        F_BOOT_FIRST,
        F_PROBLEM,
        F_PROBLEM_SUBJECT,
        F_PROBLEM_START,
        F_COUNT,
};

static const char *const field_names[F_COUNT] = {
        [F_REALTIME] = "__REALTIME_TIMESTAMP",
        [F_HOSTNAME] = "_HOSTNAME",
        [F_IDENTIFIER] = "SYSLOG_IDENTIFIER",
        [F_PID] = "SYSLOG_PID",
        [F_FACILITY] = "SYSLOG_FACILITY",
        [F_PRIORITY] = "PRIORITY",
        [F_MESSAGE] = "MESSAGE",
        [F_MESSAGE_ID] = "MESSAGE_ID",
        [F_SEQNUM] = "SEQNUM",
        [F_MONOTONIC] = "_SOURCE_MONOTONIC_TIMESTAMP",
        [F_FLAGS] = "KMSG_FLAGS",
        [F_FIELDS] = "KMSG_FIELDS",
        [F_BOOT_ID] = "_BOOT_ID",
        [F_MACHINE_ID] = "_MACHINE_ID",
        [F_LOST] = "KDMESG_LOST",
        [F_LOST_FIRST] = "KDMESG_LOST_FIRST_SEQ",
        [F_LOST_CAUSE] = "KDMESG_LOST_CAUSE",
        [F_REFUSED_REASON] = "KDMESG_REFUSED_REASON",
        [F_BOOT] = "KDMESG_BOOT",
        [F_BOOT_FIRST] = "KDMESG_BOOT_FIRST_SEQ",
        [F_PROBLEM] = "KDMESG_PROBLEM",
        [F_PROBLEM_SUBJECT] = "KDMESG_PROBLEM_SUBJECT",
        [F_PROBLEM_START] = "KDMESG_PROBLEM_START",
};

/* The message being made: appended to the caller's buffer; err set once it could not grow. */
struct msg {
        char **buf;
        size_t *cap, *len;
        int err;
};

static void put(struct msg *m, const char *s, size_t n) {
        if (m->err)
                return;
        if (n > *m->cap - *m->len) {
                size_t c = *m->cap ? *m->cap : 1024;
                char *p;

                while (c - *m->len < n)
                        c *= 2;
                p = realloc(*m->buf, c);
                if (!p) {
                        m->err = -ENOMEM;
                        return;
                }
                *m->buf = p;
                *m->cap = c;
        }
        memcpy(*m->buf + *m->len, s, n);
        *m->len += n;
}

static void puts_(struct msg *m, const char *s) {
        put(m, s, strlen(s));
}

static void put_hex(struct msg *m, unsigned char c) {
        char b[4] = {'\\', 'x', hexdigits[c >> 4], hexdigits[c & 15]};

        put(m, b, 4);
}

static bool key_is(const struct export_field *f, const char *name) {
        return strlen(name) == f->klen && memcmp(f->key, name, f->klen) == 0;
}

static bool val_is(const struct export_field *f, const char *s) {
        return f->val && strlen(s) == f->vlen && memcmp(f->val, s, f->vlen) == 0;
}

/* A decimal field: *ret; false when missing or not a number. */
static bool val_u64(const struct export_field *f, uint64_t *ret) {
        uint64_t v = 0;
        size_t i;

        if (!f->val || f->vlen == 0 || f->vlen > 20)
                return false;
        for (i = 0; i < f->vlen; i++) {
                unsigned d = (unsigned char)f->val[i] - '0';

                if (d > 9 || v > (UINT64_MAX - d) / 10)
                        return false;
                v = v * 10 + d;
        }
        *ret = v;
        return true;
}

/* A header field: 1 to max printable ASCII characters (RFC 5424's PRINTUSASCII), else "-". */
static void put_header(struct msg *m, const struct export_field *f, size_t max) {
        size_t i;

        if (!f->val || f->vlen == 0 || f->vlen > max) {
                put(m, "-", 1);
                return;
        }
        for (i = 0; i < f->vlen; i++)
                if ((unsigned char)f->val[i] < 33 || (unsigned char)f->val[i] > 126) {
                        put(m, "-", 1);
                        return;
                }
        put(m, f->val, f->vlen);
}

/* An SD-NAME: 1 to 32 printable ASCII characters but '=', ']' and '"'. */
static bool is_sd_name(const char *s, size_t n) {
        size_t i;

        if (n == 0 || n > 32)
                return false;
        for (i = 0; i < n; i++) {
                unsigned char c = (unsigned char)s[i];

                if (c < 33 || c > 126 || c == '=' || c == ']' || c == '"')
                        return false;
        }
        return true;
}

/*
 * s as valid UTF-8: bytes that are not UTF-8 as \xNN; in MSG (msg) also
 * control characters but the tab (C1 controls too, byte by byte), DEL
 * and '\' as the kernel escapes them;
 * in a parameter value '"', '\' and ']' after a '\'.
 */
static void put_text(struct msg *m, const char *s, size_t n, bool msg) {
        const unsigned char *p = (const unsigned char *)s;
        size_t i = 0, run = 0;
        uint32_t cp;

        while (i < n) {
                unsigned char c = p[i];
                size_t u;

                if (c >= 0x80) {
                        u = utf8_decode(p + i, n - i, &cp);
                        if (u > 0 && !(msg && cp >= 0x80 && cp <= 0x9f)) {
                                i += u;
                                continue;
                        }
                        if (u > 0) {
                                /* A C1 control (U+0080-U+009F) in MSG: its bytes as \xNN, as the terminal's. */
                                put(m, s + run, i - run);
                                while (u-- > 0)
                                        put_hex(m, p[i++]);
                                run = i;
                                continue;
                        }
                } else if (msg ? (c >= 0x20 && c != 0x7f && c != '\\') || c == '\t'
                               : c != '"' && c != '\\' && c != ']') {
                        i++;
                        continue;
                }
                put(m, s + run, i - run);
                if (c < 0x80 && !msg)
                        put(m, (const char[]){'\\', (char)c}, 2);
                else
                        put_hex(m, c);
                run = ++i;
        }
        put(m, s + run, i - run);
}

/* A parameter NAME="VALUE" of an SD element, a space before it. */
static void put_param(struct msg *m, const char *name, const char *val, size_t n) {
        put(m, " ", 1);
        puts_(m, name);
        put(m, "=\"", 2);
        put_text(m, val, n, false);
        put(m, "\"", 1);
}

static void put_param_field(struct msg *m, const char *name, const struct export_field *f) {
        if (f->val)
                put_param(m, name, f->val, f->vlen);
}

static void put_param_u64(struct msg *m, const char *name, uint64_t v) {
        char b[24];

        put_param(m, name, b, (size_t)snprintf(b, sizeof(b), "%" PRIu64, v));
}

/* The wall-clock time of usec in UTC with microseconds, or "-" when it has no four-digit year. */
static void put_time(struct msg *m, const struct export_field *f) {
        char b[40];
        struct tm tm;
        uint64_t usec;
        time_t t;

        if (!val_u64(f, &usec) || usec / 1000000 > (uint64_t)INT64_MAX) {
                put(m, "-", 1);
                return;
        }
        t = (time_t)(usec / 1000000);
        if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 > 9999) {
                put(m, "-", 1);
                return;
        }
        put(m, b,
            (size_t)snprintf(b, sizeof(b), "%04d-%02d-%02dT%02d:%02d:%02d.%06uZ", tm.tm_year + 1900, tm.tm_mon + 1,
                             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)(usec % 1000000)));
}

/* The caller id of KMSG_FIELDS ("caller=T1,..."): *ret, *ret_len; false when none. */
static bool caller_of(const struct export_field *f, const char **ret, size_t *ret_len) {
        const char *p = f->val, *end = f->val + f->vlen;

        while (p && p < end) {
                const char *comma = memchr(p, ',', (size_t)(end - p)), *stop = comma ? comma : end;

                if ((size_t)(stop - p) > 7 && memcmp(p, "caller=", 7) == 0) {
                        *ret = p + 7;
                        *ret_len = (size_t)(stop - p) - 7;
                        return true;
                }
                p = comma ? comma + 1 : NULL;
        }
        return false;
}

/*
 * A line of the dictionary: a _KERNEL_KEY field, or KMSG_DICT=KEY=VALUE
 * for a key no journal field name can hold ('=' and '\' in it as \x3d
 * and \x5c).  Its key and value in *ret; false for another field.
 */
static bool dict_line(const struct export_field *f, struct export_field *ret) {
        const char *eq;

        if (f->klen > 8 && memcmp(f->key, "_KERNEL_", 8) == 0) {
                *ret = (struct export_field){f->key + 8, f->val, f->klen - 8, f->vlen};
                return true;
        }
        if (!key_is(f, "KMSG_DICT") || !(eq = memchr(f->val, '=', f->vlen)))
                return false;
        *ret = (struct export_field){f->val, eq + 1, (size_t)(eq - f->val), f->vlen - (size_t)(eq - f->val) - 1};
        return true;
}

/* Whether a dictionary key is a parameter name of its own (kdmesg-dict), not a dict="KEY=VALUE". */
static bool dict_key_is_name(const struct export_field *d) {
        return is_sd_name(d->key, d->klen) && !memchr(d->key, '\\', d->klen);
}

/* [kdmesg@N ...]: what the entry says of its record and machine. */
static void put_kdmesg_element(struct msg *m, const char *p, size_t len, const struct export_field *fs, bool bad_facility) {
        const char *caller = NULL;
        size_t caller_len = 0, at = 0;
        struct export_field f, d;
        bool any = false;
        size_t before = *m->len;

        put(m, "[kdmesg@" RFC5424_SD_NUMBER, sizeof("[kdmesg@" RFC5424_SD_NUMBER) - 1);
        if (fs[F_SEQNUM].val && (any = true))
                put_param_field(m, "seq", &fs[F_SEQNUM]);
        if (fs[F_MONOTONIC].val && (any = true))
                put_param_field(m, "mono", &fs[F_MONOTONIC]);
        if (fs[F_FLAGS].val && (any = true))
                put_param_field(m, "flags", &fs[F_FLAGS]);
        if (fs[F_FIELDS].val && caller_of(&fs[F_FIELDS], &caller, &caller_len) && (any = true))
                put_param(m, "caller", caller, caller_len);
        /* All of the header's fields, when there is more than the caller id. */
        if (fs[F_FIELDS].val && fs[F_FIELDS].vlen > 0 && !(caller && caller_len + 7 == fs[F_FIELDS].vlen) &&
            (any = true))
                put_param_field(m, "fields", &fs[F_FIELDS]);
        if (fs[F_BOOT_ID].val && (any = true))
                put_param_field(m, "boot", &fs[F_BOOT_ID]);
        if (fs[F_MACHINE_ID].val && (any = true))
                put_param_field(m, "machine", &fs[F_MACHINE_ID]);
        if (bad_facility && (any = true))
                put_param_field(m, "facility", &fs[F_FACILITY]);
        while (export_next_field(p, len, &at, &f) > 0)
                if (dict_line(&f, &d) && !dict_key_is_name(&d)) {
                        /* "KEY=VALUE" in one value, as the export form's KMSG_DICT has it. */
                        put(m, " dict=\"", 7);
                        put_text(m, d.key, d.klen, false);
                        put(m, "=", 1);
                        put_text(m, d.val, d.vlen, false);
                        put(m, "\"", 1);
                        any = true;
                }
        if (any)
                put(m, "]", 1);
        else if (!m->err)
                *m->len = before;
}

/* [kdmesg-dict@N KEY="VALUE"...]: the dictionary keys that can be parameter names. */
static void put_dict_element(struct msg *m, const char *p, size_t len) {
        size_t at = 0, before = *m->len;
        struct export_field f, d;
        bool any = false;

        put(m, "[kdmesg-dict@" RFC5424_SD_NUMBER, sizeof("[kdmesg-dict@" RFC5424_SD_NUMBER) - 1);
        while (export_next_field(p, len, &at, &f) > 0)
                if (dict_line(&f, &d) && dict_key_is_name(&d)) {
                        put(m, " ", 1);
                        put(m, d.key, d.klen);
                        put(m, "=\"", 2);
                        put_text(m, d.val, d.vlen, false);
                        put(m, "\"", 1);
                        any = true;
                }
        if (any)
                put(m, "]", 1);
        else if (!m->err)
                *m->len = before;
}

static void put_lost_element(struct msg *m, const struct export_field *fs) {
        uint64_t count = 0, first;

        put(m, "[kdmesg-lost@" RFC5424_SD_NUMBER, sizeof("[kdmesg-lost@" RFC5424_SD_NUMBER) - 1);
        put_param_field(m, "count", &fs[F_LOST]);
        put_param_field(m, "first", &fs[F_LOST_FIRST]);
        if (val_u64(&fs[F_LOST], &count) && count > 0 && val_u64(&fs[F_LOST_FIRST], &first) &&
            first <= UINT64_MAX - (count - 1))
                put_param_u64(m, "last", first + count - 1);
        put_param_field(m, "cause", &fs[F_LOST_CAUSE]);
        put_param_field(m, "reason", &fs[F_REFUSED_REASON]);
        put(m, "]", 1);
}

static void put_boot_element(struct msg *m, const struct export_field *fs) {
        put(m, "[kdmesg-boot@" RFC5424_SD_NUMBER, sizeof("[kdmesg-boot@" RFC5424_SD_NUMBER) - 1);
        put_param_field(m, "number", &fs[F_BOOT]);
        put_param_field(m, "first", &fs[F_BOOT_FIRST]);
        put(m, "]", 1);
}

/* [kdmesg-problem@N kind= subject= start=]: the problem the record belongs to. */
static void put_problem_element(struct msg *m, const struct export_field *fs) {
        put(m, "[kdmesg-problem@" RFC5424_SD_NUMBER, sizeof("[kdmesg-problem@" RFC5424_SD_NUMBER) - 1);
        put_param_field(m, "kind", &fs[F_PROBLEM]);
        if (fs[F_PROBLEM_SUBJECT].val)
                put_param_field(m, "subject", &fs[F_PROBLEM_SUBJECT]);
        if (fs[F_PROBLEM_START].val)
                put_param_field(m, "start", &fs[F_PROBLEM_START]);
        put(m, "]", 1);
}

int rfc5424_from_export(const char *p, size_t len, char **buf, size_t *cap, size_t *ret_len) {
        struct export_field fs[F_COUNT] = {{NULL}}, f;
        struct msg m = {buf, cap, ret_len, 0};
        uint64_t facility = 0, level = 5;
        size_t at = 0, start = *ret_len, sd;
        bool lost, boot, bad_facility = false;
        char pri[8];
        int r, i;

        while ((r = export_next_field(p, len, &at, &f)) > 0)
                for (i = 0; i < F_COUNT; i++)
                        if (key_is(&f, field_names[i])) {
                                fs[i] = f;
                                break;
                        }
        if (r < 0 || at != len)
                return -EBADMSG;
        lost = val_is(&fs[F_MESSAGE_ID], EXPORT_LOSS_MESSAGE_ID);
        boot = val_is(&fs[F_MESSAGE_ID], EXPORT_BOOT_MESSAGE_ID);
        if (fs[F_FACILITY].val && !val_u64(&fs[F_FACILITY], &facility))
                facility = 0;
        if (facility > 23) {
                bad_facility = true;
                facility = 1;
        }
        if (fs[F_PRIORITY].val && !val_u64(&fs[F_PRIORITY], &level))
                level = 5;
        put(&m, pri, (size_t)snprintf(pri, sizeof(pri), "<%u>1 ", (unsigned)(facility * 8 + (level & 7))));
        put_time(&m, &fs[F_REALTIME]);
        put(&m, " ", 1);
        put_header(&m, &fs[F_HOSTNAME], 255);
        put(&m, " ", 1);
        put_header(&m, &fs[F_IDENTIFIER], 48);
        put(&m, " ", 1);
        put_header(&m, &fs[F_PID], 128);
        put(&m, " ", 1);
        puts_(&m, lost ? RFC5424_MSGID_LOST : boot ? RFC5424_MSGID_BOOT : RFC5424_MSGID_RECORD);
        put(&m, " ", 1);
        sd = *m.len;
        if (lost)
                put_lost_element(&m, fs);
        else if (boot)
                put_boot_element(&m, fs);
        put_kdmesg_element(&m, p, len, fs, bad_facility);
        if (fs[F_PROBLEM].val)
                put_problem_element(&m, fs);
        put_dict_element(&m, p, len);
        if (!m.err && *m.len == sd)
                put(&m, "-", 1);
        if (fs[F_MESSAGE].val && fs[F_MESSAGE].vlen > 0) {
                put(&m, " ", 1);
                put_text(&m, fs[F_MESSAGE].val, fs[F_MESSAGE].vlen, true);
        }
        if (m.err)
                *ret_len = start;
        return m.err;
}
