/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_OUTPUT_JSON_H
#define KDMESG_OUTPUT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "libkmsg.h"

/* A number written with exactly six decimals: seconds from microseconds. */
struct json_object *json_usec_new(uint64_t usec);
/* A string when p[0..len) is valid UTF-8, else an array of its byte values. */
struct json_object *json_bytes_new(const char *p, size_t len);
/*
 * Write p[0..len) as a JSON string: '"', '\\' and control characters
 * escaped as json-c and util-linux escape them, valid UTF-8 as it is, any
 * other byte as the text \xNN.
 */
void out_json_text(const char *p, size_t len);
/*
 * The same into o, which has room for JSON_TEXT_ROOM(len) bytes (the
 * bytes past the returned end are overwritten): the string with its
 * quotes; with strict, NULL at a byte that is not part of valid UTF-8.
 * json_put_chars() writes it without the quotes, in 2 bytes less.
 */
#define JSON_TEXT_ROOM(len) (6 * (len) + 10)
char *json_put_text(char *o, const char *p, size_t len, bool strict);
char *json_put_chars(char *o, const char *p, size_t len, bool strict);
/* Whether the json sink set up last writes records itself, not with json-c (for the tests). */
bool json_direct(void);
/* p[0..len) as the array of its byte values ("[104,0,255]") into o, which has room for 4 * len + 2 bytes. */
char *json_put_bytes(char *o, const char *p, size_t len);
/* The record's dictionary as an object, pairs in order, duplicates kept. */
struct json_object *json_dict_new(const struct kmsg_record *r);
/* A loss event as the JSON object of --json and --lost --json; NULL: no memory. */
struct json_object *json_loss_new(const struct kmsg_loss *l);
/* Add v under key, a constant not yet in o: 0, or -ENOMEM when v is NULL (its constructor failed) or the add fails. */
int json_add(struct json_object *o, const char *key, struct json_object *v);

#endif
