/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --upload's spool on disk (upload-spool.h).  Appends are written with
 * pwrite(2) and synced by spool_sync() when the caller says; a rewrite goes to "units.tmp", is synced,
 * renamed over "units" and the directory synced, as the cursor file is
 * replaced: a crash leaves the old file or the new one, and at worst a
 * frame cut short at the end, which spool_load() finds by its length and
 * CRC and cuts off.  Frames are little-endian:
 *
 *   0  "KSPU"          44 boot id (48 bytes, NUL-padded)
 *   4  u32 data length 92 u32 CRC-32 of bytes 0-91 and the data
 *   8  u64 seq         96 the data
 *  16  u64 usec
 *  24  u64 lost        (a loss entry of the spool's own: how many records,
 *  32  u64 lost_first   from which seq)
 *  40  u32 flags       (1: it holds a record with a sequence number;
 *                       2: its entry took the place of a refused one;
 *                       4: its record was the newest in the ring when read)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ship/upload-spool.h"

#define FRAME_MAGIC "KSPU"
#define FLAG_SEQ 1u
#define FLAG_REPLACED 2u
#define FLAG_NEWEST 4u
/*
 * The most bytes a frame's data may claim: more is a damaged length.  A
 * unit is one record's entries, and a record is at most 8 MiB of input.
 */
#define FRAME_DATA_MAX (32u << 20)

struct spool {
        char *dir, *path;
        int dir_fd, fd;
        bool writable;
        uint64_t size;
        char head[SPOOL_FILE_HEAD];
};

uint32_t spool_crc32(uint32_t crc, const void *p, size_t len) {
        /* CRC-32 (IEEE 802.3, reflected), four bits at a time: a 16-entry table. */
        static const uint32_t nibble[16] = {
                0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
                0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
        };
        const unsigned char *b = p;
        size_t i;

        crc = ~crc;
        for (i = 0; i < len; i++) {
                crc = (crc >> 4) ^ nibble[(crc ^ b[i]) & 0xf];
                crc = (crc >> 4) ^ nibble[(crc ^ (b[i] >> 4)) & 0xf];
        }
        return ~crc;
}

static void put32(char *p, uint32_t v) {
        int i;

        for (i = 0; i < 4; i++, v >>= 8)
                p[i] = (char)(v & 0xff);
}

static void put64(char *p, uint64_t v) {
        int i;

        for (i = 0; i < 8; i++, v >>= 8)
                p[i] = (char)(v & 0xff);
}

static uint32_t get32(const char *p) {
        uint32_t v = 0;
        int i;

        for (i = 3; i >= 0; i--)
                v = v << 8 | (unsigned char)p[i];
        return v;
}

static uint64_t get64(const char *p) {
        uint64_t v = 0;
        int i;

        for (i = 7; i >= 0; i--)
                v = v << 8 | (unsigned char)p[i];
        return v;
}

size_t spool_frame_size(size_t len) {
        return SPOOL_FRAME_HEAD + len;
}

void spool_frame(char *dst, const struct spool_rec *r, const char *data, size_t len) {
        uint32_t crc;

        memcpy(dst, FRAME_MAGIC, 4);
        put32(dst + 4, (uint32_t)len);
        put64(dst + 8, r->seq);
        put64(dst + 16, r->usec);
        put64(dst + 24, r->lost);
        put64(dst + 32, r->lost_first);
        put32(dst + 40,
              (r->has_seq ? FLAG_SEQ : 0) | (r->replaced ? FLAG_REPLACED : 0) | (r->newest ? FLAG_NEWEST : 0));
        memset(dst + 44, 0, SPOOL_BOOT_MAX);
        memcpy(dst + 44, r->boot, strnlen(r->boot, SPOOL_BOOT_MAX - 1));
        crc = spool_crc32(0, dst, 92);
        crc = spool_crc32(crc, data, len);
        put32(dst + 92, crc);
        if (len)
                memcpy(dst + SPOOL_FRAME_HEAD, data, len);
}

/* The frame at p (avail bytes): its record and data length; false when it is cut short or damaged. */
static bool unframe(const char *p, uint64_t avail, struct spool_rec *r, size_t *ret_len) {
        uint32_t len, crc;

        if (avail < SPOOL_FRAME_HEAD || memcmp(p, FRAME_MAGIC, 4) != 0)
                return false;
        len = get32(p + 4);
        if (len > FRAME_DATA_MAX || avail - SPOOL_FRAME_HEAD < len)
                return false;
        crc = spool_crc32(0, p, 92);
        crc = spool_crc32(crc, p + SPOOL_FRAME_HEAD, len);
        if (crc != get32(p + 92) || p[44 + SPOOL_BOOT_MAX - 1] != '\0')
                return false;
        *r = (struct spool_rec){ .has_seq = (get32(p + 40) & FLAG_SEQ) != 0,
                                 .replaced = (get32(p + 40) & FLAG_REPLACED) != 0,
                                 .newest = (get32(p + 40) & FLAG_NEWEST) != 0, .seq = get64(p + 8),
                                 .usec = get64(p + 16), .lost = get64(p + 24), .lost_first = get64(p + 32) };
        memcpy(r->boot, p + 44, SPOOL_BOOT_MAX);
        *ret_len = len;
        return true;
}

