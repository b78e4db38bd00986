/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --upload relp://HOST:PORT (relp+tls:// over TLS): each entry of a batch
 * as an RFC 5424 message (upload-rfc5424.c) to rsyslog's imrelp, with
 * librelp, which is loaded when used as libcurl is.
 *
 * RELP acknowledges each message, but librelp's client calls do not say
 * which: relpCltSendSyslog() returns once the message is on its way, and
 * librelp takes the answers in when its window is full and when the
 * session is closed.  What it does say is in its debug output, given to
 * the function set with relpEngineSetDbgprint(): "in rsp command handler,
 * txnr %d, code %d, ..." for every answer.  So each batch is a session of
 * its own: open (transaction 1), the messages (2, 3, ...), close, which
 * waits for the answers to all of them; the answers seen with code 200
 * are the acknowledgements, and a batch acknowledged in part moves the
 * cursor exactly that far.  Should a librelp ever word that line
 * otherwise, the open's own answer is not seen and the upload stops with
 * one line saying so (UPLOAD_BROKEN), not sending without knowing.
 *
 * Another answer than 200 is the collector refusing a message (imrelp
 * answers 500 when it cannot take it): UPLOAD_DROPPED, so upload.c sends
 * the rest one at a time and puts a loss entry in the place of one that is
 * refused again.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <librelp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "output/export.h"
#include "ship/upload-relp.h"
#include "ship/upload-rfc5424.h"

/* librelp's words for the answer to a transaction (librelp 1.2 to 1.11, relpscrsp.c). */
#define RSP_FORMAT "in rsp command handler, txnr %d, code %d, text '%s'\n"
/* The open is the first transaction of a session, the messages follow. */
#define TXNR_OPEN 1
#define TXNR_FIRST_MESSAGE 2
#define CODE_OK 200
/*
 * librelp waits for each answer in one poll() that nothing interrupts: a
 * collector that takes the connection and does not answer holds the
 * sender (and a stop) this long at most, or KDMESG_UPLOAD_TIMEOUT_MS if
 * less.  Then the session is broken off and the batch retried.
 */
#define RELP_WAIT_S 10u
/* Failed TLS handshakes in a row that stop the upload (see connect_failed()). */
#define RELP_TLS_TRIES 3u

/* librelp's calls, found when the transport is made (the library stays loaded). */
struct relp_calls {
        relpRetVal (*engine_construct)(relpEngine_t **e);
        relpRetVal (*engine_destruct)(relpEngine_t **e);
        relpRetVal (*set_dbgprint)(relpEngine_t *e, void (*f)(char *fmt, ...));
        relpRetVal (*set_enable_cmd)(relpEngine_t *e, unsigned char *cmd, relpCmdEnaState_t state);
        relpRetVal (*clt_construct)(relpEngine_t *e, relpClt_t **c);
        relpRetVal (*clt_destruct)(relpEngine_t *e, relpClt_t **c);
        relpRetVal (*connect)(relpClt_t *c, int family, unsigned char *port, unsigned char *host);
        relpRetVal (*send_syslog)(relpClt_t *c, unsigned char *msg, size_t len);
        relpRetVal (*set_timeout)(relpClt_t *c, unsigned timeout);
        relpRetVal (*set_conn_timeout)(relpClt_t *c, int timeout);
        relpRetVal (*set_tls_lib)(relpEngine_t *e, const char *name);
        relpRetVal (*set_on_auth_err)(relpEngine_t *e, void (*f)(void *usr, char *info, char *msg, relpRetVal err));
        relpRetVal (*set_on_err)(relpEngine_t *e, void (*f)(void *usr, char *info, char *msg, relpRetVal err));
        relpRetVal (*enable_tls)(relpClt_t *c);
        relpRetVal (*set_ca_cert)(relpClt_t *c, char *file);
        relpRetVal (*set_own_cert)(relpClt_t *c, char *file);
        relpRetVal (*set_priv_key)(relpClt_t *c, char *file);
        relpRetVal (*set_auth_mode)(relpClt_t *c, char *mode);
        relpRetVal (*add_permitted_peer)(relpClt_t *c, char *peer);
};

