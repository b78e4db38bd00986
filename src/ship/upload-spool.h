/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_SPOOL_H
#define KDMESG_UPLOAD_SPOOL_H

/*
 * --upload --cursor-file F: the units read and not yet acknowledged, kept
 * on disk in the directory F.spool, file "units", so that the next run
 * sends them first, after a reboot too.  The file is a header and units
 * one after another, each a frame with its record (boot id, seq, time
 * stamp), the loss it stands for when it is a loss entry of the spool's
 * own, its bytes and a CRC-32 of all that: a frame cut short by a crash,
 * or damaged, is found when the file is loaded, and it and what follows
 * are left out.  No locks, no threads: upload.c decides when to write.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The boot id field of a frame: the id as text, NUL-padded. */
#define SPOOL_BOOT_MAX 48
/* The bytes of a frame before its data. */
#define SPOOL_FRAME_HEAD 96
/* The file's header: "kdmesg-spool 1 FORMAT\n", NUL-padded. */
#define SPOOL_FILE_HEAD 32

struct spool_rec {
        bool has_seq;
        uint64_t seq, usec;
        uint64_t lost, lost_first; /* a loss entry of the spool's own: lost records from seq lost_first */
        bool replaced;             /* the loss entry that took the place of a refused one */
        bool newest;               /* its record was the newest in the ring when it was read */
        char boot[SPOOL_BOOT_MAX]; /* "" unknown */
};

struct spool;

/*
 * Open (and create) the spool of the cursor file cursor_path for units of
 * the transport format format ("export").  0; -errno (err names the file,
 * and with -EPERM what is wrong with it: not a directory, another owner, anyone may write to it) when it
 * cannot be written: *ret is then still set when what is there could be
 * read (its units are loaded, none written), else NULL.
 */
int spool_open(const char *cursor_path, const char *format, struct spool **ret, char *err, size_t errlen);
void spool_free(struct spool *s);
/* The spool's file, for messages. */
const char *spool_get_path(const struct spool *s);
bool spool_writable(const struct spool *s);

/*
 * Read the units back in order: unit() is called for each whole one
 * (data, len: its bytes).  A frame that is cut short or damaged ends the
 * file there: it is cut off when the spool is writable, and *ret_bad_at,
 * *ret_bad_len say where and how many bytes were left out (0: none).  A
 * file of another format or version is left out whole (*ret_bad_at 0,
 * *ret_bad_len its size).  0, or -errno of reading, or what unit() returned
 * (< 0).
 */
int spool_load(struct spool *s, int (*unit)(void *userdata, const struct spool_rec *r, const char *data, size_t len),
               void *userdata, uint64_t *ret_bad_at, uint64_t *ret_bad_len);

/* The size of the frame of a unit of len bytes. */
size_t spool_frame_size(size_t len);
/* Write the frame of unit r (data, len) at dst, which has spool_frame_size(len) bytes. */
void spool_frame(char *dst, const struct spool_rec *r, const char *data, size_t len);

/*
 * Append len bytes of frames with write(2), not synced: they survive the
 * end of the process (the page cache has them), not a power loss before
 * spool_sync().  0 or -errno (nothing of them is left in the file).
 */
int spool_write(struct spool *s, const char *frames, size_t len);
/* fdatasync() the file: what was written and cleared is on disk.  0 or -errno. */
int spool_sync(struct spool *s);
/* Replace the whole file by these frames (a new file, fsync()ed, renamed over it).  0 or -errno. */
int spool_rewrite(struct spool *s, const char *frames, size_t len);
/* Empty the file (everything in it was delivered), not synced (spool_sync()).  0 or -errno. */
int spool_clear(struct spool *s);
/* The file's size now. */
uint64_t spool_size(const struct spool *s);

uint32_t spool_crc32(uint32_t crc, const void *p, size_t len);

#endif
