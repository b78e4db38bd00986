/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz the pstore readers (src/input/pstore*.c): the input is a pstore
 * tree of up to 8 files, separated by "\0FILE\0".  The first byte chooses
 * where they go: bit 0, the first file is systemd-pstore's dmesg.txt (in
 * var/lib/systemd/pstore/1/), else /sys/fs/pstore/dmesg-efi-0; bit 1, the
 * others go to a systemd-pstore directory without dmesg.txt
 * (var/lib/systemd/pstore/2/dmesg-ramoops-K), else /sys/fs/pstore/dmesg-efi-K;
 * bits 2-4, the files' times spread that many times 31 s.
 *
 * pstore_scan() finds the dumps; each part must lie in its file, its line
 * must be the file's line at its offset, the parts of a dump must come
 * oldest first, and the counts of missing and duplicate parts must fit the
 * part numbers.  Each part is then read as kdmesg reads it (its range of the
 * file, kmsg_reader_set_range()) and must give what a reader over the whole
 * file gives with every byte outside the part's range but the newlines
 * taken out: the same records and errors at the same lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "input/pstore.h"
#include "fuzz-common.h"

#define MAX_FILES 8

static char root[256];

struct file {
        char path[PATH_MAX];
        const uint8_t *p;
        size_t len;
};

static void warn_quietly(const char *fmt, ...) {
        char buf[512];
        va_list ap;

        /* Every warning is one line. */
        va_start(ap, fmt);
        vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        FUZZ_ASSERT(!strchr(buf, '\n'));
}

/* The directories files go to, deepest first: emptied after each input. */
static const char *const dirs[] = { "sys/fs/pstore", "sys/fs", "sys", "var/lib/systemd/pstore/1",
                                    "var/lib/systemd/pstore/2", "var/lib/systemd/pstore", "var/lib/systemd",
                                    "var/lib", "var" };

static void remove_root(void) {
        rmdir(root);
}

static void make_root(void) {
        const char *tmp = getenv("TMPDIR");

        snprintf(root, sizeof(root), "%s/fuzz-pstore-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        FUZZ_ASSERT(mkdtemp(root) != NULL);
        atexit(remove_root);
}

static void clean_root(const struct file *files, size_t n) {
        char p[PATH_MAX];
        size_t i;

        for (i = 0; i < n; i++)
                FUZZ_ASSERT(unlink(files[i].path) == 0);
        for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
                snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
                FUZZ_ASSERT(rmdir(p) == 0 || errno == ENOENT);
        }
}

static void mkdirs(const char *path) {
        char p[PATH_MAX];
        size_t i;

        FUZZ_ASSERT((size_t)snprintf(p, sizeof(p), "%s", path) < sizeof(p));
        for (i = strlen(root) + 1; p[i]; i++)
                if (p[i] == '/') {
                        p[i] = '\0';
                        FUZZ_ASSERT(mkdir(p, 0755) == 0 || errno == EEXIST);
                        p[i] = '/';
                }
}

static void write_file(const struct file *f, time_t t) {
        struct timeval tv[2] = { { .tv_sec = t }, { .tv_sec = t } };
        int fd;

        mkdirs(f->path);
        fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        FUZZ_ASSERT(fd >= 0);
        FUZZ_ASSERT(f->len == 0 || write(fd, f->p, f->len) == (ssize_t)f->len);
        close(fd);
        FUZZ_ASSERT(utimes(f->path, tv) == 0);
}

static const struct file *file_of(const struct file *files, size_t n, const char *path) {
        size_t i;

        for (i = 0; i < n; i++)
                if (strcmp(files[i].path, path) == 0)
                        return &files[i];
        FUZZ_ASSERT(!"a part of no file written");
        return NULL;
}

/* What a reader gives: records (priority, time, message) and errors, with their lines. */
static uint64_t transcript(struct kmsg_reader *rd, uint64_t first_line) {
        uint64_t h = 14695981039346656037u, last = first_line;
        struct kmsg_record *r;
        int e;

        while ((e = kmsg_reader_next(rd, &r)) != 0) {
                uint64_t pos = kmsg_reader_get_position(rd);

                FUZZ_ASSERT(e == 1 || e == -EBADMSG || e == -E2BIG);
                FUZZ_ASSERT(pos >= last);
                last = pos;
                h = digest_u64(h, (uint64_t)e);
                h = digest_u64(h, pos);
                if (e == 1)
                        h = exercise_record(r, h);
                else
                        h = digest_str(h, kmsg_reader_get_error(rd));
        }
        return h;
}

