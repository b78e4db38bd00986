/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kdmesg's JSON Lines (kdmesg --json), read back: one object per line.
 *
 *   {"seq":1,"time":0.000138,"pri":3,"facility":"kern","level":"err",
 *    "flags":"-","caller":"C1","msg":"...","dict":{"SUBSYSTEM":"pci",...}}
 *
 * "pri", "seq", "time", "flags", "caller" (or "fields", the header fields
 * as written), "msg", "dict", "boot_id" and "realtime_usec" (kept as the
 * export form's __REALTIME_TIMESTAMP; "realtime" says the same) make the record; "facility" and "level"
 * stand in for a missing "pri"; other keys ("subsystem", "device",
 * "devname", ...) repeat what "dict" holds and are skipped.  A text is a
 * string or, for bytes that are not UTF-8, an array of byte values.  A
 * loss object (it has "cause" and no "msg") carries no record and is
 * skipped: the gap shows again in the sequence numbers.  So is the mark of
 * a new boot ("boot" and no "msg"): the numbers show it again.
 *
 * Each line is parsed by json-c.  json-c keeps only the last of repeated
 * keys, so a dictionary whose pairs (counted in the text) outnumber its
 * keys is walked again pair by pair, each key and value parsed by json-c:
 * every pair is kept, in order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "reader-private.h"

static const char *skip_ws(const char *p, const char *end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
                p++;
        return p;
}

/* A text value: a string, or an array of byte values.  Returns 0 or -EBADMSG. */
static int text_of(struct json_object *v, char **buf, size_t *cap, const char **ret, size_t *ret_len) {
        size_t n, i;

        if (json_object_is_type(v, json_type_string)) {
                *ret = json_object_get_string(v);
                *ret_len = (size_t)json_object_get_string_len(v);
                return 0;
        }
        if (!json_object_is_type(v, json_type_array))
                return -EBADMSG;
        n = json_object_array_length(v);
        if (n + 1 > *cap) {
                char *b = realloc(*buf, n + 1);

                if (!b)
                        return -ENOMEM;
                *buf = b;
                *cap = n + 1;
        }
        for (i = 0; i < n; i++) {
                struct json_object *b = json_object_array_get_idx(v, i);
                int64_t x;

                if (!json_object_is_type(b, json_type_int))
                        return -EBADMSG;
                x = json_object_get_int64(b);
                if (x < 0 || x > 255)
                        return -EBADMSG;
                (*buf)[i] = (char)x;
        }
        *ret = *buf;
        *ret_len = n;
        return 0;
}

struct json_line {
        struct kmsg_record *r;
        struct json_tokener *tok;
        char *buf; /* bytes of an array text */
        size_t cap;
        bool has_msg, has_cause, has_pri, has_fac, has_level, has_fields;
        unsigned facility, level;
        const char *err;
        const char *line, *line_end; /* the line as written */
};

static const char *skip_value(const char *p, const char *end);
static const char *skip_ws(const char *p, const char *end);

/* Does the JSON string at p (its opening quote) hold an escaped NUL (\u0000)? */
static bool string_has_nul(const char *p, const char *end) {
        for (p++; p < end && *p != '"'; p++)
                if (*p == '\\') {
                        if (end - p >= 6 && memcmp(p + 1, "u0000", 5) == 0)
                                return true;
                        p++;
                }
        return false;
}

/*
 * json-c clamps an integer out of range to UINT64_MAX: every top-level
 * "seq" as written must then be exactly that.  Returns true if so.
 */
static bool seq_is_max_as_written(const struct json_line *l) {
        const char *p = skip_ws(l->line, l->line_end), *end = l->line_end;

        if (p >= end || *p != '{')
                return false;
        p++;
        for (;;) {
                const char *k, *v;
                bool is_seq;

                p = skip_ws(p, end);
                if (p >= end || *p != '"')
                        return true; /* the end of the object (json-c parsed it) */
                k = p;
                p = skip_value(p, end);
                if (!p)
                        return false;
                /* A key written with escapes is decoded by json-c: compare it decoded. */
                if (memchr(k, '\\', (size_t)(p - k))) {
                        struct json_object *o;

                        json_tokener_reset(l->tok);
                        o = json_tokener_parse_ex(l->tok, k, (int)(p - k));
                        is_seq = o && json_object_is_type(o, json_type_string) &&
                                 strcmp(json_object_get_string(o), "seq") == 0;
                        json_object_put(o);
                } else
                        is_seq = p - k == 5 && memcmp(k, "\"seq\"", 5) == 0;
                p = skip_ws(p, end);
                if (p >= end || *p != ':')
                        return false;
                v = skip_ws(p + 1, end);
                p = skip_value(v, end);
                if (!p)
                        return false;
                if (is_seq && ((size_t)(p - v) != 20 || memcmp(v, "18446744073709551615", 20) != 0))
                        return false;
                p = skip_ws(p, end);
                if (p >= end || *p != ',')
                        return true;
                p++;
        }
}

/* One top-level pair other than "dict". */
static int take_value(struct json_line *l, const char *key, struct json_object *v) {
        struct kmsg_record *r = l->r;
        const char *t;
        size_t len;
        int e = 0;

        if (strcmp(key, "boot_id") == 0) {
                e = text_of(v, &l->buf, &l->cap, &t, &len);
                l->err = "boot_id is empty, holds a NUL byte or is not a string";
                if (e == 0 && (len == 0 || memchr(t, '\0', len)))
                        e = -EBADMSG;
                if (e == 0)
                        e = record_append(r, t, len, &r->boot_id_off);
        } else if (strcmp(key, "msg") == 0) {
                e = text_of(v, &l->buf, &l->cap, &t, &len);
                if (e == 0)
                        e = record_append(r, t, len, &r->msg_off);
                r->msg_len = len;
                l->has_msg = true;
                l->err = "msg is not a string or an array of bytes";
        } else if (strcmp(key, "seq") == 0) {
                errno = 0;
                l->err = "seq is not a number";
                /* Neither negative (json-c gives 0) nor past 2^64-1 (json-c gives 2^64-1). */
                if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
                    (r->seqnum = json_object_get_uint64(v), errno) ||
                    (r->seqnum == UINT64_MAX && !seq_is_max_as_written(l)))
                        e = -EBADMSG;
                r->has_seqnum = true;
        } else if (strcmp(key, "time") == 0) {
                l->err = "time is not a number of seconds";
                e = json_usec_of(v, &r->usec);
                r->has_timestamp = true;
        } else if (strcmp(key, "pri") == 0) {
                int64_t x = json_object_get_int64(v);

                l->err = "pri is not a number from 0 to 2047";
                if (!json_object_is_type(v, json_type_int) || x < 0 || x > 2047)
                        e = -EBADMSG;
                r->priority = (unsigned)x;
                l->has_pri = true;
        } else if (strcmp(key, "facility") == 0 || strcmp(key, "level") == 0) {
                const char *name = json_object_get_string(v);
                int x = -EINVAL;

                l->err = key[0] == 'f' ? "unknown facility" : "unknown level";
                if (json_object_is_type(v, json_type_string) && key[0] == 'f') {
                        x = kmsg_facility_from_name(name);
                        if (x < 0 && *name >= '0' && *name <= '9' && strlen(name) <= 3 && atoi(name) <= 255)
                                x = atoi(name);
                } else if (json_object_is_type(v, json_type_string))
                        x = kmsg_level_from_name(name);
                if (x < 0)
                        e = -EBADMSG;
                else if (key[0] == 'f') {
                        l->facility = (unsigned)x;
                        l->has_fac = true;
                } else {
                        l->level = (unsigned)x;
                        l->has_level = true;
                }
        } else if (strcmp(key, "flags") == 0 || strcmp(key, "fields") == 0 || strcmp(key, "caller") == 0) {
                l->err = "header field is not text or holds ',' or ';'";
                e = text_of(v, &l->buf, &l->cap, &t, &len);
                /* Header text: no NUL, no newline, and the separators only where they belong. */
                if (e == 0 && (memchr(t, '\0', len) || memchr(t, '\n', len) || memchr(t, ';', len) ||
                               (key[1] != 'i' && memchr(t, ',', len))))
                        e = -EBADMSG;
                if (e == 0 && key[0] == 'f' && key[1] == 'l')
                        e = record_append(r, t, len, &r->flags_off);
                else if (e == 0 && key[1] == 'i') {
                        /* The fields as written name the caller, whatever a "caller" before them said. */
                        r->caller_off = SIZE_MAX;
                        r->has_caller = false;
                        r->caller_kind = 0;
                        r->caller_id = 0;
                        e = record_set_fields(r, t, len);
                        l->has_fields = true;
                } else if (e == 0 && !l->has_fields && r->caller_off == SIZE_MAX) {
                        /*
                         * "caller" alone: the header's fields were "caller=<it>", read as
                         * the header's are (an empty caller= names no caller).
                         */
                        char *c = malloc(len + 8);

                        if (!c)
                                return -ENOMEM;
                        memcpy(c, "caller=", 7);
                        memcpy(c + 7, t, len);
                        e = record_set_fields(r, c, len + 7);
                        free(c);
                }
        } else if (strcmp(key, "realtime_usec") == 0) {
                /* The wall clock kdmesg --json wrote: kept as export input keeps it, __REALTIME_TIMESTAMP. */
                char num[24];
                int n;

                l->err = "realtime_usec is not a number of microseconds";
                if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
                        return -EBADMSG;
                n = snprintf(num, sizeof(num), "%" PRId64, json_object_get_int64(v));
                e = record_add_journal(r, "__REALTIME_TIMESTAMP", 20, num, (size_t)n);
        } else if (strcmp(key, "cause") == 0 || strcmp(key, "boot") == 0)
                l->has_cause = true; /* a loss or a boot mark */
        return e;
}

