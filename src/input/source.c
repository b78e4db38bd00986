/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening the sources: -K and -F files, /dev/kmsg, syslog(2). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/console.h"
#include "base/i18n.h"
#include "text/writer.h"
#include "pipeline/run.h"
#include "input/pstore-read.h"
#include "input/source.h"
#include "output/sink.h"
#include "select/problem-select.h"
#include "time/suspend.h"

/* Say why the kmsg device could not be opened (e < 0 from kmsg_reader_new_device()); path NULL: /dev/kmsg. */
static void report_device_error(const char *path, int e) {
        if (path && e != -EPERM && e != -EACCES)
                warnx_(_("cannot open %s: %s"), path, strerror(-e));
        else if (e == -EPERM || e == -EACCES)
                warnx_(_("cannot open /dev/kmsg: %s (reading the kernel log needs CAP_SYSLOG when "
                         "kernel.dmesg_restrict=1)"),
                       strerror(-e));
        else if (e == -ENODEV)
                warnx_(_("/dev/kmsg is not a kmsg character device"));
        else
                warnx_(_("cannot open /dev/kmsg: %s"), strerror(-e));
}

/* A file given to -F must be text: refuse one with NUL bytes in its first block. */
static bool looks_binary(int fd) {
        char buf[4096];
        ssize_t n = pread(fd, buf, sizeof(buf), 0);

        return n > 0 && memchr(buf, '\0', (size_t)n) != NULL;
}

/* Standard input, a file or a pipe that is the kmsg device. */
static bool fd_is_device(int fd) {
        struct stat st;

        return fstat(fd, &st) == 0 && is_kmsg_device(&st);
}

/*
 * A -K source that is the kmsg device (beside other sources): read
 * without blocking from its oldest record to its end, or followed.
 * Standard input is opened anew through /dev/stdin, non-blocking.
 */
static void read_device_source(struct run *run, const char *path, bool follow) {
        struct kmsg_reader *rd = NULL;
        int e;

        e = kmsg_reader_new_device(strcmp(path, "-") == 0 ? "/dev/stdin" : path, KMSG_SEEK_START, &rd);
        if (e < 0) {
                report_device_error(path, e);
                run->status = EXIT_BAD_INPUT;
                run_unread(run, path, false);
                return;
        }
        run_watch(run, rd);
        if (follow)
                follow_device(run, rd);
        else
                run_drain(run, rd);
        kmsg_reader_unref(rd);
}