static void check_part(const struct pstore_part *p, const struct file *f) {
        uint64_t nl = 1, h1, h2, t;
        struct kmsg_reader *rd;
        char *buf;
        size_t i, n = 0;
        int fd;

        FUZZ_ASSERT(p->part > 0);
        FUZZ_ASSERT(p->offset <= f->len && p->length <= f->len - p->offset);
        for (i = 0; i < p->offset; i++)
                nl += f->p[i] == '\n';
        FUZZ_ASSERT(p->line == nl);

        fd = pstore_part_open(p);
        FUZZ_ASSERT(fd >= 0);
        FUZZ_ASSERT(kmsg_reader_new_fd(fd, p->path, KMSG_FORMAT_SYSLOG, &rd) == 0);
        FUZZ_ASSERT(kmsg_reader_set_range(rd, p->length, p->line) == 0);
        h1 = transcript(rd, p->line);
        kmsg_reader_unref(rd);
        close(fd);

        /* The part alone, its lines where they are in the file. */
        buf = malloc(nl - 1 + p->length + 1);
        FUZZ_ASSERT(buf);
        for (i = 0; i + 1 < nl; i++)
                buf[n++] = '\n';
        memcpy(buf + n, f->p + p->offset, p->length);
        n += p->length;
        FUZZ_ASSERT(kmsg_reader_new_buffer(buf, n, p->path, KMSG_FORMAT_SYSLOG, &rd) == 0);
        free(buf);
        h2 = transcript(rd, 1);
        kmsg_reader_unref(rd);
        FUZZ_ASSERT(h1 == h2);

        FUZZ_ASSERT(pstore_part_time(p, false, &t, NULL) >= 0);
        FUZZ_ASSERT(pstore_part_time(p, true, &t, NULL) >= 0);
}

static void check_dump(const struct pstore_dump *d, const struct file *files, size_t n) {
        uint64_t missing = pstore_dump_missing(d);
        size_t i;

        FUZZ_ASSERT(d->n_parts > 0 && d->source);
        FUZZ_ASSERT(strnlen(d->reason, sizeof(d->reason)) < sizeof(d->reason));
        FUZZ_ASSERT(strnlen(d->backend, sizeof(d->backend)) < sizeof(d->backend));
        for (i = 1; i < d->n_parts; i++)
                FUZZ_ASSERT(d->parts[i - 1].part >= d->parts[i].part);
        /* At most every number from the oldest part down to 1, but those read. */
        FUZZ_ASSERT(missing < d->parts[0].part);
        FUZZ_ASSERT(pstore_dump_duplicates(d) < d->n_parts);
        FUZZ_ASSERT(missing + d->n_parts - pstore_dump_duplicates(d) <= d->parts[0].part);
        for (i = 0; i < d->n_parts; i++)
                check_part(&d->parts[i], file_of(files, n, d->parts[i].path));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const uint8_t sep[] = { 0, 'F', 'I', 'L', 'E', 0 };
        struct file files[MAX_FILES];
        struct pstore_set set;
        const uint8_t *p, *end = data + size;
        unsigned how;
        size_t n = 0, i, truncated = 0;

        if (size < 1)
                return 0;
        how = data[0];
        if (!root[0])
                make_root();
        for (p = data + 1; n < MAX_FILES; n++) {
                const uint8_t *q = memmem(p, (size_t)(end - p), sep, sizeof(sep));
                struct file *f = &files[n];

                f->p = p;
                f->len = (size_t)((q ? q : end) - p);
                if (n == 0 && (how & 1))
                        snprintf(f->path, sizeof(f->path), "%s/var/lib/systemd/pstore/1/dmesg.txt", root);
                else if (n > 0 && (how & 2))
                        snprintf(f->path, sizeof(f->path), "%s/var/lib/systemd/pstore/2/dmesg-ramoops-%zu", root, n);
                else
                        snprintf(f->path, sizeof(f->path), "%s/sys/fs/pstore/dmesg-efi-%zu", root, n);
                write_file(f, 1700000000 + (time_t)(n * 31 * ((how >> 2) & 7)));
                if (!q) {
                        n++;
                        break;
                }
                p = q + sizeof(sep);
        }
        FUZZ_ASSERT(pstore_scan(root, &set, warn_quietly, NULL) == 0);
        /* No file is unreadable: only a dmesg.txt of too many parts is an error. */
        for (i = 0; i < set.n; i++) {
                check_dump(&set.dumps[i], files, n);
                truncated += set.dumps[i].truncated;
        }
        FUZZ_ASSERT(set.errors == 0 || (set.errors == 1 && truncated == 1));
        pstore_set_done(&set);
        clean_root(files, n);
        return 0;
}
