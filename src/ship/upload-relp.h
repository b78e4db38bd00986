/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_RELP_H
#define KDMESG_UPLOAD_RELP_H

#include <stdbool.h>

#include "ship/upload-transport.h"
#include "ship/upload.h"

/* The library --upload loads (dlopen()) for relp:// and relp+tls://, by its soname. */
#define UPLOAD_LIBRELP "librelp.so.0"
/* The port of relp://HOST without one (rsyslog's documentation uses it for imrelp). */
#define UPLOAD_RELP_PORT "2514"
/* The CAs relp+tls:// trusts without --trust: Debian's ca-certificates bundle. */
#define UPLOAD_RELP_SYSTEM_CAS "/etc/ssl/certs/ca-certificates.crt"

/* Where relp://HOST[:PORT][/] or relp+tls:// points (a host in [] is an IPv6 address). */
struct relp_url {
        bool tls; /* relp+tls:// */
        char host[256];
        char port[6];
};

/* Whether url is one for RELP (relp:// or relp+tls://), well formed or not. */
bool upload_url_is_relp(const char *url);
/* Whether url is relp+tls://, RELP over TLS. */
bool upload_url_is_relp_tls(const char *url);
/* Parse relp[+tls]://HOST[:PORT][/] into *ret: 0, or -EINVAL (a user:password, a path, a bad port). */
int upload_relp_parse_url(const char *url, struct relp_url *ret);

/*
 * The transport to rsyslog's imrelp (or any RELP server) at cfg->url, with
 * cfg->trust (UPLOAD_RELP_SYSTEM_CAS if NULL; not "all"), ->cert and ->key
 * (->cert if NULL) for relp+tls://.  librelp (UPLOAD_LIBRELP) is loaded
 * then: -ELIBACC when it cannot be, -ELIBBAD when it lacks a call,
 * -EPROTONOSUPPORT when it has no GnuTLS for relp+tls://; -EINVAL for a
 * bad URL.  The caller sets ->stop and ->stop_data.
 */
int upload_relp_new(const struct upload_config *cfg, struct upload_transport **ret);

#endif