/* POSIX's way to store what dlsym() returns into a function pointer. */
#define LOAD(h, slot, name) (*(void **)&(lr->slot) = dlsym(h, name))

static int load_relp(struct relp_calls *lr) {
        void *h;

        h = dlopen(UPLOAD_LIBRELP, RTLD_NOW | RTLD_LOCAL);
        if (!h)
                return -ELIBACC;
        if (!LOAD(h, engine_construct, "relpEngineConstruct") || !LOAD(h, engine_destruct, "relpEngineDestruct") ||
            !LOAD(h, set_dbgprint, "relpEngineSetDbgprint") || !LOAD(h, set_enable_cmd, "relpEngineSetEnableCmd") ||
            !LOAD(h, clt_construct, "relpEngineCltConstruct") || !LOAD(h, clt_destruct, "relpEngineCltDestruct") ||
            !LOAD(h, connect, "relpCltConnect") || !LOAD(h, send_syslog, "relpCltSendSyslog") ||
            !LOAD(h, set_timeout, "relpCltSetTimeout") || !LOAD(h, set_conn_timeout, "relpCltSetConnTimeout") ||
            !LOAD(h, set_tls_lib, "relpEngineSetTLSLibByName") || !LOAD(h, enable_tls, "relpCltEnableTLS") ||
            !LOAD(h, set_on_auth_err, "relpEngineSetOnAuthErr") || !LOAD(h, set_on_err, "relpEngineSetOnErr") ||
            !LOAD(h, set_ca_cert, "relpCltSetCACert") || !LOAD(h, set_own_cert, "relpCltSetOwnCert") ||
            !LOAD(h, set_priv_key, "relpCltSetPrivKey") || !LOAD(h, set_auth_mode, "relpCltSetAuthMode") ||
            !LOAD(h, add_permitted_peer, "relpCltAddPermittedPeer")) {
                dlclose(h);
                return -ELIBBAD;
        }
        return 0;
}

struct relp {
        struct upload_transport base;
        struct relp_calls lr;
        struct relp_url url;
        const char *trust, *key, *cert;
        unsigned timeout_s;
        relpEngine_t *engine;

        /* The messages of the batch being sent, one after the other. */
        char *msgs;
        size_t msgs_cap, msgs_len;
        struct message {
                size_t start, len;
                size_t unit; /* of the batch */
                int code;    /* the collector's answer; 0: none yet */
        } *m;
        size_t n, m_cap;
        size_t sent; /* messages librelp has written: answers count for these only */
        int open_code;
        char answer[80]; /* the text of the first answer that was no 200 */

        /* The session's socket, for relp_abort() from another thread; -1: none. */
        pthread_mutex_t sock_lock;
        int sock;

        /* What librelp said of the session (its certificate check, its first error); failed TLS handshakes in a row. */
        relpRetVal auth_code; /* 0: no word of the certificate */
        char auth_info[200], auth_msg[80], lib_error[160];
        unsigned tls_failures;
};

/*
 * The transport librelp is working for, while it sends a batch: the one
 * mutable static here, as librelp's debug function, where the answers
 * are, gets no pointer of the caller's.  Only the sender thread calls
 * librelp, and there is one transport per process.
 */
static struct relp *relp_current;

static void on_debug(char *fmt, ...) {
        struct relp *r = relp_current;
        va_list ap;
        int txnr, code;
        const char *text;

        if (!r)
                return;
        if (strcmp(fmt, RSP_FORMAT) != 0)
                return;
        va_start(ap, fmt);
        txnr = va_arg(ap, int);
        code = va_arg(ap, int);
        text = va_arg(ap, const char *);
        va_end(ap);
        if (txnr == TXNR_OPEN)
                r->open_code = code;
        else if (txnr >= TXNR_FIRST_MESSAGE && (size_t)(txnr - TXNR_FIRST_MESSAGE) < r->sent &&
                 r->m[txnr - TXNR_FIRST_MESSAGE].code == 0) {
                /* An answer for a number not sent yet, or a second one, acknowledges nothing. */
                r->m[txnr - TXNR_FIRST_MESSAGE].code = code;
                if (code != CODE_OK && !r->answer[0])
                        snprintf(r->answer, sizeof(r->answer), "%d %s", code, text ? text : "");
        }
}

