/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdmesg-upload.service and its kin: what a configuration error asks of
 * the person who reads "systemctl status" at 3 a.m.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "ship/service.h"
#include "text/diag.h"
#include "text/util.h"

/* The ".service" name at the end of one line's path, "HIER:CONTROLLERS:PATH". */
static bool line_service(const char *line, size_t len, char *ret, size_t size) {
        const char *end = line + len, *path = memchr(line, ':', len), *name;
        size_t n;

        if (!path || !(path = memchr(path + 1, ':', (size_t)(end - path - 1))))
                return false;
        path++;
        while (end > path && end[-1] == '/')
                end--;
        for (name = end; name > path && name[-1] != '/'; name--)
                ;
        n = (size_t)(end - name);
        if (n <= strlen(".service") || memcmp(end - strlen(".service"), ".service", strlen(".service")) != 0 ||
            n >= size)
                return false;
        memcpy(ret, name, n);
        ret[n] = '\0';
        return true;
}

/* Whether the line is the hierarchy wanted: pass 0 the unified one ("0::"), pass 1 systemd's ("N:name=systemd:"). */
static bool line_wanted(const char *line, size_t len, int pass) {
        const char *colon = memchr(line, ':', len);

        if (pass == 0)
                return len > 3 && memcmp(line, "0::", 3) == 0;
        return colon && (size_t)(line + len - colon) > 14 && memcmp(colon + 1, "name=systemd:", 13) == 0;
}

bool service_of_cgroup(const char *text, char *ret, size_t size) {
        const char *p;
        size_t len;
        int pass;

        for (pass = 0; pass < 2; pass++)
                for (p = text; *p; p += len + (p[len] == '\n')) {
                        len = strcspn(p, "\n");
                        if (line_wanted(p, len, pass) && line_service(p, len, ret, size))
                                return true;
                }
        if (size > 0)
                ret[0] = '\0';
        return false;
}

void service_config_hint(bool url_missing) {
        char text[4096], unit[256];
        ssize_t n = -1;
        int fd;

        /* systemd sets INVOCATION_ID in the environment of every unit it starts. */
        if (!getenv("INVOCATION_ID"))
                return;
        fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
                n = read(fd, text, sizeof(text) - 1);
                close(fd);
        }
        text[n > 0 ? n : 0] = '\0';
        if (!service_of_cgroup(text, unit, sizeof(unit)))
                snprintf(unit, sizeof(unit), "%s", _("UNIT"));
        if (url_missing)
                warnx_(_("a configuration error (exit status %d): give the collector's URL with 'systemctl edit %s' "
                         "([Service] Environment=KDMESG_UPLOAD_URL=https://HOST:19532), then 'systemctl restart %s'"),
                       EXIT_CONFIG, unit, unit);
        else
                warnx_(_("a configuration error (exit status %d): correct it with 'systemctl edit %s' "
                         "(KDMESG_UPLOAD_URL, KDMESG_UPLOAD_TLS, the files they name), then 'systemctl restart %s'"),
                       EXIT_CONFIG, unit, unit);
}
