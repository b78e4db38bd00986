/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --pstore: the dump a crash left, as one record stream through the usual
 * pipeline (every view, filter and --problems), oldest part first; missing
 * parts are losses where they were.  --pstore --list: the dumps.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"
#include "text/writer.h"
#include "input/pstore.h"
#include "input/pstore-read.h"
#include "input/source.h"
#include "text/util.h"

static void when(time_t t, char *buf, size_t size) {
        struct tm tm;

        if (!localtime_r(&t, &tm) || strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm) == 0)
                snprintf(buf, size, "@%lld", (long long)t);
}

/* "3-1", "3,1": the part numbers, oldest first. */
static void part_list(const struct pstore_dump *d, char *buf, size_t size) {
        size_t i, n = 0;

        buf[0] = '\0';
        for (i = 0; i < d->n_parts && n < size; i++) {
                bool run_on = i > 0 && i + 1 < d->n_parts && d->parts[i - 1].part == d->parts[i].part + 1 &&
                              d->parts[i].part == d->parts[i + 1].part + 1;

                if (run_on) {
                        if (buf[n - 1] != '-')
                                n += (size_t)snprintf(buf + n, size - n, "-");
                        continue;
                }
                if (i > 0 && buf[n - 1] != '-')
                        n += (size_t)snprintf(buf + n, size - n, ",");
                n += (size_t)snprintf(buf + n, size - n, "%u", d->parts[i].part);
        }
}

static void reason_of(const struct pstore_dump *d, char *buf, size_t size) {
        if (d->reason[0])
                snprintf(buf, size, "%s#%u", d->reason, d->count);
        else
                snprintf(buf, size, "?");
}

static const char *root_of(const char *root) {
        return root && *root ? root : "";
}

/* A path as it is on the machine of the dump: without the --sysroot directory. */
static const char *on_machine(const char *root, const char *path) {
        size_t n = root ? strlen(root) : 0;

        return n > 0 && strncmp(path, root, n) == 0 && path[n] == '/' ? path + n : path;
}

/*
 * Whether root's /sys/fs/pstore is no pstore file system: there the kernel
 * shows no dumps, whatever its backend holds.  An empty directory (the
 * mount point before the mount, or a saved tree's) is not mounted; one
 * with files is the pstore whose files they are.
 */
static bool pstore_unmounted(const char *root) {
        char path[4096];
        struct statfs sf;
        DIR *d;
        struct dirent *de;
        bool empty = true;

        snprintf(path, sizeof(path), "%s/sys/fs/pstore", root_of(root));
        if (statfs(path, &sf) == 0 && sf.f_type == PSTOREFS_MAGIC)
                return false;
        if (!(d = opendir(path)))
                return false;
        while (empty && (de = readdir(d)))
                empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
        closedir(d);
        return empty;
}

/* No dumps: say so (for --list on standard output, a report's empty line), and how to mount pstore. */
static void say_none(const char *root, bool list) {
        if (list) {
                char buf[8400];

                /* The --sysroot directory is the user's: made safe for the terminal. */
                snprintf(buf, sizeof(buf), _("-- No pstore dumps in %s/sys/fs/pstore or %s/var/lib/systemd/pstore --"),
                         root_of(root), root_of(root));
                out_text(buf, strlen(buf), false);
                out_putc('\n');
        } else
                warnx_(_("no pstore dumps in %s/sys/fs/pstore or %s/var/lib/systemd/pstore"), root_of(root),
                       root_of(root));
        if (pstore_unmounted(root))
                warnx_(_("%s/sys/fs/pstore is empty and no pstore file system: pstore is not mounted; "
                         "mount it with: mount -t pstore pstore /sys/fs/pstore"),
                       root_of(root));
}

int pstore_list(const char *root) {
        struct pstore_set set;
        size_t i;
        int status, e;

        e = pstore_scan(root, &set, warnx_, &run_quit);
        if (e < 0) {
                if (e != -EINTR)
                        warnx_("%s", strerror(-e));
                return EXIT_BAD_INPUT;
        }
        status = set.errors ? EXIT_BAD_INPUT : 0;
        /* None is an answer, not an error (unless a file could not be read). */
        if (set.n == 0) {
                if (!set.errors)
                        say_none(root, true);
                pstore_set_done(&set);
                return status;
        }
        out_puts(_(" N WRITTEN             REASON     PARTS   MISSING BACKEND  SOURCE\n"));
        for (i = 0; i < set.n; i++) {
                const struct pstore_dump *d = &set.dumps[i];
                char buf[400], written[64], reason[48], parts[64], backend[4 * sizeof(d->backend) + 1];

                when(d->written, written, sizeof(written));
                reason_of(d, reason, sizeof(reason));
                part_list(d, parts, sizeof(parts));
                /* The backend is part of a file name: anything but '-' and '.'. */
                text_safe_into(backend, d->backend, strlen(d->backend), false);
                snprintf(buf, sizeof(buf), "%2zu %-19s %-10s %-7s %7" PRIu64 " %-8s ", i + 1, written, reason, parts,
                         pstore_dump_missing(d), backend[0] ? backend : "?");
                out_puts(buf);
                out_text(on_machine(root, d->source), strlen(on_machine(root, d->source)), false);
                out_putc('\n');
        }
        pstore_set_done(&set);
        return status;
}

