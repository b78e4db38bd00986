/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdmesg's pipeline (run.c) below the command line: records read from a
 * memory file go through the sequence tracker, the loss path and the
 * filters into a sink that writes down what it got.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ship/cursor.h"
#include "select/filter.h"
#include "text/writer.h"
#include "pipeline/run.h"
#include "tests.h"

/* A sink that notes "seq" for each record and "loss:first+count" for each loss event. */
struct note_sink {
        struct sink s;
        char log[1024];
        bool write_out; /* also put a line into the output buffer (for the cursor hooks) */
};

static void __attribute__((format(printf, 2, 3))) note(struct note_sink *n, const char *fmt, ...) {
        va_list ap;
        size_t len = strlen(n->log);

        if (len > 0 && len < sizeof(n->log) - 1)
                n->log[len++] = ' ';
        va_start(ap, fmt);
        vsnprintf(n->log + len, sizeof(n->log) - len, fmt, ap);
        va_end(ap);
}

static int note_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct note_sink *n = (struct note_sink *)s;

        note(n, "%llu", (unsigned long long)kmsg_record_get_seqnum(r));
        if (n->write_out)
                out_puts("line\n");
        return 0;
}

static int note_loss(struct sink *s, const struct kmsg_loss *l) {
        note((struct note_sink *)s, "loss:%llu+%llu", (unsigned long long)kmsg_loss_get_first_seq(l),
             (unsigned long long)kmsg_loss_get_count(l));
        return 0;
}

static int note_boot(struct sink *s, uint64_t boot, const struct kmsg_record *r) {
        note((struct note_sink *)s, "boot%llu@%llu", (unsigned long long)boot,
             (unsigned long long)kmsg_record_get_seqnum(r));
        return 0;
}

static int note_finish(struct sink *s) {
        return 0;
}

static void note_free(struct sink *s) {
}

static const struct sink_ops note_ops = {
        .size = sizeof(struct note_sink),
        .record = note_record,
        .loss = note_loss,
        .boot = note_boot,
        .finish = note_finish,
        .free = note_free,
};

static void note_sink_init(struct note_sink *n) {
        *n = (struct note_sink){
                .s = { .name = "note", .ops = &note_ops },
        };
}

/* A reader over a memory file holding text in the /dev/kmsg form. */
static struct kmsg_reader *mem_reader(const char *text) {
        struct kmsg_reader *rd = NULL;
        int fd = memfd_create("test-run", MFD_CLOEXEC);

        if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || lseek(fd, 0, SEEK_SET) != 0)
                test_fail(__FILE__, __LINE__, "memfd: %s", strerror(errno));
        if (kmsg_reader_new_fd(fd, "mem", KMSG_FORMAT_KMSG, &rd) < 0)
                test_fail(__FILE__, __LINE__, "cannot make a reader");
        return rd;
}

/* Run text through run_drain() with filter f (NULL: none) into n; returns run_drain()'s result. */
static int drive(struct run *run, struct note_sink *n, struct filter *f, const char *text) {
        static struct filter none;
        struct kmsg_reader *rd = mem_reader(text);
        int e;

        run->sink = &n->s;
        run->filter = f ? f : &none;
        run->quit_fd = -1;
        if (!run->track && kmsg_seqtrack_new(&run->track) < 0)
                test_fail(__FILE__, __LINE__, "out of memory");
        e = run_drain(run, rd);
        kmsg_seqtrack_finish(run->track);
        kmsg_reader_unref(rd);
        return e;
}

static void run_done(struct run *run) {
        run->track = kmsg_seqtrack_unref(run->track);
}

TEST(gap_is_a_loss_between_the_right_records) {
        struct note_sink n;
        struct run run = {};

        note_sink_init(&n);
        CHECK_INT(drive(&run, &n, NULL,
                        "6,0,100,-;a\n6,1,200,-;b\n6,4,500,-;c\n6,5,600,-;d\n"),
                  0);
        CHECK_STR(n.log, "0 1 loss:2+2 4 5");
        CHECK(loss_stats_any(&run.loss));
        CHECK_INT(run.status, 0);
        run_done(&run);
}

TEST(a_new_boot_comes_before_its_rotated_loss_and_its_first_record) {
        struct note_sink n;
        struct run run = {};

        note_sink_init(&n);
        /*
         * Back to 0 with the time 41 s back; then on to 10 with the time 41 s
         * back.  What boot 3 had before seq 10 was never in the input: no loss
         * of this read, the sink is not told (only --lost lists it).
         */
        CHECK_INT(drive(&run, &n, NULL,
                        "6,0,100,-;a\n6,1,41000000,-;b\n6,0,100,-;c\n6,1,41000000,-;d\n6,2,42000000,-;d2\n"
                        "6,10,1000000,-;e\n"),
                  0);
        CHECK_STR(n.log, "0 1 boot2@0 0 1 2 boot3@10 10");
        CHECK(!loss_stats_any(&run.loss));
        CHECK_INT(run.boots, 3);
        run_done(&run);
}

