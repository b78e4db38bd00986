/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where reading the device starts: cursor resume, ring probes, the first record. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "base/bootid.h"
#include "base/i18n.h"
#include "pipeline/run.h"

int judge_start(struct run *run, const struct kmsg_record *r, struct kmsg_loss **ret_loss) {
        uint64_t seq = kmsg_record_get_seqnum(r);

        run->started = true;
        switch (run->start) {
        case START_NEW:
                /*
                 * Only what was written after the start is wanted.  Overrun
                 * before the first read, what was lost starts after the newest
                 * record seen just before opening (a few records written
                 * between that look and the open may be counted too).
                 */
                if (run->overrun_at_start)
                        kmsg_seqtrack_expect(run->track, run->have_newest ? run->newest_seq + 1 : 0);
                else
                        kmsg_seqtrack_expect(run->track, seq);
                run->promised = true;
                break;
        case START_PROBED:
                /*
                 * The probes promised run->probed_seq as the first record
                 * (after the last clear, or the oldest one).  Whatever
                 * rotated out between them and the open is lost, not
                 * skipped: the tracker reports every seq up to this one.
                 * Records between the oldest and the last clear were
                 * cleared, not lost.
                 */
                if (!run->have_probed)
                        break;
                /* Lower than promised: the ring started again (a reboot); take it as it is. */
                kmsg_seqtrack_expect(run->track, seq < run->probed_seq ? seq : run->probed_seq);
                run->promised = true;
                if (!run->overrun_at_start)
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_ROTATED);
                if (run->have_oldest && run->oldest_seq > 0) {
                        int e = kmsg_loss_new(0, run->oldest_seq, KMSG_LOSS_ROTATED, ret_loss);

                        if (e < 0)
                                return e;
                        kmsg_loss_set_after(*ret_loss, run->oldest_usec);
                        return 1;
                }
                break;
        case START_PLAIN:
                break;
        }
        return 0;
}

/* The first record a reader opened at where reads, past overruns; false if none. */
static bool probe_first(const struct run *run, enum kmsg_seek where, uint64_t *ret_seq, uint64_t *ret_usec) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        bool found = false;
        int e;

        if (kmsg_reader_new_device(run->device_path, where, &rd) < 0)
                return false;
        do
                e = kmsg_reader_next(rd, &r);
        while (e == -EPIPE || e == -EMSGSIZE || e == -EBADMSG);
        if (e == 1 && kmsg_record_has_seqnum(r)) {
                found = true;
                *ret_seq = kmsg_record_get_seqnum(r);
                *ret_usec = kmsg_record_get_timestamp(r);
        }
        kmsg_reader_unref(rd);
        return found;
}

static void probe_newest(struct run *run);

/*
 * The first record after the last clear, then the oldest record in the
 * ring: what is before the oldest has rotated out, what is between the two
 * was cleared.  In this order, the later of the two is the first record
 * that reading after SEEK_DATA must give; anything it skips rotated out
 * after the probes.
 */
static void probe_oldest(struct run *run) {
        uint64_t clear_seq = 0, clear_usec = 0;
        bool have_clear = probe_first(run, KMSG_SEEK_CLEAR, &clear_seq, &clear_usec);

        run->have_oldest = probe_first(run, KMSG_SEEK_START, &run->oldest_seq, &run->oldest_usec);
        if (!have_clear && run->have_oldest) {
                /*
                 * Records in the ring, none after the clear: "dmesg -C" cleared
                 * them all, and the first record to come is the next one
                 * written.  Those before it were cleared, not lost.
                 */
                probe_newest(run);
                if (run->have_newest) {
                        have_clear = true;
                        clear_seq = run->newest_seq + 1;
                }
        }
        run->have_probed = have_clear || run->have_oldest;
        /*
         * The first record reading after SEEK_DATA must give is the first
         * probe's: records after the clear are there to read.  Where the
         * ring rotated past it before the second probe, those records went
         * after kdmesg started, and are lost; only what was gone before the
         * first probe rotated out before the start (judge_start()).
         */
        run->probed_seq = have_clear ? clear_seq : run->oldest_seq;
        if (have_clear && run->have_oldest && clear_seq < run->oldest_seq) {
                run->oldest_seq = clear_seq;
                run->oldest_usec = clear_usec;
        }
}

/* The newest record in the ring, before --follow-new opens at the end. */
static void probe_newest(struct run *run) {
        struct kmsg_reader *rd = NULL;
        struct kmsg_record *r;
        int e;

        if (kmsg_reader_new_device(run->device_path, KMSG_SEEK_START, &rd) < 0)
                return;
        while ((e = kmsg_reader_next(rd, &r)) != -EAGAIN && e != 0) {
                if (e == 1 && kmsg_record_has_seqnum(r)) {
                        run->have_newest = true;
                        run->newest_seq = kmsg_record_get_seqnum(r);
                        run->newest_usec = kmsg_record_get_timestamp(r);
                } else if (e < 0 && e != -EPIPE && e != -EMSGSIZE && e != -EBADMSG)
                        break;
        }
        kmsg_reader_unref(rd);
}

