/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=json: JSON Lines, one object per record, built with json-c.
 * The keys and their JSON types come from the column table (columns.c);
 * data/kdmesg-record.schema.json describes them.  Text that is not valid
 * UTF-8 is written as an array of its byte values, so the output is always
 * valid JSON and nothing is lost.  A loss event is an object of its own
 * with "cause" and "count" instead of "msg".  Two writers give the same
 * bytes: json-c's (json_record_slow()) and the direct one (json_record()),
 * both with the JSON toolkit of text/json.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/columns.h"
#include "text/json.h"
#include "select/device.h"
#include "text/escape.h"
#include "text/writer.h"
#include "output/json-members.h"
#include "output/place.h"
#include "output/problem-fields.h"
#include "select/match.h"
#include "output/sink.h"
#include "time/timefmt.h"
#include "text/utf8.h"

static const int to_string_flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

static void put(struct json_object *o, enum column_id id, struct json_object *v) {
        json_object_object_add_ex(o, column_info[id].json_key, v,
                                  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static void put_string(struct json_object *o, enum column_id id, const char *s) {
        put(o, id, json_bytes_new(s, strlen(s)));
}

static int write_object(struct sink *s, struct json_object *o) {
        size_t len;
        const char *text = json_object_to_json_string_length(o, to_string_flags, &len);

        if (!text) {
                json_object_put(o);
                return -ENOMEM;
        }
        out_write(text, len);
        out_putc('\n');
        json_object_put(o);
        sink_end_item(s);
        return 0;
}

/* Whether the header's extra fields f say more than the caller (or are none): else "caller" says it all. */
static bool fields_say_more(const char *f, const char *caller) {
        if (!*f)
                return false;
        /* The parser keeps the caller of "caller=T1" inside the fields' text: then they are the same at once. */
        if (caller == f + 7)
                return memcmp(f, "caller=", 7) != 0;
        return !caller || strncmp(f, "caller=", 7) != 0 || strcmp(f + 7, caller) != 0;
}

struct json_sink {
        struct sink s;
        bool force_slow; /* json-c writes every record (json_record()) */
        /* place_iso()'s date and time of the last second written. */
        int64_t iso_second;
        char iso_text[20];
        /*
         * The direct writer's realtime members of that second, around the
         * microseconds: ',"realtime":"2026-12-07T01:25:24.' and
         * 'Z","realtime_usec":1796606724' (rt_second: -1 none yet).
         */
        int64_t rt_second;
        char rt_head[48], rt_mid[48];
        size_t rt_mid_n;
        /*
         * ',"seq":352' of seq_last (seq_member_n 0: none yet): the next
         * number's text is this one's with its last digit stepped.
         */
        uint64_t seq_last;
        char seq_member[KEY_SIZE];
        size_t seq_member_n;
        /* The same for "time": ',"time":12.' of time_second (time_head_n 0: none yet). */
        uint64_t time_second;
        char time_head[64];
        size_t time_head_n;
        struct problem_fields pf; /* the problem of the records being written */
};

/* The general case: a new object tree for the record. */
static int json_record_slow(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct json_sink *js = (struct json_sink *)s;
        struct json_object *o = json_object_new_object();
        const char *msg, *v;
        struct place pl;
        bool start;
        size_t len;

        if (!o)
                return -ENOMEM;
        if (kmsg_record_has_seqnum(r))
                put(o, COL_SEQ, json_object_new_uint64(kmsg_record_get_seqnum(r)));
        if (kmsg_record_has_timestamp(r))
                put(o, COL_TIME, json_usec_new(kmsg_record_get_timestamp(r)));
        if (kmsg_record_has_priority(r)) {
                unsigned fac = kmsg_record_get_facility(r);
                char num[16];

                put(o, COL_PRI, json_object_new_uint64(kmsg_record_get_priority(r)));
                /* A facility without a name (> 23) is written as its number, still a string. */
                v = kmsg_facility_to_name(fac);
                if (!v) {
                        snprintf(num, sizeof(num), "%u", fac);
                        v = num;
                }
                put_string(o, COL_FACILITY, v);
                put_string(o, COL_LEVEL, kmsg_level_to_name(kmsg_record_get_level(r)));
        }
        put_string(o, COL_FLAGS, kmsg_record_get_flags(r));
        v = kmsg_record_get_caller_text(r);
        if (v)
                put_string(o, COL_CALLER, v);
        if (fields_say_more(kmsg_record_get_fields(r), kmsg_record_get_caller_text(r)))
                json_object_object_add_ex(o, "fields", json_bytes_new(kmsg_record_get_fields(r),
                                                                      strlen(kmsg_record_get_fields(r))),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
        msg = kmsg_record_get_message(r, &len);
        put(o, COL_MESSAGE, json_bytes_new(msg, len));
        v = kmsg_record_get_subsystem(r);
        if (v)
                put_string(o, COL_SUBSYSTEM, v);
        v = kmsg_record_get_device(r);
        if (v)
                put_string(o, COL_DEVICE, v);
        v = devnamer_name(s->settings->devices, r);
        if (v)
                put_string(o, COL_DEVNAME, v);
        /* Selected by --device-text from the message, not by the dictionary. */
        if (m->how == DEVMATCH_TEXT)
                put_string(o, COL_MATCH, "text");
        put(o, COL_DICT, json_dict_new(r));
        place_of(s->settings, r, &pl);
        if (pl.boot_id)
                json_object_object_add_ex(o, "boot_id", json_bytes_new(pl.boot_id, strlen(pl.boot_id)),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
        if (pl.have_wall) {
                char iso[PLACE_ISO_LEN];

                place_iso(pl.wall_usec, &js->iso_second, js->iso_text, iso);
                json_object_object_add_ex(o, "realtime", json_object_new_string_len(iso, PLACE_ISO_LEN),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
                json_object_object_add_ex(o, "realtime_usec", json_object_new_int64(pl.wall_usec),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
        }
        if (s->settings->problem_fields && (v = problem_fields_of(&js->pf, &m->problem, &msg, &len, &start))) {
                json_object_object_add_ex(o, "problem", json_object_new_string(v),
                                          JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
                if (len)
                        json_object_object_add_ex(o, "problem_subject", json_bytes_new(msg, len),
                                                  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
                if (start)
                        json_object_object_add_ex(o, "problem_start", json_object_new_boolean(1),
                                                  JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
        }
        return write_object(s, o);
}

/* A text and its length. */
struct text {
        const char *p;
        size_t n;
};

/* A key and a text that must be a string. */
static inline char *jw_text_member(struct jw *w, const struct json_tables *tab, char *o, unsigned id,
                                   const struct text *t) {
        o = jw_room(w, o, KEY_SIZE);
        if (!o)
                return NULL;
        return jw_text(w, put_key(tab, o, id), t->p, t->n);
}

/*
 * What the members before the record's end need, measured once: absent
 * texts are NULL.  "fields" is absent when it says no more than "caller".
 */
struct record_texts {
        const struct kmsg_record *r; /* for its dictionary */
        struct text flags, caller, fields, subsystem, device, devname, boot_id;
        size_t n_dict;
        struct place place;
        /* The record's problem, when records are classified: its kind's name (NULL: none), subject, start. */
        const char *problem;
        struct text subject;
        bool problem_start;
};

static void text_set(struct text *t, const char *v) {
        t->p = v;
        t->n = v ? strlen(v) : 0;
}

static void record_texts(struct sink *s, const struct kmsg_record *r, const struct kmsg_record_view *v,
                         const struct match *m, struct record_texts *t) {
        const char *flags = v->flags, *fields = v->fields;
        const struct devnamer *d = s->settings->devices;

        t->r = r;
        t->flags.p = flags;
        /* "-", as nearly every record has. */
        t->flags.n = flags[0] == '-' && !flags[1] ? 1 : strlen(flags);
        t->caller.p = v->caller;
        t->caller.n = v->caller_len;
        text_set(&t->fields, fields_say_more(fields, t->caller.p) ? fields : NULL);
        /* The shorthands of two dictionary entries. */
        t->n_dict = v->n_dict;
        text_set(&t->subsystem, v->subsystem);
        text_set(&t->device, v->device);
        /*
         * Without sysfs (a dump, no --resolve or --sysroot), only a
         * "+subsystem:name" value has a name: the others are not looked up.
         */
        text_set(&t->devname, d && t->device.p && (t->device.p[0] == '+' || devnames_from_sysfs(d->names))
                                      ? devnamer_name(d, r)
                                      : NULL);
        place_of_view(s->settings, r, v, &t->place);
        text_set(&t->boot_id, t->place.boot_id);
        t->problem = s->settings->problem_fields
                             ? problem_fields_of(&((struct json_sink *)s)->pf, &m->problem, &t->subject.p,
                                                 &t->subject.n, &t->problem_start)
                             : NULL;
}

static bool text_valid(const struct text *t) {
        return !t->p || utf8_is_valid(t->p, t->n);
}

/* Whether the stream mode can write the record: every text that must be a string is UTF-8. */
static bool record_texts_valid(const struct kmsg_record *r, const struct record_texts *t) {
        size_t i;

        if (!text_valid(&t->flags) || !text_valid(&t->caller) || !text_valid(&t->fields) ||
            !text_valid(&t->subsystem) || !text_valid(&t->device) || !text_valid(&t->devname) ||
            !text_valid(&t->boot_id))
                return false;
        /* A facility past 23 with a name (none has one): json-c writes it. */
        if (kmsg_record_has_priority(r) && kmsg_record_get_priority(r) >> 3 >= N_FACILITIES &&
            kmsg_facility_to_name(kmsg_record_get_priority(r) >> 3))
                return false;
        for (i = 0; i < t->n_dict; i++) {
                const char *k;

                if (kmsg_record_get_dict_entry(r, i, &k, NULL, NULL) == 0 && !utf8_is_valid(k, strlen(k)))
                        return false;
        }
        return true;
}

/*
 * Room for the members before the value of "flags" and a "-": at most 148
 * bytes with the whole copies (seq and time of 20 and 21 characters, a
 * priority past the table).
 */
#define HEAD_ROOM 256

/* The record at o, in json-c's form of the same object (json_record_slow()); its end, or NULL (w->fail). */
/*
 * ',"realtime":"...","realtime_usec":...' of usec (0 to PLACE_WALL_MAX) at
 * o, which has room for 96 bytes: the text of its second made once, then
 * its microseconds twice.
 */
static char *put_realtime(struct json_sink *js, const struct json_tables *tab, char *o, int64_t usec) {
        int64_t second = usec / 1000000;
        unsigned us = (unsigned)(usec - second * 1000000);
        char d[6];

        if (second != js->rt_second) {
                char iso[PLACE_ISO_LEN], *h = js->rt_head;

                place_iso(second * 1000000, &js->iso_second, js->iso_text, iso);
                h = put_key(tab, h, KEY_REALTIME);
                *h++ = '"';
                memcpy(h, iso, 20);
                h = js->rt_mid;
                *h++ = 'Z';
                *h++ = '"';
                h = put_key(tab, h, KEY_REALTIME_USEC);
                /* The first second of 1970: the microseconds alone, without leading zeros. */
                if (second)
                        h = put_u64(h, (uint64_t)second);
                js->rt_mid_n = (size_t)(h - js->rt_mid);
                js->rt_second = second;
        }
        memcpy(d, digit_pairs + 2 * (us / 10000), 2);
        memcpy(d + 2, digit_pairs + 2 * (us / 100 % 100), 2);
        memcpy(d + 4, digit_pairs + 2 * (us % 100), 2);
        /* ',"realtime":"' and the 20 bytes of the date and time: 33. */
        memcpy(o, js->rt_head, 33);
        memcpy(o + 33, d, 6);
        memcpy(o + 39, js->rt_mid, 32);
        o += 39 + js->rt_mid_n;
        if (!second)
                return put_u64(o, us);
        memcpy(o, d, 6);
        return o + 6;
}

/* ',"seq":N' at o (KEY_SIZE bytes of room): the last one's text stepped by one where seq follows it. */
static inline char *put_seq(struct json_sink *js, const struct json_tables *tab, char *o, uint64_t seq) {
        char *m = js->seq_member;

        /* Not after 2^64 - 1: seq_last + 1 wraps to 0, which is no step. */
        if (js->seq_member_n && seq == js->seq_last + 1 && seq != 0) {
                size_t i = js->seq_member_n - 1;

                /* Trailing nines become zeros; a number of nines only grows by a digit (handled below). */
                while (m[i] == '9')
                        m[i--] = '0';
                if (m[i] >= '0' && m[i] <= '8')
                        m[i]++;
                else
                        js->seq_member_n = 0;
        } else
                js->seq_member_n = 0;
        if (!js->seq_member_n)
                js->seq_member_n = (size_t)(put_u64(put_key(tab, m, COL_SEQ), seq) - m);
        js->seq_last = seq;
        memcpy(o, m, KEY_SIZE);
        return o + js->seq_member_n;
}

static char *json_put_record(struct json_sink *js, struct jw *w, char *o, const struct kmsg_record_view *v,
                             const struct match *m, const struct record_texts *t) {
        const struct json_tables *tab = &json_members;
        char *start;
        size_t i, len;

        o = jw_room(w, o, HEAD_ROOM + JW_SLACK);
        if (!o)
                return NULL;
        /* Each key with its comma; the first comma is then the '{'. */
        start = o;
        if (v->has_seqnum)
                o = put_seq(js, tab, o, v->seqnum);
        if (v->has_timestamp) {
                uint64_t usec = v->usec, sec = usec / 1000000;
                unsigned us = (unsigned)(usec - sec * 1000000);

                /* ',"time":12.' made once a second (put_seconds()'s digits), then the microseconds. */
                if (sec != js->time_second || !js->time_head_n) {
                        char *h = put_key(tab, js->time_head, COL_TIME);

                        h += put_seconds(h, sec * 1000000, 0) - 6;
                        js->time_head_n = (size_t)(h - js->time_head);
                        js->time_second = sec;
                }
                memcpy(o, js->time_head, 40);
                o += js->time_head_n;
                memcpy(o, digit_pairs + 2 * (us / 10000), 2);
                memcpy(o + 2, digit_pairs + 2 * (us / 100 % 100), 2);
                memcpy(o + 4, digit_pairs + 2 * (us % 100), 2);
                o += 6;
        }
        if (v->has_priority) {
                unsigned pri = v->priority;

                if (pri < N_FACILITIES * 8) {
                        memcpy(o, tab->pri_members[pri].s, PRI_SIZE);
                        o += tab->pri_members[pri].n;
                } else if (!kmsg_facility_to_name(pri >> 3)) {
                        /* A facility without a name is written as its number, still a string. */
                        o = put_u64(put_key(tab, o, COL_PRI), pri);
                        o = put_key(tab, o, COL_FACILITY);
                        *o++ = '"';
                        o = put_u64(o, pri >> 3);
                        *o++ = '"';
                        memcpy(o, tab->level_members[pri & 7].s, KEY_SIZE);
                        o += tab->level_members[pri & 7].n;
                } else {
                        w->fail = JW_SLOW;
                        return NULL;
                }
        }
        o = put_key(tab, o, COL_FLAGS);
        *start = '{';
        if (t->flags.n == 1 && t->flags.p[0] == '-') {
                memcpy(o, "\"-\"", 3);
                o += 3;
        } else if (!(o = jw_text(w, o, t->flags.p, t->flags.n)))
                return NULL;
        if (t->caller.p && !(o = jw_text_member(w, tab, o, COL_CALLER, &t->caller)))
                return NULL;
        if (t->fields.p && !(o = jw_text_member(w, tab, o, KEY_FIELDS, &t->fields)))
                return NULL;
        o = jw_room(w, o, KEY_SIZE);
        if (!o || !(o = jw_value(w, put_key(tab, o, COL_MESSAGE), v->message, v->message_len)))
                return NULL;
        if (t->subsystem.p && !(o = jw_text_member(w, tab, o, COL_SUBSYSTEM, &t->subsystem)))
                return NULL;
        if (t->device.p && !(o = jw_text_member(w, tab, o, COL_DEVICE, &t->device)))
                return NULL;
        if (t->devname.p && !(o = jw_text_member(w, tab, o, COL_DEVNAME, &t->devname)))
                return NULL;
        o = jw_room(w, o, 2 * KEY_SIZE + JW_SLACK);
        if (!o)
                return NULL;
        /* Selected by --device-text from the message, not by the dictionary. */
        if (m->how == DEVMATCH_TEXT) {
                o = put_key(tab, o, COL_MATCH);
                memcpy(o, "\"text\"", 6);
                o += 6;
        }
        o = put_key(tab, o, COL_DICT);
        *o++ = '{';
        for (i = 0; i < t->n_dict; i++) {
                const char *k, *val;

                if (kmsg_record_get_dict_entry(t->r, i, &k, &val, &len) < 0)
                        continue;
                if (i)
                        *o++ = ',';
                if (!(o = jw_text(w, o, k, strlen(k))))
                        return NULL;
                *o++ = ':';
                if (!(o = jw_value(w, o, val, len)))
                        return NULL;
        }
        *o++ = '}';
        /* The boot id and the wall clock: last, after the dictionary. */
        if (t->boot_id.p && !(o = jw_text_member(w, tab, o, KEY_BOOT_ID, &t->boot_id)))
                return NULL;
        if (t->place.have_wall) {
                o = jw_room(w, o, 2 * 48 + JW_SLACK);
                if (!o)
                        return NULL;
                o = put_realtime(js, tab, o, t->place.wall_usec);
        }
        if (t->problem) {
                struct text kind = { t->problem, strlen(t->problem) };

                if (!(o = jw_text_member(w, tab, o, KEY_PROBLEM, &kind)))
                        return NULL;
                if (t->subject.n) {
                        o = jw_room(w, o, KEY_SIZE);
                        if (!o || !(o = jw_value(w, put_key(tab, o, KEY_PROBLEM_SUBJECT), t->subject.p, t->subject.n)))
                                return NULL;
                }
                if (t->problem_start) {
                        o = jw_room(w, o, KEY_SIZE + 4 + JW_SLACK);
                        if (!o)
                                return NULL;
                        o = put_key(tab, o, KEY_PROBLEM_START);
                        memcpy(o, "true", 4);
                        o += 4;
                }
        }
        *o++ = '}';
        *o++ = '\n';
        return o;
}

/*
 * The fast path.  json-c's generic serializer costs about 1 µs a record,
 * below what --json must do; so records are written here directly, in
 * exactly the form json-c gives for the same object tree (the
 * JSON_C_TO_STRING_PLAIN layout, its escapes), and those with a text that
 * is not UTF-8 where only a string will do (a key, the flags, the caller)
 * go through json_record_slow().  The tests compare both paths on the same
 * records (KDMESG_JSON_SLOW=1 forces the slow one).
 */
static int json_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct json_sink *js = (struct json_sink *)s;
        struct jw w = { .lim = out_buf + OUT_BUF_SIZE };
        const struct kmsg_record_view *v = m->view;
        struct kmsg_record_view own;
        struct record_texts t;
        char *end;

        if (js->force_slow)
                return json_record_slow(s, r, m);
        /* The pipeline's view of the record, where it took one. */
        if (!v) {
                kmsg_record_get_view(r, &own, sizeof(own));
                v = &own;
        }
        record_texts(s, r, v, m, &t);
        /*
         * Where the record does not fit: again after the buffer is written
         * out, then in stream mode (a record longer than the buffer).  One
         * call site, so that the compiler can inline the writer.
         */
        while (!(end = json_put_record(js, &w, out_buf + out_len, v, m, &t)) && w.fail == JW_NO_ROOM) {
                if (out_len > 0 && !w.stream)
                        out_drain();
                else if (!w.stream && record_texts_valid(r, &t))
                        w.stream = true;
                else
                        break;
        }
        if (!end)
                return json_record_slow(s, r, m);
        out_len = (size_t)(end - out_buf);
        sink_end_item(s);
        return 0;
}

bool json_direct(void) {
        const char *slow = getenv("KDMESG_JSON_SLOW");

        return !(slow && *slow == '1') && json_members_hold();
}

static int json_loss(struct sink *s, const struct kmsg_loss *l) {
        struct json_object *o = json_loss_new(l);

        if (!o)
                return -ENOMEM;
        return write_object(s, o);
}

/* {"boot":2,"first_seq":100,"boot_id":"..."}: told apart from records and losses by its "boot" key. */
static int json_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        struct json_object *o = json_object_new_object();
        const unsigned fl = JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY;
        const char *id = kmsg_record_get_boot_id(r);

        if (!o)
                return -ENOMEM;
        json_object_object_add_ex(o, "boot", json_object_new_uint64(n), fl);
        json_object_object_add_ex(o, "first_seq", json_object_new_uint64(kmsg_record_get_seqnum(r)), fl);
        if (id)
                json_object_object_add_ex(o, "boot_id", json_bytes_new(id, strlen(id)), fl);
        return write_object(s, o);
}

static int json_init(struct sink *s) {
        struct json_sink *js = (struct json_sink *)s;
        const char *slow = getenv("KDMESG_JSON_SLOW");

        /* Names or keys that are not the members' (none): json-c writes every record. */
        js->force_slow = (slow && *slow == '1') || !json_members_hold();
        js->iso_second = js->rt_second = -1;
        return 0;
}

static void json_free(struct sink *s) {
        problem_fields_free(&((struct json_sink *)s)->pf);
}

const struct sink_ops sink_json_ops = {
        .size = sizeof(struct json_sink),
        .init = json_init,
        .free = json_free,
        .record = json_record,
        .loss = json_loss,
        .boot = json_boot,
};