/* Skip one JSON value at p, lexically.  Returns where it ends, or NULL. */
static const char *skip_value(const char *p, const char *end) {
        int depth = 0;

        do {
                p = skip_ws(p, end);
                if (p >= end)
                        return NULL;
                if (*p == '"') {
                        for (p++; p < end && *p != '"'; p++)
                                if (*p == '\\')
                                        p++;
                        if (p >= end)
                                return NULL;
                        p++;
                } else if (*p == '{' || *p == '[') {
                        depth++;
                        p++;
                } else if (*p == '}' || *p == ']') {
                        depth--;
                        p++;
                } else if (*p == ',' || *p == ':')
                        p++;
                else
                        while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\t' &&
                               *p != '\r' && *p != '\n')
                                p++;
        } while (depth > 0);
        return p;
}

/*
 * Where the top-level "dict" object is in the line, and how many pairs it
 * holds as written (json-c keeps only the last of repeated keys).
 * Returns 0, or -ENOENT when the line has no such object.
 */
static int find_dict(const char *p, const char *end, const char **ret_start, size_t *ret_pairs,
                     bool *ret_nul_key) {
        p = skip_ws(p, end);
        if (p >= end || *p != '{')
                return -ENOENT;
        p++;
        for (;;) {
                const char *k, *v;
                bool is_dict;

                p = skip_ws(p, end);
                if (p >= end || *p != '"')
                        return -ENOENT;
                k = p;
                p = skip_value(p, end);
                if (!p)
                        return -ENOENT;
                is_dict = p - k == 6 && memcmp(k, "\"dict\"", 6) == 0;
                p = skip_ws(p, end);
                if (p >= end || *p != ':')
                        return -ENOENT;
                v = skip_ws(p + 1, end);
                if (is_dict && v < end && *v == '{') {
                        size_t n = 0;

                        *ret_start = v;
                        p = skip_ws(v + 1, end);
                        *ret_nul_key = false;
                        while (p < end && *p == '"') {
                                n++;
                                /* json-c cuts a key at a NUL. */
                                if (string_has_nul(p, end))
                                        *ret_nul_key = true;
                                p = skip_value(p, end); /* key */
                                if (!p)
                                        return -ENOENT;
                                p = skip_ws(p, end);
                                if (p >= end || *p != ':')
                                        return -ENOENT;
                                p = skip_value(p + 1, end);
                                if (!p)
                                        return -ENOENT;
                                p = skip_ws(p, end);
                                if (p < end && *p == ',')
                                        p = skip_ws(p + 1, end);
                        }
                        *ret_pairs = n;
                        return 0;
                }
                p = skip_value(v, end);
                if (!p)
                        return -ENOENT;
                p = skip_ws(p, end);
                if (p >= end || *p != ',')
                        return -ENOENT;
                p++;
        }
}

