/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --upload URL: a sender thread POSTs the batches of the export stream to
 * systemd-journal-remote with libcurl, one request at a time, and saves
 * the cursor after each 2xx answer, before it sends anything else.  So the
 * cursor never names a record the collector has not stored, and a crash
 * can repeat at most the one request that was in flight.
 *
 * A failed request (no connection, a reset, a time-out, 408, 429, 5xx) is
 * sent again after a wait that doubles from 0.5 s up to 30 s, with jitter;
 * meanwhile the reader goes on filling the queue up to its memory bound,
 * and then waits: what the ring overwrites in that time is reported by the
 * sequence tracker as a loss (an entry of the stream) once reading goes on.
 * Any other answer (a 4xx, 501, 505: not a journal server, or one that refuses) ends
 * the upload: retrying cannot help.  Without --follow a few tries are made,
 * then kdmesg gives up.
 */
#include <curl/curl.h>
#include <dlfcn.h>
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

#include "pipeline/cursor.h"
#include "base/i18n.h"
#include "pipeline/upload-queue.h"
#include "pipeline/upload.h"
#include "text/diag.h"

/*
 * libcurl is loaded when --upload is used, not linked: linked, it and its
 * own libraries (36 shared objects where kdmesg needs 6) were loaded by
 * every run, which cost each view 3.5 ms of start-up and raised its peak
 * memory from 3.2 to 9 MiB.  Only the calls below are used: found once
 * per process, as the library is loaded once, so they are kept here.
 */
static struct {
        CURLcode (*global_init)(long flags);
        void (*global_cleanup)(void);
        CURL *(*easy_init)(void);
        CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
        CURLcode (*easy_perform)(CURL *c);
        CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
        const char *(*easy_strerror)(CURLcode code);
        void (*easy_cleanup)(CURL *c);
        struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
        void (*slist_free_all)(struct curl_slist *l);
} lc;

/* POSIX's way to store what dlsym() returns into a function pointer. */
#define LOAD(h, slot, name) (*(void **)&(slot) = dlsym(h, name))

static int load_curl(void) {
        void *h;

        if (lc.global_init)
                return 0;
        h = dlopen(UPLOAD_LIBCURL, RTLD_NOW | RTLD_LOCAL);
        if (!h)
                return -ELIBACC;
        if (!LOAD(h, lc.global_cleanup, "curl_global_cleanup") || !LOAD(h, lc.easy_init, "curl_easy_init") ||
            !LOAD(h, lc.easy_setopt, "curl_easy_setopt") || !LOAD(h, lc.easy_perform, "curl_easy_perform") ||
            !LOAD(h, lc.easy_getinfo, "curl_easy_getinfo") || !LOAD(h, lc.easy_strerror, "curl_easy_strerror") ||
            !LOAD(h, lc.easy_cleanup, "curl_easy_cleanup") || !LOAD(h, lc.slist_append, "curl_slist_append") ||
            !LOAD(h, lc.slist_free_all, "curl_slist_free_all") || !LOAD(h, lc.global_init, "curl_global_init")) {
                dlclose(h);
                memset(&lc, 0, sizeof(lc));
                return -ELIBBAD;
        }
        return 0;
}

#define BACKOFF_BASE_MS 500
#define BACKOFF_CAP_MS 30000
/* Without --follow: this many tries in all (about 3.5 s of waiting). */
#define TRIES_MAX 4

enum post_result {
        POST_OK = 0,
        POST_RETRY,   /* may work later */
        POST_REFUSED, /* the server answered no */
        POST_BROKEN,  /* cannot work: the certificate, the URL */
};

struct upload {
        struct upload_config cfg;
        char *url;
        struct cursor *cursor;
        volatile sig_atomic_t *quit; /* the reader's: SIGINT/SIGTERM, it stops reading */

