/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pipeline: each record read goes through the sequence tracker, the
 * loss path, the filters and the sink; output is flushed in whole records.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "select/device.h"
#include "base/i18n.h"
#include "text/writer.h"
#include "select/problem-select.h"
#include "pipeline/metrics-run.h"
#include "pipeline/missing.h"
#include "pipeline/run.h"
#include "time/suspend.h"
#include "output/metrics.h"
#include "time/timefmt.h"
#include "ship/upload.h"

/* Error messages for one source beyond this many are counted, not printed. */
#define MAX_ERRORS_SHOWN 10
/*
 * Following or keeping a cursor, output is written in whole records: a
 * record begins with at least this much room in the buffer (the largest
 * record from /dev/kmsg, 8 KiB, takes at most about 40 KiB in any format).
 */
#define RECORD_FLUSH_AT (OUT_BUF_SIZE / 4)

struct run_signal run_signal = { .pipe_w = -1 };

/* A bad record's line, up to MAX_ERRORS_SHOWN of them a read. */
static void say_bad(struct kmsg_reader *rd, uint64_t *shown, uint64_t pos, const char *err) {
        const char *name = kmsg_reader_get_name(rd);

        if (++*shown > MAX_ERRORS_SHOWN)
                return;
        if (kmsg_reader_is_device(rd))
                warnx_(_("%s: record %llu: %s"), name, (unsigned long long)pos, err);
        else
                warnx_("%s:%llu: %s", name, (unsigned long long)pos, err);
}

static void report_bad(struct run *run, struct kmsg_reader *rd, uint64_t *shown, int e) {
        bool verdict;

        run->bad_records++;
        run->status = EXIT_BAD_INPUT;
        /* --problems gives no verdict on what it could not read. */
        if (run->problems)
                run->problems->tally.unread++;
        /*
         * Before a first record, held: a file that is none of the kernel log
         * is one line (notklog.h): a kmsg-form read of lines that are no
         * records.  Not following: a followed source's records may be yet to
         * come, and each error is said as it comes.  The other forms say
         * what they skipped in a line of their own already.
         */
        if (!run->following && kmsg_reader_get_format(rd) == KMSG_FORMAT_KMSG &&
            notklog_hold(&run->notklog, rd, &verdict)) {
                run->notklog_stop = verdict;
                return;
        }
        say_bad(rd, shown, kmsg_reader_get_position(rd), kmsg_reader_get_error(rd));
}

struct held_bad {
        struct kmsg_reader *rd;
        uint64_t *shown;
};

static void print_held(void *userdata, uint64_t pos, const char *err) {
        struct held_bad *h = userdata;

        say_bad(h->rd, h->shown, pos, err);
}

void run_unread(struct run *run, const char *name, bool partly) {
        if (run->unread.sources++ == 0) {
                /* Out of memory, the line says "?" for the name. */
                run->unread.first = strdup(name ? name : "?");
                run->unread.partly = partly;
        }
}

/* A loss event to the output; counted (the summary, --fail-on-loss) unless it is what the input covers. */
static int pass_loss(struct run *run, const struct kmsg_loss *l, bool counted) {
        int e;

        if (counted)
                loss_stats_add(&run->loss, l);
        if (counted && run->metrics)
                metrics_loss(run->metrics, l);
        e = run->sink->ops->loss ? run->sink->ops->loss(run->sink, l) : 0;
        /*
         * Keeping a cursor, a loss is written on its own, before the record
         * after it: the cursor file is saved right before a write that holds
         * records, and from then on it names only what follows the last
         * record written; a run killed between that save and the write
         * would take the report of the loss with it (start.c's pending
         * range, a reboot, an overrun).
         */
        if (run->cursor && e >= 0)
                out_flush();
        return e;
}

int run_loss(struct run *run, const struct kmsg_loss *l) {
        return pass_loss(run, l, true);
}

/*
 * Records gone before this read could have seen them: rotated out of the
 * ring before kdmesg started, or numbered before the first record of a
 * dump or of a boot in it.  That is what the input covers, not a loss of
 * this read (kdmesg-reports(7), LOST MESSAGES): only --lost lists it, and it
 * counts neither in the summary on stderr nor for --fail-on-loss.  A
 * reader that should have seen them keeps them as losses: a cursor file
 * behind the ring, a start position promised by the probes (what rotated
 * after them), a new boot found while following.  --upload sends it to the
 * collector as an entry of the stream all the same, uncounted.
 */
