/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --upload URL: a sender thread takes the batches of the queue to the
 * collector through its transport, one at a time, and saves the cursor
 * after each acknowledged batch, before it sends anything else.  So the
 * cursor never names a record the collector has not stored, and a crash
 * can repeat at most the one batch that was in flight.
 *
 * A failed send (no connection, a reset, a time-out, 408, 429, 5xx) is
 * sent again after a wait that doubles from 0.5 s up to 30 s, with
 * jitter; meanwhile the reader goes on filling the queue up to its memory
 * bound, and then waits: what the ring overwrites in that time is
 * reported by the sequence tracker as a loss (an entry of the stream)
 * once reading goes on.  Any other answer (a 4xx, 501, 505: not a journal
 * server, or one that refuses) ends the upload: retrying cannot help.
 * Without --follow a few tries are made, then kdmesg gives up.
 *
 * A batch lingers (cfg.linger_ms, from the time its oldest record was
 * read) for more records before it goes, unless a batch's worth is there:
 * a steady trickle of records becomes a POST and a cursor save every
 * linger, not one per record, and the collector opens its journal and
 * parses a request that many times less.  No linger when nothing more can
 * come (the end of the input, a signal): what was read goes at once.
 *
 * A collector that drops a batch without an answer may have stored part
 * of it and refused one entry (journal-remote does so): the batch is then
 * sent one unit at a time, a unit of several entries split into its
 * entries, and an entry dropped REFUSALS_MAX times in a row takes the
 * place of a loss entry that says so, with its sequence number and the
 * reason; the rest goes on.
 *
 * With a cursor file, the spool on disk is a write-ahead log of what was
 * read and not yet acknowledged (upload-store.c): the reader writes what
 * it read there when it goes idle and every SPOOL_WRITE_UNITS records, the
 * sender what is still missing before each send; the sender syncs it
 * within SPOOL_SYNC_MS or SPOOL_SYNC_BYTES (upload-private.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"
#include "output/metrics.h"
#include "ship/cursor.h"
#include "ship/upload-http.h"
#include "ship/upload-private.h"
#include "ship/upload-relp.h"
#include "ship/upload-transport.h"
#include "text/diag.h"

#define BACKOFF_BASE_MS 500
#define BACKOFF_CAP_MS 30000
/* Without --follow: this many tries in all (about 3.5 s of waiting). */
#define TRIES_MAX 4
/* An entry the collector dropped this many times in a row, alone, is refused. */
#define REFUSALS_MAX 2

static uint64_t now_ns(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Whether to stop now, delivered or not: told to, or the time after a
 * signal is up.  A signal alone does not stop the sender: the request in
 * flight is finished and what was read is sent (upload_finish()).
 */
static bool stopping(struct upload *u) {
        if (!u->stop && u->has_deadline && now_ns() >= u->deadline_ns)
                u->stop = true;
        return u->stop;
}

/* The transport asks during a request; the lock is not held then. */
static bool transport_stop(void *userdata) {
        struct upload *u = userdata;
        bool stop;

        pthread_mutex_lock(&u->lock);
        stop = stopping(u);
        pthread_mutex_unlock(&u->lock);
        return stop;
}

/* Wait on cond for at most ms milliseconds; called with the lock held. */
static void timed_wait(struct upload *u, pthread_cond_t *cond, unsigned ms) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += ms / 1000;
        ts.tv_nsec += (long)(ms % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(cond, &u->lock, &ts);
}

/* Wait ms milliseconds, or less when stopping; called with the lock held. */
static void wait_ms(struct upload *u, unsigned ms) {
        uint64_t end = now_ns() + (uint64_t)ms * 1000000u;

        while (!stopping(u)) {
                uint64_t now = now_ns();

                if (now >= end)
                        break;
                timed_wait(u, &u->work, end - now < 200000000u ? (unsigned)((end - now) / 1000000u) + 1 : 200);
        }
}

static void fail(struct upload *u) {
        uint64_t one = 1;

        u->failed = true;
        pthread_cond_broadcast(&u->space);
        if (write(u->failed_fd, &one, sizeof(one)) < 0) {
                /* Only a counter at its limit fails: it is readable then. */
        }
}

/* The lengths of the n units taken, for the transport. */
static int unit_lengths(struct upload *u, size_t n) {
        const struct upload_unit *x;
        size_t i;

        if (n > u->unit_cap) {
                size_t *p = realloc(u->unit_len, n * sizeof(*p));

                if (!p)
                        return -ENOMEM;
                u->unit_len = p;
                u->unit_cap = n;
        }
        for (i = 0, x = u->q.head; i < n && x; i++, x = x->next)
                u->unit_len[i] = x->len;
        return 0;
}

/*
 * The unit at the head was dropped alone REFUSALS_MAX times: a loss entry
 * takes its place (it keeps the record's sequence number, so the cursor
 * passes it once the loss entry is delivered).  Called with the lock held.
 */
static int refuse_head(struct upload *u) {
        struct upload_unit *h = u->q.head;
        char *entry = NULL;
        size_t len = 0;
        int e;

        if (!h->has_seq) {
                warnx_thread(_("%s refused an entry of kdmesg's own (%s): left out"), u->url, u->why);
                u->spool_last = NULL;
                upload_queue_ack(&u->q, 1);
                return 0;
        }
        if (h->replaced) {
                /* Another loss entry in its place would be refused as well, for ever: the cursor passes it. */
                warnx_thread(_("%s refused the loss entry that took the place of seq %llu too (%s): left out"),
                             u->url, (unsigned long long)h->seq, u->why);
                u->has_commit = true;
                u->commit_seq = h->seq;
                u->commit_usec = h->usec;
                u->commit_boot = h->boot;
                u->commit_newest = h->newest;
                store_acked(u, 1);
                u->spool_last = NULL;
                upload_queue_ack(&u->q, 1);
                return 0;
        }
        e = export_refused_entry(&u->cfg.machine, h->boot, h->seq, h->usec, u->why, &entry, &len);
        if (e >= 0)
                e = upload_queue_replace_head(&u->q, entry, len);
        free(entry);
        if (e < 0)
                return e;
        u->counted.refused++;
        warnx_thread(_("%s refused the entry of seq %llu (%s): a loss entry says so in its place"), u->url,
                     (unsigned long long)h->seq, u->why);
        return 0;
}

/*
 * A batch was dropped without an answer: send it unit by unit; a unit
 * dropped alone is split into its entries, and an entry dropped alone
 * REFUSALS_MAX times is refused.  Returns whether to send again at once
 * (else: a failure like any other, retried after a wait).
 */
static bool dropped(struct upload *u, size_t n) {
        int k;

        if (n > 1) {
                u->probe = n;
                u->refusals = 0;
                return true;
        }
        u->spool_last = NULL;
        k = upload_queue_split_head(&u->q, export_entry_len);
        if (k > 1) {
                u->probe = (u->probe ? u->probe : 1) + (size_t)k - 1;
                u->refusals = 0;
                return true;
        }
        if (++u->refusals < REFUSALS_MAX)
                return false;
        u->refusals = 0;
        if (refuse_head(u) < 0) {
                warnx_thread(_("cannot upload to %s: %s"), u->url, strerror(ENOMEM));
                fail(u);
        }
        return true;
}

/*
 * Save the cursor at what was delivered; called with the lock held, which
 * is let go meanwhile (the reader goes on).  Returns false when it failed
 * (reported, the upload failed).
 */
static bool commit(struct upload *u) {
        uint64_t seq = u->commit_seq, usec = u->commit_usec;
        bool newest = u->commit_newest;
        const char *boot = u->commit_boot;
        int e;

        if (!u->has_commit || !u->cursor)
                return true;
        u->has_commit = false;
        pthread_mutex_unlock(&u->lock);
        e = cursor_commit(u->cursor, boot, seq, usec, newest);
        pthread_mutex_lock(&u->lock);
        if (e < 0) {
                warnx_thread(_("cannot update the cursor file %s: %s"), cursor_get_path(u->cursor), strerror(-e));
                fail(u);
                return false;
        }
        store_delivered(u, now_ns());
        return true;
}

/* The wait before try attempt + 1; called with the lock held. */
static void wait_backoff(struct upload *u, unsigned attempt) {
        uint64_t end;
        uint32_t rnd;

        if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
                rnd = (uint32_t)time(NULL) * 2654435761u;
        end = now_ns() + (uint64_t)upload_backoff_ms(attempt, BACKOFF_BASE_MS, BACKOFF_CAP_MS, rnd) * 1000000u;
        /* The collector does not take them: the spool is synced, and what the reader adds meanwhile. */
        store_sync(u, now_ns());
        while (!stopping(u)) {
                uint64_t now = now_ns(), left;

                if (now >= end)
                        break;
                left = (end - now) / 1000000u + 1;
                wait_ms(u, left < SPOOL_SYNC_MS ? (unsigned)left : SPOOL_SYNC_MS);
                store_sync(u, now_ns());
        }
}

/* Send the next batch; called with the lock held.  Returns false to end the sender. */
static bool send_one(struct upload *u, unsigned *attempt) {
        const struct upload_unit *last;
        size_t len = 0, acked = 0;
        enum upload_result r;
        int n, e;

        n = upload_queue_take(&u->q, u->probe ? 1 : SIZE_MAX, &u->buf, &u->cap, &len);
        if (n > 0)
                e = unit_lengths(u, (size_t)n);
        else
                e = n;
        if (e < 0) {
                warnx_thread(_("cannot upload to %s: %s"), u->url, strerror(-e));
                fail(u);
                return false;
        }
        /* The reader's drops leave these alone while they are sent. */
        u->q.busy = (size_t)n;
        pthread_mutex_unlock(&u->lock);
        r = len > 0 ? u->t->ops->send(u->t, u->buf, len, u->unit_len, (size_t)n, &acked, u->why, sizeof(u->why))
                    : (acked = (size_t)n, UPLOAD_OK);
        pthread_mutex_lock(&u->lock);
        u->q.busy = 0;
        upload_count_sent(u, acked, r != UPLOAD_OK);
        last = acked > 0 ? upload_queue_last_seq(&u->q, acked) : NULL;
        if (last) {
                u->has_commit = true;
                u->commit_seq = last->seq;
                u->commit_usec = last->usec;
                u->commit_boot = last->boot;
                u->commit_newest = last->newest;
        }
        if (acked > 0) {
                store_acked(u, acked);
                u->spool_last = NULL;
                upload_queue_ack(&u->q, acked);
                u->probe = u->probe > acked ? u->probe - acked : 0;
                /* Sending one at a time, the cursor is saved once they are through (or before a wait). */
                if (u->probe == 0 && !commit(u))
                        return false;
                /* Entries of no record move no cursor: a spool left with nothing to deliver is emptied all the same. */
                if (!u->has_commit)
                        store_delivered(u, now_ns());
                u->refusals = 0;
                pthread_cond_broadcast(&u->space);
                if (u->failing)
                        warnx_thread(_("uploading to %s again"), u->url);
                u->failing = false;
                *attempt = 0;
        }
        if (r == UPLOAD_OK)
                return true;
        if (stopping(u))
                return false;
        if (r == UPLOAD_BROKEN) {
                warnx_thread(_("cannot upload to %s: %s"), u->url, u->why);
                fail(u);
                return false;
        }
        if (r == UPLOAD_REFUSED) {
                warnx_thread(_("%s refused the upload: %s (is it systemd-journal-remote?)"), u->url, u->why);
                fail(u);
                return false;
        }
        if (r == UPLOAD_DROPPED && dropped(u, (size_t)n - acked))
                return !u->failed;
        ++*attempt;
        /* An entry dropped once is tried again alone after the wait: not said as a failure yet. */
        if (r == UPLOAD_DROPPED && u->refusals > 0 && *attempt < TRIES_MAX)
                return commit(u) && (wait_backoff(u, *attempt), true);
        if (!u->cfg.retry_forever && *attempt >= TRIES_MAX) {
                warnx_thread(_("cannot upload to %s: %s (tried %u times)"), u->url, u->why, *attempt);
                fail(u);
                return false;
        }
        if (u->cfg.retry_forever && !u->failing)
                warnx_thread(_("cannot upload to %s: %s; retrying"), u->url, u->why);
        u->failing = true;
        if (!commit(u))
                return false;
        wait_backoff(u, *attempt);
        return true;
}

/*
 * How long the next send waits, in nanoseconds: 0 now, UINT64_MAX nothing
 * to send.  The linger ends when nothing more will come (the end, or a
 * signal: the reader stops) and for the units sent one at a time after a
 * drop.  Called with the lock held.
 */
static uint64_t send_due_in(struct upload *u) {
        if (u->q.n_closed == 0)
                return UINT64_MAX;
        if (u->ending || *u->quit || u->probe > 0)
                return 0;
        return upload_queue_due_in(&u->q, now_ns(), (uint64_t)u->cfg.linger_ms * 1000000u);
}

/* The reader closed units: wake the sender when one becomes due, or the first arrives (it lingers from then). */
static void closed(struct upload *u, size_t before) {
        if (u->q.n_closed > 0 && (before == 0 || send_due_in(u) == 0))
                pthread_cond_signal(&u->work);
}

static void *sender(void *userdata) {
        struct upload *u = userdata;
        unsigned attempt = 0;
        uint64_t w;

        pthread_mutex_lock(&u->lock);
        for (;;) {
                while (!stopping(u) && !(u->ending && u->q.n_closed == 0) && (w = send_due_in(u)) > 0) {
                        uint64_t s = store_sync_due_in(u, now_ns());

                        if (s == 0) {
                                store_sync(u, now_ns());
                                continue;
                        }
                        w = s < w ? s : w;
                        timed_wait(u, &u->work, w > 200000000u ? 200 : (unsigned)((w + 999999u) / 1000000u));
                }
                if (stopping(u) || u->q.n_closed == 0)
                        break;
                /* Nothing is sent that is not in the spool's file. */
                store_write(u, now_ns());
                if (store_sync_due_in(u, now_ns()) == 0)
                        store_sync(u, now_ns());
                if (!send_one(u, &attempt))
                        break;
        }
        if (!u->failed)
                commit(u);
        /* What was not delivered waits in the spool for the next run, synced. */
        store_sync(u, now_ns());
        u->sender_done = true;
        pthread_cond_broadcast(&u->space);
        pthread_mutex_unlock(&u->lock);
        return NULL;
}

int upload_new(const struct upload_config *cfg, struct cursor *cursor, volatile sig_atomic_t *quit,
               struct upload **ret) {
        struct upload *u;
        sigset_t all, old;
        int e;

        u = calloc(1, sizeof(*u));
        if (!u)
                return -ENOMEM;
        u->cfg = *cfg;
        upload_url_shown(cfg->url, u->url, sizeof(u->url));
        u->cursor = cursor;
        u->quit = quit;
        u->failed_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (u->failed_fd < 0) {
                e = -errno;
                free(u);
                return e;
        }
        pthread_mutex_init(&u->lock, NULL);
        pthread_cond_init(&u->work, NULL);
        pthread_cond_init(&u->space, NULL);
        upload_queue_init(&u->q, cfg->batch_max, cfg->mem_max);
        e = upload_url_is_relp(cfg->url) ? upload_relp_new(cfg, &u->t) : upload_http_new(cfg, &u->t);
        if (e < 0) {
                upload_free(u);
                return e;
        }
        u->t->stop = transport_stop;
        u->t->stop_data = u;
        if (cursor && cfg->spool_max > 0) {
                e = store_setup(u);
                if (e < 0) {
                        upload_free(u);
                        return e;
                }
        }
        /* Signals are the reader's: the sender never takes SIGINT or SIGTERM. */
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        e = -pthread_create(&u->thread, NULL, sender, u);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (e < 0) {
                upload_free(u);
                return e;
        }
        u->started = true;
        *ret = u;
        return 0;
}

void upload_mark(struct upload *u, uint64_t seq, uint64_t usec) {
        size_t before;

        pthread_mutex_lock(&u->lock);
        before = u->q.n_closed;
        upload_queue_mark(&u->q, seq, usec, now_ns());
        if (u->q.open)
                u->q.open->boot = u->cursor ? cursor_get_current_boot_id(u->cursor) : NULL;
        /* Reading on: to the spool before SPOOL_WRITE_UNITS records it lacks are held, this one counted. */
        if (u->q.tail && u->q.tail->id + 1 >= u->spooled_id + SPOOL_WRITE_UNITS)
                store_write(u, now_ns());
        closed(u, before);
        pthread_mutex_unlock(&u->lock);
}

int upload_write(void *userdata, const void *p, size_t len) {
        struct upload *u = userdata;
        int e;

        pthread_mutex_lock(&u->lock);
        e = u->failed ? -EIO : upload_queue_append(&u->q, p, len);
        if (e == 0 && u->spool_ok) {
                /* The spool takes what the collector does not: the oldest go past its bound, reading goes on. */
                if (u->q.bytes > u->cfg.spool_max)
                        store_make_room(u);
        } else if (e == 0 && upload_queue_full(&u->q)) {
                /* Hold on: nothing more is read (the ring may overwrite, which is then a loss). */
                upload_queue_close(&u->q, now_ns());
                pthread_cond_signal(&u->work);
                while (upload_queue_full(&u->q) && !u->failed && !*u->quit)
                        timed_wait(u, &u->space, 200);
                if (u->failed)
                        e = -EIO;
        }
        pthread_mutex_unlock(&u->lock);
        return e;
}

void upload_idle(struct upload *u) {
        size_t before;

        pthread_mutex_lock(&u->lock);
        before = u->q.n_closed;
        upload_queue_close(&u->q, now_ns());
        /* All there was is read: the last record is the ring's newest (if this run read it: not the spool's). */
        if (u->q.tail && u->q.tail->has_seq && u->cursor && u->q.tail->boot == cursor_get_current_boot_id(u->cursor))
                u->q.tail->newest = true;
        store_write(u, now_ns());
        closed(u, before);
        pthread_mutex_unlock(&u->lock);
}

int upload_get_fd(const struct upload *u) {
        return u->failed_fd;
}

bool upload_failed(const struct upload *u) {
        bool f;

        pthread_mutex_lock((pthread_mutex_t *)&u->lock);
        f = u->failed;
        pthread_mutex_unlock((pthread_mutex_t *)&u->lock);
        return f;
}

int upload_finish(struct upload *u, bool signalled) {
        unsigned limit_ms = signalled ? u->cfg.stop_ms : 0;
        bool late;

        pthread_mutex_lock(&u->lock);
        upload_queue_close(&u->q, now_ns());
        store_write(u, now_ns());
        u->ending = true;
        if (limit_ms > 0) {
                u->deadline_ns = now_ns() + (uint64_t)limit_ms * 1000000u;
                u->has_deadline = true;
        }
        pthread_cond_broadcast(&u->work);
        pthread_mutex_unlock(&u->lock);
        if (u->started && limit_ms > 0 && u->t->ops->abort) {
                /* The time is up: a request the transport cannot give up by itself is broken off. */
                pthread_mutex_lock(&u->lock);
                while (!u->sender_done && now_ns() < u->deadline_ns)
                        timed_wait(u, &u->space, 100);
                late = !u->sender_done;
                pthread_mutex_unlock(&u->lock);
                if (late)
                        u->t->ops->abort(u->t);
        }
        if (u->started) {
                pthread_join(u->thread, NULL);
                u->started = false;
        }
        if (u->failed)
                return -EIO;
        late = u->q.n_closed > 0;
        if (late && limit_ms > 0) {
                /* Stopped by a signal: what is left is not lost, the cursor still names what was delivered. */
                warnx_thread(_("stopping: not everything read was delivered to %s within %u ms; "
                               "the next run sends the rest"),
                             u->url, limit_ms);
                return 0;
        }
        return late ? -EIO : 0;
}

void upload_free(struct upload *u) {
        if (!u)
                return;
        if (u->started) {
                pthread_mutex_lock(&u->lock);
                u->stop = true;
                pthread_mutex_unlock(&u->lock);
                upload_finish(u, false);
        }
        upload_queue_done(&u->q);
        if (u->t)
                u->t->ops->free(u->t);
        spool_free(u->spool);
        while (u->boots) {
                struct boot_name *b = u->boots;

                u->boots = b->next;
                free(b);
        }
        free(u->sbuf);
        free(u->buf);
        free(u->unit_len);
        pthread_cond_destroy(&u->work);
        pthread_cond_destroy(&u->space);
        pthread_mutex_destroy(&u->lock);
        close(u->failed_fd);
        free(u);
}