/* librelp's word that the server's certificate is not the one asked for (the names it holds, why). */
static void on_auth_error(void *usr, char *info, char *msg, relpRetVal err) {
        struct relp *r = relp_current;
        size_t n;

        (void)usr;
        if (!r || r->auth_code)
                return;
        r->auth_code = err;
        snprintf(r->auth_info, sizeof(r->auth_info), "%s", info ? info : "");
        /* "DNSname: a; DNSname: b; " */
        n = strlen(r->auth_info);
        while (n > 0 && (r->auth_info[n - 1] == ' ' || r->auth_info[n - 1] == ';'))
                r->auth_info[--n] = '\0';
        snprintf(r->auth_msg, sizeof(r->auth_msg), "%s", msg ? msg : "");
}

/* The first of librelp's errors of a session: with TLS, the handshake's or the set-up's. */
static void on_error(void *usr, char *info, char *msg, relpRetVal err) {
        struct relp *r = relp_current;

        (void)usr;
        (void)info;
        (void)err;
        if (r && !r->lib_error[0] && msg)
                snprintf(r->lib_error, sizeof(r->lib_error), "%s", msg);
}

/* What a librelp error means, for the messages. */
static const char *relp_error(relpRetVal e) {
        switch (e) {
        case RELP_RET_SESSION_BROKEN:
        case RELP_RET_IO_ERR:
                return "the connection broke";
        case RELP_RET_TIMED_OUT:
                return "no answer in time";
        case RELP_RET_OUT_OF_MEMORY:
                return "out of memory";
        case RELP_RET_RQD_FEAT_MISSING:
        case RELP_RET_INCOMPAT_OFFERS:
                return "the server does not take syslog messages over RELP";
        default:
                return NULL;
        }
}

static void say(char *why, size_t why_size, const char *what, relpRetVal e) {
        const char *text = relp_error(e);

        if (text)
                snprintf(why, why_size, "%s: %s", what, text);
        else
                snprintf(why, why_size, "%s: librelp error %d", what, (int)e);
}

/* The messages of the batch: every entry of every unit, in order.  0, -EBADMSG or -ENOMEM. */
static int make_messages(struct relp *r, const char *buf, const size_t *unit_len, size_t n_units) {
        size_t u, at = 0;

        r->n = 0;
        r->msgs_len = 0;
        for (u = 0; u < n_units; at += unit_len[u++]) {
                size_t end = at + unit_len[u], o = at;

                while (o < end) {
                        size_t k = export_entry_len(buf + o, end - o), start = r->msgs_len;
                        int e;

                        if (k == 0)
                                return -EBADMSG;
                        e = rfc5424_from_export(buf + o, k, &r->msgs, &r->msgs_cap, &r->msgs_len);
                        if (e < 0)
                                return e;
                        if (r->n == r->m_cap) {
                                size_t c = r->m_cap ? r->m_cap * 2 : 256;
                                struct message *p = realloc(r->m, c * sizeof(*p));

                                if (!p)
                                        return -ENOMEM;
                                r->m = p;
                                r->m_cap = c;
                        }
                        r->m[r->n++] = (struct message){start, r->msgs_len - start, u, 0};
                        o += k;
                }
        }
        return 0;
}

/*
 * A client for one session; with TLS, GnuTLS (set in upload_relp_new())
 * checks that the server's certificate is signed by the CA of --trust
 * (or the system's) and names the host of the URL ("name": librelp
 * compares the host with the certificate's DNS names and its common name,
 * not with IP addresses), and the client shows --cert if given.
 * librelp 1.11 loses 16 bytes with each client whose permitted peer is
 * set (see kdmesg-upload(8), SHIPPING TO A COLLECTOR); "certvalid", which would
 * not, checks nothing of the server's certificate with GnuTLS.
 */
