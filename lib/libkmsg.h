/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkmsg: exact, streaming parser for kernel log records.
 *
 * Conventions: functions return 0 or a positive value on success and a
 * negative errno on failure.  Objects are reference counted; every unref()
 * accepts NULL and returns NULL.  Out parameters (ret_*) are left untouched
 * on failure.  The library never prints and never exits.
 */
#ifndef LIBKMSG_H
#define LIBKMSG_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Version                                                            */

/* The library's version string, e.g. "0.1.0". */
const char *kmsg_version(void);

/* ------------------------------------------------------------------ */
/* Names                                                              */

/* Level name ("emerg" .. "debug") for 0..7, or NULL. */
const char *kmsg_level_to_name(unsigned level);
/* Level number for a name (case-insensitive), or -EINVAL. */
int kmsg_level_from_name(const char *name);
/* Facility name ("kern", "user", ... "local7") for 0..23, or NULL. */
const char *kmsg_facility_to_name(unsigned facility);
/* Facility number for a name (case-insensitive), or -EINVAL. */
int kmsg_facility_from_name(const char *name);

/* ------------------------------------------------------------------ */
/* Records                                                            */

struct kmsg_record;

/*
 * Parse one record in /dev/kmsg text form: a header line
 * "PRI,SEQ,USEC[,FLAGS[,FIELD...]];TEXT" and optional dictionary lines
 * " KEY=VALUE".  The buffer need not be NUL-terminated; a missing final
 * newline, CRLF line ends and leading white space before the header are
 * accepted.  Returns 0 and a new record, or -EBADMSG (malformed),
 * -EINVAL (bad arguments), -ENOMEM.
 */
int kmsg_record_parse(const char *buf, size_t len, struct kmsg_record **ret);

struct kmsg_record *kmsg_record_ref(struct kmsg_record *r);
struct kmsg_record *kmsg_record_unref(struct kmsg_record *r);

/* Whether the record carries a priority (plain "[ 1.0] msg" lines do not). */
int kmsg_record_has_priority(const struct kmsg_record *r);
/* The raw priority, facility << 3 | level.  Facility may exceed 23. */
unsigned kmsg_record_get_priority(const struct kmsg_record *r);
unsigned kmsg_record_get_level(const struct kmsg_record *r);
unsigned kmsg_record_get_facility(const struct kmsg_record *r);

/* Whether the record carries a sequence number (syslog-form input does not). */
int kmsg_record_has_seqnum(const struct kmsg_record *r);
uint64_t kmsg_record_get_seqnum(const struct kmsg_record *r);

/* Whether the record carries a time stamp (e.g. "<6>msg" does not). */
int kmsg_record_has_timestamp(const struct kmsg_record *r);
/* Monotonic time stamp in microseconds. */
uint64_t kmsg_record_get_timestamp(const struct kmsg_record *r);
/*
 * The wall-clock time a "dmesg -T" paste printed in the record's head
 * ("[Wed Dec 19 03:36:07 2018] ..."), which such a record carries instead
 * of a monotonic time stamp: the date and time of day as printed, to the
 * second, as seconds since 1970-01-01 00:00:00 of the printer's time zone,
 * which the line does not name (timegm() of the printed fields).  Returns
 * 0, or -ENODATA when the record carries none (-EINVAL for r or ret NULL).
 */
int kmsg_record_get_printed_time(const struct kmsg_record *r, int64_t *ret_sec);

/*
 * The flags field as written: "-", "c", "+" or anything else, kept
 * verbatim.  "" when the header had no flags field (3.5-rc format).
 */
const char *kmsg_record_get_flags(const struct kmsg_record *r);
/*
 * Whether the record is a fragment of a line the kernel printed in pieces
 * (kernels 3.5-4.x): '+' when the flags contain '+' (it continues the
 * line), else 'c' when they contain 'c' (it begins one), else 0.
 */
