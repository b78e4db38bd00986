/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_RELP_H
#define KDMESG_UPLOAD_RELP_H

#include <stdbool.h>

#include "pipeline/upload-transport.h"
#include "pipeline/upload.h"

/* The library --upload loads (dlopen()) for relp://, by its soname. */
#define UPLOAD_LIBRELP "librelp.so.0"
/* The port of relp://HOST without one (rsyslog's documentation uses it for imrelp). */
#define UPLOAD_RELP_PORT "2514"

/* Where relp://HOST[:PORT][/] points (a host in [] is an IPv6 address). */
struct relp_url {
        char host[256];
        char port[6];
};

/* Whether url is one for RELP (relp:// or relp+tls://), well formed or not. */
bool upload_url_is_relp(const char *url);
/*
 * relp+tls://: RELP over TLS, which kdmesg does not send (yet).  librelp
 * 1.11's TLS client loses memory with every session (the permitted peer
 * that checks the server's name, the GnuTLS session of a failed
 * handshake), and kdmesg opens a session per batch and retries for good.
 */
bool upload_url_is_relp_tls(const char *url);
/* Parse relp://HOST[:PORT][/] into *ret: 0, or -EINVAL (relp+tls://, a user:password, a path, a bad port). */
int upload_relp_parse_url(const char *url, struct relp_url *ret);

/*
 * The transport to rsyslog's imrelp (or any RELP server) at cfg->url
 * (relp://, without TLS).  librelp (UPLOAD_LIBRELP) is
 * loaded then: -ELIBACC when it cannot be, -ELIBBAD when it lacks a call;
 * -EINVAL for a bad URL.  The caller sets ->stop and ->stop_data.
 */
int upload_relp_new(const struct upload_config *cfg, struct upload_transport **ret);

#endif
