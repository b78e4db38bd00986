/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cursor file: a few "key=value" lines, replaced atomically: written to
 * a new file FILE.tmp.<random> in the same directory (created with O_EXCL
 * and O_NOFOLLOW, so a file or symlink planted there is never written
 * through), fsync()ed, renamed over FILE, and the directory fsync()ed.  The
 * rename is atomic for every reader of the file system, so a killed kdmesg
 * always leaves the old or the new cursor; the fsync()s keep a crash of the
 * whole system from leaving an empty file.  A cursor in a directory anyone
 * can write to without the sticky bit, or a file another user owns, is
 * refused: someone else could replace it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ship/cursor.h"
#include "text/util.h"

struct cursor {
        char *path;
        char *tmp;
        int dir_fd; /* the file's directory, fsync()ed after a rename; -1: none */
        int lock_fd; /* FILE.lock, locked while this run holds the cursor (and its spool); -1: none */
        /* As loaded. */
        bool loaded;
        char boot_id[BOOT_ID_MAX];
        bool has_seq;
        uint64_t seq, usec;
        bool newest;
        bool has_pending;
        uint64_t pending_from, pending;

        /* This run. */
        char cur_boot[BOOT_ID_MAX];
        bool processed;
        uint64_t last_seq, last_usec; /* the last record processed (in the buffer or filtered out) */
        bool batch_open;
        uint64_t batch_first; /* the first record processed since the last write */
        bool written;
        uint64_t written_seq, written_usec; /* the last record of the last write */
        bool dirty; /* the file still names as pending what has been written */
        bool resolved; /* the loaded pending range was reported: save without it */
        uint64_t cycle_records; /* records processed since kdmesg last went idle */
        uint64_t window;        /* records named ahead of a write: twice the last busy spell */

        /* What the file says now. */
        bool disk_valid; /* written by this run */
        bool disk_has_seq;
        uint64_t disk_seq, disk_usec;
        bool disk_has_pending;
        uint64_t disk_pending;
};

/*
 * The file is a few short lines: anything that is not a small regular file
 * without NUL bytes is refused before it is parsed (a device such as
 * /dev/zero would never end).
 */
static int read_file(struct cursor *c, int fd, char *err, size_t errlen) {
        char buf[CURSOR_SIZE_MAX + 1];
        size_t n = 0;
        struct cursor_state parsed;
        struct stat st;
        int e;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode)) {
                snprintf(err, errlen, "is a directory");
                return -EBADMSG;
        }
        if (!S_ISREG(st.st_mode)) {
                snprintf(err, errlen, "not a regular file");
                return -EBADMSG;
        }
        if (st.st_uid != geteuid()) {
                snprintf(err, errlen, "owned by uid %u, not by this user (uid %u)", (unsigned)st.st_uid,
                         (unsigned)geteuid());
                return -EBADMSG;
        }
        while (n < sizeof(buf) && st.st_size <= CURSOR_SIZE_MAX) {
                ssize_t k = read(fd, buf + n, sizeof(buf) - n);

                if (k < 0 && errno == EINTR)
                        continue;
                if (k < 0)
                        return -errno;
                if (k == 0)
                        break;
                n += (size_t)k;
        }
        if (st.st_size > CURSOR_SIZE_MAX || n > CURSOR_SIZE_MAX) {
                snprintf(err, errlen, "larger than %d bytes: not a cursor file", CURSOR_SIZE_MAX);
                return -EILSEQ;
        }
        e = cursor_parse(buf, n, &parsed, err, errlen);
        /* What it holds is no cursor: the caller says how to start over. */
        if (e == -EBADMSG)
                return -EILSEQ;
        if (e < 0)
                return e;
        c->loaded = parsed.loaded;
        memcpy(c->boot_id, parsed.boot_id, sizeof(c->boot_id));
        c->has_seq = parsed.has_seq;
        c->seq = parsed.seq;
        c->usec = parsed.usec;
        c->newest = parsed.newest;
        c->has_pending = parsed.has_pending;
        c->pending_from = parsed.pending_from;
        c->pending = parsed.pending;
        return 0;
}

