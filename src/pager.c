/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pager: $PAGER or "less -FRSX", only on a terminal. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"
#include "output.h"
#include "pager.h"
#include "util.h"

static pid_t pager_pid;

void pager_open(void) {
        const char *pager = getenv("PAGER");
        int fds[2];
        pid_t pid;

        if (!isatty(STDOUT_FILENO))
                return;
        if (!pager)
                pager = "less -FRSX";
        if (!*pager || strcmp(pager, "cat") == 0)
                return;
        if (pipe2(fds, O_CLOEXEC) < 0) {
                warnx_(_("cannot start the pager: %s"), strerror(errno));
                return;
        }
        pid = fork();
        if (pid < 0) {
                warnx_(_("cannot start the pager: %s"), strerror(errno));
                close(fds[0]);
                close(fds[1]);
                return;
        }
        if (pid == 0) {
                dup2(fds[0], STDIN_FILENO);
                /* less needs no options when LESS is set; keep its colors raw. */
                setenv("LESS", "FRSX", 0);
                execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
                _exit(127);
        }
        if (dup2(fds[1], STDOUT_FILENO) < 0) {
                warnx_(_("cannot start the pager: %s"), strerror(errno));
                close(fds[0]);
                close(fds[1]);
                kill(pid, SIGTERM);
                waitpid(pid, NULL, 0);
                return;
        }
        close(fds[0]);
        close(fds[1]);
        pager_pid = pid;
}

void pager_close(void) {
        if (pager_pid <= 0)
                return;
        out_flush();
        close(STDOUT_FILENO);
        while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
                ;
        pager_pid = 0;
}
