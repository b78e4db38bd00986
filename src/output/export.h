/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_EXPORT_H
#define KDMESG_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The MESSAGE_ID of every loss entry in the export stream (journalctl MESSAGE_ID=...). */
#define EXPORT_LOSS_MESSAGE_ID "9ac1b3703093449dace9a589386bdafe"
/* The MESSAGE_ID of every new-boot entry in the export stream. */
#define EXPORT_BOOT_MESSAGE_ID "fab5b5ca374041ef9ca064a2b02def0a"

/*
 * The most fields of an entry that journald and systemd-journal-remote
 * take (journal-importer's ENTRY_FIELD_COUNT_MAX); the __ time stamps are
 * not counted.  KDMESG_JOURNAL_FIELDS_MAX sets another (output_settings).
 */
#define EXPORT_FIELDS_MAX 1024

/* journald's range for both time stamps of an entry: below 2^55 us (journal-importer's VALID_REALTIME). */
#define EXPORT_TIME_MAX ((UINT64_C(1) << 55) - 1)

/* The machine an entry is from: NULL for what is not known; boot_usec 0: no wall clock. */
struct export_machine {
        const char *boot_id, *hostname, *machine_id;
        int64_t boot_usec;
};

/* A field of an export entry: its name and value, in the entry's bytes (neither NUL-terminated). */
struct export_field {
        const char *key, *val;
        size_t klen, vlen;
};

/*
 * export-refused.c: the field of the entry at p[*at] (p is len bytes): 1
 * and *f, 0 at the blank line that ends the entry, *at past either;
 * -EBADMSG when what follows is not the export form (a line without its
 * newline, a binary value cut short or not followed by a newline).
 */
int export_next_field(const char *p, size_t len, size_t *at, struct export_field *f);
/*
 * export-refused.c: the length of the first entry of the export form at
 * p, its ending blank line included; 0 when p holds no whole entry.
 */
size_t export_entry_len(const char *p, size_t len);
/*
 * export-refused.c: the loss entry that takes the place of record seq
 * (time stamp usec) of boot boot_id (NULL: m's) when the collector
 * refused its entry: KDMESG_LOST=1, KDMESG_LOST_FIRST_SEQ,
 * KDMESG_LOST_CAUSE=refused and KDMESG_REFUSED_REASON, as the loss
 * entries of the stream have them.  __REALTIME_TIMESTAMP only when the
 * boot is m's.  malloc()ed into *ret (*ret_len bytes).  0 or -ENOMEM.
 */
int export_refused_entry(const struct export_machine *m, const char *boot_id, uint64_t seq, uint64_t usec,
                         const char *reason, char **ret, size_t *ret_len);

/*
 * export-refused.c: the loss entry that takes the place of the oldest
 * records --upload's spool had no room for: count records from seq first
 * to last (time stamp usec) of boot boot_id: KDMESG_LOST=count,
 * KDMESG_LOST_FIRST_SEQ, KDMESG_LOST_LAST_SEQ and
 * KDMESG_LOST_CAUSE=spool-full; merged (not "": the causes of the loss
 * entries it took the place of, comma-separated) is KDMESG_LOST_MERGED
 * and said in MESSAGE.  __REALTIME_TIMESTAMP only when boot_id is m's.
 * malloc()ed into *ret (*ret_len bytes).  0 or -ENOMEM.
 */
int export_spool_loss_entry(const struct export_machine *m, const char *boot_id, uint64_t count, uint64_t first,
                            uint64_t last, uint64_t usec, const char *merged, char **ret, size_t *ret_len);

/* "ident[pid]: " at the head of a message of a userspace facility. */
struct syslog_ident {
        const char *ident;
        size_t ident_len;
        const char *pid; /* NULL: none */
        size_t pid_len;
        size_t rest; /* where the message after the prefix starts */
};

/*
 * journald's rule for the messages of userspace facilities: after white
 * space, a word without white space that ends in ':' is the identifier;
 * when it ends in "]:", what is between the last '[' and the ']' is the
 * PID; one white space character after the ':' goes with it.  Returns
 * whether there is one (*ret set).
 */
bool export_parse_identifier(const char *msg, size_t len, struct syslog_ident *ret);

#endif
