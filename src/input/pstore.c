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

#define MAX_FILE (16 * 1024 * 1024)
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
};

struct scan {
        struct loose *parts;
        size_t n, cap;
        unsigned errors;
        void (*warn)(const char *fmt, ...);
};

static int read_file(const char *path, char **ret, size_t *ret_len, time_t *ret_mtime) {
        struct stat st;
        char *buf;
        ssize_t n;
        int fd, e = 0;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                e = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
                close(fd);
                return e;
        }
        if (st.st_size > MAX_FILE) {
                close(fd);
                return -EFBIG;
        }
        buf = malloc((size_t)st.st_size + 1);
        if (!buf) {
                close(fd);
                return -ENOMEM;
        }
        /* pstore files may read shorter than their size says. */
        n = read(fd, buf, (size_t)st.st_size);
        if (n < 0)
                e = -errno;
        close(fd);
        if (e < 0) {
                free(buf);
                return e;
        }
        buf[n] = '\0';
        *ret = buf;
        *ret_len = (size_t)n;
        *ret_mtime = st.st_mtime;
        return 0;
}

/* Parse "Reason#N PartM" (the whole line, without its newline). */
static bool parse_header(const char *line, size_t len, char reason[32], unsigned *count, unsigned *part) {
        char buf[96];
        int n = 0;

        if (len >= sizeof(buf))
                return false;
        memcpy(buf, line, len);
        buf[len] = '\0';
        if (len > 0 && buf[len - 1] == '\r')
                buf[len - 1] = '\0';
        if (sscanf(buf, "%31[A-Za-z]#%u Part%u%n", reason, count, part, &n) != 3 || buf[n] != '\0')
                return false;
        return *part > 0;
}

/*
 * Empty every line of text[0..*len) that does not start in [from, to), and
 * the line at from (a part's header), keeping the newlines: the reader skips
 * empty lines, and the line numbers of errors stay those of the file.
 */
static void keep_lines(char *text, size_t *len, size_t from, size_t to) {
        size_t i = 0, o = 0, n = *len;

        while (i < n) {
                const char *nl = memchr(text + i, '\n', n - i);
                size_t end = nl ? (size_t)(nl - text) : n;

                if (i > from && i < to) {
                        memmove(text + o, text + i, end - i);
                        o += end - i;
                }
                if (nl)
                        text[o++] = '\n';
                i = end + 1;
        }
        text[o] = '\0';
        *len = o;
}

/* A header known already (hdr_part > 0), or read from the first line of text. */
static int add_part_hdr(struct scan *sc, const char *path, char *text, size_t len, time_t mtime, const char *group,
                        const char *reason, unsigned count, unsigned hdr_part, const char *backend) {
        const char *base = strrchr(path, '/'), *nl = memchr(text, '\n', len);
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
        *l = (struct loose){ .mtime = mtime };
        base = backend ? backend : base ? base + 1 : path;
        if (strncmp(base, "dmesg-", 6) == 0)
                sscanf(base + 6, "%31[^-.]", l->backend);
        if (hdr_part > 0) {
                snprintf(l->reason, sizeof(l->reason), "%s", reason);
                l->count = count;
                l->p.part = hdr_part;
        } else if (parse_header(text, nl ? (size_t)(nl - text) : len, l->reason, &l->count, &l->p.part))
                keep_lines(text, &len, 0, len);
        else {
                l->reason[0] = '\0';
                l->count = 0;
                l->p.part = 1;
        }
        l->p.path = strdup(path);
        l->group = group ? strdup(group) : NULL;
        l->p.text = text;
        l->p.len = len;
        if (!l->p.path || (group && !l->group)) {
                free(l->p.path);
                free(l->group);
                return -ENOMEM;
        }
        sc->n++;
        return 0;
}

static int add_part(struct scan *sc, const char *path, char *text, size_t len, time_t mtime, const char *group) {
        return add_part_hdr(sc, path, text, len, mtime, group, NULL, 0, 0, NULL);
}

