/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading pstore files without holding them: regular files only, lines in
 * chunks of constant size, a part's text by its range, its time stamps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/pstore.h"
#include "input/pstore-lines.h"

int pstore_next_line(struct pstore_lines *ls, struct pstore_line *ln) {
        bool started = false;

        ln->len = 0;
        ln->newline = false;
        for (;;) {
                const char *nl;
                size_t take;

                if (ls->at == ls->end) {
                        ssize_t n;

                        if (ls->quit && *ls->quit)
                                return -EINTR;
                        if (ls->left == 0)
                                break;
                        n = read(ls->fd, ls->buf, ls->left < sizeof(ls->buf) ? (size_t)ls->left : sizeof(ls->buf));
                        if (n < 0 && errno == EINTR)
                                continue;
                        if (n < 0)
                                return -errno;
                        if (n == 0)
                                break;
                        ls->left -= (uint64_t)n;
                        ls->at = 0;
                        ls->end = (size_t)n;
                }
                if (!started) {
                        ln->off = ls->off;
                        ln->number = ls->line;
                        started = true;
                }
                nl = memchr(ls->buf + ls->at, '\n', ls->end - ls->at);
                take = nl ? (size_t)(nl - (ls->buf + ls->at)) : ls->end - ls->at;
                if (ln->len < PSTORE_HEAD)
                        memcpy(ln->head + ln->len, ls->buf + ls->at, PSTORE_HEAD - ln->len < take ? PSTORE_HEAD - ln->len : take);
                ln->len += take;
                ls->at += take;
                ls->off += take;
                if (nl) {
                        ls->at++;
                        ls->off++;
                        ls->line++;
                        ln->newline = true;
                        return 1;
                }
        }
        return started ? 1 : 0;
}

size_t pstore_head_len(const struct pstore_line *ln) {
        return ln->len < PSTORE_HEAD ? (size_t)ln->len : PSTORE_HEAD;
}

int pstore_open_regular(const char *path, struct stat *st) {
        int fd;

        if (stat(path, st) < 0)
                return -errno;
        if (S_ISDIR(st->st_mode))
                return -EISDIR;
        if (!S_ISREG(st->st_mode))
                return -EINVAL;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
                close(fd);
                return -EINVAL;
        }
        if (st->st_size > PSTORE_MAX_FILE) {
                close(fd);
                return -EFBIG;
        }
        return fd;
}

int pstore_part_open(const struct pstore_part *p) {
        struct stat st;
        int fd = pstore_open_regular(p->path, &st);

        if (fd >= 0 && lseek(fd, (off_t)p->offset, SEEK_SET) < 0) {
                int e = -errno;

                close(fd);
                return e;
        }
        return fd;
}

/* "[    1.500000]" within the first bytes of a line, as the syslog form has it ("<6>[ ...]"). */
static bool line_stamp(const struct pstore_line *ln, uint64_t *ret) {
        const char *p = ln->head, *end = ln->head + pstore_head_len(ln), *b = memchr(p, '[', end - p);
        uint64_t sec = 0, frac = 0;
        size_t digits, fd;

        if (!b || b - p > 8)
                return false;
        for (p = b + 1; p < end && *p == ' '; p++)
                ;
        for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
                if (digits < 12)
                        sec = sec * 10 + (uint64_t)(*p - '0');
        if (digits == 0 || digits > 12 || p == end || *p++ != '.')
                return false;
        for (fd = 0; p < end && *p >= '0' && *p <= '9'; p++, fd++)
                if (fd < 6)
                        frac = frac * 10 + (uint64_t)(*p - '0');
        if (fd == 0 || p == end || *p != ']')
                return false;
        for (; fd < 6; fd++)
                frac *= 10;
        *ret = sec * 1000000 + frac;
        return true;
}

int pstore_part_time(const struct pstore_part *p, bool last, uint64_t *ret, const volatile sig_atomic_t *quit) {
        struct pstore_lines *ls;
        struct pstore_line ln;
        int fd = pstore_part_open(p), e, found = 0;

        if (fd < 0)
                return fd;
        ls = calloc(1, sizeof(*ls));
        if (!ls) {
                close(fd);
                return -ENOMEM;
        }
        *ls = (struct pstore_lines){ .fd = fd, .left = p->length, .off = p->offset, .line = p->line, .quit = quit };
        while ((e = pstore_next_line(ls, &ln)) > 0)
                if (line_stamp(&ln, ret)) {
                        found = 1;
                        if (!last)
                                break;
                }
        close(fd);
        free(ls);
        return e < 0 ? e : found;
}