int kmsg_record_is_fragment(const struct kmsg_record *r);

/*
 * The caller field: *ret_kind is 'T' (thread id) or 'C' (CPU), *ret_id the
 * number.  Returns 0, or -ENODATA when the record has no parsable caller.
 */
int kmsg_record_get_caller(const struct kmsg_record *r, char *ret_kind, uint32_t *ret_id);
/* The caller field's value text as written ("T123"), or NULL. */
const char *kmsg_record_get_caller_text(const struct kmsg_record *r);
/*
 * All header fields after the flags, as written, without the leading
 * comma ("caller=T1,foo=bar"); "" when there are none.
 */
const char *kmsg_record_get_fields(const struct kmsg_record *r);

/*
 * The decoded message.  It may contain any byte, including NUL and
 * newline; *ret_len (if not NULL) receives its length.  The returned
 * buffer is NUL-terminated after the last byte.
 */
const char *kmsg_record_get_message(const struct kmsg_record *r, size_t *ret_len);

/* Number of dictionary entries, in input order, duplicates kept. */
size_t kmsg_record_get_dict_count(const struct kmsg_record *r);
/*
 * Dictionary entry i: key, decoded value and its length.  Returns 0 or
 * -ERANGE.  Pointers stay valid as long as the record.
 */
int kmsg_record_get_dict_entry(const struct kmsg_record *r, size_t i, const char **ret_key,
                               const char **ret_value, size_t *ret_len);
/* The first value for key, or NULL.  *ret_len (if not NULL) gets its length. */
const char *kmsg_record_get_dict_value(const struct kmsg_record *r, const char *key, size_t *ret_len);
/*
 * The journal fields of a record read from the export form that are not
 * part of the record itself, in input order, duplicates kept, values as
 * they were (binary fields too): _HOSTNAME, _MACHINE_ID, _UDEV_*, __CURSOR, __REALTIME_TIMESTAMP, __MONOTONIC_TIMESTAMP,
 * SYSLOG_IDENTIFIER, SYSLOG_PID, MESSAGE_ID and any other field.  The
 * record's own fields are not among them: _BOOT_ID (kmsg_record_get_boot_id()), MESSAGE, PRIORITY,
 * SYSLOG_FACILITY, SEQNUM, TIMESTAMP, _SOURCE_MONOTONIC_TIMESTAMP,
 * KMSG_FLAGS, KMSG_FIELDS, and the dictionary (_KERNEL_KEY, KMSG_DICT);
 * KMSG_MERGED, kdmesg's fields past the collector's limit (NAME=VALUE
 * lines), is read as the fields it holds, in their place.
 * A record of kdmesg's JSON form has one when its line gave
 * "realtime_usec": __REALTIME_TIMESTAMP, that number.
 * Records of other forms have none.  The count, entry i (0 or -ERANGE,
 * -EINVAL), and the first value of key (or NULL); pointers stay valid as
 * long as the record.
 */
size_t kmsg_record_get_journal_count(const struct kmsg_record *r);
int kmsg_record_get_journal_field(const struct kmsg_record *r, size_t i, const char **ret_key,
                                  const char **ret_value, size_t *ret_len);
const char *kmsg_record_get_journal_value(const struct kmsg_record *r, const char *key, size_t *ret_len);
/* Shorthands for the SUBSYSTEM and DEVICE entries, or NULL. */
const char *kmsg_record_get_subsystem(const struct kmsg_record *r);
const char *kmsg_record_get_device(const struct kmsg_record *r);
/*
 * The boot the record comes from, as its input named it (the export
 * form's _BOOT_ID, e.g. "0f2c..."), or NULL when the input does not say.
 */
const char *kmsg_record_get_boot_id(const struct kmsg_record *r);

