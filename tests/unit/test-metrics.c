/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --metrics: the counting, the exposition text, the file written whole (output/metrics.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output/metrics.h"
#include "tests.h"

static struct kmsg_record *parse(const char *s) {
        struct kmsg_record *r = NULL;

        CHECK_INT(kmsg_record_parse(s, strlen(s), &r), 0);
        return r;
}

static void feed(struct metrics *m, const char *s, const struct problem_hit *hit) {
        struct kmsg_record *r = parse(s);

        metrics_record(m, r, hit);
        kmsg_record_unref(r);
}

/* The text of m; the caller frees it. */
static char *text_of(const struct metrics *m) {
        char *t = NULL;
        size_t len = 0;

        CHECK_INT(metrics_format(m, &t, &len), 0);
        CHECK_INT(len, strlen(t));
        return t;
}

static bool has_line(const char *text, const char *line) {
        size_t n = strlen(line);
        const char *p;

        for (p = text; (p = strstr(p, line)) != NULL; p += n)
                if ((p == text || p[-1] == '\n') && p[n] == '\n')
                        return true;
        return false;
}

TEST(records_by_level_and_the_last_one) {
        struct metrics m = { 0 };
        struct problem_hit oops = { .kind = PROBLEM_OOPS, .opens = true };
        struct problem_hit part = { .kind = PROBLEM_OOPS, .opens = false };
        char *t;

        m.problems_on = true;
        feed(&m, "6,7,1000,-;a\n", NULL);
        feed(&m, "1,8,2000,-;BUG: x\n", &oops);
        feed(&m, "4,9,3000,-;its trace\n", &part);
        t = text_of(&m);
        CHECK(has_line(t, "# HELP kdmesg_records_total Records read from the kernel log, by level (no duplicates)."));
        CHECK(has_line(t, "# TYPE kdmesg_records_total counter"));
        CHECK(has_line(t, "kdmesg_records_total{level=\"info\"} 1"));
        CHECK(has_line(t, "kdmesg_records_total{level=\"alert\"} 1"));
        CHECK(has_line(t, "kdmesg_records_total{level=\"warn\"} 1"));
        CHECK(has_line(t, "kdmesg_records_total{level=\"emerg\"} 0"));
        /* A report counts once, at its first record. */
        CHECK(has_line(t, "kdmesg_problems_total{kind=\"oops\"} 1"));
        CHECK(has_line(t, "kdmesg_problems_total{kind=\"panic\"} 0"));
        CHECK(has_line(t, "kdmesg_last_record_seq 9"));
        /* No boot time, no boot id, no upload: not said. */
        CHECK(!strstr(t, "kdmesg_last_record_timestamp_seconds"));
        CHECK(!strstr(t, "kdmesg_boot_info"));
        CHECK(!strstr(t, "kdmesg_upload"));
        CHECK(!strstr(t, "level=\"unknown\""));
        free(t);
}

TEST(no_problems_metric_without_the_classification) {
        struct metrics m = { 0 };
        char *t = text_of(&m);

        CHECK(!strstr(t, "kdmesg_problems_total"));
        CHECK(!strstr(t, "kdmesg_last_record_seq"));
        free(t);
}

TEST(the_wall_clock_from_the_boot_time) {
        struct timefmt tf = { .have_boot = true, .boot_usec = 1700000000000000 };
        struct metrics m = { .time = &tf };
        char *t;

        feed(&m, "6,0,2500001,-;a\n", NULL);
        snprintf(m.boot_id, sizeof(m.boot_id), "%s", "0123456789abcdef0123456789abcdef");
        t = text_of(&m);
        CHECK(has_line(t, "# TYPE kdmesg_last_record_timestamp_seconds gauge"));
        CHECK(has_line(t, "kdmesg_last_record_timestamp_seconds 1700000002.500001"));
        CHECK(has_line(t, "kdmesg_boot_info{boot_id=\"0123456789abcdef0123456789abcdef\"} 1"));
        free(t);
}

TEST(losses_by_cause_with_and_without_a_count) {
        struct metrics m = { 0 };
        struct kmsg_loss *l;
        char *t;

        CHECK_INT(kmsg_loss_new(10, 200, KMSG_LOSS_OVERRUN, &l), 0);
        metrics_loss(&m, l);
        kmsg_loss_unref(l);
        CHECK_INT(kmsg_loss_new(300, 3, KMSG_LOSS_OVERRUN, &l), 0);
        metrics_loss(&m, l);
        kmsg_loss_unref(l);
        CHECK_INT(kmsg_loss_new(0, 0, KMSG_LOSS_REBOOT, &l), 0);
        metrics_loss(&m, l);
        kmsg_loss_unref(l);
        t = text_of(&m);
        CHECK(has_line(t, "kdmesg_lost_records_total{cause=\"overrun\"} 203"));
        CHECK(has_line(t, "kdmesg_lost_records_total{cause=\"gap\"} 0"));
        CHECK(has_line(t, "kdmesg_lost_records_total{cause=\"reboot\"} 0"));
        CHECK(has_line(t, "kdmesg_loss_events_total{cause=\"overrun\"} 2"));
        CHECK(has_line(t, "kdmesg_loss_events_total{cause=\"reboot\"} 1"));
        /* Only --upload has these causes. */
        CHECK(!strstr(t, "spool-full"));
        free(t);
}

TEST(upload_figures) {
        struct metrics m = { .upload_on = true,
                             .up = { .acked = 11, .failures = 2, .spool_lost = 5, .refused = 1, .mem_bytes = 300 } };
        char *t = text_of(&m);

        CHECK(has_line(t, "kdmesg_lost_records_total{cause=\"spool-full\"} 5"));
        CHECK(has_line(t, "kdmesg_lost_records_total{cause=\"refused\"} 1"));
        CHECK(has_line(t, "kdmesg_upload_acknowledged_records_total 11"));
        CHECK(has_line(t, "kdmesg_upload_send_failures_total 2"));
        CHECK(has_line(t, "kdmesg_upload_queued_bytes{where=\"memory\"} 300"));
        /* No spool, no acknowledgement yet: not said. */
        CHECK(!strstr(t, "where=\"spool\""));
        CHECK(!strstr(t, "kdmesg_upload_last_ack_timestamp_seconds"));
        free(t);
        m.up.has_spool = true;
        m.up.spool_bytes = 120;
        m.up.has_ack = true;
        m.up.last_ack_usec = 1700000000000123;
        t = text_of(&m);
        CHECK(has_line(t, "kdmesg_upload_queued_bytes{where=\"spool\"} 120"));
        CHECK(has_line(t, "kdmesg_upload_last_ack_timestamp_seconds 1700000000.000123"));
        free(t);
}

/* The names in dir, sorted into one string. */
static void names_in(const char *dir, char *buf, size_t size) {
        struct dirent **list;
        int n, i;

        buf[0] = '\0';
        n = scandir(dir, &list, NULL, alphasort);
        CHECK(n >= 0);
        for (i = 0; i < n; i++) {
                if (strcmp(list[i]->d_name, ".") != 0 && strcmp(list[i]->d_name, "..") != 0)
                        snprintf(buf + strlen(buf), size - strlen(buf), "%s ", list[i]->d_name);
                free(list[i]);
        }
        free(list);
}

TEST(written_whole_and_replaced) {
        char dir[] = "/tmp/test-metrics-XXXXXX", path[64], names[256], buf[8192];
        struct metrics m = { 0 };
        struct stat st;
        mode_t old = umask(077);
        char *t;
        FILE *f;
        size_t n;

        CHECK(mkdtemp(dir) != NULL);
        snprintf(path, sizeof(path), "%s/kdmesg.prom", dir);
        m.path = path;
        CHECK_INT(metrics_write(&m), 0);
        feed(&m, "6,41,1000,-;a\n", NULL);
        CHECK_INT(metrics_write(&m), 0);
        names_in(dir, names, sizeof(names));
        CHECK_STR(names, "kdmesg.prom ");
        /* Readable by node_exporter whatever the umask. */
        CHECK_INT(stat(path, &st), 0);
        CHECK_INT(st.st_mode & 0777, 0644);
        f = fopen(path, "r");
        CHECK(f != NULL);
        n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
        t = text_of(&m);
        CHECK_STR(buf, t);
        CHECK(has_line(buf, "kdmesg_last_record_seq 41"));
        free(t);
        /* A directory that is not there: -ENOENT, nothing left behind, the next write works again. */
        snprintf(path, sizeof(path), "%s/no/kdmesg.prom", dir);
        CHECK_INT(metrics_write(&m), -ENOENT);
        CHECK(m.failing);
        snprintf(path, sizeof(path), "%s/kdmesg.prom", dir);
        CHECK_INT(metrics_write(&m), 0);
        CHECK(!m.failing);
        CHECK_INT(unlink(path), 0);
        CHECK_INT(rmdir(dir), 0);
        umask(old);
}

/* A reader never sees a part of the file: while a child writes it over and over, every read is all of it. */
TEST(a_reader_sees_the_whole_file_or_the_old_one) {
        char dir[] = "/tmp/test-metrics-XXXXXX", path[64], buf[8192];
        struct metrics m = { .problems_on = true, .upload_on = true };
        size_t len, reads = 0, whole = 0;
        char *t;
        pid_t pid;
        int status, i;

        CHECK(mkdtemp(dir) != NULL);
        snprintf(path, sizeof(path), "%s/kdmesg.prom", dir);
        m.path = path;
        t = text_of(&m);
        len = strlen(t);
        CHECK_INT(metrics_write(&m), 0);
        pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
                for (i = 0; i < 2000; i++)
                        if (metrics_write(&m) < 0)
                                _exit(1);
                _exit(0);
        }
        while (waitpid(pid, &status, WNOHANG) == 0) {
                FILE *f = fopen(path, "r");
                size_t n;

                CHECK(f != NULL);
                n = fread(buf, 1, sizeof(buf), f);
                fclose(f);
                reads++;
                whole += n == len && memcmp(buf, t, len) == 0;
        }
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        CHECK(reads > 0);
        CHECK_INT(whole, reads);
        free(t);
        CHECK_INT(unlink(path), 0);
        CHECK_INT(rmdir(dir), 0);
}

TEST(due_every_interval) {
        struct metrics m = { .interval_s = 3600 };
        unsigned i;

        /* Never written: due at once when asked, and after 256 records. */
        CHECK(metrics_due(&m, true));
        CHECK_INT(metrics_wait_ms(&m), 0);
        for (i = 0; i < 255; i++)
                CHECK(!metrics_due(&m, false));
        CHECK(metrics_due(&m, false));
        m.path = "/nonexistent-dir/kdmesg.prom";
        metrics_write(&m);
        CHECK(!metrics_due(&m, true));
        CHECK(metrics_wait_ms(&m) > 3599000);
        CHECK(metrics_wait_ms(&m) <= 3600000);
}
