/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PSTORE_H
#define KDMESG_PSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/*
 * The kernel log the machine saved when it crashed: the kernel's pstore
 * files (/sys/fs/pstore/dmesg-BACKEND-ID, ".enc.z" when the kernel could not
 * decompress them) and systemd-pstore's archive (/var/lib/systemd/pstore:
 * the same files, or a dmesg.txt of their parts, one directory per dump).
 * Each part starts with a "<Reason>#<count> Part<n>" line; Part1 is the
 * newest end of the log.
 */

/* One part: its file, and its text with the header line (and what came before it) blanked. */
struct pstore_part {
        char *path;
        unsigned part;
        char *text;
        size_t len;
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
};

struct pstore_set {
        struct pstore_dump *dumps; /* newest first */
        size_t n;
        unsigned errors;           /* files that could not be read (reported) */
};

/*
 * Read every dump below root ("" for this machine, or a --sysroot
 * directory).  Files that cannot be read, and compressed ones, are reported
 * through warn, one line each, and counted in set->errors.  Returns 0 or
 * -ENOMEM.
 */
int pstore_scan(const char *root, struct pstore_set *set, void (*warn)(const char *fmt, ...));
void pstore_set_done(struct pstore_set *set);

/*
 * The parts missing from a dump: the part numbers below its newest part
 * (the newest end) and between its parts.  Returns how many.
 */
unsigned pstore_dump_missing(const struct pstore_dump *d);

#endif