static bool is_coverage(const struct run *run, const struct kmsg_loss *l, int fl) {
        if (run->cursor || kmsg_loss_get_cause(l) != KMSG_LOSS_ROTATED || kmsg_loss_has_before(l))
                return false;
        if (fl & KMSG_SEQ_NEW_BOOT)
                return !run->following;
        return !run->promised;
}

int run_coverage(struct run *run, const struct kmsg_loss *l) {
        return run->lost ? lost_coverage(run->lost, l) : 0;
}

/*
 * --lost counts every record the input held.  The device gives no
 * duplicates: what it skips is before the cursor, still in the ring.
 */
static void count_for_lost(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r, int fl) {
        if (run->lost && (!(fl & KMSG_SEQ_DUPLICATE) || kmsg_reader_is_device(rd)))
                run->lost->ops->seen(run->lost, r);
}

/*
 * Input without sequence numbers: say once what --seq, --lost and
 * --format=kmsg make of it.  The syslog form has none at all; a JSON or
 * export record may lack one (no "seq", no SEQNUM field): that record is named.
 */
static void warn_no_seq(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r) {
        struct filter *flt = run->filter;
        const char *name;
        unsigned long long line;
        bool syslog;

        if (kmsg_record_has_seqnum(r))
                return;
        name = kmsg_reader_get_name(rd);
        line = (unsigned long long)kmsg_reader_get_position(rd);
        syslog = kmsg_reader_get_format(rd) == KMSG_FORMAT_SYSLOG;
        if (flt->have_seq && !flt->seq_warned) {
                if (syslog)
                        warnx_(_("%s: syslog-form input has no sequence numbers: --seq matches none of its records"),
                               name);
                else
                        warnx_(_("%s:%llu: a record without a sequence number: --seq matches no such record"), name,
                               line);
                flt->seq_warned = true;
        }
        if ((run->counts_losses || run->writes_seq) && !run->noseq_warned) {
                if (run->counts_losses && syslog)
                        warnx_(_("%s: syslog-form input has no sequence numbers: %s cannot find lost messages in it"),
                               name, run->counts_losses);
                else if (run->counts_losses)
                        warnx_(_("%s:%llu: a record without a sequence number: %s cannot find lost messages "
                                 "next to such records"),
                               name, line, run->counts_losses);
                else if (syslog)
                        warnx_(_("%s: syslog-form input has no sequence numbers: --format=kmsg writes 0 for them"),
                               name);
                else
                        warnx_(_("%s:%llu: a record without a sequence number: --format=kmsg writes 0 for such "
                                 "records"),
                               name, line);
                run->noseq_warned = true;
        }
}

/* Whether the record is inside --since/--until: a loss before it is shown only then. */
static bool in_time_window(const struct run *run, const struct kmsg_record *r) {
        return !run->filter->active || filter_in_window(run->filter, r);
}

/*
 * Resuming from a cursor: the record before the first gap is the cursor's.
 * Returns 1 with *ret, a copy of l that says so, 0 when l is right as it is,
 * or -ENOMEM.
 */
static int fill_resume_before(const struct run *run, const struct kmsg_loss *l, struct kmsg_loss **ret) {
        int e;

        if (!run->have_resume || kmsg_loss_get_first_seq(l) != run->resume_seq || kmsg_loss_has_before(l))
                return 0;
        e = loss_copy(l, ret);
        if (e < 0)
                return e;
        kmsg_loss_set_before(*ret, run->resume_usec);
        return 1;
}

/*
 * --cursor-file: the cursor counts this record as written with the next
 * write(2); leave room for all of it in the buffer first.
 */
static void mark_for_cursor(struct run *run, const struct kmsg_record *r) {
        if (run->upload && kmsg_record_has_seqnum(r)) {
                /*
                 * Its entry starts here; the cursor moves once the collector
                 * has it.  The entries before it are handed over first: a
                 * batch that ends at this mark holds them all.
                 */
                out_flush();
                upload_mark(run->upload, kmsg_record_get_seqnum(r), kmsg_record_get_timestamp(r));
                return;
        }
        if (!run->cursor || !kmsg_record_has_seqnum(r))
                return;
        if (out_pending() >= RECORD_FLUSH_AT)
                out_flush();
        cursor_record(run->cursor, kmsg_record_get_seqnum(r), kmsg_record_get_timestamp(r));
}

