/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_EXPORT_FIELDS_H
#define KDMESG_EXPORT_FIELDS_H

/*
 * export-fields.c, for export.c: the fields of the entry being written,
 * through the writer (text/writer.h), counted against the collector's
 * limit of fields per entry; and what had to change for the collector.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Changes for the collector said one line each up to this many records; then counted. */
#define ADJUSTED_SHOWN 10

/* The entry being written: the export sink keeps one, its merge buffer from entry to entry. */
struct export_entry {
        unsigned n;       /* fields so far (the __ ones are not fields to journald) */
        bool limited;     /* from export_entry_limit() on, the variable fields past budget are merged */
        unsigned budget;
        char *merged;     /* "NAME=VALUE\n" of each merged field */
        size_t merged_len, merged_cap;
        unsigned n_merged;
        bool merge_failed;
        bool rt_clamped, mono_clamped; /* a time stamp was out of journald's range */
        const char *bad_boot;          /* a _BOOT_ID left out */
};

/* A new entry: nothing counted, nothing changed. */
void export_entry_begin(struct export_entry *e);
/* "KEY=value" (or the binary form), counted. */
void export_field(struct export_entry *e, const char *key, const char *val, size_t len);
void export_field_str(struct export_entry *e, const char *key, const char *val);
void export_field_u64(struct export_entry *e, const char *key, uint64_t v);
/*
 * A field of which a record can have many (its dictionary, device links,
 * the fields export input carried): past the limit it goes into
 * KMSG_MERGED instead.
 */
void export_var_field(struct export_entry *e, const char *key, const char *val, size_t len);
/* From here on, the variable fields count against max (0: EXPORT_FIELDS_MAX). */
void export_entry_limit(struct export_entry *e, unsigned max);
/* The end of the entry: KMSG_MERGED if fields were merged, and the blank line. */
void export_entry_end(struct export_entry *e);
/* Release the merge buffer. */
void export_entry_free(struct export_entry *e);
/* v in journald's range for a time stamp (the wall clock above 0 too); *clamped set when it was not. */
uint64_t export_clamp_time(int64_t v, bool wall, bool *clamped);

#endif