/* A loss for the missing parts between (or after) the parts read. */
static int missing_loss(struct run *run, bool has_before, uint64_t before, bool has_after, uint64_t after) {
        struct kmsg_loss *l;
        int e = kmsg_loss_new(0, 0, KMSG_LOSS_GAP, &l);

        if (e < 0)
                return e;
        if (has_before)
                kmsg_loss_set_before(l, before);
        if (has_after)
                kmsg_loss_set_after(l, after);
        e = run_loss(run, l);
        kmsg_loss_unref(l);
        return e;
}

/* One part through the pipeline, read from its file by its range. */
static void read_part(struct run *run, const struct pstore_part *p) {
        struct kmsg_reader *rd;
        int fd = pstore_part_open(p), e;

        if (fd < 0) {
                if (fd == -EINVAL)
                        warnx_(_("%s: not a regular file: skipped"), p->path);
                else
                        warnx_(_("cannot read %s: %s"), p->path, strerror(-fd));
                run->status = EXIT_BAD_INPUT;
                run_unread(run, p->path, false);
                return;
        }
        e = kmsg_reader_new_fd(fd, p->path, KMSG_FORMAT_SYSLOG, &rd);
        if (e >= 0)
                e = kmsg_reader_set_range(rd, p->length, p->line);
        if (e < 0) {
                warnx_(_("cannot read %s: %s"), p->path, strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run_unread(run, p->path, false);
        } else {
                run_watch(run, rd);
                run_drain(run, rd);
        }
        kmsg_reader_unref(rd);
        close(fd);
}

/* Whether a part is missing between two parts read, oldest first; duplicates are no gap. */
static bool gap_between(const struct pstore_part *older, const struct pstore_part *newer) {
        return older->part > newer->part + 1;
}

void read_pstore(struct run *run, const struct input *in) {
        struct pstore_set set;
        const struct pstore_dump *d;
        char written[64], reason[48], parts[64];
        uint64_t last = 0;
        bool have_last = false;
        size_t i;
        int e;

        e = pstore_scan(in->root, &set, warnx_, &run_quit);
        if (e < 0) {
                if (e != -EINTR)
                        warnx_("%s", strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run_unread(run, "pstore", false);
                return;
        }
        if (set.errors)
                run->status = EXIT_BAD_INPUT;
        if (set.n == 0) {
                if (!set.errors)
                        say_none(in->root, false);
                run->status = EXIT_BAD_INPUT;
                run_unread(run, "pstore", false);
                pstore_set_done(&set);
                return;
        }
        if (in->pstore_pick > set.n) {
                warnx_(_("--pstore=%u: there are %zu dumps (see --pstore --list)"), in->pstore_pick, set.n);
                run->status = EXIT_BAD_INPUT;
                run_unread(run, "pstore", false);
                pstore_set_done(&set);
                return;
        }
        d = &set.dumps[in->pstore_pick ? in->pstore_pick - 1 : 0];
        when(d->written, written, sizeof(written));
        reason_of(d, reason, sizeof(reason));
        part_list(d, parts, sizeof(parts));
        /* What the dump is, on standard error: the output stays the records'. */
        warnx_(_("pstore: %s, written %s, parts %s (%s)"), reason, written, parts,
               on_machine(in->root, d->source));
        if (pstore_dump_missing(d) > 0)
                /* At most the oldest part's number, an unsigned: it fits %u. */
                warnx_(P_("pstore: %s: %u part missing: the lost messages are marked where they were",
                          "pstore: %s: %u parts missing: the lost messages are marked where they were",
                          (unsigned long)pstore_dump_missing(d)),
                       reason, (unsigned)pstore_dump_missing(d));
        if (pstore_dump_duplicates(d) > 0)
                warnx_(_("pstore: %s: parts with the number of an earlier part: %zu (each is read, in the order "
                         "of their files)"),
                       reason, pstore_dump_duplicates(d));
        for (i = 0; i < d->n_parts && !run_quit && !run->fatal; i++) {
                const struct pstore_part *p = &d->parts[i];
                bool newest_gone = i + 1 == d->n_parts && p->part > 1 && !d->truncated;

                if (i > 0 && gap_between(&d->parts[i - 1], p)) {
                        uint64_t first = 0;
                        bool has_first = pstore_part_time(p, false, &first, &run_quit) > 0;

                        if (missing_loss(run, have_last, last, has_first, first) < 0)
                                break;
                }
                read_part(run, p);
                /* Where the part ended, for a loss after it. */
                if ((newest_gone || (i + 1 < d->n_parts && gap_between(p, &d->parts[i + 1]))) &&
                    pstore_part_time(p, true, &last, &run_quit) > 0)
                        have_last = true;
        }
        /* The newest end is Part1: anything newer than the newest part read is gone. */
        if (d->n_parts > 0 && d->parts[d->n_parts - 1].part > 1 && !d->truncated && !run_quit && !run->fatal)
                missing_loss(run, have_last, last, false, 0);
        pstore_set_done(&set);
}