        pthread_t thread;
        bool started;
        pthread_mutex_t lock;
        pthread_cond_t work;  /* the sender waits: a batch closed, the end, stop */
        pthread_cond_t space; /* the reader waits: memory freed, or failure */
        struct upload_queue q;
        bool ending;   /* no more batches come */
        bool stop;     /* stop now, delivered or not */
        bool has_deadline; /* ending after a signal: stop at deadline, delivered or not */
        struct timespec deadline; /* CLOCK_MONOTONIC */
        bool failed;   /* for good, reported */
        bool failing;  /* the last request failed (said once) */
        int failed_fd; /* an eventfd, readable once failed */

        /* The sender's own. */
        CURL *curl;
        struct curl_slist *headers;
        char *buf;
        size_t cap;
        char errbuf[CURL_ERROR_SIZE];
        char body[128];
        size_t body_len;
        char why[320];
};

/*
 * Whether to stop now, delivered or not: told to, or the time after a
 * signal is up.  A signal alone does not stop the sender: the request in
 * flight is finished and what was read is sent (upload_finish()).
 */
static bool stopping(struct upload *u) {
        struct timespec now;

        if (u->stop)
                return true;
        if (!u->has_deadline)
                return false;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > u->deadline.tv_sec ||
            (now.tv_sec == u->deadline.tv_sec && now.tv_nsec >= u->deadline.tv_nsec))
                u->stop = true;
        return u->stop;
}

static size_t on_body(char *p, size_t size, size_t n, void *userdata) {
        struct upload *u = userdata;
        size_t len = size * n, room = sizeof(u->body) - 1 - u->body_len;

        memcpy(u->body + u->body_len, p, len < room ? len : room);
        u->body_len += len < room ? len : room;
        u->body[u->body_len] = '\0';
        return len;
}

static int on_progress(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow) {
        struct upload *u = userdata;
        bool stop;

        pthread_mutex_lock(&u->lock);
        stop = stopping(u);
        pthread_mutex_unlock(&u->lock);
        return stop ? 1 : 0;
}

/* The server's answer: its first line (warnx_thread() shows its bytes as every outside text is). */
static void answer_text(const struct upload *u, char *dst, size_t size) {
        size_t i, n = 0;

        for (i = 0; i < u->body_len && u->body[i] != '\n' && n + 1 < size; i++)
                dst[n++] = u->body[i];
        dst[n] = '\0';
}

static enum post_result post(struct upload *u, size_t len) {
        char answer[sizeof(u->body)];
        long code = 0;
        CURLcode c;

