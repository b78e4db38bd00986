/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PSTORE_H
#define KDMESG_PSTORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * The kernel log the machine saved when it crashed: the kernel's pstore
 * files (/sys/fs/pstore/dmesg-BACKEND-ID, ".enc.z" when the kernel could not
 * decompress them) and systemd-pstore's archive (/var/lib/systemd/pstore:
 * the same files, or a dmesg.txt of their parts, one directory per dump).
 * Each part starts with a "<Reason>#<count> Part<n>" line; Part1 is the
 * newest end of the log.
 *
 * Scanning reads the first line of each file, and a dmesg.txt once through
 * in chunks: a part is where its text is, never the text itself, so that
 * the dump chosen is read one part at a time, whatever the sizes.
 */

/* A dmesg.txt holds at most this many parts; the rest of it is reported, not read. */
#define PSTORE_MAX_TXT_PARTS 1024

/* One part: its file, and where in it its text is (after the header line). */
struct pstore_part {
        char *path;
        unsigned part;
        uint64_t offset, length;
        uint64_t line; /* the file's line number at offset */
};

/* One dump: its parts, oldest first (highest part number first). */
struct pstore_dump {
        char reason[32];     /* "Panic", "Oops", ...; "" without a header */
        unsigned count;      /* the N of "#N": the dump's number in its boot */
        char backend[32];    /* "ramoops", "efi", ... */
        char *source;        /* the directory or the first file, for --list */
        time_t written;      /* when the newest of its files was written */
        struct pstore_part *parts;
        size_t n_parts;
        bool truncated;      /* a dmesg.txt with more parts than PSTORE_MAX_TXT_PARTS: the rest unread */
};

struct pstore_set {
        struct pstore_dump *dumps; /* newest first */
        size_t n;
        unsigned errors;           /* files that could not be read (reported) */
};

/*
 * Read every dump below root ("" for this machine, or a --sysroot
 * directory).  Files that cannot be read, compressed ones and anything but
 * regular files are reported through warn, one line each, and counted in
 * set->errors.  Scanning stops once *quit is set (NULL: never).  Returns 0,
 * -ENOMEM or -EINTR.
 */
int pstore_scan(const char *root, struct pstore_set *set, void (*warn)(const char *fmt, ...),
                const volatile sig_atomic_t *quit);
void pstore_set_done(struct pstore_set *set);

/*
 * The parts missing from a dump: the part numbers below its newest part
 * (the newest end; not when the dump was truncated: the parts not read may
 * be those) and between its parts.  Returns how many.
 */
uint64_t pstore_dump_missing(const struct pstore_dump *d);
/* The parts of a dump whose number an earlier part has already. */
size_t pstore_dump_duplicates(const struct pstore_dump *d);

/*
 * Open a part's file for reading: a regular file only (opened O_NONBLOCK,
 * so that a FIFO put there cannot block), positioned at the part's text.
 * Returns the descriptor or -errno (-EINVAL: not a regular file).
 */
int pstore_part_open(const struct pstore_part *p);
/*
 * The time stamp ("[    1.500000]") of the first or the last syslog-form
 * line of a part, read in chunks.  Returns 1 with *ret, 0 when it has none,
 * or -errno (-EINTR once *quit is set).
 */
int pstore_part_time(const struct pstore_part *p, bool last, uint64_t *ret, const volatile sig_atomic_t *quit);

#endif
