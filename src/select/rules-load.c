/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the problem rules come from: the rules built in (rules-builtin.c),
 * a file that replaces them, and the drop-in directories whose *.rules
 * files come first.  Only regular files are read: a FIFO or a device is
 * opened without blocking and refused (/dev/null, a masked drop-in, holds
 * no rules).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/i18n.h"
#include "select/rules.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/share/kdmesg"
#endif
#ifndef PKGSYSCONFDIR
#define PKGSYSCONFDIR "/etc/kdmesg"
#endif

/* The name the built-in rules go by, in errors and in --list-problem-rules. */
#define BUILTIN_NAME "<built-in>"

int problems_load_builtin(struct problems *p) {
        return problems_load_buffer(p, BUILTIN_NAME, problems_builtin_text, problems_builtin_size);
}

static int cannot_read(struct problems *p, const char *path, const char *why) {
        snprintf(p->error, sizeof(p->error), _("cannot read the problem rules %s: %s"), path, why);
        return -EINVAL;
}

/*
 * Open a rules file without blocking on a FIFO or a device; 0 and *ret_fd,
 * 1 when it is /dev/null (a masked file: no rules), or -errno.
 */
static int open_rules(struct problems *p, const char *path, int *ret_fd, struct stat *st) {
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), e;

        if (fd < 0) {
                e = -errno;
                cannot_read(p, path, strerror(-e));
                return e;
        }
        if (fstat(fd, st) < 0) {
                e = -errno;
                cannot_read(p, path, strerror(-e));
                close(fd);
                return e;
        }
        if (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3) {
                close(fd);
                return 1;
        }
        if (!S_ISREG(st->st_mode)) {
                cannot_read(p, path, S_ISDIR(st->st_mode) ? strerror(EISDIR) : _("not a regular file"));
                close(fd);
                return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
        }
        if (st->st_size > MAX_RULES_FILE) {
                cannot_read(p, path, strerror(EFBIG));
                close(fd);
                return -EFBIG;
        }
        *ret_fd = fd;
        return 0;
}

int problems_load_file(struct problems *p, const char *path) {
        struct stat st;
        size_t got = 0;
        char *buf;
        int fd = -1, e;

        e = open_rules(p, path, &fd, &st);
        if (e != 0)
                return e > 0 ? 0 : e;
        /* One byte more than the size: a file that grew is refused, not cut. */
        buf = malloc((size_t)st.st_size + 1);
        if (!buf) {
                close(fd);
                snprintf(p->error, sizeof(p->error), "%s", strerror(ENOMEM));
                return -ENOMEM;
        }
        e = 0;
        while (got <= (size_t)st.st_size) {
                ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        e = -errno;
                        break;
                }
                if (n == 0)
                        break;
                got += (size_t)n;
        }
        close(fd);
        if (e < 0)
                cannot_read(p, path, strerror(-e));
        else if (got > (size_t)st.st_size)
                e = cannot_read(p, path, _("it changed while being read"));
        else
                e = problems_load_buffer(p, path, buf, got);
        free(buf);
        return e;
}

static int rules_file(const struct dirent *d) {
        size_t n = strlen(d->d_name);

        return d->d_name[0] != '.' && n > 6 && strcmp(d->d_name + n - 6, ".rules") == 0;
}

struct dropin {
        char *name;
        size_t dir; /* the index of its directory in the list: lower wins */
};

static int dropin_cmp(const void *a, const void *b) {
        const struct dropin *x = a, *y = b;
        int c = strcmp(x->name, y->name);

        return c ? c : (x->dir < y->dir ? -1 : x->dir > y->dir);
}

/*
 * The *.rules files of the directories of list (separated by ':'), in name
 * order; a name in an earlier directory hides the same name in later ones.
 * A directory that does not exist is none.
 */
static int load_dropins(struct problems *p, const char *list) {
        struct dropin *all = NULL;
        size_t n = 0, i, ndir = 0;
        char dirs[16][1024];
        const char *s = list;
        int e = 0;

        while (*s && ndir < sizeof(dirs) / sizeof(dirs[0])) {
                size_t len = strcspn(s, ":");

                if (len > 0 && len < sizeof(dirs[0])) {
                        memcpy(dirs[ndir], s, len);
                        dirs[ndir++][len] = '\0';
                }
                s += len;
                if (*s)
                        s++;
        }
        for (i = 0; i < ndir && e == 0; i++) {
                struct dirent **names = NULL;
                int k, m = scandir(dirs[i], &names, rules_file, NULL);

                if (m < 0) {
                        if (errno != ENOENT && errno != ENOTDIR) {
                                e = -errno;
                                cannot_read(p, dirs[i], strerror(-e));
                        }
                        continue;
                }
                for (k = 0; k < m; k++) {
                        if (e == 0) {
                                struct dropin *t = realloc(all, (n + 1) * sizeof(*all));

                                if (t) {
                                        all = t;
                                        all[n].dir = i;
                                        all[n].name = strdup(names[k]->d_name);
                                }
                                if (t && all[n].name)
                                        n++;
                                else
                                        e = -ENOMEM;
                        }
                        free(names[k]);
                }
                free(names);
        }
        if (e == -ENOMEM)
                snprintf(p->error, sizeof(p->error), "%s", strerror(ENOMEM));
        if (n > 0)
                qsort(all, n, sizeof(*all), dropin_cmp);
        for (i = 0; i < n; i++) {
                char path[2048];

                if (e == 0 && (i == 0 || strcmp(all[i].name, all[i - 1].name) != 0)) {
                        snprintf(path, sizeof(path), "%s/%s", dirs[all[i].dir], all[i].name);
                        e = problems_load_file(p, path);
                }
        }
        for (i = 0; i < n; i++)
                free(all[i].name);
        free(all);
        return e;
}

int problems_load_default(struct problems *p) {
        const char *dirs = secure_getenv("KDMESG_PROBLEMS_DIR");
        const char *shipped = secure_getenv("KDMESG_PROBLEMS_RULES");
        struct stat st;
        int e;

        if (!dirs)
                dirs = PKGSYSCONFDIR "/problems.d:" PKGDATADIR "/problems.d";
        /* The drop-ins first: the first rule that matches decides. */
        e = load_dropins(p, dirs);
        if (e < 0)
                return e;
        if (shipped && *shipped)
                return problems_load_file(p, shipped);
        if (!shipped && lstat(PKGDATADIR "/problems.rules", &st) == 0)
                return problems_load_file(p, PKGDATADIR "/problems.rules");
        return problems_load_builtin(p);
}