TEST(the_reorder_window_puts_late_records_in_place_and_settles_at_the_end) {
        struct note_sink n;
        struct run run = {};

        note_sink_init(&n);
        CHECK_INT(kmsg_seqtrack_new(&run.track), 0);
        CHECK_INT(kmsg_seqtrack_set_reorder_window(run.track, REORDER_WINDOW), 0);
        /* 0 1 3 2 4: nothing lost; 6 and 8 left open when the input ends. */
        CHECK_INT(drive(&run, &n, NULL,
                        "6,0,1,-;a\n6,1,2,-;b\n6,3,4,-;d\n6,2,3,-;c\n6,4,5,-;e\n6,6,7,-;g\n6,8,9,-;i\n"),
                  0);
        CHECK_STR(n.log, "0 1 2 3 4 loss:5+1 6 loss:7+1 8");
        CHECK_INT(run.loss.total, 2);
        run_done(&run);
}

TEST(duplicates_are_dropped) {
        struct note_sink n;
        struct run run = {};

        note_sink_init(&n);
        CHECK_INT(drive(&run, &n, NULL,
                        "6,0,100,-;a\n6,1,200,-;b\n6,2,300,-;c\n6,1,200,-;b\n6,2,300,-;c\n6,3,400,-;d\n"),
                  0);
        CHECK_STR(n.log, "0 1 2 3");
        CHECK_INT(kmsg_seqtrack_get_duplicates(run.track), 2);
        CHECK(!loss_stats_any(&run.loss));
        run_done(&run);
}

TEST(since_passes_only_later_records) {
        struct note_sink n;
        struct run run = {};
        struct filter f = {};

        note_sink_init(&n);
        filter_set_since(&f, 250);
        CHECK_INT(drive(&run, &n, &f, "6,0,100,-;a\n6,1,200,-;b\n6,2,300,-;c\n6,3,400,-;d\n"), 0);
        CHECK_STR(n.log, "2 3");
        filter_done(&f);
        run_done(&run);
}

TEST(level_filter) {
        struct note_sink n;
        struct run run = {};
        struct filter f = {};

        note_sink_init(&n);
        CHECK_INT(filter_parse_levels(&f, "err+"), 0);
        CHECK_INT(drive(&run, &n, &f, "6,0,100,-;info\n3,1,200,-;err\n7,2,300,-;debug\n0,3,400,-;emerg\n"), 0);
        CHECK_STR(n.log, "1 3");
        filter_done(&f);
        run_done(&run);
}

/* Output goes to standard output, the TAP stream: send it elsewhere while the test writes. */
static int stdout_to_null(void) {
        int saved, null;

        fflush(stdout);
        saved = dup(STDOUT_FILENO);
        null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0)
                test_fail(__FILE__, __LINE__, "cannot redirect stdout");
        close(null);
        return saved;
}

static void stdout_back(int saved) {
        if (dup2(saved, STDOUT_FILENO) < 0)
                abort();
        close(saved);
}

TEST(cursor_hooks_mark_what_was_written) {
        char path[] = "/tmp/test-run-cursor-XXXXXX", err[128] = "";
        struct note_sink n;
        struct run run = {};
        struct cursor *c = NULL;
        uint64_t seq = 0, usec = 0, from = 99, to = 0;
        int fd = mkstemp(path), saved;

        if (fd < 0)
                test_fail(__FILE__, __LINE__, "mkstemp: %s", strerror(errno));
        close(fd);
        unlink(path); /* a missing file is an empty cursor */
        CHECK_INT(cursor_load(path, &run.cursor, err, sizeof(err)), 0);
        if (!run.cursor)
                return;
        cursor_set_boot_id(run.cursor, "0123456789abcdef0123456789abcdef");
        note_sink_init(&n);
        n.write_out = true;
        run.stream_out = true;
        run_set_cursor_hooks(&run);

        saved = stdout_to_null();
        CHECK_INT(drive(&run, &n, NULL, "6,0,700,-;a\n6,1,800,-;b\n"), 0);
        CHECK_INT(out_flush(), 0);
        stdout_back(saved);
        out_set_write_hooks(NULL, NULL, NULL);

        /* The hook before the write(2) named the records in it as pending in the file. */
        CHECK_INT(cursor_load(path, &c, err, sizeof(err)), 0);
        CHECK(c && cursor_get_pending(c, &from, &to));
        CHECK_INT(from, 0);
        CHECK(to >= 1);
        cursor_free(c);
        c = NULL;

        /* The one after it counted them as written: sync saves the last. */
        CHECK_INT(cursor_sync(run.cursor), 0);
        CHECK_STR(n.log, "0 1");
        cursor_free(run.cursor);
        CHECK_INT(cursor_load(path, &c, err, sizeof(err)), 0);
        CHECK(c && cursor_get_seq(c, &seq, &usec));
        CHECK_INT(seq, 1);
        CHECK_INT(usec, 800);
        cursor_free(c);
        unlink(path);
        run_done(&run);
}
