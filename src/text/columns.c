/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The column table and -o list parsing. */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "text/columns.h"
#include "base/i18n.h"

const struct column_info column_info[_COL_MAX + 1] = {
        [COL_SEQ] = { "SEQ", "seq", 7, COLF_RIGHT, CJSON_NUMBER, N_("sequence number") },
        [COL_TIME] = { "TIME", "time", 13, COLF_RIGHT, CJSON_NUMBER,
                       N_("time stamp (seconds since boot, or as --time-format says)") },
        [COL_PRI] = { "PRI", "pri", 3, COLF_RIGHT, CJSON_NUMBER, N_("raw priority, facility * 8 + level") },
        [COL_FACILITY] = { "FACILITY", "facility", 8, 0, CJSON_STRING,
                           N_("facility name (a number when it has none)") },
        [COL_LEVEL] = { "LEVEL", "level", 6, 0, CJSON_STRING, N_("level name") },
        [COL_FLAGS] = { "FLAGS", "flags", 5, 0, CJSON_STRING, N_("record flags as written ('-', 'c', '+')") },
        [COL_CALLER] = { "CALLER", "caller", 7, COLF_RIGHT | COLF_TRUNC, CJSON_STRING,
                         N_("caller: thread (T123) or CPU (C4)") },
        [COL_MESSAGE] = { "MESSAGE", "msg", 0.25, COLF_WRAP | COLF_FREE, CJSON_STRING, N_("message") },
        [COL_SUBSYSTEM] = { "SUBSYSTEM", "subsystem", 9, COLF_TRUNC, CJSON_STRING,
                            N_("device subsystem (dictionary SUBSYSTEM)") },
        [COL_DEVICE] = { "DEVICE", "device", 10, COLF_TRUNC, CJSON_STRING,
                         N_("device (dictionary DEVICE: b8:0, c4:1, n2, +pci:0000:00:1f.2)") },
        [COL_DEVNAME] = { "DEVNAME", "devname", 10, COLF_TRUNC, CJSON_STRING, N_("device name (sda, eth0)") },
        [COL_MATCH] = { "MATCH", "match", 5, 0, CJSON_STRING,
                        N_("\"text\" when --device-text selected the record by its message") },
        [COL_DICT] = { "DICT", "dict", 10, COLF_TRUNC | COLF_FREE, CJSON_OBJECT, N_("all dictionary pairs, KEY=VALUE") },
        [COL_DICT_KEY] = { "DEV.KEY", NULL, 10, COLF_TRUNC, CJSON_STRING, N_("the value of dictionary key KEY (or D:KEY)") },
};

static int columns_push(struct columns *c, enum column_id id, const char *key, size_t key_len) {
        struct column *v = realloc(c->v, (c->n + 1) * sizeof(*v));

        if (!v)
                return -ENOMEM;
        c->v = v;
        v[c->n].id = id;
        v[c->n].key = NULL;
        v[c->n].optional = false;
        if (key) {
                v[c->n].key = strndup(key, key_len);
                if (!v[c->n].key)
                        return -ENOMEM;
        }
        c->n++;
        return 0;
}

/* The table's columns when -o is not given, in this order. */
static const enum column_id default_columns[] = {
        COL_SEQ, COL_TIME, COL_LEVEL, COL_SUBSYSTEM, COL_DEVICE, COL_MESSAGE,
};

int columns_add_defaults(struct columns *c) {
        size_t i;
        int e;

        for (i = 0; i < sizeof(default_columns) / sizeof(default_columns[0]); i++) {
                e = columns_push(c, default_columns[i], NULL, 0);
                if (e < 0)
                        return e;
                c->v[c->n - 1].optional = true;
        }
        c->defaults = true;
        return 0;
}

bool columns_have(const struct columns *c, enum column_id id) {
        size_t i;

        for (i = 0; i < c->n; i++)
                if (c->v[i].id == id)
                        return true;
        return false;
}