        u->errbuf[0] = '\0';
        u->body_len = 0;
        u->body[0] = '\0';
        lc.easy_setopt(u->curl, CURLOPT_POSTFIELDS, u->buf);
        lc.easy_setopt(u->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        c = lc.easy_perform(u->curl);
        if (c != CURLE_OK) {
                snprintf(u->why, sizeof(u->why), "%s", u->errbuf[0] ? u->errbuf : lc.easy_strerror(c));
                /* A certificate the trust does not vouch for is not a passing failure either. */
                return c == CURLE_PEER_FAILED_VERIFICATION || c == CURLE_SSL_CACERT_BADFILE ||
                                       c == CURLE_SSL_CERTPROBLEM || c == CURLE_URL_MALFORMAT ||
                                       c == CURLE_UNSUPPORTED_PROTOCOL
                               ? POST_BROKEN
                               : POST_RETRY;
        }
        lc.easy_getinfo(u->curl, CURLINFO_RESPONSE_CODE, &code);
        if (code >= 200 && code < 300)
                return POST_OK;
        answer_text(u, answer, sizeof(answer));
        snprintf(u->why, sizeof(u->why), "HTTP %ld%s%s", code, answer[0] ? ": " : "", answer);
        /* 501 and 505: a server that does not take POST at all, as plain web servers answer. */
        return code == 408 || code == 429 || (code >= 500 && code != 501 && code != 505) ? POST_RETRY
                                                                                          : POST_REFUSED;
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
        struct timespec end, now;

        clock_gettime(CLOCK_MONOTONIC, &end);
        end.tv_sec += ms / 1000;
        end.tv_nsec += (long)(ms % 1000) * 1000000;
        if (end.tv_nsec >= 1000000000) {
                end.tv_sec++;
                end.tv_nsec -= 1000000000;
        }
        while (!stopping(u)) {
                long left;

                clock_gettime(CLOCK_MONOTONIC, &now);
                left = (end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000;
                if (left <= 0)
                        break;
                timed_wait(u, &u->work, left < 200 ? (unsigned)left : 200);
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

static void *sender(void *userdata) {
        struct upload *u = userdata;
        unsigned attempt = 0;

        pthread_mutex_lock(&u->lock);
        for (;;) {
                const struct upload_batch *last;
                bool has_seq = false;
                uint64_t seq = 0, usec = 0;
                size_t len = 0;
                enum post_result r;
                int n, e;

                while (!stopping(u) && u->q.n_closed == 0 && !u->ending)
                        timed_wait(u, &u->work, 200);
                if (stopping(u) || u->q.n_closed == 0)
                        break;
                n = upload_queue_take(&u->q, &u->buf, &u->cap, &len, &last);
                if (n < 0) {
                        warnx_thread(_("cannot upload to %s: %s"), u->cfg.url, strerror(-n));
                        fail(u);
                        break;
                }
                if (last) {
                        has_seq = true;
                        seq = last->seq;
                        usec = last->usec;
                }
                pthread_mutex_unlock(&u->lock);
                r = len > 0 ? post(u, len) : POST_OK;
                e = r == POST_OK && has_seq && u->cursor ? cursor_commit(u->cursor, seq, usec) : 0;
                pthread_mutex_lock(&u->lock);
                if (e < 0) {
                        warnx_thread(_("cannot update the cursor file %s: %s"), cursor_get_path(u->cursor),
                                     strerror(-e));
                        fail(u);
                        break;
                }
                if (r == POST_OK) {
                        upload_queue_ack(&u->q);
                        pthread_cond_broadcast(&u->space);
                        if (u->failing)
                                warnx_thread(_("uploading to %s again"), u->cfg.url);
                        u->failing = false;
                        attempt = 0;
                        continue;
                }
                if (stopping(u))
                        break;
                if (r == POST_BROKEN) {
                        warnx_thread(_("cannot upload to %s: %s"), u->cfg.url, u->why);
                        fail(u);
                        break;
                }
                if (r == POST_REFUSED) {
                        warnx_thread(_("%s refused the upload: %s (is it systemd-journal-remote?)"), u->cfg.url,
                                     u->why);
                        fail(u);
                        break;
                }
                attempt++;
                if (!u->cfg.retry_forever && attempt >= TRIES_MAX) {
                        warnx_thread(_("cannot upload to %s: %s (tried %u times)"), u->cfg.url, u->why, attempt);
                        fail(u);
                        break;
                }
                if (u->cfg.retry_forever && !u->failing)
                        warnx_thread(_("cannot upload to %s: %s; retrying"), u->cfg.url, u->why);
                u->failing = true;
                {
                        uint32_t rnd;

                        if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
                                rnd = (uint32_t)time(NULL) * 2654435761u;
                        wait_ms(u, upload_backoff_ms(attempt, BACKOFF_BASE_MS, BACKOFF_CAP_MS, rnd));
                }
        }
        pthread_mutex_unlock(&u->lock);
        return NULL;
}

static int setup_curl(struct upload *u) {
        CURL *c = u->curl = lc.easy_init();
        size_t n = strlen(u->cfg.url);

        if (!c)
                return -ENOMEM;
        /* The path systemd-journal-remote serves, as systemd-journal-upload adds it. */
        while (n > 0 && u->cfg.url[n - 1] == '/')
                n--;
        if (asprintf(&u->url, "%.*s%s", (int)n, u->cfg.url,
                     n >= 7 && strncmp(u->cfg.url + n - 7, "/upload", 7) == 0 ? "" : "/upload") < 0) {
                u->url = NULL;
                return -ENOMEM;
        }
        u->headers = lc.slist_append(NULL, "Content-Type: application/vnd.fdo.journal");
        u->headers = u->headers ? lc.slist_append(u->headers, "Expect:") : NULL;
        if (!u->headers)
                return -ENOMEM;
        lc.easy_setopt(c, CURLOPT_URL, u->url);
        lc.easy_setopt(c, CURLOPT_HTTPHEADER, u->headers);
        lc.easy_setopt(c, CURLOPT_POST, 1L);
        lc.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        lc.easy_setopt(c, CURLOPT_ERRORBUFFER, u->errbuf);
        lc.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        lc.easy_setopt(c, CURLOPT_WRITEDATA, u);
        lc.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
        lc.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
        lc.easy_setopt(c, CURLOPT_XFERINFODATA, u);
        lc.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
        /* A server that stops taking data for 30 s is as good as gone. */
        lc.easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        lc.easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
        lc.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
        if (u->cfg.trust && strcmp(u->cfg.trust, "all") == 0) {
                lc.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
                lc.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
        } else if (u->cfg.trust)
                lc.easy_setopt(c, CURLOPT_CAINFO, u->cfg.trust);
        if (u->cfg.cert)
                lc.easy_setopt(c, CURLOPT_SSLCERT, u->cfg.cert);
        if (u->cfg.key)
                lc.easy_setopt(c, CURLOPT_SSLKEY, u->cfg.key);
        return 0;
}

int upload_new(const struct upload_config *cfg, struct cursor *cursor, volatile sig_atomic_t *quit,
               struct upload **ret) {
        struct upload *u;
        sigset_t all, old;
        int e;

        e = load_curl();
        if (e < 0)
                return e;
        if (lc.global_init(CURL_GLOBAL_DEFAULT) != 0)
                return -ENOMEM;
        u = calloc(1, sizeof(*u));
        if (!u)
                return -ENOMEM;
        u->cfg = *cfg;
        u->cursor = cursor;
        u->failed_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (u->failed_fd < 0) {
                e = -errno;
                free(u);
                return e;
        }
        u->quit = quit;
        pthread_mutex_init(&u->lock, NULL);
        pthread_cond_init(&u->work, NULL);
        pthread_cond_init(&u->space, NULL);
        upload_queue_init(&u->q, cfg->batch_max, cfg->mem_max);
        e = setup_curl(u);
        if (e < 0) {
                upload_free(u);
                return e;
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
        pthread_mutex_lock(&u->lock);
        upload_queue_mark(&u->q, seq, usec);
        if (u->q.n_closed > 0)
                pthread_cond_signal(&u->work);
        pthread_mutex_unlock(&u->lock);
}

int upload_write(void *userdata, const void *p, size_t len) {
        struct upload *u = userdata;
        int e;

        pthread_mutex_lock(&u->lock);
        e = u->failed ? -EIO : upload_queue_append(&u->q, p, len);
        if (e == 0 && upload_queue_full(&u->q)) {
                /* Hold on: nothing more is read (the ring may overwrite, which is then a loss). */
                upload_queue_close(&u->q);
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
        pthread_mutex_lock(&u->lock);
        upload_queue_close(&u->q);
        if (u->q.n_closed > 0)
                pthread_cond_signal(&u->work);
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
        upload_queue_close(&u->q);
        u->ending = true;
        if (limit_ms > 0) {
                clock_gettime(CLOCK_MONOTONIC, &u->deadline);
                u->deadline.tv_sec += limit_ms / 1000;
                u->deadline.tv_nsec += (long)(limit_ms % 1000) * 1000000;
                if (u->deadline.tv_nsec >= 1000000000) {
                        u->deadline.tv_sec++;
                        u->deadline.tv_nsec -= 1000000000;
                }
                u->has_deadline = true;
        }
        pthread_cond_broadcast(&u->work);
        pthread_mutex_unlock(&u->lock);
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
                             u->cfg.url, limit_ms);
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
        if (u->curl)
                lc.easy_cleanup(u->curl);
        lc.slist_free_all(u->headers);
        free(u->url);
        free(u->buf);
        pthread_cond_destroy(&u->work);
        pthread_cond_destroy(&u->space);
        pthread_mutex_destroy(&u->lock);
        close(u->failed_fd);
        free(u);
        lc.global_cleanup();
}
