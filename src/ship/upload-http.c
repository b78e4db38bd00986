/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --upload http(s)://: the export stream POSTed to systemd-journal-remote,
 * as systemd-journal-upload does (Content-Type:
 * application/vnd.fdo.journal, the path /upload), with libcurl.
 *
 * journal-remote stores the entries of a request one by one; at an entry
 * it refuses it drops the connection without an answer (curl: "Empty
 * reply from server"), having stored the ones before it: that is
 * UPLOAD_DROPPED, and upload.c then sends the batch entry by entry to
 * find it.  Each request has a deadline (cfg.request_ms), so a collector
 * that trickles its answer cannot hold a batch for ever.
 */
#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "ship/upload-http.h"

/*
 * libcurl is loaded when --upload is used, not linked: linked, it and its
 * own libraries (36 shared objects where kdmesg needs 6) were loaded by
 * every run, which cost each view 3.5 ms of start-up and raised its peak
 * memory from 3.2 to 9 MiB.  Only the calls below are used, found when
 * the transport is made and kept in it (dlopen() counts: the library is
 * loaded once).
 */
struct curl_calls {
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
};

/* POSIX's way to store what dlsym() returns into a function pointer. */
#define LOAD(h, slot, name) (*(void **)&(slot) = dlsym(h, name))

static int load_curl(struct curl_calls *lc) {
        void *h = dlopen(UPLOAD_LIBCURL, RTLD_NOW | RTLD_LOCAL);

        if (!h)
                return -ELIBACC;
        if (!LOAD(h, lc->global_cleanup, "curl_global_cleanup") || !LOAD(h, lc->easy_init, "curl_easy_init") ||
            !LOAD(h, lc->easy_setopt, "curl_easy_setopt") || !LOAD(h, lc->easy_perform, "curl_easy_perform") ||
            !LOAD(h, lc->easy_getinfo, "curl_easy_getinfo") || !LOAD(h, lc->easy_strerror, "curl_easy_strerror") ||
            !LOAD(h, lc->easy_cleanup, "curl_easy_cleanup") || !LOAD(h, lc->slist_append, "curl_slist_append") ||
            !LOAD(h, lc->slist_free_all, "curl_slist_free_all") || !LOAD(h, lc->global_init, "curl_global_init")) {
                dlclose(h);
                memset(lc, 0, sizeof(*lc));
                return -ELIBBAD;
        }
        return 0;
}

struct http {
        struct upload_transport base;
        struct curl_calls lc;
        bool curl_ready; /* curl_global_init() done: curl_global_cleanup() owed */
        char *url;
        char *secret; /* the URL's user:password, never shown; NULL: none */
        CURL *curl;
        struct curl_slist *headers;
        char errbuf[CURL_ERROR_SIZE];
        char body[128];
        size_t body_len;
};

static size_t on_body(char *p, size_t size, size_t n, void *userdata) {
        struct http *h = userdata;
        size_t len = size * n, room = sizeof(h->body) - 1 - h->body_len;

        memcpy(h->body + h->body_len, p, len < room ? len : room);
        h->body_len += len < room ? len : room;
        h->body[h->body_len] = '\0';
        return len;
}

static int on_progress(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow) {
        struct http *h = userdata;

        return h->base.stop(h->base.stop_data) ? 1 : 0;
}

/* The server's answer: its first line (the messages show its bytes as every outside text is). */
static void answer_text(const struct http *h, char *dst, size_t size) {
        size_t i, n = 0;

        for (i = 0; i < h->body_len && h->body[i] != '\n' && n + 1 < size; i++)
                dst[n++] = h->body[i];
        dst[n] = '\0';
}

/* A message from libcurl may quote the URL: its user:password never reaches a message. */
static void hide_secret(const struct http *h, char *s) {
        size_t k;
        char *p;

        if (!h->secret || !*h->secret)
                return;
        k = strlen(h->secret);
        while ((p = strstr(s, h->secret))) {
                memmove(p + 3, p + k, strlen(p + k) + 1);
                memcpy(p, "***", 3);
        }
}

static enum upload_result http_send(struct upload_transport *t, const char *buf, size_t len, const size_t *unit_len,
                                    size_t n_units, size_t *ret_acked, char *why, size_t why_size) {
        struct http *h = (struct http *)t;
        char answer[sizeof(h->body)];
        long code = 0;
        CURLcode c;

        *ret_acked = 0;
        h->errbuf[0] = '\0';
        h->body_len = 0;
        h->body[0] = '\0';
        h->lc.easy_setopt(h->curl, CURLOPT_POSTFIELDS, buf);
        h->lc.easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        c = h->lc.easy_perform(h->curl);
        if (c != CURLE_OK) {
                snprintf(why, why_size, "%s", h->errbuf[0] ? h->errbuf : h->lc.easy_strerror(c));
                hide_secret(h, why);
                /* A certificate the trust does not vouch for is not a passing failure either. */
                if (c == CURLE_PEER_FAILED_VERIFICATION || c == CURLE_SSL_CACERT_BADFILE || c == CURLE_SSL_CERTPROBLEM ||
                    c == CURLE_URL_MALFORMAT || c == CURLE_UNSUPPORTED_PROTOCOL)
                        return UPLOAD_BROKEN;
                /* Connected and sent, then dropped without an answer: journal-remote at an entry it refuses. */
                if (c == CURLE_GOT_NOTHING || c == CURLE_RECV_ERROR || c == CURLE_SEND_ERROR)
                        return UPLOAD_DROPPED;
                return UPLOAD_RETRY;
        }
        h->lc.easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &code);
        if (code >= 200 && code < 300) {
                *ret_acked = n_units;
                return UPLOAD_OK;
        }
        answer_text(h, answer, sizeof(answer));
        snprintf(why, why_size, "HTTP %ld%s%s", code, answer[0] ? ": " : "", answer);
        hide_secret(h, why);
        /* 501 and 505: a server that does not take POST at all, as plain web servers answer. */
        return code == 408 || code == 429 || (code >= 500 && code != 501 && code != 505) ? UPLOAD_RETRY
                                                                                         : UPLOAD_REFUSED;
}