static int dict_add(struct json_line *l, const char *key, size_t key_len, struct json_object *v) {
        const char *t;
        size_t len;
        int e;

        /* The kmsg form has no line for it: " =VALUE" would end the record there. */
        if (key_len == 0) {
                l->err = "dictionary key is empty";
                return -EBADMSG;
        }
        e = v ? text_of(v, &l->buf, &l->cap, &t, &len) : -EBADMSG;
        if (e == -EBADMSG)
                l->err = "dictionary value is not a string or an array of bytes";
        if (e < 0)
                return e;
        return record_add_dict(l->r, key, key_len, t, len, false);
}

/*
 * A dictionary with a repeated key, walked pair by pair with each key and
 * value parsed by json-c, so that every pair is kept in order.
 */
static int walk_dict(struct json_line *l, const char *p, const char *end) {
        p = skip_ws(p + 1, end); /* past '{' */
        while (p < end && *p == '"') {
                struct json_object *k, *v;
                int e;

                json_tokener_reset(l->tok);
                k = json_tokener_parse_ex(l->tok, p, (int)(end - p));
                if (!k || !json_object_is_type(k, json_type_string)) {
                        json_object_put(k);
                        return -EBADMSG;
                }
                p = skip_ws(p + json_tokener_get_parse_end(l->tok), end);
                if (p >= end || *p != ':') {
                        json_object_put(k);
                        return -EBADMSG;
                }
                p = skip_ws(p + 1, end);
                json_tokener_reset(l->tok);
                v = json_tokener_parse_ex(l->tok, p, (int)(end - p));
                p = skip_ws(p + json_tokener_get_parse_end(l->tok), end);
                if (memchr(json_object_get_string(k), '\0', (size_t)json_object_get_string_len(k))) {
                        l->err = "dictionary key holds a NUL";
                        e = -EBADMSG;
                } else
                        e = dict_add(l, json_object_get_string(k), (size_t)json_object_get_string_len(k), v);
                json_object_put(k);
                json_object_put(v);
                if (e < 0)
                        return e;
                if (p < end && *p == ',')
                        p = skip_ws(p + 1, end);
        }
        return 0;
}

