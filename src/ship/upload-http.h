/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_HTTP_H
#define KDMESG_UPLOAD_HTTP_H

#include "ship/upload-transport.h"
#include "ship/upload.h"

/*
 * The transport to systemd-journal-remote at cfg->url (http:// or
 * https://, with cfg->trust, ->key, ->cert).  libcurl (UPLOAD_LIBCURL) is
 * loaded then: -ELIBACC when it cannot be, -ELIBBAD when it lacks a call.
 * 0, or -errno.  The caller sets ->stop and ->stop_data.
 */
int upload_http_new(const struct upload_config *cfg, struct upload_transport **ret);

#endif
