/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A test double for klogctl(2), loaded with LD_PRELOAD into kdmesg by
 * tests/cli/console.bats.  It never reaches the kernel: the real ring
 * buffer and console level are never touched by a test.
 *
 *   KDMESG_SHIM_LOG     file to which each call is appended, "ACTION LEN"
 *                       (and "loaded" when the shim is loaded)
 *   KDMESG_SHIM_BUFFER  file served by READ_ALL / READ_CLEAR / SIZE_BUFFER
 *   KDMESG_SHIM_ERRNO   fail every call with this errno
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int klogctl(int type, char *bufp, int len);

/* Append a line to KDMESG_SHIM_LOG: "loaded", or "ACTION LEN" when loaded is false. */
static void note(bool loaded, int action, int len) {
        const char *path = getenv("KDMESG_SHIM_LOG");
        FILE *f;

        if (!path)
                return;
        f = fopen(path, "ae");
        if (!f)
                return;
        if (loaded)
                fputs("loaded\n", f);
        else
                fprintf(f, "%d %d\n", action, len);
        fclose(f);
}

__attribute__((constructor)) static void on_load(void) {
        note(true, 0, 0);
}

int klogctl(int type, char *bufp, int len) {
        const char *path = getenv("KDMESG_SHIM_BUFFER");
        const char *fail = getenv("KDMESG_SHIM_ERRNO");
        struct stat st;
        ssize_t n;
        int fd;

        note(false, type, len);
        if (fail && *fail) {
                errno = atoi(fail);
                return -1;
        }
        switch (type) {
        case 3:  /* READ_ALL */
        case 4:  /* READ_CLEAR */
                if (!path || !bufp || len < 0) {
                        errno = EINVAL;
                        return -1;
                }
                fd = open(path, O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                        return -1;
                n = read(fd, bufp, (size_t)len);
                close(fd);
                return (int)n;
        case 10: /* SIZE_BUFFER */
                if (!path || stat(path, &st) < 0)
                        return 0;
                return (int)st.st_size;
        case 5:  /* CLEAR */
        case 6:  /* CONSOLE_OFF */
        case 7:  /* CONSOLE_ON */
        case 8:  /* CONSOLE_LEVEL */
                return 0;
        default:
                errno = EINVAL;
                return -1;
        }
}
