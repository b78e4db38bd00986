/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_JSON_MEMBERS_H
#define KDMESG_JSON_MEMBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "text/columns.h"
#include "text/writer.h"

/*
 * The members of a --json record that are the same in every record, as
 * json-c writes them, for json.c's direct writer (json-members.c).
 */
/* ',"key":' of each member, made once, copied at a fixed size: the first member's comma becomes '{'. */
enum {
        KEY_FIELDS = _COL_MAX,
        KEY_BOOT_ID,
        KEY_REALTIME,
        KEY_REALTIME_USEC,
        KEY_PROBLEM,
        KEY_PROBLEM_SUBJECT,
        KEY_PROBLEM_START,
        N_KEYS,
};

#define KEY_SIZE 32
#define N_FACILITIES 24
#define PRI_SIZE 56
/* The members of a record that are the same in every record, copied whole. */
struct json_tables {
        struct {
                char s[KEY_SIZE];
                size_t n;
        } keys[N_KEYS];
        /* ',"level":"err"' for levels 0 to 7. */
        struct {
                char s[KEY_SIZE];
                size_t n;
        } level_members[8];
        /* ',"pri":14,"facility":"user","level":"info"' for the priorities of the named facilities, 0 to 23. */
        struct {
                char s[PRI_SIZE];
                size_t n;
        } pri_members[N_FACILITIES * 8];
};

/* The table, as constants. */
extern const struct json_tables json_members;
/* Whether json_members is what the names make (json-c writes every record if not). */
bool json_members_hold(void);

static inline char *put_key(const struct json_tables *tab, char *o, unsigned id) {
        memcpy(o, tab->keys[id].s, KEY_SIZE);
        return o + tab->keys[id].n;
}

/* v in decimal at o, which has room for 20 bytes (put_decimal() writes no more). */
static inline char *put_u64(char *o, uint64_t v) {
        return o + put_decimal(o, v);
}

#endif
