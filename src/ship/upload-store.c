/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --upload's spool (upload-private.h): the queue kept on disk while the
 * collector does not take it, loaded by the next run, and held to its bound.
 *
 * With a cursor file, what was read and not yet acknowledged is also kept
 * in a spool on disk (upload-spool.h, in the directory FILE.spool), a
 * write-ahead log: the reader appends the units it closed (one write(2)
 * for all of them, no sync) when it goes idle and every
 * SPOOL_WRITE_UNITS records while it reads on, and the sender appends
 * what is still missing before each send, so nothing reaches the
 * collector that is not in the file, and a killed process leaves in the
 * page cache all it read but the last few records (upload-private.h).  The
 * sender fdatasync()s the file SPOOL_SYNC_MS after the first write not
 * synced, or once SPOOL_SYNC_BYTES are, and empties it (not synced, the
 * next sync does) once the cursor names all that was in it.  The next run
 * loads the spool, leaves
 * out what the cursor says was delivered, sends the rest first and reads
 * the ring from after the last record in it (cursor_set_spooled()), in the
 * same boot or, after a reboot, from the start of the new one: the old
 * boot's records keep their boot id to the collector and in the cursor.
 * The spool holds at most cfg.spool_max bytes, as memory does then: past
 * that the oldest units not in flight make room (a quarter of the bound at
 * a time), and a loss entry says how many records of which seq range went
 * (units already replaced by one count in the next).  The reader never
 * waits for the collector then.  A spool that cannot be written is said
 * once; the queue is then held in memory only, as without a cursor file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "ship/cursor.h"
#include "ship/upload-private.h"
#include "text/diag.h"

/* The spool is rewritten without what was delivered once that is this large and half the file. */
#define SPOOL_COMPACT_MIN (1024u * 1024)

/* The one line that says the spool at what (its path) cannot be written. */
static void say_spool_unwritable(const char *what, int e) {
        warnx_thread(_("cannot write the spool %s: %s; what the collector has not acknowledged is held "
                       "in memory only"),
                     what, strerror(-e));
}

/* The spool cannot be written: said once, the queue is held in memory only from now on. */
static void spool_failed(struct upload *u, int e) {
        say_spool_unwritable(spool_get_path(u->spool), e);
        u->spool_ok = false;
}

/* The file was written to or cut: it is to be synced within the bound. */
static void dirty(struct upload *u, size_t bytes, uint64_t now) {
        if (u->dirty_ns == 0)
                u->dirty_ns = now ? now : 1;
        u->dirty_bytes += bytes;
}

/*
 * Frame the units the file does not hold (all of them with all) into
 * sbuf; their bytes, or 0 with none.  The walk starts after the last unit
 * written when that is known (u->spool_last): the reader calls this for
 * every record it reads while the queue may hold thousands.
 */
static size_t frame_units(struct upload *u, bool all, uint64_t *ret_last_id) {
        const struct upload_unit *x, *from = !all && u->has_spooled && u->spool_last ? u->spool_last->next : u->q.head;
        size_t len = 0, at = 0;

        for (x = from; x; x = x->next)
                if (all || !u->has_spooled || x->id > u->spooled_id)
                        len += spool_frame_size(x->len);
        if (len == 0)
                return 0;
        if (len > u->scap) {
                char *p = realloc(u->sbuf, len);

                if (!p) {
                        spool_failed(u, -ENOMEM);
                        return 0;
                }
                u->sbuf = p;
                u->scap = len;
        }
        for (x = from; x; x = x->next) {
                struct spool_rec r = { .has_seq = x->has_seq, .seq = x->seq, .usec = x->usec, .lost = x->lost,
                                       .lost_first = x->lost_first, .replaced = x->replaced,
                                       .newest = x->newest };

                *ret_last_id = x->id;
                if (!all && u->has_spooled && x->id <= u->spooled_id)
                        continue;
                snprintf(r.boot, sizeof(r.boot), "%s", x->boot ? x->boot : "");
                spool_frame(u->sbuf + at, &r, x->data, x->len);
                at += spool_frame_size(x->len);
        }
        return len;
}

void store_write(struct upload *u, uint64_t now) {
        uint64_t last_id = 0;
        size_t len;
        int e;

        /* The reader's: the sender rewrites the file, the lock let go; it is written after that. */
        while (u->spool_busy && !pthread_equal(pthread_self(), u->thread))
                pthread_cond_wait(&u->space, &u->lock);

        if (!u->spool || !u->spool_ok || u->spool_busy || !u->q.tail ||
            (u->has_spooled && u->q.tail->id <= u->spooled_id))
                return;
        len = frame_units(u, false, &last_id);
        if (len == 0)
                return;
        /* Under the lock: the reader and the sender both write, one after the other, at the file's end. */
        e = spool_write(u->spool, u->sbuf, len);
        if (e < 0) {
                spool_failed(u, e);
                return;
        }
        u->has_spooled = true;
        u->spooled_id = last_id;
        u->spool_last = u->q.tail;
        dirty(u, len, now);
}