static relpRetVal new_client(struct relp *r, relpClt_t **ret) {
        relpClt_t *c = NULL;
        relpRetVal e;

        e = r->lr.clt_construct(r->engine, &c);
        if (e != RELP_RET_OK)
                return e;
        r->lr.set_timeout(c, r->timeout_s);
        r->lr.set_conn_timeout(c, 10);
        if (r->url.tls) {
                e = r->lr.enable_tls(c);
                if (e == RELP_RET_OK)
                        e = r->lr.set_ca_cert(c, (char *)r->trust);
                if (e == RELP_RET_OK)
                        e = r->lr.set_auth_mode(c, (char *)"name");
                if (e == RELP_RET_OK)
                        e = r->lr.add_permitted_peer(c, r->url.host);
                if (e == RELP_RET_OK && r->cert)
                        e = r->lr.set_own_cert(c, (char *)r->cert);
                if (e == RELP_RET_OK && r->cert)
                        e = r->lr.set_priv_key(c, (char *)(r->key ? r->key : r->cert));
                if (e != RELP_RET_OK) {
                        r->lr.clt_destruct(r->engine, &c);
                        return e;
                }
        }
        *ret = c;
        return RELP_RET_OK;
}

/*
 * The connection (and with TLS, the handshake) failed.  A server whose
 * certificate is not the one asked for will not change by itself: the
 * upload stops with one line.  Another failed handshake may be a
 * collector going down as it answered, but one that fails three times in
 * a row is a configuration too (no client certificate where the server
 * asks one, a server without TLS) and stops the upload: librelp 1.11
 * loses 17 to 52 KiB with each failed handshake, which retrying for good
 * would pile up.
 */
static enum upload_result connect_failed(struct relp *r, relpRetVal e, char *why, size_t why_size) {
        if (r->auth_code == RELP_RET_AUTH_ERR_NAME) {
                snprintf(why, why_size, "the server's certificate does not name %s (it has %s)", r->url.host,
                         r->auth_info[0] ? r->auth_info : "no name");
                return UPLOAD_BROKEN;
        }
        if (r->auth_code == RELP_RET_AUTH_CERT_INVL) {
                snprintf(why, why_size, "the server's certificate does not verify with the CAs of %s (%s)", r->trust,
                         r->auth_msg);
                return UPLOAD_BROKEN;
        }
        if (r->auth_code) {
                snprintf(why, why_size, "the server's certificate: %s", r->auth_msg);
                return UPLOAD_BROKEN;
        }
        if (r->url.tls && (e == RELP_RET_ERR_TLS_SETUP || e == RELP_RET_ERR_TLS_HANDS || e == RELP_RET_ERR_TLS)) {
                r->tls_failures++;
                snprintf(why, why_size, "%s", r->lib_error[0] ? r->lib_error : "the TLS set-up failed");
                if (r->tls_failures < RELP_TLS_TRIES)
                        return UPLOAD_RETRY;
                snprintf(why + strlen(why), why_size - strlen(why), " (%u times in a row)", r->tls_failures);
                return UPLOAD_BROKEN;
        }
        say(why, why_size, "cannot connect", e);
        return UPLOAD_RETRY;
}

/*
 * The socket librelp connected to the collector: librelp does not say, so
 * it is the newest of this process's TCP sockets connected to that port
 * (only the sender makes any while it sends over RELP).  -1: not found.
 */
static int session_socket(const char *port) {
        long want = strtol(port, NULL, 10);
        struct dirent *de;
        int found = -1;
        DIR *d = opendir("/proc/self/fd");

        if (!d)
                return -1;
        while ((de = readdir(d))) {
                struct sockaddr_storage ss;
                socklen_t len = sizeof(ss);
                int fd = atoi(de->d_name), type;
                socklen_t tlen = sizeof(type);
                long p;

                if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(d) || fd <= found)
                        continue;
                if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) < 0 || type != SOCK_STREAM ||
                    getpeername(fd, (struct sockaddr *)&ss, &len) < 0)
                        continue;
                if (ss.ss_family == AF_INET)
                        p = ntohs(((struct sockaddr_in *)&ss)->sin_port);
                else if (ss.ss_family == AF_INET6)
                        p = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
                else
                        continue;
                if (p == want)
                        found = fd;
        }
        closedir(d);
        return found;
}

