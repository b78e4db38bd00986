/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_CURSOR_H
#define KDMESG_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * --cursor-file: the boot id and the last record written, so that the next
 * run continues after it.  While a write(2) of output is in progress the
 * file also names the highest record in it ("pending"): when kdmesg is
 * killed there, the next run cannot know whether those records reached
 * their reader and reports them as possibly lost instead of printing them
 * twice.
 */
struct cursor;

#define BOOT_ID_MAX 64
/* The most records a save names as pending beyond those being written. */
#define CURSOR_WINDOW_MAX 65536

/* The largest cursor file accepted; one is about 150 bytes. */
#define CURSOR_SIZE_MAX 4096

/* What a cursor file says. */
struct cursor_state {
        bool loaded; /* false: the file was empty (no state, a first run) */
        char boot_id[BOOT_ID_MAX];
        bool has_seq;
        uint64_t seq, usec; /* the last record written */
        bool newest;        /* it was the newest record in the ring when it was read ("newest=1") */
        bool has_pending;
        uint64_t pending_from, pending; /* the records being written when it was saved */
};

/*
 * Parse the len bytes of a cursor file at buf (no NUL needed at the end)
 * into *ret: "key=value" lines, '#' comments and empty lines; unknown keys
 * are ignored.  0, or -EBADMSG with "line N: what" (or what is wrong with
 * the whole: NUL bytes, no boot_id, a pending range before seq) in err, or
 * -ENOMEM; *ret is untouched on failure.
 */
int cursor_parse(const char *buf, size_t len, struct cursor_state *ret, char *err, size_t errlen);
/*
 * Write s (loaded or not: its boot_id is written) as the file's text into
 * buf, which cursor_parse() reads back as s.  The length, or -ENOBUFS.
 */
int cursor_format(const struct cursor_state *s, char *buf, size_t size);

/*
 * Load path (a missing file is an empty cursor), locked for this process
 * (path.lock) until cursor_free() or its end.  On -EILSEQ its contents
 * are no cursor: err holds "line N: what" (or NUL bytes, too large); on
 * -EBADMSG, what is wrong with the file (not a regular file, a directory,
 * its owner or directory).  -EBUSY: another process holds it, err
 * its pid in decimal ("" not known).  Other errors: -errno of
 * open()/read().
 */
int cursor_load(const char *path, struct cursor **ret, char *err, size_t errlen);
void cursor_free(struct cursor *c);

/* What the file said. */
const char *cursor_get_boot_id(const struct cursor *c); /* NULL: no state */
bool cursor_get_seq(const struct cursor *c, uint64_t *ret_seq, uint64_t *ret_usec);
/* Whether that record was the newest in the ring when it was read (--upload says so: cursor_commit()). */
bool cursor_get_newest(const struct cursor *c);
/* The records that were being written when a previous run was killed. */
bool cursor_get_pending(const struct cursor *c, uint64_t *ret_from, uint64_t *ret_to);

/* This run's boot id ("" until set), a string that lives as long as c. */
const char *cursor_get_current_boot_id(const struct cursor *c);
/*
 * --upload's spool holds the records up to seq (time stamp usec) of boot
 * boot_id, read by an earlier run and not yet delivered: reading goes on
 * after them, as if the file said so (they are sent from the spool);
 * newest: seq was the newest record in the ring when it was read.
 * Before cursor_set_boot_id().
 */
void cursor_set_spooled(struct cursor *c, const char *boot_id, uint64_t seq, uint64_t usec, bool newest);

/* This run's boot id; saved with every update. */
void cursor_set_boot_id(struct cursor *c, const char *boot_id);

/*
 * Resuming in the same boot: the next record wanted is next; the one before
 * it has time stamp usec.  Replaces what the file said was pending.
 */
void cursor_resume(struct cursor *c, uint64_t next, uint64_t usec);

/*
 * Records up to seq (with time stamp usec) are skipped, not printed
 * (--follow-new): they count as written, saved at the next update.
 */
void cursor_start_after(struct cursor *c, uint64_t seq, uint64_t usec);

/*
 * A record is processed: its output, if any, is in the buffer, whole (the
 * caller leaves room for a record before formatting it), or it was filtered out.
 */
void cursor_record(struct cursor *c, uint64_t seq, uint64_t usec);

/*
 * Around each write(2) of output.  Before it, the file names the records in
 * it as pending, and possibly some that follow (see cursor.c).
 */
int cursor_before_write(struct cursor *c);
int cursor_after_write(struct cursor *c);
/* Everything processed has been written (the buffer is empty): save it. */
int cursor_idle(struct cursor *c);
/*
 * --upload: the collector accepted every record up to seq (time stamp
 * usec) of boot boot_id (NULL: this run's): save it now.  The cursor never
 * names records that are only processed or sent, so no pending range is
 * saved: after a crash they are sent again.  A record of an earlier boot
 * (from the spool) is saved with its boot id, and leaves this run's state
 * as it is.  newest: seq was the newest record in the ring when it was
 * read (the file says so, for the entry after a reboot).
 */
int cursor_commit(struct cursor *c, const char *boot_id, uint64_t seq, uint64_t usec, bool newest);
/* At exit, after the last write: save what is not saved yet. */
int cursor_sync(struct cursor *c);

const char *cursor_get_path(const struct cursor *c);

#endif