static bool ends_with(const char *s, const char *suffix) {
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* One dmesg-* file. */
static int scan_file(struct scan *sc, const char *path, const char *group) {
        char *text;
        size_t len;
        time_t mtime;
        int e;

        if (ends_with(path, ".enc.z")) {
                sc->warn(_("%s: compressed, and the kernel did not decompress it (its pstore "
                           "compression is not built in): skipped"),
                         path);
                sc->errors++;
                return 0;
        }
        e = read_file(path, &text, &len, &mtime);
        if (e == -ENOMEM)
                return e;
        if (e < 0) {
                sc->warn(_("cannot read %s: %s"), path, strerror(-e));
                sc->errors++;
                return 0;
        }
        e = add_part(sc, path, text, len, mtime, group);
        if (e < 0)
                free(text);
        return e;
}

/*
 * systemd-pstore's dmesg.txt: for each part, oldest first, a line
 * "dmesg-BACKEND-ID:" and the file's text.  Each part gets a copy of the
 * file with everything but its own lines blanked, so that errors name the
 * lines of dmesg.txt.
 */
struct txt_part {
        size_t start, end; /* from its header line to the next header */
        char reason[32];
        unsigned count, part;
        char name[64]; /* the "dmesg-BACKEND-ID" line before it */
};

static int add_txt_part(struct scan *sc, const char *path, const char *text, size_t len, time_t mtime,
                        const char *group, const struct txt_part *tp) {
        char *copy = malloc(len + 1);
        size_t n = len;
        int e;

        if (!copy)
                return -ENOMEM;
        memcpy(copy, text, len + 1);
        keep_lines(copy, &n, tp->start, tp->end);
        e = add_part_hdr(sc, path, copy, n, mtime, group, tp->reason, tp->count, tp->part,
                         tp->name[0] ? tp->name : NULL);
        if (e < 0)
                free(copy);
        return e;
}

static int scan_dmesg_txt(struct scan *sc, const char *path, const char *group) {
        struct txt_part tp = { .part = 0 };
        char *text, name[64] = "";
        size_t len, i = 0, name_at = 0;
        time_t mtime;
        bool any = false;
        int e = 0;

        e = read_file(path, &text, &len, &mtime);
        if (e == -ENOMEM)
                return e;
        if (e < 0) {
                sc->warn(_("cannot read %s: %s"), path, strerror(-e));
                sc->errors++;
                return 0;
        }
        for (i = 0; i < len && e >= 0;) {
                const char *nl = memchr(text + i, '\n', len - i);
                size_t end = nl ? (size_t)(nl - text) : len;
                struct txt_part next = { .start = i };

                if (parse_header(text + i, end - i, next.reason, &next.count, &next.part)) {
                        if (tp.part > 0) {
                                tp.end = name_at;
                                e = add_txt_part(sc, path, text, len, mtime, group, &tp);
                        }
                        snprintf(next.name, sizeof(next.name), "%s", name);
                        tp = next;
                        any = true;
                } else if (end - i > 7 && end - i < sizeof(name) && strncmp(text + i, "dmesg-", 6) == 0 &&
                           text[end - 1] == ':' && !memchr(text + i, ' ', end - i)) {
                        /* The file name before a part is no log line. */
                        memcpy(name, text + i, end - i - 1);
                        name[end - i - 1] = '\0';
                        name_at = i;
                        memset(text + i, ' ', end - i);
                } else
                        name_at = end + 1;
                i = end + 1;
        }
        if (e >= 0 && tp.part > 0) {
                tp.end = len;
                e = add_txt_part(sc, path, text, len, mtime, group, &tp);
        }
        if (e >= 0 && !any) {
                /* No headers: one part. */
                e = add_part(sc, path, text, len, mtime, group);
                if (e >= 0)
                        return 0;
        }
        free(text);
        return e;
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

static int by_part_desc(const void *a, const void *b) {
        const struct pstore_part *x = a, *y = b;

        return x->part > y->part ? -1 : x->part < y->part;
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
        if (d->written - l->mtime > SAME_DUMP_SECONDS || l->mtime - d->written > SAME_DUMP_SECONDS)
                return false;
        for (i = 0; i < d->n_parts; i++)
                if (d->parts[i].part == l->p.part)
                        return false;
        return true;
}

int pstore_scan(const char *root, struct pstore_set *set, void (*warn)(const char *fmt, ...)) {
        struct scan sc = { .warn = warn };
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
        if (e < 0 || !set->dumps || !groups)
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
                np = realloc(d->parts, (d->n_parts + 1) * sizeof(*np));
                if (!np) {
                        e = -ENOMEM;
                        break;
                }
                d->parts = np;
                d->parts[d->n_parts++] = l->p;
                l->p = (struct pstore_part){};
                if (l->mtime > d->written)
                        d->written = l->mtime;
                /* A dmesg.txt's parts carry the headers the group lacked. */
                if (!d->reason[0] && l->reason[0]) {
                        snprintf(d->reason, sizeof(d->reason), "%s", l->reason);
                        d->count = l->count;
                }
        }
        for (i = 0; i < sc.n; i++) {
                free(sc.parts[i].p.path);
                free(sc.parts[i].p.text);
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
                for (j = 0; j < set->dumps[i].n_parts; j++) {
                        free(set->dumps[i].parts[j].path);
                        free(set->dumps[i].parts[j].text);
                }
                free(set->dumps[i].parts);
                free(set->dumps[i].source);
        }
        free(set->dumps);
        *set = (struct pstore_set){};
}

unsigned pstore_dump_missing(const struct pstore_dump *d) {
        unsigned missing = 0;
        size_t i;

        if (d->n_parts == 0)
                return 0;
        /* Parts are oldest first: the last is the newest, Part1 when it is there. */
        missing = d->parts[d->n_parts - 1].part - 1;
        for (i = 1; i < d->n_parts; i++)
                missing += d->parts[i - 1].part - d->parts[i].part - 1;
        return missing;
}