static void set_sock(struct relp *r, int fd) {
        pthread_mutex_lock(&r->sock_lock);
        r->sock = fd;
        pthread_mutex_unlock(&r->sock_lock);
}

/* librelp waits up to RELP_WAIT_S for each answer, in a poll() nothing else ends: a shut-down socket does. */
static void relp_abort(struct upload_transport *t) {
        struct relp *r = (struct relp *)t;

        pthread_mutex_lock(&r->sock_lock);
        if (r->sock >= 0)
                shutdown(r->sock, SHUT_RDWR);
        pthread_mutex_unlock(&r->sock_lock);
}

static enum upload_result relp_send(struct upload_transport *t, const char *buf, size_t len, const size_t *unit_len,
                                    size_t n_units, size_t *ret_acked, char *why, size_t why_size) {
        struct relp *r = (struct relp *)t;
        relpRetVal e = RELP_RET_OK;
        relpClt_t *c = NULL;
        size_t i, k;
        int x;

        *ret_acked = 0;
        x = make_messages(r, buf, unit_len, n_units);
        if (x < 0) {
                snprintf(why, why_size, "%s", strerror(-x));
                return x == -ENOMEM ? UPLOAD_RETRY : UPLOAD_BROKEN;
        }
        r->open_code = 0;
        r->answer[0] = '\0';
        r->auth_code = 0;
        r->lib_error[0] = '\0';
        relp_current = r;
        e = new_client(r, &c);
        if (e != RELP_RET_OK) {
                relp_current = NULL;
                say(why, why_size, "cannot set up the session", e);
                return e == RELP_RET_OUT_OF_MEMORY ? UPLOAD_RETRY : UPLOAD_BROKEN;
        }
        e = r->lr.connect(c, AF_UNSPEC, (unsigned char *)r->url.port, (unsigned char *)r->url.host);
        if (e != RELP_RET_OK) {
                r->lr.clt_destruct(r->engine, &c);
                relp_current = NULL;
                return connect_failed(r, e, why, why_size);
        }
        r->tls_failures = 0;
        set_sock(r, session_socket(r->url.port));
        if (r->open_code != CODE_OK) {
                set_sock(r, -1);
                r->lr.clt_destruct(r->engine, &c);
                relp_current = NULL;
                snprintf(why, why_size, "this librelp does not say which messages the server acknowledged");
                return UPLOAD_BROKEN;
        }
        /*
         * librelp reads answers inside a send only while it waits for room
         * in its window, before the message goes out: what it reads then
         * counts for the messages before it, not for it.  An answer for a
         * number not sent (a server that answers ahead) is no
         * acknowledgement; should a librelp read after it sends, the answer
         * it misses is a message sent again, never one lost.
         */
        r->sent = 0;
        for (i = 0; i < r->n && e == RELP_RET_OK && !r->base.stop(r->base.stop_data); i++) {
                r->sent = i;
                e = r->lr.send_syslog(c, (unsigned char *)r->msgs + r->m[i].start, r->m[i].len);
                if (e == RELP_RET_OK)
                        r->sent = i + 1;
        }
        /* The close waits for the answers to everything sent (or the socket is shut down: relp_abort()). */
        r->lr.clt_destruct(r->engine, &c);
        set_sock(r, -1);
        relp_current = NULL;
        for (k = 0; k < r->n && r->m[k].code == CODE_OK; k++)
                ;
        *ret_acked = k == r->n ? n_units : r->m[k].unit;
        if (k == r->n)
                return UPLOAD_OK;
        if (r->m[k].code != 0) {
                snprintf(why, why_size, "the server answered %s", r->answer);
                return UPLOAD_DROPPED;
        }
        if (e != RELP_RET_OK)
                say(why, why_size, "the session ended", e);
        else
                snprintf(why, why_size, "no acknowledgement for %zu of %zu messages", r->n - k, r->n);
        return UPLOAD_RETRY;
}

