/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The journal export form's message, as journald cut it, made whole again (stream-export.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader-private.h"

/*
 * journald takes "ident[pid]: " off the message of a record of a userspace
 * facility and writes SYSLOG_IDENTIFIER and SYSLOG_PID; so does kdmesg's
 * export.  Put it back, so that the record's message is the kernel's
 * again (and the export of it writes the same fields).  Older kdmesg wrote
 * SYSLOG_IDENTIFIER=kernel and the whole message: left as it is.
 */
int export_restore_prefix(struct kmsg_record *r, uint64_t facility, const char *ident, size_t ident_len,
                          const char *pid, size_t pid_len) {
        const char *msg = r->data + r->msg_off;
        size_t len = r->msg_len, off, n = 0;
        char *buf;
        int e;

        if (facility == 0 || ident_len == 0 || (ident_len == 6 && memcmp(ident, "kernel", 6) == 0) ||
            memchr(ident, '\n', ident_len) || memchr(ident, ' ', ident_len) || memchr(pid ? pid : "", '\n', pid_len))
                return 0;
        buf = malloc(ident_len + pid_len + 4 + len);
        if (!buf)
                return -ENOMEM;
        memcpy(buf, ident, ident_len);
        n = ident_len;
        if (pid) {
                buf[n++] = '[';
                memcpy(buf + n, pid, pid_len);
                n += pid_len;
                buf[n++] = ']';
        }
        buf[n++] = ':';
        buf[n++] = ' ';
        memcpy(buf + n, msg, len);
        n += len;
        e = record_append(r, buf, n, &off);
        free(buf);
        if (e < 0)
                return e;
        r->msg_off = off;
        r->msg_len = n;
        return 0;
}