/*
 * A record's fields at once, for a reader that takes most of them from
 * each of many records: one call where the getters above are a dozen.
 * Each member is what its getter gives; pointers stay valid as long as
 * the record.  size is sizeof(struct kmsg_record_view) as the caller was
 * built: later versions add members at the end and fill only the first
 * size bytes.  Returns 0, or -EINVAL (r or v NULL, or size smaller than
 * libkmsg 1.5's view).
 */
struct kmsg_record_view {
        uint64_t seqnum;        /* kmsg_record_get_seqnum(), when has_seqnum */
        uint64_t usec;          /* kmsg_record_get_timestamp(), when has_timestamp */
        unsigned priority;      /* kmsg_record_get_priority(), when has_priority */
        unsigned char has_priority, has_seqnum, has_timestamp;
        unsigned char has_printed_time; /* kmsg_record_get_printed_time() gives a time */
        const char *flags;      /* kmsg_record_get_flags() */
        const char *fields;     /* kmsg_record_get_fields() */
        const char *caller;     /* kmsg_record_get_caller_text(), or NULL */
        size_t caller_len;      /* strlen(caller) */
        const char *message;    /* kmsg_record_get_message(), NUL-terminated */
        size_t message_len;
        size_t n_dict;          /* kmsg_record_get_dict_count() */
        const char *subsystem;  /* kmsg_record_get_subsystem(), or NULL */
        const char *device;     /* kmsg_record_get_device(), or NULL */
        const char *boot_id;    /* kmsg_record_get_boot_id(), or NULL */
        size_t n_journal;       /* kmsg_record_get_journal_count() */
};
int kmsg_record_get_view(const struct kmsg_record *r, struct kmsg_record_view *v, size_t size);

/* ------------------------------------------------------------------ */
/* Readers                                                            */

struct kmsg_reader;

enum kmsg_format {
        KMSG_FORMAT_AUTO = 0, /* detect from the first bytes */
        KMSG_FORMAT_KMSG,     /* /dev/kmsg text form, as "cat /dev/kmsg" */
        KMSG_FORMAT_EXPORT,   /* journal export form (KEY=VALUE, binary-safe) */
        KMSG_FORMAT_SYSLOG,   /* "<6>[    1.234567] msg" lines, no sequence numbers */
        KMSG_FORMAT_JSON,     /* kdmesg --json: JSON Lines, one object per record */
};

/* The name of an input form: "kmsg", "syslog", "export", "json"; "auto" for KMSG_FORMAT_AUTO; NULL for none. */
const char *kmsg_format_to_name(enum kmsg_format format);
/* The form of a name as kmsg_format_to_name() gives it (case matters), or -EINVAL. */
int kmsg_format_from_name(const char *name);
/*
 * The input forms the readers know, in the order libkmsg lists them: the
 * n-th (0 the first), or KMSG_FORMAT_AUTO past the last.
 */
enum kmsg_format kmsg_format_nth(unsigned n);

/* Where a device reader starts. */
enum kmsg_seek {
        KMSG_SEEK_START = 0, /* oldest record in the ring (SEEK_SET) */
        KMSG_SEEK_CLEAR,     /* after the last clear (SEEK_DATA) */
        KMSG_SEEK_END,       /* only records written from now on (SEEK_END) */
};

/* Default record size limit for streams: 1 MiB. */
#define KMSG_DEFAULT_MAX_RECORD 1048576u

/*
 * A reader over a byte stream (file, pipe, stdin) that is read in chunks.
 * name is used for kmsg_reader_get_name() only.  The reader does not take
 * ownership of fd unless kmsg_reader_new_path() opened it.  Unless the
 * reader follows (kmsg_reader_set_follow()), only the end of the data ends
 * it: on a descriptor set O_NONBLOCK that has nothing yet, next() waits
 * in poll() as a blocking read() would, and never returns -EAGAIN.
 */
