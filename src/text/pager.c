/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pager: $PAGER or "less -FRSX", for -H on a terminal.  A pager that
 * cannot be started costs no output: the exec is watched through a
 * close-on-exec pipe, and standard output is redirected only once it
 * succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/i18n.h"
#include "text/writer.h"
#include "text/pager.h"
#include "text/util.h"

#define PAGER_ARGS_MAX 32

/* Whether the command needs a shell: anything but words and blanks. */
static bool needs_shell(const char *cmd) {
        return strpbrk(cmd, "|&;<>()$`\\\"'*?[]#~=%{}!\n") != NULL;
}

/* Split a shell-free command into argv (in place in buf); returns argc. */
static int split_words(char *buf, char **argv) {
        int argc = 0;
        char *p = buf;

        while (*p && argc < PAGER_ARGS_MAX) {
                p += strspn(p, " \t");
                if (!*p)
                        break;
                argv[argc++] = p;
                p += strcspn(p, " \t");
                if (*p)
                        *p++ = '\0';
        }
        argv[argc] = NULL;
        return argc;
}

bool pager_wanted(void) {
        const char *pager = getenv("PAGER");
        const char *term = getenv("TERM");

        if (!isatty(STDOUT_FILENO))
                return false;
        /* A dumb terminal cannot show what less draws. */
        if (term && strcmp(term, "dumb") == 0)
                return false;
        return !pager || (*pager && strcmp(pager, "cat") != 0);
}

pid_t pager_open(void) {
        const char *pager = getenv("PAGER");
        char buf[1024], *argv[PAGER_ARGS_MAX + 1];
        int fds[2], status[2], child_errno = 0;
        ssize_t n;
        pid_t pid;

        if (!pager_wanted())
                return -1;
        if (!pager)
                pager = "less -FRSX";
        if (needs_shell(pager) || strlen(pager) >= sizeof(buf)) {
                argv[0] = (char *)"sh";
                argv[1] = (char *)"-c";
                argv[2] = (char *)pager;
                argv[3] = NULL;
        } else {
                memcpy(buf, pager, strlen(pager) + 1);
                if (split_words(buf, argv) == 0)
                        return -1;
        }
        if (pipe2(fds, O_CLOEXEC) < 0)
                goto fail;
        if (pipe2(status, O_CLOEXEC) < 0) {
                close(fds[0]);
                close(fds[1]);
                goto fail;
        }
        pid = fork();
        if (pid < 0) {
                close(fds[0]);
                close(fds[1]);
                close(status[0]);
                close(status[1]);
                goto fail;
        }
        if (pid == 0) {
                int e;

                close(status[0]);
                dup2(fds[0], STDIN_FILENO);
                /* less needs no options when LESS is set; keep its colors raw. */
                setenv("LESS", "FRSX", 0);
                execvp(argv[0], argv);
                e = errno;
                /* The parent reads why; the status pipe closes on a good exec. */
                if (write(status[1], &e, sizeof(e)) < 0)
                        _exit(127);
                _exit(127);
        }
        close(status[1]);
        close(fds[0]);
        while ((n = read(status[0], &child_errno, sizeof(child_errno))) < 0 && errno == EINTR)
                ;
        close(status[0]);
        if (n > 0) {
                close(fds[1]);
                while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                warnx_(_("cannot run the pager '%s': %s; writing to standard output"), argv[0],
                       strerror(n == (ssize_t)sizeof(child_errno) ? child_errno : EIO));
                return -1;
        }
        if (dup2(fds[1], STDOUT_FILENO) < 0) {
                warnx_(_("cannot start the pager: %s"), strerror(errno));
                close(fds[1]);
                kill(pid, SIGTERM);
                waitpid(pid, NULL, 0);
                return -1;
        }
        close(fds[1]);
        return pid;
fail:
        warnx_(_("cannot start the pager: %s"), strerror(errno));
        return -1;
}

void pager_close(pid_t pid) {
        if (pid <= 0)
                return;
        out_flush();
        close(STDOUT_FILENO);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
}