int columns_add_match(struct columns *c) {
        size_t i;
        int e;

        if (!c->defaults || columns_have(c, COL_MATCH))
                return 0;
        e = columns_push(c, COL_MATCH, NULL, 0);
        if (e < 0)
                return e;
        for (i = 0; i + 1 < c->n && c->v[i].id != COL_MESSAGE; i++)
                ;
        memmove(&c->v[i + 1], &c->v[i], (c->n - 1 - i) * sizeof(c->v[0]));
        c->v[i] = (struct column){ .id = COL_MATCH, .optional = true };
        return 0;
}

static int column_from_name(const char *name, size_t len) {
        int i;

        for (i = 0; i < _COL_MAX; i++)
                if (strlen(column_info[i].name) == len && strncasecmp(name, column_info[i].name, len) == 0)
                        return i;
        return -EINVAL;
}

/* The length of the dictionary-key prefix p starts with (DEV. or D:), or 0. */
static size_t dict_prefix_len(const char *p, size_t len) {
        static const char *const prefixes[] = { COLUMN_DICT_PREFIX, COLUMN_DICT_PREFIX_SHORT };
        size_t i, n;

        for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
                n = strlen(prefixes[i]);
                if (len > n && strncasecmp(p, prefixes[i], n) == 0)
                        return n;
        }
        return 0;
}

/*
 * -o +LIST: the columns added go before the default set's last column when
 * that is MESSAGE, the free text, which stays last (from index m on).
 */
static void message_last(struct columns *c, size_t m) {
        struct column msg;

        if (m >= c->n || c->v[m].id != COL_MESSAGE || m + 1 == c->n)
                return;
        msg = c->v[m];
        memmove(c->v + m, c->v + m + 1, (c->n - m - 1) * sizeof(*c->v));
        c->v[c->n - 1] = msg;
}

int columns_parse(struct columns *c, char *list, const char **ret_bad) {
        size_t msg = SIZE_MAX;
        char *p = list;
        int e;

        if (*p == '+') {
                e = columns_add_defaults(c);
                if (e < 0)
                        return e;
                if (c->n > 0)
                        msg = c->n - 1;
                p++;
        }
        for (;;) {
                size_t len = strcspn(p, ","), plen = dict_prefix_len(p, len);
                int id;

                if (plen)
                        e = columns_push(c, COL_DICT_KEY, p + plen, len - plen);
                else if ((id = column_from_name(p, len)) >= 0)
                        e = columns_push(c, (enum column_id)id, NULL, 0);
                else {
                        p[len] = '\0';
                        *ret_bad = p;
                        return -EINVAL;
                }
                if (e < 0)
                        return e;
                if (p[len] == '\0') {
                        message_last(c, msg);
                        return 0;
                }
                p += len + 1;
        }
}

void columns_free(struct columns *c) {
        size_t i;

        for (i = 0; i < c->n; i++)
                free(c->v[i].key);
        free(c->v);
        c->v = NULL;
        c->n = 0;
        c->defaults = false;
}

const char *column_heading(const struct column *c) {
        return c->id == COL_DICT_KEY ? c->key : column_info[c->id].name;
}

const char *column_json_to_name(enum column_json t) {
        switch (t) {
        case CJSON_NUMBER:
                return "number";
        case CJSON_OBJECT:
                return "object";
        default:
                return "string";
        }
}

void columns_print_help(FILE *o) {
        int i;

        fputs(_("\nAvailable output columns (for --format=table and -o):\n"), o);
        for (i = 0; i <= _COL_MAX; i++)
                fprintf(o, " %11s  %s\n", column_info[i].name, _(column_info[i].help));
}

void columns_print_list(FILE *o) {
        int i;

        for (i = 0; i <= _COL_MAX; i++)
                fprintf(o, "%-10s %-7s %s\n", column_info[i].name, column_json_to_name(column_info[i].json),
                        _(column_info[i].help));
}