static void relp_free(struct upload_transport *t) {
        struct relp *r = (struct relp *)t;

        if (!r)
                return;
        if (r->engine)
                r->lr.engine_destruct(&r->engine);
        pthread_mutex_destroy(&r->sock_lock);
        free(r->msgs);
        free(r->m);
        free(r);
}

static const struct upload_transport_ops relp_ops = {
        .send = relp_send,
        .free = relp_free,
        .abort = relp_abort,
};

bool upload_url_is_relp(const char *url) {
        return strncmp(url, "relp://", 7) == 0 || strncmp(url, "relp+tls://", 11) == 0;
}

bool upload_url_is_relp_tls(const char *url) {
        return strncmp(url, "relp+tls://", 11) == 0;
}

int upload_relp_parse_url(const char *url, struct relp_url *ret) {
        struct relp_url u = {.tls = upload_url_is_relp_tls(url)};
        const char *p, *host, *end;
        size_t n;

        if (!upload_url_is_relp(url))
                return -EINVAL;
        p = url + (u.tls ? 11 : 7);
        if (*p == '[') {
                host = p + 1;
                end = strchr(host, ']');
                if (!end)
                        return -EINVAL;
                p = end + 1;
        } else {
                host = p;
                end = p + strcspn(p, ":/?#@[]");
                p = end;
        }
        n = (size_t)(end - host);
        if (n == 0 || n >= sizeof(u.host) || memchr(host, '@', n))
                return -EINVAL;
        memcpy(u.host, host, n);
        if (*p == ':') {
                unsigned long port = 0;

                for (p++, n = 0; *p >= '0' && *p <= '9' && n < 6; p++, n++)
                        port = port * 10 + (unsigned long)(*p - '0');
                if (n == 0 || port == 0 || port > 65535)
                        return -EINVAL;
                snprintf(u.port, sizeof(u.port), "%lu", port);
        } else
                snprintf(u.port, sizeof(u.port), "%s", UPLOAD_RELP_PORT);
        if (*p == '/')
                p++;
        if (*p)
                return -EINVAL;
        *ret = u;
        return 0;
}

int upload_relp_new(const struct upload_config *cfg, struct upload_transport **ret) {
        struct relp *r;
        int e;

        r = calloc(1, sizeof(*r));
        if (!r)
                return -ENOMEM;
        pthread_mutex_init(&r->sock_lock, NULL);
        r->sock = -1;
        e = load_relp(&r->lr);
        if (e < 0) {
                pthread_mutex_destroy(&r->sock_lock);
                free(r);
                return e;
        }
        r->base.ops = &relp_ops;
        r->trust = cfg->trust ? cfg->trust : UPLOAD_RELP_SYSTEM_CAS;
        r->key = cfg->key;
        r->cert = cfg->cert;
        r->timeout_s = cfg->request_ms / 1000 + (cfg->request_ms % 1000 != 0);
        if (r->timeout_s > RELP_WAIT_S)
                r->timeout_s = RELP_WAIT_S;
        e = upload_relp_parse_url(cfg->url, &r->url);
        if (e == 0 && r->lr.engine_construct(&r->engine) != RELP_RET_OK)
                e = -ENOMEM;
        if (e < 0) {
                relp_free(&r->base);
                return e;
        }
        r->lr.set_dbgprint(r->engine, on_debug);
        r->lr.set_on_auth_err(r->engine, on_auth_error);
        r->lr.set_on_err(r->engine, on_error);
        /* GnuTLS, librelp's default, said: its other one, OpenSSL, loses 4 KiB with each session (1.11). */
        if (r->url.tls && r->lr.set_tls_lib(r->engine, "gnutls") != RELP_RET_OK) {
                relp_free(&r->base);
                return -EPROTONOSUPPORT;
        }
        r->lr.set_enable_cmd(r->engine, (unsigned char *)"syslog", eRelpCmdState_Required);
        *ret = &r->base;
        return 0;
}
