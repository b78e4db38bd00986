/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding and reading the dumps in pstore (pstore.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "input/pstore.h"
#include "input/pstore-lines.h"

/* Parts of one dump are written within this many seconds of each other. */
#define SAME_DUMP_SECONDS 60

/* A part before it is put into a dump. */
struct loose {
        struct pstore_part p;
        char reason[32];
        unsigned count;
        char backend[32];
        time_t mtime;
        char *group; /* a systemd-pstore directory, or NULL: grouped by header and time */
        bool truncated; /* of a dmesg.txt that has more parts than were taken */
};

struct scan {
        struct loose *parts;
        size_t n, cap;
        unsigned errors;
        void (*warn)(const char *fmt, ...);
        const volatile sig_atomic_t *quit;
};

static void cannot_read(struct scan *sc, const char *path, int e) {
        if (e == -EINVAL)
                sc->warn(_("%s: not a regular file: skipped"), path);
        else
                sc->warn(_("cannot read %s: %s"), path, strerror(-e));
        sc->errors++;
}

/* The decimal digits at *p, moved past them, into *ret: 1, 0 none, -1 past 32 bits. */
static int digits_u32(const char **p, unsigned *ret) {
        uint64_t v = 0;
        const char *s = *p;

        if (*s < '0' || *s > '9')
                return 0;
        for (; *s >= '0' && *s <= '9'; s++)
                if ((v = v * 10 + (uint64_t)(*s - '0')) > UINT32_MAX)
                        v = (uint64_t)UINT32_MAX + 1;
        *p = s;
        if (v > UINT32_MAX)
                return -1;
        *ret = (unsigned)v;
        return 1;
}

/*
 * Parse "Reason#N PartM" (the whole line, without its newline), N and M
 * plain digits as the kernel writes them (no sign, no space): 1, 0 when the
 * line is no header, -1 when it is one with a number the kernel cannot
 * write (past 32 bits, or Part0).
 */
static int parse_header(const struct pstore_line *ln, char reason[32], unsigned *count, unsigned *part) {
        char buf[96];
        size_t len = pstore_head_len(ln), r = 0;
        const char *p;
        int a, b;

        if (ln->len >= sizeof(buf))
                return 0;
        memcpy(buf, ln->head, len);
        buf[len] = '\0';
        if (len > 0 && buf[len - 1] == '\r')
                buf[len - 1] = '\0';
        while (r < 31 && ((buf[r] >= 'A' && buf[r] <= 'Z') || (buf[r] >= 'a' && buf[r] <= 'z')))
                r++;
        if (r == 0 || buf[r] != '#')
                return 0;
        memcpy(reason, buf, r);
        reason[r] = '\0';
        p = buf + r + 1;
        a = digits_u32(&p, count);
        if (a == 0 || strncmp(p, " Part", 5) != 0)
                return 0;
        p += 5;
        b = digits_u32(&p, part);
        if (b == 0 || *p != '\0')
                return 0;
        return a < 0 || b < 0 || *part == 0 ? -1 : 1;
}

/* systemd-pstore's "dmesg-BACKEND-ID:" before each part of its dmesg.txt; its name goes to name. */
static bool name_line(const struct pstore_line *ln, char name[64]) {
        size_t len = pstore_head_len(ln);

        if (ln->len <= 7 || ln->len >= 64 || strncmp(ln->head, "dmesg-", 6) != 0 || ln->head[len - 1] != ':' ||
            memchr(ln->head, ' ', len))
                return false;
        memcpy(name, ln->head, len - 1);
        name[len - 1] = '\0';
        return true;
}

static int add_loose(struct scan *sc, const char *path, const struct stat *st, const char *group, const char *reason,
                     unsigned count, unsigned part, const char *name, uint64_t offset, uint64_t end, uint64_t line) {
        const char *base = strrchr(path, '/');
        struct loose *l;

        if (sc->n == sc->cap) {
                size_t cap = sc->cap ? sc->cap * 2 : 16;
                struct loose *p = realloc(sc->parts, cap * sizeof(*p));

                if (!p)
                        return -ENOMEM;
                sc->parts = p;
                sc->cap = cap;
        }
        l = &sc->parts[sc->n];
        *l = (struct loose){ .mtime = st->st_mtime, .count = count };
        base = name ? name : base ? base + 1 : path;
        if (strncmp(base, "dmesg-", 6) == 0)
                sscanf(base + 6, "%31[^-.]", l->backend);
        snprintf(l->reason, sizeof(l->reason), "%s", reason);
        l->p = (struct pstore_part){ .part = part, .offset = offset, .length = end > offset ? end - offset : 0,
                                     .line = line };
        l->p.path = strdup(path);
        l->group = group ? strdup(group) : NULL;
        if (!l->p.path || (group && !l->group)) {
                free(l->p.path);
                free(l->group);
                return -ENOMEM;
        }
        sc->n++;
        return 0;
}

static bool ends_with(const char *s, const char *suffix) {
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* One dmesg-* file: its first line is its header, the rest its text. */
static int scan_file(struct scan *sc, const char *path, const char *group) {
        struct pstore_lines *ls;
        struct pstore_line ln;
        struct stat st;
        char reason[32] = "";
        unsigned count = 0, part = 1;
        uint64_t offset = 0, line = 1;
        int fd, e, h;

        if (ends_with(path, ".enc.z")) {
                sc->warn(_("%s: compressed, and the kernel did not decompress it (its pstore "
                           "compression is not built in): skipped"),
                         path);
                sc->errors++;
                return 0;
        }
        fd = pstore_open_regular(path, &st);
        if (fd < 0) {
                cannot_read(sc, path, fd);
                return 0;
        }
        ls = calloc(1, sizeof(*ls));
        if (!ls) {
                close(fd);
                return -ENOMEM;
        }
        *ls = (struct pstore_lines){ .fd = fd, .left = (uint64_t)st.st_size, .line = 1, .quit = sc->quit };
        e = pstore_next_line(ls, &ln);
        close(fd);
        free(ls);
        if (e == -EINTR)
                return e;
        if (e < 0) {
                cannot_read(sc, path, e);
                return 0;
        }
        h = e > 0 ? parse_header(&ln, reason, &count, &part) : 0;
        if (h < 0)
                sc->warn(_("%s:1: a pstore header with a number the kernel does not write (past 32 bits, or "
                           "Part0): the part is read as one of its own, without it"),
                         path);
        if (h != 0) {
                offset = ln.len + ln.newline;
                line = ln.newline ? 2 : 1;
        }
        if (h <= 0) {
                /* Without a header: one part of its own. */
                reason[0] = '\0';
                count = 0;
                part = 1;
        }
        return add_loose(sc, path, &st, group, reason, count, part, NULL, offset, (uint64_t)st.st_size, line);
}

/*
 * systemd-pstore's dmesg.txt: for each part, oldest first, a line
 * "dmesg-BACKEND-ID:" and the file's text.  A part's text runs from after
 * its header to the file name before the next header.
 */
struct txt_part {
        char reason[32];
        unsigned count, part;
        char name[64]; /* the "dmesg-BACKEND-ID" line before it */
        uint64_t offset, line;
};

static int scan_dmesg_txt(struct scan *sc, const char *path, const char *group) {
        struct txt_part tp = { .part = 0 };
        struct pstore_lines *ls;
        struct pstore_line ln;
        struct stat st;
        char name[64] = "";
        uint64_t name_at = 0, end, lines, cut_at = 0;
        bool after_name = false, leading = true;
        size_t n = 0, first = sc->n, i;
        int fd, e;

        fd = pstore_open_regular(path, &st);
        if (fd < 0) {
                cannot_read(sc, path, fd);
                return 0;
        }
        ls = calloc(1, sizeof(*ls));
        if (!ls) {
                close(fd);
                return -ENOMEM;
        }
        *ls = (struct pstore_lines){ .fd = fd, .left = (uint64_t)st.st_size, .line = 1, .quit = sc->quit };
        while ((e = pstore_next_line(ls, &ln)) > 0) {
                struct txt_part next = { .part = 0 };

                int h = parse_header(&ln, next.reason, &next.count, &next.part);

                if (h < 0)
                        /* Not a part of its own: its line stays in the text of the part it is in, said. */
                        sc->warn(_("%s:%llu: a pstore header with a number the kernel does not write (past 32 "
                                   "bits, or Part0): read as a line of the part before"),
                                 path, (unsigned long long)ln.number);
                if (h > 0) {
                        if (tp.part > 0) {
                                e = add_loose(sc, path, &st, group, tp.reason, tp.count, tp.part,
                                              tp.name[0] ? tp.name : NULL, tp.offset, after_name ? name_at : ln.off,
                                              tp.line);
                                if (e < 0)
                                        break;
                        }
                        if (n++ >= PSTORE_MAX_TXT_PARTS) {
                                /* Only counted: the parts read are the first ones. */
                                if (!cut_at)
                                        cut_at = ln.number;
                                tp.part = 0;
                                continue;
                        }
                        snprintf(next.name, sizeof(next.name), "%s", name);
                        next.offset = ln.off + ln.len + ln.newline;
                        next.line = ln.number + ln.newline;
                        tp = next;
                        after_name = false;
                } else if (name_line(&ln, name)) {
                        name_at = ln.off;
                        after_name = true;
                } else
                        after_name = false;
                if (leading && !after_name && n == 0) {
                        /* Without headers, the text starts after the file names before it. */
                        leading = false;
                        tp.offset = ln.off;
                        tp.line = ln.number;
                }
        }
        end = ls->off;
        lines = ls->line;
        close(fd);
        free(ls);
        if (e == -EINTR || e == -ENOMEM)
                return e;
        if (e < 0) {
                cannot_read(sc, path, e);
                return 0;
        }
        if (cut_at) {
                sc->warn(_("%s:%llu: more than %d parts: the %llu parts from this line on are not read"), path,
                         (unsigned long long)cut_at, PSTORE_MAX_TXT_PARTS,
                         (unsigned long long)(n - PSTORE_MAX_TXT_PARTS));
                sc->errors++;
                for (i = first; i < sc->n; i++)
                        sc->parts[i].truncated = true;
        }
        if (tp.part > 0)
                return add_loose(sc, path, &st, group, tp.reason, tp.count, tp.part, tp.name[0] ? tp.name : NULL,
                                 tp.offset, after_name ? name_at : end, tp.line);
        if (n == 0)
                /* No headers: one part. */
                return add_loose(sc, path, &st, group, "", 0, 1, NULL, leading ? end : tp.offset, end,
                                 leading ? lines : tp.line);
        return 0;
}
static int by_name(const struct dirent **a, const struct dirent **b) {
        return strcmp((*a)->d_name, (*b)->d_name);
}

static int scan_dir(struct scan *sc, const char *dir, bool archive, int depth) {
        struct dirent **names = NULL;
        int n, i, e = 0;
        bool has_txt = false;

        n = scandir(dir, &names, NULL, by_name);
        if (n < 0) {
                int err = errno;

                /* No pstore mounted, no archive: nothing to read there. */
                if (err == ENOENT || err == ENOTDIR)
                        return 0;
                if (err == ENOMEM)
                        return -ENOMEM;
                sc->warn(_("cannot read %s: %s"), dir, strerror(err));
                sc->errors++;
                return 0;
        }
        for (i = 0; i < n; i++)
                if (depth > 0 && strcmp(names[i]->d_name, "dmesg.txt") == 0)
                        has_txt = true;
        for (i = 0; i < n && e >= 0; i++) {
                const char *name = names[i]->d_name;
                char path[4096];
                struct stat st;

                if (sc->quit && *sc->quit) {
                        e = -EINTR;
                        break;
                }
                if (name[0] == '.')
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, name);
                if (archive && depth == 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
                        /* systemd-pstore: one directory per dump. */
                        e = scan_dir(sc, path, true, 1);
                else if (has_txt) {
                        if (strcmp(name, "dmesg.txt") == 0)
                                e = scan_dmesg_txt(sc, path, dir);
                } else if (strncmp(name, "dmesg-", 6) == 0)
                        e = scan_file(sc, path, depth > 0 ? dir : NULL);
        }
        for (i = 0; i < n; i++)
                free(names[i]);
        free(names);
        return e;
}

/* Oldest first; parts of one number (duplicates) in the order of their files. */
static int by_part_desc(const void *a, const void *b) {
        const struct pstore_part *x = a, *y = b;
        int c;

        if (x->part != y->part)
                return x->part > y->part ? -1 : 1;
        c = strcmp(x->path, y->path);
        if (c != 0)
                return c;
        return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Whether two times are within a few seconds (any two time_t values). */
static bool close_in_time(time_t a, time_t b) {
        uint64_t d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;

        return d <= SAME_DUMP_SECONDS;
}

static int by_written_desc(const void *a, const void *b) {
        const struct pstore_dump *x = a, *y = b;

        if (x->written != y->written)
                return x->written > y->written ? -1 : 1;
        return strcmp(y->source, x->source);
}

/* Whether part l belongs to dump d. */
static bool same_dump(const struct pstore_dump *d, const struct loose *l, const char *group_of_d) {
        size_t i;

        if (group_of_d || l->group)
                return group_of_d && l->group && strcmp(group_of_d, l->group) == 0;
        if (strcmp(d->reason, l->reason) != 0 || d->count != l->count || strcmp(d->backend, l->backend) != 0 ||
            !d->reason[0])
                return false;
        if (!close_in_time(d->written, l->mtime))
                return false;
        for (i = 0; i < d->n_parts; i++)
                if (d->parts[i].part == l->p.part)
                        return false;
        return true;
}

int pstore_scan(const char *root, struct pstore_set *set, void (*warn)(const char *fmt, ...),
                const volatile sig_atomic_t *quit) {
        struct scan sc = { .warn = warn, .quit = quit };
        char **groups = NULL;
        char dir[4096];
        size_t i, j;
        int e;

        *set = (struct pstore_set){};
        snprintf(dir, sizeof(dir), "%s/sys/fs/pstore", root);
        e = scan_dir(&sc, dir, false, 0);
        if (e >= 0) {
                snprintf(dir, sizeof(dir), "%s/var/lib/systemd/pstore", root);
                e = scan_dir(&sc, dir, true, 0);
        }
        set->errors = sc.errors;
        set->dumps = calloc(sc.n ? sc.n : 1, sizeof(*set->dumps));
        groups = calloc(sc.n ? sc.n : 1, sizeof(*groups));
        if (e >= 0 && (!set->dumps || !groups))
                e = -ENOMEM;
        for (i = 0; i < sc.n && e >= 0; i++) {
                struct loose *l = &sc.parts[i];
                struct pstore_dump *d = NULL;
                struct pstore_part *np;

                for (j = 0; j < set->n && !d; j++)
                        if (same_dump(&set->dumps[j], l, groups[j]))
                                d = &set->dumps[j];
                if (!d) {
                        d = &set->dumps[set->n];
                        groups[set->n++] = l->group;
                        l->group = NULL;
                        snprintf(d->reason, sizeof(d->reason), "%s", l->reason);
                        snprintf(d->backend, sizeof(d->backend), "%s", l->backend);
                        d->count = l->count;
                        d->written = l->mtime;
                        d->source = strdup(groups[set->n - 1] ? groups[set->n - 1] : l->p.path);
                        if (!d->source) {
                                e = -ENOMEM;
                                break;
                        }
                }
                /* Room doubles at each power of two: no copy per part. */
                if ((d->n_parts & (d->n_parts - 1)) == 0) {
                        np = realloc(d->parts, (d->n_parts ? 2 * d->n_parts : 1) * sizeof(*np));
                        if (!np) {
                                e = -ENOMEM;
                                break;
                        }
                        d->parts = np;
                }
                d->parts[d->n_parts++] = l->p;
                l->p = (struct pstore_part){};
                if (l->mtime > d->written)
                        d->written = l->mtime;
                d->truncated |= l->truncated;
                /* A dmesg.txt's parts carry the headers the group lacked. */
                if (!d->reason[0] && l->reason[0]) {
                        snprintf(d->reason, sizeof(d->reason), "%s", l->reason);
                        d->count = l->count;
                }
        }
        for (i = 0; i < sc.n; i++) {
                free(sc.parts[i].p.path);
                free(sc.parts[i].group);
        }
        free(sc.parts);
        for (i = 0; i < set->n; i++) {
                free(groups[i]);
                qsort(set->dumps[i].parts, set->dumps[i].n_parts, sizeof(struct pstore_part), by_part_desc);
        }
        free(groups);
        if (e >= 0)
                qsort(set->dumps, set->n, sizeof(*set->dumps), by_written_desc);
        return e;
}

void pstore_set_done(struct pstore_set *set) {
        size_t i, j;

        for (i = 0; i < set->n; i++) {
                for (j = 0; j < set->dumps[i].n_parts; j++)
                        free(set->dumps[i].parts[j].path);
                free(set->dumps[i].parts);
                free(set->dumps[i].source);
        }
        free(set->dumps);
        *set = (struct pstore_set){};
}

uint64_t pstore_dump_missing(const struct pstore_dump *d) {
        uint64_t missing;
        size_t i;

        if (d->n_parts == 0)
                return 0;
        /* Parts are oldest first: the last is the newest, Part1 when it is there (or not read). */
        missing = d->truncated ? 0 : d->parts[d->n_parts - 1].part - 1;
        for (i = 1; i < d->n_parts; i++)
                if (d->parts[i - 1].part > d->parts[i].part)
                        missing += d->parts[i - 1].part - d->parts[i].part - 1;
        return missing;
}

size_t pstore_dump_duplicates(const struct pstore_dump *d) {
        size_t i, n = 0;

        for (i = 1; i < d->n_parts; i++)
                if (d->parts[i - 1].part == d->parts[i].part)
                        n++;
        return n;
}

