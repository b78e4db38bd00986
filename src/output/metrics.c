/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --metrics FILE: the counters of a run in the Prometheus text exposition format (metrics.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"
#include "output/metrics.h"
#include "text/diag.h"

/* The clock is read once in this many records while they keep coming. */
#define CHECK_EVERY 256u

static uint64_t now_ns(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void metrics_record(struct metrics *m, const struct kmsg_record *r, const struct problem_hit *hit) {
        int64_t wall;

        if (kmsg_record_has_priority(r))
                m->records[kmsg_record_get_level(r) & 7]++;
        else
                m->records_unknown++;
        if (kmsg_record_has_seqnum(r)) {
                m->has_seq = true;
                m->last_seq = kmsg_record_get_seqnum(r);
        }
        /*
         * Its wall clock: boot time + time slept + stamp, made when the file
         * is written (the time slept is the last record's then); a "dmesg -T"
         * paste's record has no stamp but the wall clock it printed.
         */
        m->has_mono = kmsg_record_has_timestamp(r);
        m->has_wall = false;
        if (m->has_mono)
                m->last_usec = kmsg_record_get_timestamp(r);
        else if (record_printed_wall(r, &wall)) {
                m->has_wall = true;
                m->last_wall_usec = wall;
        }
        if (hit && hit->kind >= 0 && hit->kind < _PROBLEM_MAX && hit->opens)
                m->problems[hit->kind]++;
}

void metrics_loss(struct metrics *m, const struct kmsg_loss *l) {
        unsigned c = (unsigned)kmsg_loss_get_cause(l);

        if (c >= LOSS_CAUSES)
                return;
        m->loss_events[c]++;
        m->lost[c] += kmsg_loss_get_count(l);
}

static void head(FILE *f, const char *name, const char *type, const char *help) {
        fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Seconds since the epoch with their microseconds, as Prometheus takes floats. */
static void put_seconds(FILE *f, const char *name, int64_t usec) {
        int64_t s = usec / 1000000, us = usec % 1000000;

        if (us < 0) {
                s--;
                us += 1000000;
        }
        fprintf(f, "%s %" PRId64 ".%06" PRId64 "\n", name, s, us);
}

static void put_records(FILE *f, const struct metrics *m) {
        unsigned i;

        head(f, "kdmesg_records_total", "counter", "Records read from the kernel log, by level (no duplicates).");
        for (i = 0; i < 8; i++)
                fprintf(f, "kdmesg_records_total{level=\"%s\"} %" PRIu64 "\n", kmsg_level_to_name(i), m->records[i]);
        /* Syslog-form lines without a <N> prefix carry no level. */
        if (m->records_unknown)
                fprintf(f, "kdmesg_records_total{level=\"unknown\"} %" PRIu64 "\n", m->records_unknown);
}

static void put_losses(FILE *f, const struct metrics *m) {
        unsigned c;

        head(f, "kdmesg_lost_records_total", "counter",
             "Records lost, by cause (a reboot's lost tail has no known count: see kdmesg_loss_events_total).");
        for (c = 0; c < LOSS_CAUSES; c++)
                fprintf(f, "kdmesg_lost_records_total{cause=\"%s\"} %" PRIu64 "\n", kmsg_loss_cause_to_name(c),
                        m->lost[c]);
        if (m->upload_on) {
                fprintf(f, "kdmesg_lost_records_total{cause=\"spool-full\"} %" PRIu64 "\n", m->up.spool_lost);
                fprintf(f, "kdmesg_lost_records_total{cause=\"refused\"} %" PRIu64 "\n", m->up.refused);
        }
        head(f, "kdmesg_loss_events_total", "counter", "Losses reported, by cause, whether their size is known or not.");
        for (c = 0; c < LOSS_CAUSES; c++)
                fprintf(f, "kdmesg_loss_events_total{cause=\"%s\"} %" PRIu64 "\n", kmsg_loss_cause_to_name(c),
                        m->loss_events[c]);
}

static void put_upload(FILE *f, const struct metrics *m) {
        const struct metrics_upload *u = &m->up;

        head(f, "kdmesg_upload_acknowledged_records_total", "counter",
             "Records the collector acknowledged (a refused record's loss entry in its place counts).");
        fprintf(f, "kdmesg_upload_acknowledged_records_total %" PRIu64 "\n", u->acked);
        head(f, "kdmesg_upload_send_failures_total", "counter", "Sends to the collector that failed.");
        fprintf(f, "kdmesg_upload_send_failures_total %" PRIu64 "\n", u->failures);
        head(f, "kdmesg_upload_queued_bytes", "gauge", "Bytes read and not yet acknowledged, by where they are held.");
        fprintf(f, "kdmesg_upload_queued_bytes{where=\"memory\"} %" PRIu64 "\n", u->mem_bytes);
        if (u->has_spool)
                fprintf(f, "kdmesg_upload_queued_bytes{where=\"spool\"} %" PRIu64 "\n", u->spool_bytes);
        if (u->has_ack) {
                head(f, "kdmesg_upload_last_ack_timestamp_seconds", "gauge",
                     "When the collector last acknowledged a batch, seconds since the epoch.");
                put_seconds(f, "kdmesg_upload_last_ack_timestamp_seconds", u->last_ack_usec);
        }
}

int metrics_format(const struct metrics *m, char **ret, size_t *ret_len) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f;
        int i;

        f = open_memstream(&buf, &len);
        if (!f)
                return -ENOMEM;
        put_records(f, m);
        put_losses(f, m);
        if (m->problems_on) {
                head(f, "kdmesg_problems_total", "counter", "Problems found in the records read, by kind.");
                for (i = 0; i < _PROBLEM_MAX; i++)
                        fprintf(f, "kdmesg_problems_total{kind=\"%s\"} %" PRIu64 "\n", problem_kind_name(i),
                                m->problems[i]);
        }
        /* Nothing is said of what is not known: no record with a number, no boot time, no boot id. */
        if (m->has_seq) {
                head(f, "kdmesg_last_record_seq", "gauge", "The sequence number of the last record read.");
                fprintf(f, "kdmesg_last_record_seq %" PRIu64 "\n", m->last_seq);
        }
        if ((m->has_mono && m->time && m->time->have_boot) || m->has_wall) {
                head(f, "kdmesg_last_record_timestamp_seconds", "gauge",
                     "The wall-clock time of the last record read, seconds since the epoch.");
                put_seconds(f, "kdmesg_last_record_timestamp_seconds",
                            m->has_mono ? timefmt_wall(m->time, m->last_usec) : m->last_wall_usec);
        }
        if (m->boot_id[0]) {
                head(f, "kdmesg_boot_info", "gauge", "The boot whose log is read.");
                fprintf(f, "kdmesg_boot_info{boot_id=\"%s\"} 1\n", m->boot_id);
        }
        if (m->upload_on)
                put_upload(f, m);
        if (fclose(f) != 0) {
                free(buf);
                return -ENOMEM;
        }
        *ret = buf;
        *ret_len = len;
        return 0;
}

/* The temporary file's name: ".NAME.PID.tmp" in FILE's directory. */
static int tmp_name(const char *path, char **ret) {
        const char *slash = strrchr(path, '/');
        int dir = slash ? (int)(slash - path + 1) : 0;

        if (asprintf(ret, "%.*s.%s.%ld.tmp", dir, path, path + dir, (long)getpid()) < 0)
                return -ENOMEM;
        return 0;
}

static int write_all(int fd, const char *p, size_t len) {
        while (len > 0) {
                ssize_t n = write(fd, p, len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                p += n;
                len -= (size_t)n;
        }
        return 0;
}

static int write_file(const char *path, const char *text, size_t len) {
        char *tmp;
        int fd, e;

        e = tmp_name(path, &tmp);
        if (e < 0)
                return e;
        /* A name left by a killed run of the same pid is replaced. */
        (void)unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0) {
                e = -errno;
                free(tmp);
                return e;
        }
        /* For node_exporter, another user, whatever the umask (kdmesg-upload.service's is 0077). */
        e = fchmod(fd, 0644) < 0 ? -errno : 0;
        if (e == 0)
                e = write_all(fd, text, len);
        if (close(fd) < 0 && e == 0)
                e = -errno;
        if (e == 0 && rename(tmp, path) < 0)
                e = -errno;
        if (e < 0)
                (void)unlink(tmp);
        free(tmp);
        return e;
}

int metrics_write(struct metrics *m) {
        char *text = NULL;
        size_t len = 0;
        int e;

        e = metrics_format(m, &text, &len);
        if (e == 0)
                e = write_file(m->path, text, len);
        free(text);
        if (e < 0 && !m->failing)
                warnx_(_("cannot write the metrics file %s: %s"), m->path, strerror(-e));
        m->failing = e < 0;
        m->next_ns = now_ns() + (uint64_t)m->interval_s * 1000000000u;
        m->since_check = 0;
        return e;
}

bool metrics_due(struct metrics *m, bool force) {
        if (!force && ++m->since_check < CHECK_EVERY)
                return false;
        m->since_check = 0;
        return now_ns() >= m->next_ns;
}

int metrics_wait_ms(const struct metrics *m) {
        uint64_t now = now_ns();

        if (now >= m->next_ns)
                return 0;
        return (int)((m->next_ns - now + 999999u) / 1000000u);
}