int kmsg_reader_new_fd(int fd, const char *name, enum kmsg_format format, struct kmsg_reader **ret);
/*
 * A reader over len bytes in memory, e.g. what syslog(2) SYSLOG_ACTION_READ_ALL
 * returned.  The reader keeps its own copy: buf may be freed after the call.
 * It reads as a stream that has ended, never touches a file, and
 * kmsg_reader_get_fd() returns -1.  Errors: -EINVAL, -ENOMEM.
 */
int kmsg_reader_new_buffer(const void *buf, size_t len, const char *name, enum kmsg_format format,
                           struct kmsg_reader **ret);
/* Open path ("-" is stdin) and read it as a stream.  Errors: -errno of open(). */
int kmsg_reader_new_path(const char *path, enum kmsg_format format, struct kmsg_reader **ret);
/*
 * Open a kmsg device (NULL means "/dev/kmsg") non-blocking and position it.
 * Returns -ENODEV when path is not the kmsg character device (1:11; e.g.
 * /dev/null, a regular file, a directory), -EACCES/-EPERM when
 * reading is not allowed, other -errno from open() or lseek().
 */
int kmsg_reader_new_device(const char *path, enum kmsg_seek where, struct kmsg_reader **ret);

struct kmsg_reader *kmsg_reader_ref(struct kmsg_reader *reader);
struct kmsg_reader *kmsg_reader_unref(struct kmsg_reader *reader);

/*
 * Largest record accepted (default KMSG_DEFAULT_MAX_RECORD, min 4096): the
 * bytes of a kmsg or syslog-form record as written; for JSON and export
 * input, what the record decodes to, written in up to 8 times as many bytes
 * (so that the JSON and export form of any record within the limit read back).
 */
int kmsg_reader_set_max_record_size(struct kmsg_reader *reader, size_t max);

/*
 * Move to the next record.
 *   1        *ret is the record, borrowed: valid until the next call unless
 *            the caller takes kmsg_record_ref().
 *   0        end of input (streams only).
 *   -EAGAIN  device, or a followed stream: no record for now; poll
 *            kmsg_reader_get_fd() (see kmsg_reader_set_follow()).
 *   -EPIPE   device: overrun; records were lost and the reader now stands
 *            at the oldest record still in the ring.
 *   -EMSGSIZE device: a record too large for the buffer was consumed and
 *            lost (the buffer has grown for the next one).
 *   -EINVAL  device: read() failed with EINVAL although the buffer is at
 *            the size limit (kernels before 3.5 fail every read so).
 *   -EBADMSG a malformed record was skipped; see kmsg_reader_get_error().
 *   -E2BIG   a record over the size limit was skipped.
 *   -EINTR   the interrupt flag is set (kmsg_reader_set_interrupt()).
 *   other    -errno of read(); the reader cannot continue.
 * After -EBADMSG, -E2BIG, -EPIPE and -EMSGSIZE, the next call continues.
 */
int kmsg_reader_next(struct kmsg_reader *reader, struct kmsg_record **ret);

/*
 * Follow a stream that may still grow, as "tail -f" does.  With follow
 * set, the end of the data is not the end of input: next() returns
 * -EAGAIN, and a record whose last line is complete when the data pauses
 * is returned without waiting for the next record's first bytes.  On a
 * pipe, FIFO or terminal next() then never blocks: -EAGAIN when no bytes
 * are ready (poll kmsg_reader_get_fd()), 0 once the writer has closed it.
 * On a regular file -EAGAIN means "no more bytes yet"; the caller decides
 * when a file has ended (clear follow, and the next call treats the end of
 * the data as the end of input).  Device readers are not affected.
 * Returns 0 or -EINVAL.
 */
int kmsg_reader_set_follow(struct kmsg_reader *reader, int follow);