/* Parse one line.  Returns 1 with a record, 0 for a line that is no record (a loss), or -errno. */
static int parse_json_line(struct json_tokener *tok, struct kmsg_record *r, const char *p, size_t len,
                           const char **ret_err) {
        struct json_line l = { .r = r, .tok = tok, .line = p, .line_end = p + len };
        struct json_object *o, *dict = NULL;
        const char *dict_start = NULL;
        size_t dict_pairs = 0;
        bool nul_key = false;
        int e = 0;

        record_reset(r);
        /* One json-c parse per line: each call costs a locale set-up. */
        json_tokener_reset(l.tok);
        o = json_tokener_parse_ex(l.tok, p, (int)len);
        if (!o || json_tokener_get_error(l.tok) != json_tokener_success) {
                enum json_tokener_error je = json_tokener_get_error(l.tok);

                *ret_err = je == json_tokener_continue || je == json_tokener_success ? "incomplete JSON object"
                                                                                    : json_tokener_error_desc(je);
                json_object_put(o);
                return -EBADMSG;
        }
        if ((size_t)json_tokener_get_parse_end(l.tok) < len &&
            skip_ws(p + json_tokener_get_parse_end(l.tok), p + len) != p + len) {
                *ret_err = "text after the object";
                json_object_put(o);
                return -EBADMSG;
        }
        if (!json_object_is_type(o, json_type_object)) {
                *ret_err = "not a JSON object";
                json_object_put(o);
                return -EBADMSG;
        }
        if (json_top_pairs(p, p + len) != (size_t)json_object_object_length(o)) {
                /* json-c keeps the last of a repeated key: {"seq":2,"seq":9} would be seq 9 without a word. */
                *ret_err = "a key appears twice in the object";
                json_object_put(o);
                return -EBADMSG;
        }
        json_object_object_foreach(o, key, v) {
                if (strcmp(key, "dict") == 0) {
                        dict = v;
                        continue;
                }
                e = take_value(&l, key, v);
                if (e < 0)
                        break;
        }
        if (e == 0 && dict) {
                if (!json_object_is_type(dict, json_type_object)) {
                        l.err = "dict is not an object";
                        e = -EBADMSG;
                } else if (find_dict(p, p + len, &dict_start, &dict_pairs, &nul_key) == 0 && nul_key) {
                        l.err = "dictionary key holds a NUL";
                        e = -EBADMSG;
                } else if (dict_start && dict_pairs != (size_t)json_object_object_length(dict)) {
                        l.err = "bad dictionary";
                        e = walk_dict(&l, dict_start, p + len);
                } else {
                        json_object_object_foreach(dict, k, dv) {
                                e = dict_add(&l, k, strlen(k), dv);
                                if (e < 0)
                                        break;
                        }
                }
        }
        if (e == 0 && !l.has_msg && !l.has_cause) {
                l.err = "object has no msg";
                e = -EBADMSG;
        }
        json_object_put(o);
        free(l.buf);
        if (e < 0) {
                *ret_err = l.err;
                return e;
        }
        if (!l.has_msg)
                return 0;
        if (!l.has_pri && (l.has_fac || l.has_level))
                r->priority = l.facility << 3 | (l.has_level ? l.level : 6);
        r->has_priority = l.has_pri || l.has_fac || l.has_level;
        return 1;
}