/*
 * Whether the filters, the device selection and --problem let the record
 * through to the sink; *m gets what the device filter found (all zero
 * without it) and the record's problem (PROBLEM_NONE without --problem
 * or --problems).  Problems are found among the records the others let
 * through.
 */
static bool wanted(struct run *run, const struct kmsg_record *r, struct match *m) {
        struct filter *flt = run->filter;

        return (!flt->active || filter_match(flt, r)) &&
               (!run->devfilter || devfilter_match(run->devfilter, r, m)) &&
               (!run->problems || problem_select(run->problems, r, &m->problem));
}

/* Following or keeping a cursor, output is written in whole records: flush before the buffer fills. */
static void flush_whole_records(const struct run *run) {
        if (run->stream_out && out_pending() >= RECORD_FLUSH_AT)
                out_flush();
}

/*
 * A new boot starts with r: count it, and mark it as a loss is marked, only
 * inside --since/--until, except for --lost, which reports per boot.
 */
static int mark_boot(struct run *run, const struct kmsg_record *r, bool in_window) {
        struct sink *s = run->sink;

        run->boots++;
        if (!s->ops->boot || (!in_window && s != run->lost))
                return 0;
        return s->ops->boot(s, run->boots, r);
}

/*
 * Show a record the sequence tracker let through, with the boot it starts
 * and the loss before it.  Inline in its two callers: it runs for every record.
 */
static inline __attribute__((always_inline)) int deliver(struct run *run, struct kmsg_reader *rd,
                                                         const struct kmsg_record *r, int fl,
                                                         const struct kmsg_loss *l) {
        struct kmsg_record_view v;
        struct match m = { .problem.kind = PROBLEM_NONE, .view = &v };
        bool in_window, shown;
        int e;

        if (fl & KMSG_SEQ_DUPLICATE) {
                count_for_lost(run, rd, r, fl);
                return 0;
        }
        /* Its fields at once, for what follows and the sink (one call, not a getter each). */
        e = kmsg_record_get_view(r, &v, sizeof(v));
        if (e < 0)
                return e;
        /* The time slept before this record: its wall clock, for --since and the views. */
        if (run->suspends) {
                if (fl & KMSG_SEQ_NEW_BOOT)
                        suspends_new_boot(run->suspends);
                suspends_feed_view(run->suspends, &v);
        }
        if ((fl & KMSG_SEQ_CLASH) && ++run->clashes <= MAX_CLASHES_SHOWN && !run->quiet_clashes)
                /* Not a duplicate (another message), not a boot (the time goes on): both are shown. */
                warnx_(_("%s:%llu: seq %llu again, with another message than before: both are kept"),
                       kmsg_reader_get_name(rd), (unsigned long long)kmsg_reader_get_position(rd),
                       (unsigned long long)kmsg_record_get_seqnum(r));
        if (run->boot_missing && kmsg_record_has_timestamp(r) && !record_carried_wall(r, &(int64_t){ 0 })) {
                /* Seconds since an unknown boot: no wall clock to show or compare. */
                warnx_(_("%s:%llu: %s needs the boot time of the machine the dump comes from, e.g. "
                         "--boot-time '2024-05-01 08:00'"),
                       kmsg_reader_get_name(rd), (unsigned long long)kmsg_reader_get_position(rd), run->boot_missing);
                run->status = EXIT_BAD_INPUT;
                run->fatal = true;
                /* No report gives a verdict on what this leaves unread. */
                run_unread(run, kmsg_reader_get_name(rd), run->delivered > 0);
                return -ECANCELED;
        }
        in_window = in_time_window(run, r);
        /* --boot: the records, losses and boot line of that boot alone (records before the first number: boot 1). */
        if (run->only_boot && in_window) {
                uint64_t boot = run->boots + ((fl & KMSG_SEQ_NEW_BOOT) != 0);

                in_window = (boot ? boot : 1) == run->only_boot;
        }
        if (fl & KMSG_SEQ_NEW_BOOT) {
                e = mark_boot(run, r, in_window);
                if (e < 0)
                        return e;
        }
        count_for_lost(run, rd, r, fl);
        if (!v.has_seqnum)
                warn_no_seq(run, rd, r);
        if (run->filter->active || run->devfilter)
                missing_check(run, rd, r);
        if ((fl & KMSG_SEQ_LOSS) && in_window) {
                struct kmsg_loss *own = NULL;

                e = fill_resume_before(run, l, &own);
                if (e >= 0 && is_coverage(run, l, fl))
                        e = run->upload ? pass_loss(run, l, false) : run_coverage(run, l);
                else if (e >= 0)
                        e = run_loss(run, own ? own : l);
                kmsg_loss_unref(own);
                if (e < 0)
                        return e;
        }
        if (run->upload || run->cursor)
                mark_for_cursor(run, r);
        run->read++;
        run->delivered += in_window;
        shown = in_window && wanted(run, r, &m);
        if (run->metrics)
                run_metrics_record(run, r, &m.problem);
        if (shown) {
                run->shown++;
                e = run->sink->ops->record ? run->sink->ops->record(run->sink, r, &m) : 0;
                if (e < 0)
                        return e;
        }
        flush_whole_records(run);
        /* Once standard output failed, reading on would only discard. */
        return out_failed();
}