/*
 * Stop reading once *flag is non-zero (a signal handler sets it).  next()
 * then reads nothing more: a stream reader first returns the records whose
 * last line is wholly in its buffer (as when followed data pauses), then
 * -EINTR, with kmsg_reader_get_error() naming the bytes of an unfinished
 * record left unread ("" when there are none); a device reader returns
 * -EINTR at once.  The flag is checked before every read(2) and whenever
 * read(2) or poll(2) fails with EINTR, so that a handler installed without
 * SA_RESTART ends a blocking read at once.  wake_fd, or -1, is a
 * descriptor that becomes readable when the flag is set (the read end of
 * a pipe the handler writes to): a stream reader about to block on a pipe,
 * FIFO or terminal waits in poll(2) for it too, so that a signal that comes
 * between the check and the read cannot leave it blocked.  A NULL flag
 * turns this off.  Returns 0 or -EINVAL.
 */
int kmsg_reader_set_interrupt(struct kmsg_reader *reader, const volatile sig_atomic_t *flag, int wake_fd);

/*
 * Read a part of a file: only the next length bytes of the descriptor,
 * from where it stands, whose first line is line first_line of the file
 * (kmsg_reader_get_position() then names the file's lines).  The end of
 * the range is the end of the input.  Call before the first
 * kmsg_reader_next() of a stream reader.  Returns 0 or -EINVAL (a device,
 * a buffer, a reader that has read, first_line 0).
 */
int kmsg_reader_set_range(struct kmsg_reader *reader, uint64_t length, uint64_t first_line);

/* The name given at creation ("-" shows as "<stdin>"). */
const char *kmsg_reader_get_name(const struct kmsg_reader *reader);
/*
 * Where the last record or error started: the 1-based record number for
 * devices; for streams a 1-based line number that counts every newline
 * byte before the record, also those inside the binary fields of the
 * export form (in their data and in their length), as sed -n Np, grep -n
 * and editors count lines: that line of the file is the record's first.
 */
uint64_t kmsg_reader_get_position(const struct kmsg_reader *reader);
/* Text describing the last -EBADMSG, -E2BIG or -EINTR, or "". */
const char *kmsg_reader_get_error(const struct kmsg_reader *reader);
/* The format in use (after detection, or AUTO while none was seen). */
enum kmsg_format kmsg_reader_get_format(const struct kmsg_reader *reader);
/* The file descriptor, for poll(); -1 for a reader over a buffer. */
int kmsg_reader_get_fd(const struct kmsg_reader *reader);
/* Non-zero for device readers. */
int kmsg_reader_is_device(const struct kmsg_reader *reader);

/* ------------------------------------------------------------------ */
/* Sequence tracking                                                  */

struct kmsg_seqtrack;

enum kmsg_loss_cause {
        KMSG_LOSS_GAP = 0, /* sequence numbers skipped */
        KMSG_LOSS_OVERRUN, /* the reader fell behind (EPIPE) */
        KMSG_LOSS_ROTATED, /* gone from the ring before reading started */
        KMSG_LOSS_TOOBIG,  /* a record too large for the read buffer */
        KMSG_LOSS_REBOOT,  /* unread records of a previous boot: count unknown (0) */
        KMSG_LOSS_INTERRUPTED, /* a writer was killed while writing them: they may
                                  or may not have been delivered */
};

/*
 * A run of records that are missing: reference-counted and opaque.  The
 * tracker makes them; a program makes its own with kmsg_loss_new() (e.g. for
 * records lost between two runs) to hand to the same code.
 */
struct kmsg_loss;

/*
 * A new loss of count records from first_seq (count 0: not known), with
 * no time stamps; *ret holds the only reference.  Returns 0, -EINVAL
 * (NULL ret or an unknown cause) or -ENOMEM.
 */