void read_source(struct run *run, const struct source *src, bool follow) {
        struct kmsg_reader *rd = NULL;
        int fd = -1, e;

        if (src->device || (strcmp(src->path, "-") == 0 && fd_is_device(STDIN_FILENO))) {
                if (src->syslog_file) {
                        warnx_(_("%s: the kmsg device, not a syslog-form dump: read it with -K"), src->path);
                        run->status = EXIT_BAD_INPUT;
                        run_unread(run, src->path, false);
                        return;
                }
                read_device_source(run, src->path, follow);
                return;
        }
        if (strcmp(src->path, "-") == 0)
                e = kmsg_reader_new_fd(STDIN_FILENO, "<stdin>", src->format, &rd);
        else {
                fd = open(src->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                if (fd < 0 && errno == EINTR && run_quit) {
                        /* SIGINT or SIGTERM while a FIFO waited for its writer: the signal's exit status. */
                        warnx_(_("%s: not read: a signal came while it waited to be opened"), src->path);
                        run_unread(run, src->path, false);
                        return;
                }
                if (fd < 0) {
                        warnx_(_("cannot open %s: %s"), src->path, strerror(errno));
                        run->status = EXIT_BAD_INPUT;
                        run_unread(run, src->path, false);
                        return;
                }
                if (src->syslog_file && looks_binary(fd)) {
                        warnx_(_("%s: binary data, not a syslog-form dump"), src->path);
                        run->status = EXIT_BAD_INPUT;
                        run_unread(run, src->path, false);
                        close(fd);
                        return;
                }
                e = kmsg_reader_new_fd(fd, src->path, src->format, &rd);
        }
        if (e == 0)
                run_watch(run, rd);
        if (e < 0) {
                warnx_(_("cannot read %s: %s"), src->path, strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run_unread(run, src->path, false);
        } else if (follow) {
                kmsg_reader_unref(rd);
                follow_stream(run, src->path, src->format);
        } else {
                run_drain(run, rd);
                kmsg_reader_unref(rd);
        }
        if (fd >= 0)
                close(fd);
}

void read_live(struct run *run, const struct input *in) {
        struct kmsg_reader *rd = NULL;
        bool use_syslog = in->use_syslog;
        int fd = -1, e;

        if (!use_syslog) {
                struct kmsg_loss *loss;
                enum kmsg_seek where = plan_device_start(run, in->lost, in->follow_new, &loss);

                if (loss)
                        run_loss(run, loss);
                kmsg_loss_unref(loss);
                if (run->fatal)
                        return;
                /*
                 * A kernel without /dev/kmsg (before 3.5): read through
                 * syslog(2) instead, as -S does and as util-linux dmesg does
                 * by itself.  Not when following or keeping a cursor, which
                 * need the device.
                 */
                e = kmsg_reader_new_device(in->device_path, where, &rd);
                if (e == -ENOENT && !in->follow && !in->cursor && !in->device_path)
                        use_syslog = true;
                else if (e < 0) {
                        report_device_error(in->device_path, e);
                        run->status = EXIT_BAD_INPUT;
                        run_unread(run, in->device_path ? in->device_path : "/dev/kmsg", false);
                        return;
                }
        }
        if (use_syslog) {
                e = syslog_reader_new(in->read_clear, in->buffer_size, &rd, &fd);
                if (e < 0) {
                        warnx_(_("cannot read the kernel log through syslog(2): %s"), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        run_unread(run, "syslog(2)", false);
                        return;
                }
        }
        run_watch(run, rd);
        if (in->follow)
                follow_device(run, rd);
        else
                run_drain(run, rd);
        kmsg_reader_unref(rd);
        if (fd >= 0)
                close(fd);
        /*
         * With syslog(2), READ_CLEAR cleared as it read.  Otherwise clear
         * only what was read in full and written out: never after a signal
         * ended reading.
         */
        if (in->read_clear && !use_syslog && run->status == 0 && !run_quit && out_flush() == 0) {
                e = console_clear();
                if (e < 0) {
                        warnx_(_("cannot clear the kernel ring buffer: %s"), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                }
        }
}

void prescan_suspends(struct suspends *s) {
        struct kmsg_reader *rd = NULL;

        if (kmsg_reader_new_device(NULL, KMSG_SEEK_START, &rd) == 0)
                (void)suspends_prescan(s, rd);
        kmsg_reader_unref(rd);
}

/*
 * -K /dev/kmsg, or any node of the kmsg device: the device itself,
 * read without blocking to its end (or followed).  Given alone, it is the
 * live log, with all that goes with it (--cursor-file, -W, -c).
 */
void input_resolve(struct input *in) {
        struct stat st;
        size_t i;

        for (i = 0; i < in->n_sources; i++)
                in->sources[i].device = strcmp(in->sources[i].path, "-") != 0 && stat(in->sources[i].path, &st) == 0 &&
                                        is_kmsg_device(&st);
        if (in->n_sources == 1 && in->sources[0].device && !in->sources[0].syslog_file) {
                in->device_path = in->sources[0].path;
                in->n_sources = 0;
        }
        for (i = 0; i < in->n_sources; i++)
                in->sources[i].format = in->sources[i].syslog_file ? KMSG_FORMAT_SYSLOG : in->format;
}

bool input_is_live(const struct input *in) {
        return in->n_sources == 0 && !in->pstore;
}

void read_input(struct run *run, const struct input *in) {
        size_t i;

        if (in->pstore)
                read_pstore(run, in);
        else if (in->n_sources == 0)
                read_live(run, in);
        for (i = 0; i < in->n_sources && !run_quit && !run->fatal; i++) {
                /* A report never runs on into the next file; the reports name the file of each problem. */
                if (run->problems)
                        problems_break(run->problems->rules);
                if (in->n_sources > 1 && sink_source(run->sink, in->sources[i].path) < 0) {
                        warnx_("%s", strerror(ENOMEM));
                        run->status = EXIT_BAD_INPUT;
                        run->fatal = true;
                        return;
                }
                read_source(run, &in->sources[i], in->follow && i == in->n_sources - 1);
        }
}