static int write_all(int fd, const char *p, size_t len, uint64_t off) {
        while (len > 0) {
                ssize_t k = pwrite(fd, p, len, (off_t)off);

                if (k < 0 && errno == EINTR)
                        continue;
                if (k < 0)
                        return -errno;
                if (k == 0)
                        return -EIO;
                p += k;
                len -= (size_t)k;
                off += (uint64_t)k;
        }
        return 0;
}

/* A directory or file only this user may replace, as the cursor's (cursor.c). */
static const char *unsafe(const struct stat *st, bool dir) {
        if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
                return dir ? "not a directory" : "not a regular file";
        if (st->st_uid != geteuid())
                return "owned by another user";
        if ((st->st_mode & S_IWOTH) && !(st->st_mode & S_ISVTX))
                return "writable by anyone";
        return NULL;
}

/* Cut the file at off (what follows is left out); synced, so a crash cannot bring it back. */
static void cut(struct spool *s, uint64_t off) {
        if (!s->writable)
                return;
        if (ftruncate(s->fd, (off_t)off) == 0 && fdatasync(s->fd) == 0)
                s->size = off;
}

int spool_open(const char *cursor_path, const char *format, struct spool **ret, char *err, size_t errlen) {
        struct spool *s = calloc(1, sizeof(*s));
        const char *why;
        struct stat st;
        int e;

        *ret = NULL;
        if (!s)
                return -ENOMEM;
        s->dir_fd = s->fd = -1;
        if (asprintf(&s->dir, "%s.spool", cursor_path) < 0) {
                free(s);
                return -ENOMEM;
        }
        if (asprintf(&s->path, "%s/units", s->dir) < 0) {
                s->path = NULL;
                spool_free(s);
                return -ENOMEM;
        }
        snprintf(s->head, sizeof(s->head), "kdmesg-spool 1 %s\n", format);
        snprintf(err, errlen, "%s", s->dir);
        if (mkdir(s->dir, 0700) < 0 && errno != EEXIST) {
                e = -errno;
                spool_free(s);
                return e;
        }
        s->dir_fd = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (s->dir_fd < 0 || fstat(s->dir_fd, &st) < 0) {
                e = errno == ELOOP ? -ENOTDIR : -errno;
                spool_free(s);
                return e;
        }
        why = unsafe(&st, true);
        if (why) {
                snprintf(err, errlen, "%s: %s", s->dir, why);
                spool_free(s);
                return -EPERM;
        }
        snprintf(err, errlen, "%s", s->path);
        s->fd = openat(s->dir_fd, "units", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (s->fd < 0) {
                e = -errno;
                /* Not writable: what an earlier run left is still sent. */
                s->fd = openat(s->dir_fd, "units", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                if (s->fd < 0 || fstat(s->fd, &st) < 0 || unsafe(&st, false)) {
                        spool_free(s);
                        return e;
                }
                s->size = (uint64_t)st.st_size;
                *ret = s;
                return e;
        }
        s->writable = true;
        if (fstat(s->fd, &st) < 0) {
                e = -errno;
                spool_free(s);
                return e;
        }
        why = unsafe(&st, false);
        if (why) {
                snprintf(err, errlen, "%s: %s", s->path, why);
                spool_free(s);
                return -EPERM;
        }
        s->size = (uint64_t)st.st_size;
        if (s->size == 0) {
                e = write_all(s->fd, s->head, sizeof(s->head), 0);
                if (e == 0 && (fdatasync(s->fd) < 0 || fsync(s->dir_fd) < 0))
                        e = -errno;
                if (e < 0) {
                        /* Left empty: nothing was in it. */
                        cut(s, 0);
                        s->writable = false;
                        *ret = s;
                        return e;
                }
                s->size = sizeof(s->head);
        }
        *ret = s;
        return 0;
}

void spool_free(struct spool *s) {
        if (!s)
                return;
        if (s->fd >= 0)
                close(s->fd);
        if (s->dir_fd >= 0)
                close(s->dir_fd);
        free(s->dir);
        free(s->path);
        free(s);
}

const char *spool_get_path(const struct spool *s) {
        return s->path;
}

bool spool_writable(const struct spool *s) {
        return s->writable;
}

uint64_t spool_size(const struct spool *s) {
        return s->size;
}

/* Read len bytes at off into p: 0, -errno, or 1 when the file ends first. */
static int read_at(int fd, char *p, size_t len, uint64_t off) {
        while (len > 0) {
                ssize_t k = pread(fd, p, len, (off_t)off);

                if (k < 0 && errno == EINTR)
                        continue;
                if (k < 0)
                        return -errno;
                if (k == 0)
                        return 1;
                p += k;
                len -= (size_t)k;
                off += (uint64_t)k;
        }
        return 0;
}

int spool_load(struct spool *s, int (*unit)(void *userdata, const struct spool_rec *r, const char *data, size_t len),
               void *userdata, uint64_t *ret_bad_at, uint64_t *ret_bad_len) {
        uint64_t off = SPOOL_FILE_HEAD, size = s->size;
        char head[SPOOL_FILE_HEAD], *buf = NULL;
        size_t cap = 0;
        int e;

        *ret_bad_at = *ret_bad_len = 0;
        if (size == 0)
                return 0;
        /* The header first: a file that is no spool of this format is not read at all, however large. */
        e = size < SPOOL_FILE_HEAD ? 1 : read_at(s->fd, head, sizeof(head), 0);
        if (e < 0)
                return e;
        if (e > 0 || memcmp(head, s->head, SPOOL_FILE_HEAD) != 0) {
                /* Another format, another version, or a header cut short: nothing in it can be sent. */
                *ret_bad_len = size;
                if (s->writable) {
                        cut(s, 0);
                        if (write_all(s->fd, s->head, sizeof(s->head), 0) == 0 && fdatasync(s->fd) == 0)
                                s->size = sizeof(s->head);
                        else
                                s->writable = false;
                }
                return 0;
        }
        /* Then frame by frame: each length is checked against the file and the bound before its data is read. */
        e = 0;
        while (off < size) {
                struct spool_rec r;
                size_t len;
                uint32_t n;
                int k;

                if (size - off < SPOOL_FRAME_HEAD)
                        goto bad;
                if (cap < SPOOL_FRAME_HEAD) {
                        cap = 64 * 1024;
                        buf = malloc(cap);
                        if (!buf)
                                return -ENOMEM;
                }
                k = read_at(s->fd, buf, SPOOL_FRAME_HEAD, off);
                if (k < 0) {
                        e = k;
                        break;
                }
                n = get32(buf + 4);
                if (k > 0 || memcmp(buf, FRAME_MAGIC, 4) != 0 || n > FRAME_DATA_MAX ||
                    size - off - SPOOL_FRAME_HEAD < n)
                        goto bad;
                if (SPOOL_FRAME_HEAD + (size_t)n > cap) {
                        size_t c = cap;
                        char *p;

                        while (c < SPOOL_FRAME_HEAD + (size_t)n)
                                c *= 2;
                        p = realloc(buf, c);
                        if (!p) {
                                e = -ENOMEM;
                                break;
                        }
                        buf = p;
                        cap = c;
                }
                k = read_at(s->fd, buf + SPOOL_FRAME_HEAD, n, off + SPOOL_FRAME_HEAD);
                if (k < 0) {
                        e = k;
                        break;
                }
                if (k > 0 || !unframe(buf, SPOOL_FRAME_HEAD + (uint64_t)n, &r, &len))
                        goto bad;
                e = unit(userdata, &r, buf + SPOOL_FRAME_HEAD, len);
                if (e < 0)
                        break;
                off += SPOOL_FRAME_HEAD + len;
                continue;
bad:
                *ret_bad_at = off;
                *ret_bad_len = size - off;
                cut(s, off);
                break;
        }
        free(buf);
        return e;
}

int spool_write(struct spool *s, const char *frames, size_t len) {
        int e;

        if (!s->writable)
                return -EROFS;
        e = write_all(s->fd, frames, len, s->size);
        if (e < 0) {
                /* No frame cut short is left behind where it can be helped. */
                if (ftruncate(s->fd, (off_t)s->size) < 0) {
                }
                return e;
        }
        s->size += len;
        return 0;
}

int spool_sync(struct spool *s) {
        if (!s->writable)
                return -EROFS;
        return fdatasync(s->fd) < 0 ? -errno : 0;
}

int spool_rewrite(struct spool *s, const char *frames, size_t len) {
        int fd, e;

        if (!s->writable)
                return -EROFS;
        unlinkat(s->dir_fd, "units.tmp", 0);
        fd = openat(s->dir_fd, "units.tmp", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return -errno;
        e = write_all(fd, s->head, sizeof(s->head), 0);
        if (e == 0)
                e = write_all(fd, frames, len, sizeof(s->head));
        if (e == 0 && fdatasync(fd) < 0)
                e = -errno;
        if (e == 0 && renameat(s->dir_fd, "units.tmp", s->dir_fd, "units") < 0)
                e = -errno;
        if (e < 0) {
                close(fd);
                unlinkat(s->dir_fd, "units.tmp", 0);
                return e;
        }
        /* The rename on disk too: a crash cannot bring the old units back. */
        if (fsync(s->dir_fd) < 0)
                e = -errno;
        close(s->fd);
        s->fd = fd;
        s->size = sizeof(s->head) + len;
        return e;
}

int spool_clear(struct spool *s) {
        if (!s->writable)
                return -EROFS;
        if (s->size <= sizeof(s->head))
                return 0;
        /*
         * Not synced here: the next spool_sync() does.  Should the old size
         * come back after a power loss, its units are those the cursor
         * names as delivered, left out when the file is loaded (a boot's
         * records after the cursor's only are sent).
         */
        if (ftruncate(s->fd, (off_t)sizeof(s->head)) < 0)
                return -errno;
        s->size = sizeof(s->head);
        return 0;
}