/* Records the tracker held and has now released, in input order. */
static int deliver_released(struct run *run, struct kmsg_reader *rd) {
        struct kmsg_record *r;
        const struct kmsg_loss *loss;
        int fl, e = 0;

        while ((fl = kmsg_seqtrack_pop(run->track, &r, &loss)) >= 0) {
                if (e >= 0)
                        e = deliver(run, rd, r, fl, loss);
                kmsg_record_unref(r);
        }
        return e;
}

static int emit(struct run *run, struct kmsg_reader *rd, const struct kmsg_record *r) {
        const struct kmsg_loss *loss;
        int fl, e;

        if (!run->started && kmsg_record_has_seqnum(r)) {
                struct kmsg_loss *start_loss;

                /* The first record with a number: the first boot. */
                run->boots = 1;
                e = judge_start(run, r, &start_loss);
                if (e > 0) {
                        /* What rotated out of the ring before its oldest record, before the start. */
                        e = run_coverage(run, start_loss);
                        kmsg_loss_unref(start_loss);
                }
                if (e < 0)
                        return e;
        }
        fl = kmsg_seqtrack_feed(run->track, r, &loss);
        if (fl < 0)
                return fl;
        if (fl & KMSG_SEQ_HELD)
                return deliver_released(run, rd);
        return deliver(run, rd, r, fl, loss);
}

/*
 * Reading stops for now (the end of the input, no record ready, a signal):
 * a gap still open in the reorder window can no longer be told from a loss.
 */