uint64_t store_sync_due_in(const struct upload *u, uint64_t now) {
        uint64_t bound = (uint64_t)SPOOL_SYNC_MS * 1000000u;

        if (!u->spool || !u->spool_ok || u->dirty_ns == 0)
                return UINT64_MAX;
        if (u->dirty_bytes >= SPOOL_SYNC_BYTES || now - u->dirty_ns >= bound)
                return 0;
        return bound - (now - u->dirty_ns);
}

/*
 * Bring the file to what the queue holds and sync it: a rewrite of all
 * of it when a drop changed what it has or most of it was delivered
 * (synced as it is renamed over the old file), else the units it lacks
 * appended and one fdatasync().  The sender's (or once it ended), with
 * the lock held, which is let go for the syncs; the reader waits while
 * the file is rewritten (store_write() it calls when it must write then),
 * and what it read meanwhile is appended after.
 */
void store_sync(struct upload *u, uint64_t now) {
        uint64_t last_id = 0, drops = u->drops;
        bool rewrite, any = u->q.head != NULL;
        size_t len;
        int e;

        if (!u->spool || !u->spool_ok)
                return;
        rewrite = u->drops != u->file_drops ||
                  (u->file_dead >= SPOOL_COMPACT_MIN && u->file_dead > spool_size(u->spool) / 2);
        if (!rewrite) {
                store_write(u, now);
                if (!u->spool_ok || u->dirty_ns == 0)
                        return;
                u->dirty_ns = 0;
                u->dirty_bytes = 0;
                /* The reader appends on meanwhile: fdatasync() and write(2) do not disturb each other. */
                pthread_mutex_unlock(&u->lock);
                e = spool_sync(u->spool);
                pthread_mutex_lock(&u->lock);
                if (e < 0)
                        spool_failed(u, e);
                return;
        }
        len = frame_units(u, true, &last_id);
        if (!u->spool_ok)
                return;
        u->spool_busy = true;
        pthread_mutex_unlock(&u->lock);
        e = spool_rewrite(u->spool, u->sbuf, len);
        pthread_mutex_lock(&u->lock);
        u->spool_busy = false;
        pthread_cond_broadcast(&u->space);
        if (e < 0) {
                spool_failed(u, e);
                return;
        }
        u->has_spooled = any;
        u->spooled_id = last_id;
        u->spool_last = NULL;
        u->file_dead = 0;
        u->file_drops = drops;
        u->dirty_ns = 0;
        u->dirty_bytes = 0;
        /* What the reader added meanwhile. */
        store_write(u, now);
}

/*
 * The cursor was saved at what was delivered: a spool that holds nothing
 * else is emptied.  Called with the lock held.
 */
void store_delivered(struct upload *u, uint64_t now) {
        int e;

        if (!u->spool || !u->spool_ok || !u->has_spooled)
                return;
        /* Ids grow along the queue: all it holds came after what the file has. */
        if (u->q.head && u->q.head->id <= u->spooled_id)
                return;
        e = spool_clear(u->spool);
        if (e < 0) {
                spool_failed(u, e);
                return;
        }
        u->has_spooled = false;
        u->file_dead = 0;
        u->file_drops = u->drops;
        dirty(u, 0, now);
}

/* Units at the head were delivered: those in the spool's file are dead weight there. */
void store_acked(struct upload *u, size_t n) {
        const struct upload_unit *x;

        if (!u->spool || !u->has_spooled)
                return;
        for (x = u->q.head; x && n > 0; x = x->next, n--)
                if (x->id <= u->spooled_id)
                        u->file_dead += spool_frame_size(x->len);
}

/*
 * The queue is over the spool's bound: the oldest units not in flight make
 * room, a quarter of the bound at a time, for a loss entry that says so.
 * The reader's, with the lock held.
 */
