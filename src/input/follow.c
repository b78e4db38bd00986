/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --follow: wait for new records with poll(2) and no time-out, so that an
 * idle kdmesg makes no system calls at all (with --metrics: one wake-up
 * every --metrics-interval, to write the file).  Output is flushed whenever no
 * further record is ready, before every wait: no record sits in a buffer
 * while kdmesg sleeps.  While records keep coming, sink_end_item() flushes
 * what waited FOLLOW_FLUSH_USEC (run.h).
 *
 * A followed file (-K FILE) is watched with inotify, like "tail -F": it may
 * grow, be truncated (read again from its start) or be replaced by a new
 * file of the same name (the old one is read to its end first).  A pipe or
 * standard input is read until its writer closes it (or to its end, when
 * it is a file).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "text/writer.h"
#include "pipeline/metrics-run.h"
#include "pipeline/run.h"
#include "ship/upload.h"

static void drain_fd(int fd) {
        char buf[4096];

        while (read(fd, buf, sizeof(buf)) > 0)
                ;
}

/*
 * Flush, then sleep until fd (or the optional second descriptor) is
 * readable or a signal asks to stop.  Returns 0 to go on, -EINTR to stop,
 * or -errno.
 */
static int wait_for(struct run *run, int fd, int fd2) {
        /* poll() passes over the entries whose descriptor is -1. */
        struct pollfd p[4] = {
                { .fd = fd, .events = POLLIN },
                { .fd = run->quit_fd, .events = POLLIN },
                { .fd = fd2, .events = POLLIN },
                { .fd = run->upload ? upload_get_fd(run->upload) : -1, .events = POLLIN },
        };

        if (out_flush() < 0 || run->fatal) {
                run->fatal = true;
                return -EIO;
        }
        if (run->upload) {
                /* Idle: what was read is closed into units; it goes when the linger is over (upload.c). */
                upload_idle(run->upload);
                if (upload_failed(run->upload)) {
                        run->status = EXIT_BAD_INPUT;
                        run->fatal = true;
                        return -EIO;
                }
        } else if (run->cursor) {
                /* Idle: what was written is saved as written. */
                int e = cursor_idle(run->cursor);

                if (e < 0) {
                        warnx_(_("cannot update the cursor file %s: %s"), cursor_get_path(run->cursor),
                               strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        run->fatal = true;
                        return -EIO;
                }
        }
        while (!run_quit) {
                /* --metrics: written when due, also while nothing comes. */
                int n = poll(p, 4, run_metrics_idle(run));

                if (n == 0)
                        continue;
                if (n > 0) {
                        /* The upload failed for good while we slept (reported): stop reading. */
                        if (run->upload && upload_failed(run->upload)) {
                                run->status = EXIT_BAD_INPUT;
                                run->fatal = true;
                                return -EIO;
                        }
                        return 0;
                }
                if (errno != EINTR)
                        return -errno;
        }
        return -EINTR;
}

int follow_device(struct run *run, struct kmsg_reader *rd) {
        int e;

        for (;;) {
                e = run_drain(run, rd);
                if (e != -EAGAIN)
                        break;
                e = wait_for(run, kmsg_reader_get_fd(rd), -1);
                if (e < 0)
                        break;
        }
        if (e == -EINTR || e == 0)
                return 0;
        if (e != -EIO) /* not yet reported */
                warnx_(_("cannot wait for /dev/kmsg: %s"), strerror(-e));
        run->status = EXIT_BAD_INPUT;
        return e;
}

/* A pipe, FIFO or terminal: read until the writer closes it. */
static int follow_pipe(struct run *run, struct kmsg_reader *rd) {
        int e;

        for (;;) {
                e = run_drain(run, rd);
                if (e != -EAGAIN)
                        break;
                e = wait_for(run, kmsg_reader_get_fd(rd), -1);
                if (e < 0)
                        break;
        }
        return e == -EINTR ? 0 : e;
}

struct watch {
        int fd;    /* inotify */
        int file;  /* watch on the file */
        int dir;   /* watch on its directory (re-creation, rename) */
};

static int watch_file(struct watch *w, const char *path, int fd) {
        char dir[PATH_MAX];
        const char *slash = strrchr(path, '/');

        if (w->file >= 0)
                inotify_rm_watch(w->fd, w->file);
        w->file = inotify_add_watch(w->fd, path,
                                    IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF | IN_CLOSE_WRITE);
        if (w->file < 0)
                return -errno;
        if (w->dir < 0) {
                if (!slash)
                        strcpy(dir, ".");
                else if (slash == path)
                        strcpy(dir, "/");
                else
                        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
                w->dir = inotify_add_watch(w->fd, dir, IN_CREATE | IN_MOVED_TO);
                if (w->dir < 0)
                        return -errno;
        }
        return 0;
}

/* Read what is left of a file that was replaced, including a last record without newline. */
static int finish_file(struct run *run, struct kmsg_reader *rd) {
        int e;

        kmsg_reader_set_follow(rd, 0);
        e = run_drain(run, rd);
        return e == -EINTR ? e : 0;
}

int follow_stream(struct run *run, const char *path, enum kmsg_format format) {
        struct watch w = { .fd = -1, .file = -1, .dir = -1 };
        struct kmsg_reader *rd = NULL;
        struct stat st, now;
        int e, fd;

        e = kmsg_reader_new_path(path, format, &rd);
        if (e < 0) {
                warnx_(_("cannot open %s: %s"), path, strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run_unread(run, path, false);
                return e;
        }
        run_watch(run, rd);
        fd = kmsg_reader_get_fd(rd);
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                kmsg_reader_set_follow(rd, 1);
                e = follow_pipe(run, rd);
                goto out;
        }
        if (strcmp(path, "-") == 0) {
                /* Standard input from a file: it has no name to watch; read it to its end. */
                e = run_drain(run, rd);
                goto out;
        }
        kmsg_reader_set_follow(rd, 1);
        w.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w.fd < 0 || (e = watch_file(&w, path, fd)) < 0) {
                warnx_(_("%s: cannot watch the file: %s"), path, strerror(errno));
                run->status = EXIT_BAD_INPUT;
                e = -errno;
                goto out;
        }
        for (;;) {
                off_t pos;

                e = run_drain(run, rd);
                if (e != -EAGAIN)
                        break;
                fd = kmsg_reader_get_fd(rd);
                if (fstat(fd, &st) < 0) {
                        e = -errno;
                        break;
                }
                pos = lseek(fd, 0, SEEK_CUR);
                if (stat(path, &now) == 0 && (now.st_ino != st.st_ino || now.st_dev != st.st_dev)) {
                        /* Rotated: finish the old file, then follow the new one from its start. */
                        e = finish_file(run, rd);
                        if (e < 0)
                                break;
                        warnx_(_("%s: file replaced, following the new file"), path);
                        rd = kmsg_reader_unref(rd);
                        e = kmsg_reader_new_path(path, format, &rd);
                        if (e < 0) {
                                warnx_(_("cannot open %s: %s"), path, strerror(-e));
                                run->status = EXIT_BAD_INPUT;
                                break;
                        }
                        run_watch(run, rd);
                        kmsg_reader_set_follow(rd, 1);
                        watch_file(&w, path, kmsg_reader_get_fd(rd));
                        continue;
                }
                if (pos >= 0 && st.st_size < pos) {
                        warnx_(_("%s: file truncated, reading it from the start"), path);
                        rd = kmsg_reader_unref(rd);
                        e = kmsg_reader_new_path(path, format, &rd);
                        if (e < 0) {
                                warnx_(_("cannot open %s: %s"), path, strerror(-e));
                                run->status = EXIT_BAD_INPUT;
                                break;
                        }
                        run_watch(run, rd);
                        kmsg_reader_set_follow(rd, 1);
                        continue;
                }
                e = wait_for(run, w.fd, -1);
                if (e < 0)
                        break;
                drain_fd(w.fd);
        }
out:
        if (w.fd >= 0)
                close(w.fd);
        kmsg_reader_unref(rd);
        if (e == -EINTR || e == 0)
                return 0;
        if (e == -EIO)
                run->status = EXIT_BAD_INPUT;
        return e;
}
