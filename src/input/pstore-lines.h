/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_PSTORE_LINES_H
#define KDMESG_PSTORE_LINES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/* pstore.c and pstore-lines.c: reading pstore files without holding them. */

/* A file larger than this is not read. */
#define PSTORE_MAX_FILE (16 * 1024 * 1024)
/* What is looked at of a line: a header, a file name, a time stamp. */
#define PSTORE_HEAD 128

/*
 * The lines of a range of a file, read in chunks: for each, its first
 * PSTORE_HEAD bytes, its length, where it starts.  Memory is constant whatever
 * the lines' lengths.
 */
struct pstore_lines {
        int fd;
        uint64_t left; /* bytes of the range not read yet */
        uint64_t off;  /* the file offset of buf[at] */
        uint64_t line; /* the line number there */
        const volatile sig_atomic_t *quit;
        size_t at, end;
        char buf[16384];
};

struct pstore_line {
        char head[PSTORE_HEAD];
        uint64_t len; /* the whole line's, without its newline */
        uint64_t off, number;
        bool newline;
};

/* The next line: 1, 0 at the end of the range, -errno (-EINTR once *quit is set). */
int pstore_next_line(struct pstore_lines *ls, struct pstore_line *ln);
/* The bytes of a line that were kept in its head: all of a short one. */
size_t pstore_head_len(const struct pstore_line *ln);
/*
 * Open a regular file, O_NONBLOCK: what is not one (a FIFO, a device) is
 * never opened (-EINVAL; a directory -EISDIR), one swapped in between is
 * not read, one over PSTORE_MAX_FILE is -EFBIG.  Returns the descriptor or -errno.
 */
int pstore_open_regular(const char *path, struct stat *st);

#endif
