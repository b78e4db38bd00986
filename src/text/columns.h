/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_COLUMNS_H
#define KDMESG_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The one column table: it drives -o/--output, --list-columns, the column
 * list in --help, the table format and the keys and JSON types of --json.
 */
enum column_id {
        COL_SEQ = 0,
        COL_TIME,
        COL_PRI,
        COL_FACILITY,
        COL_LEVEL,
        COL_FLAGS,
        COL_CALLER,
        COL_MESSAGE,
        COL_SUBSYSTEM,
        COL_DEVICE,
        COL_DEVNAME,
        COL_MATCH,
        COL_DICT,
        _COL_MAX,
        COL_DICT_KEY = _COL_MAX, /* DEV.KEY, one dictionary key */
};

enum column_json {
        CJSON_NUMBER,
        CJSON_STRING, /* a string, or an array of byte values when not valid UTF-8 */
        CJSON_OBJECT,
};

/* Table flags. */
#define COLF_RIGHT 1u /* right-aligned */
#define COLF_TRUNC 2u /* truncated to the space left */
#define COLF_WRAP 4u  /* wrapped to the space left */
#define COLF_FREE 8u  /* free text: on a terminal it takes what the others leave (text/fit.h) */

struct column_info {
        const char *name;     /* for -o, upper case */
        const char *json_key; /* key in --json output */
        double whint;         /* width hint: columns (>= 1) or a fraction of the terminal */
        unsigned flags;       /* COLF_* */
        enum column_json json;
        const char *help;     /* N_() text */
};

extern const struct column_info column_info[_COL_MAX + 1];

/* One selected column: a fixed one, or a dictionary key. */
struct column {
        enum column_id id;
        bool optional; /* one of the default set: on a terminal, left out while empty (text/fit.h) */
        char *key;     /* COL_DICT_KEY only */
};

struct columns {
        struct column *v;
        size_t n;
        bool defaults; /* the default columns are among them (no -o, or -o +LIST) */
};

/*
 * The prefix that names a dictionary key as a column: DEV.DRIVER, or the
 * short form D:DRIVER.  The key is everything after the prefix, dots
 * included (DEV.my.key is the key "my.key").
 */
#define COLUMN_DICT_PREFIX "DEV."
#define COLUMN_DICT_PREFIX_SHORT "D:"

/*
 * Parse an -o list ("SEQ,TIME,DEV.DRIVER"; "+LIST" appends to the defaults)
 * and append its columns.  Names and prefixes are case-insensitive,
 * dictionary keys are not.  Returns 0, -EINVAL with *ret_bad pointing at the bad name inside
 * list, or -ENOMEM.
 */
int columns_parse(struct columns *c, char *list, const char **ret_bad);
/* Append the default columns. */
int columns_add_defaults(struct columns *c);
/*
 * --device-text: when the default columns are in use and MATCH is not,
 * put MATCH before the first MESSAGE (or last), so inferred matches show.
 */
int columns_add_match(struct columns *c);
/* Whether the column id is among them. */
bool columns_have(const struct columns *c, enum column_id id);
void columns_free(struct columns *c);
/* The column's heading: its name, or the dictionary key. */
const char *column_heading(const struct column *c);

const char *column_json_to_name(enum column_json t);
/* --list-columns: one line per column: name, JSON type, description. */
void columns_print_list(FILE *o);

#endif