int kmsg_loss_new(uint64_t first_seq, uint64_t count, enum kmsg_loss_cause cause, struct kmsg_loss **ret);
struct kmsg_loss *kmsg_loss_ref(struct kmsg_loss *l);
struct kmsg_loss *kmsg_loss_unref(struct kmsg_loss *l);
/* The time stamp of the record before the loss; it is then known.  Returns 0 or -EINVAL. */
int kmsg_loss_set_before(struct kmsg_loss *l, uint64_t usec);
/* The time stamp of the record after the loss.  Returns 0 or -EINVAL. */
int kmsg_loss_set_after(struct kmsg_loss *l, uint64_t usec);
/*
 * The record before the loss was the newest the source held when it was
 * read: what the loss stands for was written after that, if at all (a
 * KMSG_LOSS_REBOOT loss: the previous boot may have written nothing more).
 * Returns 0 or -EINVAL.
 */
int kmsg_loss_set_before_newest(struct kmsg_loss *l);
/* Whether kmsg_loss_set_before_newest() was called. */
int kmsg_loss_before_newest(const struct kmsg_loss *l);

/* The first missing sequence number. */
uint64_t kmsg_loss_get_first_seq(const struct kmsg_loss *l);
/* How many are missing; 0 when not known (KMSG_LOSS_REBOOT: everything from
 * the first to the end of that boot). */
uint64_t kmsg_loss_get_count(const struct kmsg_loss *l);
/* Whether kmsg_loss_get_usec_before() is known. */
int kmsg_loss_has_before(const struct kmsg_loss *l);
/* The time stamp of the record before the loss (0 when not known). */
uint64_t kmsg_loss_get_usec_before(const struct kmsg_loss *l);
/* The time stamp of the record after the loss (0 when not known). */
uint64_t kmsg_loss_get_usec_after(const struct kmsg_loss *l);
enum kmsg_loss_cause kmsg_loss_get_cause(const struct kmsg_loss *l);

/* Flags returned by kmsg_seqtrack_feed(). */
#define KMSG_SEQ_LOSS 1        /* *ret_loss is the loss of records before this one */
#define KMSG_SEQ_NEW_SEGMENT 2 /* a new boot starts (KMSG_SEQ_NEW_BOOT) */
#define KMSG_SEQ_DUPLICATE 4   /* already seen: skip this record */
#define KMSG_SEQ_HELD 8        /* the tracker keeps the record for now: see kmsg_seqtrack_pop() */
#define KMSG_SEQ_CLASH 16      /* a record seen before had this number in this boot: delivered all the same */
/*
 * A new boot starts with this record: the record's boot id
 * (kmsg_record_get_boot_id()) is one not seen before, or the time stamp
 * dropped by more than 30 seconds, whatever the numbers do, except where
 * the record carries on the numbers by one or is back in line with the
 * record before the last (one stamp out of line).  Numbers that go back
 * while the time goes on are duplicates, late records or clashes, never a
 * boot.  The same flag as KMSG_SEQ_NEW_SEGMENT, by the name that says what
 * it means.
 */
#define KMSG_SEQ_NEW_BOOT KMSG_SEQ_NEW_SEGMENT

/* Name of a cause: "gap", "overrun", "rotated", "toobig", "reboot", "interrupted". */
const char *kmsg_loss_cause_to_name(enum kmsg_loss_cause cause);

int kmsg_seqtrack_new(struct kmsg_seqtrack **ret);
struct kmsg_seqtrack *kmsg_seqtrack_ref(struct kmsg_seqtrack *t);
struct kmsg_seqtrack *kmsg_seqtrack_unref(struct kmsg_seqtrack *t);

/*
 * Expect seq as the next record, e.g. when resuming from a cursor; a
 * first record above it is a loss with cause KMSG_LOSS_GAP instead of
 * KMSG_LOSS_ROTATED.
 */
void kmsg_seqtrack_expect(struct kmsg_seqtrack *t, uint64_t seq);
/* The next gap found is attributed to cause (e.g. after -EPIPE). */
void kmsg_seqtrack_note_cause(struct kmsg_seqtrack *t, enum kmsg_loss_cause cause);