static int json_next(struct kmsg_reader *rd, struct kmsg_record **ret) {
        /* The state is the json-c tokener, reused for every line. */
        if (!rd->state) {
                rd->state = json_tokener_new();
                if (!rd->state)
                        return -ENOMEM;
        }
        for (;;) {
                const char *p = rd->buf + rd->start, *nl;
                size_t avail = rd->end - rd->start, len, i;
                int e;

                nl = avail ? memchr(p, '\n', avail) : NULL;
                if (nl || (rd->eof && avail > 0)) {
                        struct kmsg_record *r;
                        const char *err = NULL;
                        size_t next = (size_t)((nl ? nl + 1 : p + avail) - rd->buf);

                        len = nl ? (size_t)(nl - p) : avail;
                        for (i = 0; i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\0'); i++)
                                ;
                        if (i == len) {
                                stream_consume(rd, next);
                                continue;
                        }
                        rd->pos = rd->line;
                        if (len > stream_raw_limit(rd)) {
                                stream_consume(rd, next);
                                reader_set_error(rd, "line longer than %zu bytes skipped", stream_raw_limit(rd));
                                return -E2BIG;
                        }
                        r = reader_record(rd);
                        if (!r)
                                return -ENOMEM;
                        e = parse_json_line(rd->state, r, p, len, &err);
                        stream_consume(rd, next);
                        if (e == 0)
                                continue; /* a loss object */
                        return stream_take(rd, r, e == 1 ? 0 : e, "bad JSON record: ", err, ret);
                }
                if (rd->eof)
                        return 0;
                if (avail > stream_raw_limit(rd))
                        return stream_skip_long_line(rd);
                e = stream_fill(rd);
                if (e < 0)
                        return e;
        }
}

static void json_free(void *state) {
        json_tokener_free(state);
}

/* An object, "{", after blanks. */
static bool json_detect(const char *p, const char *end) {
        while (p < end && (*p == ' ' || *p == '\t'))
                p++;
        return p < end && *p == '{';
}

const struct stream_ops stream_json_ops = {
        .format = KMSG_FORMAT_JSON,
        .name = "json",
        .detect = json_detect,
        .next = json_next,
        .free = json_free,
};
