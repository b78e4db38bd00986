/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload: the URL made fit to show in messages (upload.h). */
#include <stdio.h>
#include <string.h>

#include "ship/upload.h"

const char *upload_url_shown(const char *url, char *buf, size_t size) {
        const char *a = strstr(url, "://"), *end, *at = NULL, *p;

        /* Without a scheme ("admin:pw@host:1", a bad URL), the user:password is at the start. */
        a = a && (size_t)(a - url) < strcspn(url, "/?#@") + 1 ? a + 3 : url;
        end = a + strcspn(a, "/?#");
        for (p = a; p < end; p++)
                if (*p == '@')
                        at = p;
        if (at)
                snprintf(buf, size, "%.*s%s", (int)(a - url), url, at + 1);
        else
                snprintf(buf, size, "%s", url);
        return buf;
}