/*
 * The directory the file is replaced in: refused if anyone can write to it
 * and it has no sticky bit.  Kept open to fsync() it after each rename.  A
 * directory that does not exist is left to the first save to report.
 */
static int open_dir(struct cursor *c, char *err, size_t errlen) {
        const char *slash = strrchr(c->path, '/');
        struct stat st;
        char *dir;
        int e = 0;

        if (!slash)
                dir = strdup(".");
        else
                dir = strndup(c->path, slash == c->path ? 1 : (size_t)(slash - c->path));
        if (!dir)
                return -ENOMEM;
        if (stat(dir, &st) < 0)
                e = errno == ENOENT ? 0 : -errno;
        else if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
                snprintf(err, errlen, "in a world-writable directory without the sticky bit");
                e = -EBADMSG;
        } else
                c->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        free(dir);
        return e;
}

/*
 * One process at a time keeps a cursor file: a write lock on FILE.lock
 * (the cursor itself is replaced by each save, so it cannot carry one),
 * held until the process ends.  The lock file stays; removing it would
 * let a third process lock a new file while the second holds the old.
 * A lock file that cannot be created (a read-only directory) is gone
 * without: the cursor could not be saved there either.  -EBUSY with the
 * holder's pid in err (decimal; "" unknown) when another holds it.
 */
static int lock_file(struct cursor *c, char *err, size_t errlen) {
        struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
        struct stat st;
        char *name;
        int fd;

        if (asprintf(&name, "%s.lock", c->path) < 0)
                return -ENOMEM;
        fd = open(name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0600);
        free(name);
        if (fd < 0)
                return errno == EACCES || errno == EROFS || errno == EPERM ? 0 : -errno;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                snprintf(err, errlen, "%s", "its .lock is not a regular file");
                return -EBADMSG;
        }
        if (fcntl(fd, F_SETLK, &fl) < 0) {
                int e = errno;

                if (e == EAGAIN || e == EACCES) {
                        fl = (struct flock){ .l_type = F_WRLCK, .l_whence = SEEK_SET };
                        if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK && fl.l_pid > 0)
                                snprintf(err, errlen, "%ld", (long)fl.l_pid);
                        else
                                snprintf(err, errlen, "%s", "");
                        close(fd);
                        return -EBUSY;
                }
                close(fd);
                /* No locks on this file system: as without a lock file. */
                return e == ENOLCK || e == EOPNOTSUPP ? 0 : -e;
        }
        c->lock_fd = fd;
        return 0;
}

int cursor_load(const char *path, struct cursor **ret, char *err, size_t errlen) {
        struct cursor *c = calloc(1, sizeof(*c));
        int fd, e = 0;

        if (!c)
                return -ENOMEM;
        c->dir_fd = c->lock_fd = -1;
        c->path = strdup(path);
        /* The name is filled in by each save. */
        if (!c->path || asprintf(&c->tmp, "%s.tmp.%016x", path, 0) < 0) {
                c->tmp = NULL;
                cursor_free(c);
                return -ENOMEM;
        }
        e = open_dir(c, err, errlen);
        if (e == 0)
                e = lock_file(c, err, errlen);
        if (e < 0) {
                cursor_free(c);
                return e;
        }
        /* O_NONBLOCK: a FIFO does not block the open; it is refused as not a regular file. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd >= 0) {
                e = read_file(c, fd, err, errlen);
                close(fd);
        } else if (errno != ENOENT)
                e = -errno;
        if (e < 0) {
                cursor_free(c);
                return e;
        }
        *ret = c;
        return 0;
}

void cursor_free(struct cursor *c) {
        if (!c)
                return;
        if (c->dir_fd >= 0)
                close(c->dir_fd);
        if (c->lock_fd >= 0)
                close(c->lock_fd);
        free(c->path);
        free(c->tmp);
        free(c);
}

const char *cursor_get_path(const struct cursor *c) {
        return c->path;
}

const char *cursor_get_current_boot_id(const struct cursor *c) {
        return c->cur_boot;
}

void cursor_set_spooled(struct cursor *c, const char *boot_id, uint64_t seq, uint64_t usec, bool newest) {
        c->loaded = true;
        snprintf(c->boot_id, sizeof(c->boot_id), "%s", boot_id);
        c->has_seq = true;
        c->seq = seq;
        c->usec = usec;
        c->newest = newest;
        c->has_pending = false;
}

const char *cursor_get_boot_id(const struct cursor *c) {
        return c->loaded ? c->boot_id : NULL;
}

bool cursor_get_seq(const struct cursor *c, uint64_t *ret_seq, uint64_t *ret_usec) {
        if (!c->loaded || !c->has_seq)
                return false;
        *ret_seq = c->seq;
        *ret_usec = c->usec;
        return true;
}

bool cursor_get_newest(const struct cursor *c) {
        return c->loaded && c->has_seq && c->newest;
}

bool cursor_get_pending(const struct cursor *c, uint64_t *ret_from, uint64_t *ret_to) {
        if (!c->loaded || !c->has_pending)
                return false;
        *ret_from = c->pending_from;
        *ret_to = c->pending;
        return true;
}

void cursor_set_boot_id(struct cursor *c, const char *boot_id) {
        snprintf(c->cur_boot, sizeof(c->cur_boot), "%s", boot_id);
        if (c->loaded && strcmp(c->boot_id, c->cur_boot) == 0) {
                /* Resuming: records up to the pending ones are behind us. */
                c->disk_has_seq = c->has_seq || c->has_pending;
                c->disk_seq = c->has_pending ? c->pending : c->seq;
                c->disk_usec = c->usec;
        }
}

