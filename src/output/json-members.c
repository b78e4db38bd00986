/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The members of the --json records that the direct writer copies whole (json-members.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json-members.h"
#include "text/json.h"
#include "libkmsg.h"

/*
 * The members as constants, written as json-c writes them: the keys are
 * column_info[]'s JSON keys, the names libkmsg's, all plain ASCII.
 * json_init() makes them again from those names (tables_make()): should
 * one ever differ, json-c writes every record.
 */
#define MEMBER(k) { "," "\"" k "\":", sizeof("," "\"" k "\":") - 1 }
#define MEMBER_V(k, v) { "," "\"" k "\":\"" v "\"", sizeof("," "\"" k "\":\"" v "\"") - 1 }
#define PRI(n, f, l) MEMBER_V("pri\":" #n ",\"facility", f "\",\"level\":\"" l)
#define FAC(f, a, b, c, d, e, g, h, i)                                                                             \
        PRI(a, f, "emerg"), PRI(b, f, "alert"), PRI(c, f, "crit"), PRI(d, f, "err"), PRI(e, f, "warn"),          \
                PRI(g, f, "notice"), PRI(h, f, "info"), PRI(i, f, "debug")
const struct json_tables json_members = {
        .keys = {
                [COL_SEQ] = MEMBER("seq"), [COL_TIME] = MEMBER("time"), [COL_PRI] = MEMBER("pri"),
                [COL_FACILITY] = MEMBER("facility"), [COL_LEVEL] = MEMBER("level"), [COL_FLAGS] = MEMBER("flags"),
                [COL_CALLER] = MEMBER("caller"), [COL_MESSAGE] = MEMBER("msg"),
                [COL_SUBSYSTEM] = MEMBER("subsystem"), [COL_DEVICE] = MEMBER("device"),
                [COL_DEVNAME] = MEMBER("devname"), [COL_MATCH] = MEMBER("match"), [COL_DICT] = MEMBER("dict"),
                [KEY_FIELDS] = MEMBER("fields"), [KEY_BOOT_ID] = MEMBER("boot_id"),
                [KEY_REALTIME] = MEMBER("realtime"), [KEY_REALTIME_USEC] = MEMBER("realtime_usec"),
                [KEY_PROBLEM] = MEMBER("problem"), [KEY_PROBLEM_SUBJECT] = MEMBER("problem_subject"),
                [KEY_PROBLEM_START] = MEMBER("problem_start"),
        },
        .level_members = {
                MEMBER_V("level", "emerg"), MEMBER_V("level", "alert"), MEMBER_V("level", "crit"),
                MEMBER_V("level", "err"), MEMBER_V("level", "warn"), MEMBER_V("level", "notice"),
                MEMBER_V("level", "info"), MEMBER_V("level", "debug"),
        },
        .pri_members = {
                FAC("kern", 0, 1, 2, 3, 4, 5, 6, 7),
                FAC("user", 8, 9, 10, 11, 12, 13, 14, 15),
                FAC("mail", 16, 17, 18, 19, 20, 21, 22, 23),
                FAC("daemon", 24, 25, 26, 27, 28, 29, 30, 31),
                FAC("auth", 32, 33, 34, 35, 36, 37, 38, 39),
                FAC("syslog", 40, 41, 42, 43, 44, 45, 46, 47),
                FAC("lpr", 48, 49, 50, 51, 52, 53, 54, 55),
                FAC("news", 56, 57, 58, 59, 60, 61, 62, 63),
                FAC("uucp", 64, 65, 66, 67, 68, 69, 70, 71),
                FAC("cron", 72, 73, 74, 75, 76, 77, 78, 79),
                FAC("authpriv", 80, 81, 82, 83, 84, 85, 86, 87),
                FAC("ftp", 88, 89, 90, 91, 92, 93, 94, 95),
                FAC("res0", 96, 97, 98, 99, 100, 101, 102, 103),
                FAC("res1", 104, 105, 106, 107, 108, 109, 110, 111),
                FAC("res2", 112, 113, 114, 115, 116, 117, 118, 119),
                FAC("res3", 120, 121, 122, 123, 124, 125, 126, 127),
                FAC("local0", 128, 129, 130, 131, 132, 133, 134, 135),
                FAC("local1", 136, 137, 138, 139, 140, 141, 142, 143),
                FAC("local2", 144, 145, 146, 147, 148, 149, 150, 151),
                FAC("local3", 152, 153, 154, 155, 156, 157, 158, 159),
                FAC("local4", 160, 161, 162, 163, 164, 165, 166, 167),
                FAC("local5", 168, 169, 170, 171, 172, 173, 174, 175),
                FAC("local6", 176, 177, 178, 179, 180, 181, 182, 183),
                FAC("local7", 184, 185, 186, 187, 188, 189, 190, 191),
        },
};

static bool tables_make(struct json_tables *tab);

/* Whether members is what the names make: json_init()'s test, the same for every sink. */
bool json_members_hold(void) {
        struct json_tables *tab = malloc(sizeof(*tab));
        bool ok = tab && tables_make(tab) && memcmp(tab, &json_members, sizeof(*tab)) == 0;

        free(tab);
        return ok;
}

/*
 * ',"key":' into k (KEY_SIZE bytes) as json-c writes the key: whether it
 * fits, with the whole words the copy may store.
 */
static bool make_member(char *k, size_t *n, const char *key, const char *value) {
        char tmp[2 * JSON_TEXT_ROOM(KEY_SIZE) + 2];
        size_t klen = strlen(key), vlen = value ? strlen(value) : 0;
        char *o = tmp;

        if (klen > KEY_SIZE || vlen > KEY_SIZE)
                return false;
        *o++ = ',';
        o = json_put_text(o, key, klen, true);
        if (!o)
                return false;
        *o++ = ':';
        if (value && !(o = json_put_text(o, value, vlen, true)))
                return false;
        if ((size_t)(o - tmp) > KEY_SIZE)
                return false;
        memset(k, 0, KEY_SIZE);
        memcpy(k, tmp, (size_t)(o - tmp));
        *n = (size_t)(o - tmp);
        return true;
}

/* The members of tab from the names; whether every name and key fits them. */
static bool tables_make(struct json_tables *tab) {
        bool ok = true;
        unsigned i;

        memset(tab, 0, sizeof(*tab));
        for (i = 0; i < N_KEYS; i++)
                ok &= make_member(tab->keys[i].s, &tab->keys[i].n,
                                  i == KEY_FIELDS        ? "fields"
                                  : i == KEY_BOOT_ID     ? "boot_id"
                                  : i == KEY_REALTIME    ? "realtime"
                                  : i == KEY_REALTIME_USEC ? "realtime_usec"
                                  : i == KEY_PROBLEM     ? "problem"
                                  : i == KEY_PROBLEM_SUBJECT ? "problem_subject"
                                  : i == KEY_PROBLEM_START ? "problem_start"
                                                         : column_info[i].json_key,
                                  NULL);
        for (i = 0; i < 8; i++)
                ok &= make_member(tab->level_members[i].s, &tab->level_members[i].n, column_info[COL_LEVEL].json_key,
                                  kmsg_level_to_name(i));
        for (i = 0; ok && i < N_FACILITIES * 8; i++) {
                const char *name = kmsg_facility_to_name(i >> 3);
                char num[16], fac[KEY_SIZE], *o = tab->pri_members[i].s;
                size_t n;

                /* A facility without a name is written as its number, still a string. */
                if (!name) {
                        snprintf(num, sizeof(num), "%u", i >> 3);
                        name = num;
                }
                ok = make_member(fac, &n, column_info[COL_FACILITY].json_key, name) &&
                     tab->keys[COL_PRI].n + 3 + n + tab->level_members[i & 7].n <= PRI_SIZE;
                if (!ok)
                        break;
                memset(o, 0, PRI_SIZE);
                o = put_u64(put_key(tab, o, COL_PRI), i);
                memcpy(o, fac, n);
                memcpy(o + n, tab->level_members[i & 7].s, tab->level_members[i & 7].n);
                tab->pri_members[i].n = (size_t)(o + n + tab->level_members[i & 7].n - tab->pri_members[i].s);
        }
        return ok;
}