void store_make_room(struct upload *u) {
        size_t target = u->cfg.spool_max - u->cfg.spool_max / 4;
        int rounds;

        for (rounds = 0; rounds < 8 && u->q.bytes > u->cfg.spool_max; rounds++) {
                struct upload_drop d;
                char *entry = NULL;
                size_t len = 0;
                int e;

                if (upload_queue_drop_plan(&u->q, target, &d) == 0)
                        return;
                /* Every transport's queue holds the export stream: the loss entry is one of it. */
                e = d.records > 0 ? export_spool_loss_entry(&u->cfg.machine, d.boot, d.records, d.first_seq,
                                                            d.last_lost, d.last_usec, d.merged, &entry, &len)
                                  : 0; /* only kdmesg's own entries, no record: nothing to count */
                u->spool_last = NULL; /* it may be among the units dropped */
                if (e == 0)
                        e = upload_queue_drop(&u->q, &d, entry, len);
                free(entry);
                if (e < 0)
                        return; /* memory is short: the queue stays as it is */
                u->drops++;
                if (!u->spool_full_said) {
                        warnx_thread(_("the spool %s is full (%zu bytes): the oldest records not delivered make "
                                       "room, a loss entry says which"),
                                     spool_get_path(u->spool), u->cfg.spool_max);
                        u->spool_full_said = true;
                }
        }
}

/* A unit read back from the spool joins the queue, its boot id kept once. */
static int spooled_unit(void *userdata, const struct spool_rec *r, const char *data, size_t len) {
        struct upload *u = userdata;
        struct upload_unit x = { .has_seq = r->has_seq, .seq = r->seq, .usec = r->usec, .lost = r->lost,
                                 .lost_first = r->lost_first, .replaced = r->replaced, .newest = r->newest };
        struct boot_name *b;
        int e;

        for (b = u->boots; b && strcmp(b->id, r->boot) != 0; b = b->next)
                ;
        if (!b) {
                b = calloc(1, sizeof(*b));
                if (!b)
                        return -ENOMEM;
                memcpy(b->id, r->boot, sizeof(b->id));
                b->next = u->boots;
                u->boots = b;
        }
        x.boot = b->id;
        e = upload_queue_push(&u->q, &x, data, len);
        /* A spool larger than the bound (an earlier run's bound was higher) is held to it as it is read. */
        if (e == 0 && u->spool_ok && u->q.bytes > u->cfg.spool_max)
                store_make_room(u);
        return e;
}

/*
 * Load the spool an earlier run left: what the cursor says was delivered
 * is left out (a run ended between its cursor save and emptying the
 * spool), the rest is sent first, and reading goes on after its last
 * record.  Problems are said; the upload goes on without a spool where it
 * cannot be written.
 */
int store_setup(struct upload *u) {
        const char *cur_boot = cursor_get_boot_id(u->cursor);
        const struct upload_unit *x, *last = NULL;
        uint64_t cur_seq = 0, cur_usec, bad_at, bad_len;
        char err[1024] = "";
        bool has_cur;
        size_t n = 0, i;
        int e;

        e = spool_open(cursor_get_path(u->cursor), "export", &u->spool, err, sizeof(err));
        if (e < 0)
                say_spool_unwritable(err, e);
        if (!u->spool)
                return 0;
        u->spool_ok = e == 0;
        e = spool_load(u->spool, spooled_unit, u, &bad_at, &bad_len);
        if (e < 0)
                return e;
        if (bad_len > 0 && bad_at == 0)
                warnx_thread(_("%s: not a spool this version of kdmesg reads: its %llu bytes are left out"),
                             spool_get_path(u->spool), (unsigned long long)bad_len);
        else if (bad_len > 0)
                warnx_thread(_("%s: a unit cut short or damaged at byte %llu (a crash while it was written?): "
                               "the %llu bytes from there to the end are left out"),
                             spool_get_path(u->spool), (unsigned long long)bad_at, (unsigned long long)bad_len);
        if (u->q.tail) {
                u->has_spooled = true;
                u->spooled_id = u->q.tail->id;
        }
        /* Delivered already: up to the last unit the cursor names. */
        has_cur = cur_boot && cursor_get_seq(u->cursor, &cur_seq, &cur_usec);
        for (i = 0, x = u->q.head; x; x = x->next, i++)
                if (has_cur && x->has_seq && x->seq <= cur_seq && strcmp(x->boot, cur_boot) == 0)
                        n = i + 1;
        store_acked(u, n);
        upload_queue_ack(&u->q, n);
        u->spool_last = NULL;
        for (x = u->q.head; x; x = x->next)
                if (x->has_seq)
                        last = x;
        if (!u->q.head && u->spool_ok) {
                e = spool_clear(u->spool);
                if (e < 0)
                        spool_failed(u, e);
                u->has_spooled = false;
                u->file_dead = 0;
                dirty(u, 0, 0);
        }
        if (last)
                cursor_set_spooled(u->cursor, last->boot, last->seq, last->usec, last->newest);
        /* A bound lower than what is there: the oldest go now. */
        if (u->spool_ok && u->q.bytes > u->cfg.spool_max)
                store_make_room(u);
        return 0;
}