static int settle(struct run *run, struct kmsg_reader *rd) {
        int e;

        if (run->fatal)
                return 0;
        e = kmsg_seqtrack_settle(run->track);
        if (e >= 0)
                e = deliver_released(run, rd);
        if (e < 0) {
                if (!out_failed())
                        warnx_(_("%s: %s"), kmsg_reader_get_name(rd), strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run->fatal = true;
        }
        return e;
}

int run_drain(struct run *run, struct kmsg_reader *rd) {
        uint64_t shown = 0;
        int e;

        for (;;) {
                struct kmsg_record *r;

                /* A signal stops the reader itself: it still hands out the records it holds. */
                if (run->fatal) {
                        e = -EINTR;
                        break;
                }
                e = kmsg_reader_next(rd, &r);
                if (e == 1) {
                        if (!run->notklog.good || run->notklog.rd != rd) {
                                struct held_bad h = { rd, &shown };

                                notklog_good(&run->notklog, rd, print_held, &h);
                        }
                        e = emit(run, rd, r);
                        if (e < 0) {
                                /* A write error is reported once, at exit; -ECANCELED was said. */
                                if (!out_failed() && e != -ECANCELED)
                                        warnx_(_("%s: %s"), kmsg_reader_get_name(rd), strerror(-e));
                                run->status = EXIT_BAD_INPUT;
                                run->fatal = true;
                                return e;
                        }
                        continue;
                }
                if (e == 0 || e == -EAGAIN)
                        break;
                if (e == -EINTR) {
                        struct held_bad h = { rd, &shown };

                        /* What was held for a first record that will not come now is said as it was. */
                        notklog_good(&run->notklog, rd, print_held, &h);
                        /* A signal ends following; any other read it leaves unfinished. */
                        if (!run->following)
                                run_unread(run, kmsg_reader_get_name(rd), true);
                        /* SIGINT or SIGTERM: what the reader could not finish is named. */
                        if (*kmsg_reader_get_error(rd))
                                warnx_("%s:%llu: %s", kmsg_reader_get_name(rd),
                                       (unsigned long long)kmsg_reader_get_position(rd), kmsg_reader_get_error(rd));
                        break;
                }
                switch (e) {
                case -EPIPE:
                        if (!run->started)
                                run->overrun_at_start = true;
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_OVERRUN);
                        continue;
                case -EMSGSIZE:
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_TOOBIG);
                        continue;
                case -E2BIG:
                        /* The gap it leaves is that record: too big, not lost elsewhere. */
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_TOOBIG);
                        report_bad(run, rd, &shown, e);
                        continue;
                case -EBADMSG:
                        report_bad(run, rd, &shown, e);
                        if (run->notklog_stop) {
                                /* No kernel log: said in one line; no verdict on it. */
                                run->notklog_stop = false;
                                run_unread(run, kmsg_reader_get_name(rd), false);
                                settle(run, rd);
                                return 0;
                        }
                        continue;
                default:
                        notklog_end(&run->notklog, rd);
                        warnx_(_("%s: read failed: %s"), kmsg_reader_get_name(rd), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        if (run->problems)
                                run->problems->tally.unread_rest = true;
                        run_unread(run, kmsg_reader_get_name(rd), true);
                        settle(run, rd);
                        return e;
                }
        }
        if (settle(run, rd) < 0)
                return -EIO;
        if (e == 0 && notklog_end(&run->notklog, rd))
                run_unread(run, kmsg_reader_get_name(rd), false);
        if (shown > MAX_ERRORS_SHOWN)
                warnx_(_("%s: %llu malformed or oversized records skipped in all"), kmsg_reader_get_name(rd),
                       (unsigned long long)shown);
        return e;
}

static void on_quit(int sig) {
        int saved = errno;

        run_quit = sig;
        if (run_signal.pipe_w >= 0 && write(run_signal.pipe_w, "q", 1) < 0) {
                /* The pipe is full: a wake-up is already pending. */
        }
        errno = saved;
}

/*
 * SIGINT and SIGTERM end the run cleanly: the output flushed, the cursor
 * saved.  Without SA_RESTART, so that a blocking read() or poll() returns;
 * a second one of the same signal kills at once (SA_RESETHAND), should
 * writing the output block.
 */
int run_setup_signals(struct run *run) {
        struct sigaction sa = { .sa_handler = on_quit, .sa_flags = SA_RESETHAND };
        int fds[2];

        if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0)
                return -errno;
        run->quit_fd = fds[0];
        run_signal.pipe_w = fds[1];
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
                return -errno;
        return 0;
}

void run_watch(struct run *run, struct kmsg_reader *rd) {
        kmsg_reader_set_interrupt(rd, &run_quit, run->quit_fd);
}

int run_exit_status(const struct run *run, bool follow) {
        /* Following ends at a signal: that is its normal end. */
        if (!run_quit || follow || run->status == EXIT_BAD_INPUT)
                return run->status;
        return 128 + run_quit;
}

/*
 * A failed save before a write stops the output there: what the file
 * could not name as being written is not written, so that the next run
 * prints it (once) rather than again.
 */
static int cursor_hook(struct run *run, bool before) {
        int e;

        if (run->fatal)
                return before ? -ECANCELED : 0;
        e = before ? cursor_before_write(run->cursor) : cursor_after_write(run->cursor);
        if (e < 0) {
                /* Not warnx_(): it flushes, and this runs inside a flush. */
                warnx_thread(_("cannot update the cursor file %s: %s"), cursor_get_path(run->cursor), strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run->fatal = true;
        }
        return e;
}

static int cursor_before(void *userdata) {
        return cursor_hook(userdata, true);
}

static void cursor_after(void *userdata) {
        cursor_hook(userdata, false);
}

void run_set_cursor_hooks(struct run *run) {
        out_set_write_hooks(cursor_before, cursor_after, run);
}