void cursor_resume(struct cursor *c, uint64_t next, uint64_t usec) {
        c->disk_has_seq = next > 0;
        c->disk_seq = next > 0 ? next - 1 : 0;
        c->disk_usec = usec;
        /* A pending range is settled: the file must say so even if nothing new comes. */
        c->resolved = c->has_pending;
}

void cursor_start_after(struct cursor *c, uint64_t seq, uint64_t usec) {
        c->processed = c->written = c->dirty = true;
        c->last_seq = c->written_seq = seq;
        c->last_usec = c->written_usec = usec;
}

void cursor_record(struct cursor *c, uint64_t seq, uint64_t usec) {
        c->cycle_records++;
        c->processed = true;
        c->last_seq = seq;
        c->last_usec = usec;
        if (!c->batch_open) {
                c->batch_open = true;
                c->batch_first = seq;
        }
}

/*
 * A new file beside the cursor, under a name nobody can guess: O_EXCL never
 * opens what is there already, and O_NOFOLLOW never follows a symlink.
 */
static int create_tmp(struct cursor *c) {
        size_t base = strlen(c->path) + strlen(".tmp.");
        int i;

        for (i = 0; i < 16; i++) {
                uint64_t r;
                int fd;

                if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
                        r = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&r ^ (uint64_t)i;
                snprintf(c->tmp + base, 17, "%016llx", (unsigned long long)r);
                fd = open(c->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
                if (fd >= 0 || errno != EEXIST)
                        return fd >= 0 ? fd : -errno;
        }
        return -EEXIST;
}

/* Write the file: boot (this run's when NULL) and the rest. */
static int save_as(struct cursor *c, const char *boot, bool has_seq, uint64_t seq, uint64_t usec, bool newest,
                   bool has_pending, uint64_t from, uint64_t pending) {
        struct cursor_state st = { .has_seq = has_seq, .seq = seq, .usec = usec, .newest = newest,
                                   .has_pending = has_pending, .pending_from = from, .pending = pending };
        char buf[320];
        int fd, len, e = 0;

        snprintf(st.boot_id, sizeof(st.boot_id), "%s", boot ? boot : c->cur_boot);
        len = cursor_format(&st, buf, sizeof(buf));
        if (len < 0)
                return len;
        fd = create_tmp(c);
        if (fd < 0)
                return fd;
        errno = 0;
        if (write(fd, buf, (size_t)len) != len)
                e = errno ? -errno : -EIO;
        if (e == 0 && fsync(fd) < 0)
                e = -errno;
        if (close(fd) < 0 && e == 0)
                e = -errno;
        if (e == 0 && rename(c->tmp, c->path) < 0)
                e = -errno;
        if (e < 0) {
                unlink(c->tmp);
                return e;
        }
        /* The rename is on disk too: a crash cannot bring back the old file (or none). */
        if (c->dir_fd >= 0 && fsync(c->dir_fd) < 0)
                return -errno;
        /* What this run keeps of the file is about its own boot. */
        if (boot)
                return 0;
        c->disk_valid = true;
        c->disk_has_seq = has_seq;
        c->disk_seq = seq;
        c->disk_usec = usec;
        c->disk_has_pending = has_pending;
        c->disk_pending = pending;
        return 0;
}

static int save(struct cursor *c, bool has_seq, uint64_t seq, uint64_t usec, bool has_pending, uint64_t from,
                uint64_t pending) {
        return save_as(c, NULL, has_seq, seq, usec, false, has_pending, from, pending);
}

/*
 * Right before a write: the records in it are pending.  Replacing the file
 * costs at least half a millisecond (two fsync()s: more on a slow disk),
 * too much for every write when following, which writes at least every
 * millisecond while records come (and uploading, per record).
 * So the file names more records as pending than this write has: as many
 * again as were processed since kdmesg was last idle, or twice as many as
 * in the last busy spell, whichever is more; the writes that follow within
 * that range need no save.  A busy spell of N records costs about log2(N)
 * saves, then one per spell.  That the records were written is saved when
 * kdmesg goes idle or ends (cursor_idle()), or with the next save.
 */
int cursor_before_write(struct cursor *c) {
        bool has_seq = c->written || c->disk_has_seq;
        uint64_t seq = c->written ? c->written_seq : c->disk_seq;
        uint64_t usec = c->written ? c->written_usec : c->disk_usec;
        uint64_t ahead;

        if (!c->batch_open)
                return 0; /* no record in this write */
        if (c->disk_valid && c->disk_has_pending && c->last_seq <= c->disk_pending)
                return 0; /* the file already names these records */
        ahead = c->window > c->cycle_records ? c->window : c->cycle_records;
        if (ahead > CURSOR_WINDOW_MAX)
                ahead = CURSOR_WINDOW_MAX;
        return save(c, has_seq, seq, usec, true, c->batch_first, c->last_seq + ahead);
}

int cursor_after_write(struct cursor *c) {
        if (!c->batch_open)
                return 0;
        c->written = true;
        c->written_seq = c->last_seq;
        c->written_usec = c->last_usec;
        c->batch_open = false;
        c->dirty = true;
        return 0;
}

int cursor_idle(struct cursor *c) {
        if (c->cycle_records > 0) {
                c->window = 2 * c->cycle_records;
                c->cycle_records = 0;
        }
        if (!c->processed || (!c->dirty && !c->batch_open))
                return 0;
        c->dirty = c->batch_open = false;
        c->written = true;
        c->written_seq = c->last_seq;
        c->written_usec = c->last_usec;
        return save(c, true, c->last_seq, c->last_usec, false, 0, 0);
}

int cursor_commit(struct cursor *c, const char *boot_id, uint64_t seq, uint64_t usec, bool newest) {
        int e;

        /* A record of an earlier boot (the spool's): the file names it with its boot; this run's state stays. */
        if (boot_id && strcmp(boot_id, c->cur_boot) != 0)
                return save_as(c, boot_id, true, seq, usec, newest, false, 0, 0);
        e = save_as(c, NULL, true, seq, usec, newest, false, 0, 0);

        /*
         * Delivered is behind everything processed before (-W's start): the
         * save at exit keeps it, never goes back to an older record.
         */
        if (e == 0 && (!c->processed || seq >= c->last_seq)) {
                c->processed = c->written = true;
                c->last_seq = c->written_seq = seq;
                c->last_usec = c->written_usec = usec;
                c->dirty = c->batch_open = false;
        }
        return e;
}

int cursor_sync(struct cursor *c) {
        if (!c->disk_valid && !c->processed) {
                bool same = c->loaded && strcmp(c->boot_id, c->cur_boot) == 0;

                /* Nothing written: a new boot id, or a settled pending range, needs saving. */
                if (same && c->resolved)
                        return save(c, c->disk_has_seq, c->disk_seq, c->disk_usec, false, 0, 0);
                if (same)
                        return 0;
                return save(c, false, 0, 0, false, 0, 0);
        }
        return cursor_idle(c);
}
