/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_RELP_H
#define KDMESG_UPLOAD_RELP_H

#include <stdbool.h>

#include "pipeline/upload-transport.h"
#include "pipeline/upload.h"

/* The library --upload loads (dlopen()) for relp:// and relp+tls://, by its soname. */
#define UPLOAD_LIBRELP "librelp.so.0"
/* The port of relp://HOST without one (rsyslog's documentation uses it for imrelp). */
#define UPLOAD_RELP_PORT "2514"

/* Where relp://HOST[:PORT][/] and relp+tls:// point (a host in [] is an IPv6 address). */
struct relp_url {
        bool tls;
        char host[256];
        char port[6];
};

/* Whether url is one for RELP (relp:// or relp+tls://), well formed or not. */
bool upload_url_is_relp(const char *url);
/* Parse a RELP URL into *ret: 0, or -EINVAL (a user:password, a path, a bad port). */
int upload_relp_parse_url(const char *url, struct relp_url *ret);

/*
 * The transport to rsyslog's imrelp (or any RELP server) at cfg->url, with
 * cfg->trust, ->key, ->cert for relp+tls://.  librelp (UPLOAD_LIBRELP) is
 * loaded then: -ELIBACC when it cannot be, -ELIBBAD when it lacks a call;
 * -EINVAL for a bad URL.  The caller sets ->stop and ->stop_data.
 */
int upload_relp_new(const struct upload_config *cfg, struct upload_transport **ret);

#endif