/*
 * Feed the next record.  Returns a combination of KMSG_SEQ_* flags (0 when
 * the record follows its predecessor), or -EINVAL, -ENOMEM.  Records
 * without a sequence number return 0 and are not tracked.  The first
 * record of a segment with a sequence number above 0 (or above the
 * expected one) is reported as a loss: messages produced but not available.
 *
 * KMSG_SEQ_HELD: the record cannot be judged yet (a backwards jump onto
 * records stamped 0 is either an overlapping dump or a new boot of the same
 * kernel).  The tracker took a reference and decides on a later record;
 * after every feed, call kmsg_seqtrack_pop() until it returns -ENODATA to
 * get the records released, in input order, each with its own flags.
 * Records it decided were duplicates never come out.
 *
 * ret_loss may be NULL.  On success *ret_loss is the loss when the flags
 * have KMSG_SEQ_LOSS, NULL otherwise.  The tracker owns that loss: it stays
 * valid until the next kmsg_seqtrack_feed(), kmsg_seqtrack_pop() or
 * kmsg_seqtrack_finish() on t, or the last kmsg_seqtrack_unref(); copy what
 * is needed beyond that.
 */
int kmsg_seqtrack_feed(struct kmsg_seqtrack *t, const struct kmsg_record *r, const struct kmsg_loss **ret_loss);
/*
 * The next released record: returns its KMSG_SEQ_* flags and stores a
 * record the caller owns (kmsg_record_unref() it) in *ret and, when ret_loss
 * is not NULL, its loss in *ret_loss (NULL unless the flags have
 * KMSG_SEQ_LOSS).  The loss is the tracker's, valid as long as one from
 * kmsg_seqtrack_feed().  -ENODATA: none.
 */
int kmsg_seqtrack_pop(struct kmsg_seqtrack *t, struct kmsg_record **ret, const struct kmsg_loss **ret_loss);
/*
 * The input ended: records still held as candidate duplicates matched to
 * the end and are counted as duplicates; records held in the reorder
 * window are released (kmsg_seqtrack_pop() them).  Ends the life of the
 * last loss returned.  Returns 0 or -ENOMEM.
 */
int kmsg_seqtrack_finish(struct kmsg_seqtrack *t);

/*
 * Records may arrive out of order (0, 1, 3, 2, 4): with a window of n
 * records (0, the default, turns it off; at most 4096), a gap is reported
 * only when none of the n records after it filled it, when every hole is
 * filled (nothing is lost), or at kmsg_seqtrack_settle() or _finish().
 * Until then the records from the gap on are held (KMSG_SEQ_HELD) and come
 * out of kmsg_seqtrack_pop() in sequence order, each loss before the
 * record after its hole.  A gap after kmsg_seqtrack_note_cause() is
 * reported at once.  Returns 0, -EINVAL or -ENOMEM.
 */
int kmsg_seqtrack_set_reorder_window(struct kmsg_seqtrack *t, unsigned n);
/*
 * Settle the reorder window now (the input is idle, or reading stops):
 * the holes still open are losses, and the records held are released for
 * kmsg_seqtrack_pop().  Returns 0, -EINVAL or -ENOMEM.
 */
int kmsg_seqtrack_settle(struct kmsg_seqtrack *t);

/* Totals: records lost, duplicates skipped, clashes (KMSG_SEQ_CLASH), boot segments started. */
uint64_t kmsg_seqtrack_get_lost(const struct kmsg_seqtrack *t);
uint64_t kmsg_seqtrack_get_duplicates(const struct kmsg_seqtrack *t);
uint64_t kmsg_seqtrack_get_clashes(const struct kmsg_seqtrack *t);
uint64_t kmsg_seqtrack_get_segments(const struct kmsg_seqtrack *t);
/* The last sequence number accepted; returns 0, or -ENODATA before any. */
int kmsg_seqtrack_get_last(const struct kmsg_seqtrack *t, uint64_t *ret_seq);

#ifdef __cplusplus
}
#endif

#endif