/* A loss to report before the first record: after has_before, usec is the record before it. */
static void start_loss(struct run *run, uint64_t first, uint64_t count, enum kmsg_loss_cause cause,
                       bool has_before, uint64_t usec, struct kmsg_loss **ret_loss) {
        int e = kmsg_loss_new(first, count, cause, ret_loss);

        if (e < 0) {
                warnx_("%s", strerror(-e));
                run->status = EXIT_BAD_INPUT;
                run->fatal = true;
                return;
        }
        if (has_before)
                kmsg_loss_set_before(*ret_loss, usec);
}

enum kmsg_seek plan_device_start(struct run *run, bool lost, bool follow_new, struct kmsg_loss **ret_loss) {
        struct cursor *c = run->cursor;
        uint64_t seq = 0, usec = 0, from = 0, to = 0;
        char boot[BOOT_ID_MAX];
        const char *old;
        bool pending, has_seq, same_boot;
        int e;

        *ret_loss = NULL;
        if (c) {
                e = boot_id_read(boot);
                if (e < 0) {
                        warnx_(_("cannot read the boot id: %s"), strerror(-e));
                        run->status = EXIT_BAD_INPUT;
                        run->fatal = true;
                        return KMSG_SEEK_START;
                }
                cursor_set_boot_id(c, boot);
                old = cursor_get_boot_id(c);
                has_seq = cursor_get_seq(c, &seq, &usec);
                same_boot = old && strcmp(old, boot) == 0;
                pending = cursor_get_pending(c, &from, &to);
                if (same_boot && (has_seq || pending))
                        probe_newest(run);
                if (same_boot && has_seq && run->have_newest && seq > run->newest_seq) {
                        /*
                         * The cursor names a record the ring never had: it
                         * started again (a reboot with the same boot id, a
                         * reset emulator) or the file is wrong.  Resuming
                         * there would skip every record up to that seq.
                         */
                        warnx_(_("%s: the cursor's seq %llu is ahead of the newest record (seq %llu): "
                                 "the ring started again, probably after a reboot"),
                               cursor_get_path(c), (unsigned long long)seq, (unsigned long long)run->newest_seq);
                        same_boot = false;
                }
                if (same_boot) {
                        uint64_t next = has_seq ? seq + 1 : 0, to_usec = usec, before_usec = usec;

                        if (pending) {
                                /*
                                 * The file may name records beyond what was
                                 * written (cursor.c); those that did not exist
                                 * when this run started were never read.
                                 */
                                if (run->have_newest && to > run->newest_seq) {
                                        to = run->newest_seq;
                                        to_usec = run->newest_usec;
                                }
                        }
                        if (pending && from <= to) {
                                start_loss(run, from, to - from + 1, KMSG_LOSS_INTERRUPTED, has_seq, usec,
                                           ret_loss);
                                next = to + 1;
                                before_usec = to_usec;
                        }
                        cursor_resume(c, next, before_usec);
                        kmsg_seqtrack_expect(run->track, next);
                        kmsg_seqtrack_note_cause(run->track, KMSG_LOSS_ROTATED);
                        run->have_resume = has_seq;
                        run->resume_seq = next;
                        run->resume_usec = before_usec;
                        run->start = START_PLAIN;
                        return KMSG_SEEK_START;
                }
                if (old) {
                        uint64_t first = has_seq ? seq + 1 : 0;

                        bool newest = has_seq && cursor_get_newest(c);

                        if (pending && from < first) {
                                first = from;
                                newest = false;
                        }
                        start_loss(run, first, 0, KMSG_LOSS_REBOOT, has_seq, usec, ret_loss);
                        /* The last record read was the ring's newest then: only later ones, if any, went unread. */
                        if (newest && *ret_loss)
                                kmsg_loss_set_before_newest(*ret_loss);
                        run->start = START_PLAIN;
                        return KMSG_SEEK_START;
                }
        }
        if (lost) {
                /* The whole ring: what rotated out before its oldest record counts. */
                run->start = START_PLAIN;
                return KMSG_SEEK_START;
        }
        if (follow_new) {
                run->start = START_NEW;
                probe_newest(run);
                /*
                 * A cursor with nothing of this boot: what is in the ring now
                 * is skipped on purpose, so the cursor starts after it.
                 */
                if (c && !run->fatal && run->have_newest)
                        cursor_start_after(c, run->newest_seq, run->newest_usec);
                return KMSG_SEEK_END;
        }
        run->start = START_PROBED;
        probe_oldest(run);
        return KMSG_SEEK_CLEAR;
}