static void http_free(struct upload_transport *t) {
        struct http *h = (struct http *)t;

        if (!h)
                return;
        if (h->curl)
                h->lc.easy_cleanup(h->curl);
        if (h->headers)
                h->lc.slist_free_all(h->headers);
        if (h->curl_ready)
                h->lc.global_cleanup();
        free(h->url);
        free(h->secret);
        free(h);
}

static const struct upload_transport_ops http_ops = {
        .send = http_send,
        .free = http_free,
};

/* The user:password of url (between "://" and the last '@' before the path), or NULL. */
static char *userinfo(const char *url) {
        const char *a = strstr(url, "://"), *end, *at = NULL, *p;

        if (!a)
                return NULL;
        a += 3;
        end = a + strcspn(a, "/?#");
        for (p = a; p < end; p++)
                if (*p == '@')
                        at = p;
        return at ? strndup(a, (size_t)(at - a)) : NULL;
}

static int setup(struct http *h, const struct upload_config *cfg) {
        CURL *c = h->curl = h->lc.easy_init();
        size_t n = strlen(cfg->url);

        if (!c)
                return -ENOMEM;
        h->secret = cfg->auth[0] ? strdup(cfg->auth) : userinfo(cfg->url);
        if (cfg->auth[0] && !h->secret)
                return -ENOMEM;
        /* The path systemd-journal-remote serves, as systemd-journal-upload adds it. */
        while (n > 0 && cfg->url[n - 1] == '/')
                n--;
        if (asprintf(&h->url, "%.*s%s", (int)n, cfg->url,
                     n >= 7 && strncmp(cfg->url + n - 7, "/upload", 7) == 0 ? "" : "/upload") < 0) {
                h->url = NULL;
                return -ENOMEM;
        }
        h->headers = h->lc.slist_append(NULL, "Content-Type: application/vnd.fdo.journal");
        h->headers = h->headers ? h->lc.slist_append(h->headers, "Expect:") : NULL;
        if (!h->headers)
                return -ENOMEM;
        h->lc.easy_setopt(c, CURLOPT_URL, h->url);
        h->lc.easy_setopt(c, CURLOPT_HTTPHEADER, h->headers);
        h->lc.easy_setopt(c, CURLOPT_POST, 1L);
        h->lc.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        h->lc.easy_setopt(c, CURLOPT_ERRORBUFFER, h->errbuf);
        h->lc.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        h->lc.easy_setopt(c, CURLOPT_WRITEDATA, h);
        h->lc.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
        h->lc.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
        h->lc.easy_setopt(c, CURLOPT_XFERINFODATA, h);
        h->lc.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
        /* A server that stops taking data for 30 s is as good as gone ... */
        h->lc.easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        h->lc.easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
        /* ... and one that trickles its answer gets the request's deadline. */
        h->lc.easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)cfg->request_ms);
        h->lc.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
        if (cfg->trust && strcmp(cfg->trust, "all") == 0) {
                h->lc.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
                h->lc.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
        } else if (cfg->trust)
                h->lc.easy_setopt(c, CURLOPT_CAINFO, cfg->trust);
        /* From KDMESG_UPLOAD_AUTH_FILE: as a user:password in the URL, HTTP Basic. */
        if (cfg->auth[0])
                h->lc.easy_setopt(c, CURLOPT_USERPWD, cfg->auth);
        if (cfg->cert)
                h->lc.easy_setopt(c, CURLOPT_SSLCERT, cfg->cert);
        if (cfg->key)
                h->lc.easy_setopt(c, CURLOPT_SSLKEY, cfg->key);
        return 0;
}

int upload_http_new(const struct upload_config *cfg, struct upload_transport **ret) {
        struct http *h;
        int e;

        h = calloc(1, sizeof(*h));
        if (!h)
                return -ENOMEM;
        h->base.ops = &http_ops;
        e = load_curl(&h->lc);
        if (e == 0 && h->lc.global_init(CURL_GLOBAL_DEFAULT) != 0)
                e = -ENOMEM;
        if (e < 0) {
                free(h);
                return e;
        }
        h->curl_ready = true;
        e = setup(h, cfg);
        if (e < 0) {
                http_free(&h->base);
                return e;
        }
        *ret = &h->base;
        return 0;
}
