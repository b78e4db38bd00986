/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The export form outside the record stream, for --upload's sender: where
 * an entry of a batch ends (to send a refused batch entry by entry), and
 * the loss entry that takes the place of an entry the collector refused.
 * Both work on buffers, in any thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"

int export_next_field(const char *p, size_t len, size_t *at, struct export_field *f) {
        const char *nl, *eq;
        size_t i = *at, line, k;
        uint64_t n = 0;

        nl = i < len ? memchr(p + i, '\n', len - i) : NULL;
        if (!nl)
                return -EBADMSG;
        line = (size_t)(nl - (p + i));
        if (line == 0) {
                *at = i + 1;
                return 0;
        }
        f->key = p + i;
        eq = memchr(p + i, '=', line);
        if (eq) {
                f->klen = (size_t)(eq - f->key);
                f->val = eq + 1;
                f->vlen = line - f->klen - 1;
                *at = i + line + 1;
                return 1;
        }
        /* The binary form: the name, a little-endian 64-bit length, the bytes, a newline. */
        f->klen = line;
        i += line + 1;
        if (len - i < 8)
                return -EBADMSG;
        for (k = 0; k < 8; k++)
                n |= (uint64_t)(unsigned char)p[i + k] << (8 * k);
        i += 8;
        if (n >= len - i || p[i + n] != '\n')
                return -EBADMSG;
        f->val = p + i;
        f->vlen = (size_t)n;
        *at = i + (size_t)n + 1;
        return 1;
}

size_t export_entry_len(const char *p, size_t len) {
        struct export_field f;
        size_t at = 0;
        int r;

        while ((r = export_next_field(p, len, &at, &f)) > 0)
                ;
        return r == 0 ? at : 0;
}

/* A field "KEY=value\n" appended, or the binary form where value has a newline. */
static int put(char **buf, size_t *len, size_t *cap, const char *key, const char *val) {
        size_t k = strlen(key), v = strlen(val), need = *len + k + 1 + 8 + v + 1;
        bool binary = strchr(val, '\n') != NULL;

        if (need > *cap) {
                size_t c = *cap ? *cap * 2 : 512;
                char *p;

                while (c < need)
                        c *= 2;
                p = realloc(*buf, c);
                if (!p)
                        return -ENOMEM;
                *buf = p;
                *cap = c;
        }
        memcpy(*buf + *len, key, k);
        *len += k;
        if (binary) {
                uint64_t n = v;
                int i;

                (*buf)[(*len)++] = '\n';
                for (i = 0; i < 8; i++, n >>= 8)
                        (*buf)[(*len)++] = (char)(n & 0xff);
        } else
                (*buf)[(*len)++] = '=';
        memcpy(*buf + *len, val, v);
        *len += v;
        (*buf)[(*len)++] = '\n';
        return 0;
}

/* A loss entry: its time stamps and machine, then count records from seq first (last: the last of them). */
static int loss_entry(const struct export_machine *m, const char *boot_id, bool this_boot, uint64_t count,
                      uint64_t first, uint64_t last, uint64_t usec, const char *msg, const char *cause,
                      const char *reason, const char *merged, char **ret, size_t *ret_len) {
        char *buf = NULL, num[32];
        size_t len = 0, cap = 0;
        int e = 0;

        if (this_boot && m->boot_usec > 0 && usec < EXPORT_TIME_MAX &&
            (uint64_t)m->boot_usec < EXPORT_TIME_MAX - usec) {
                snprintf(num, sizeof(num), "%llu", (unsigned long long)((uint64_t)m->boot_usec + usec));
                e = put(&buf, &len, &cap, "__REALTIME_TIMESTAMP", num);
        }
        if (e == 0 && usec < EXPORT_TIME_MAX) {
                snprintf(num, sizeof(num), "%llu", (unsigned long long)usec);
                e = put(&buf, &len, &cap, "__MONOTONIC_TIMESTAMP", num);
        }
        if (e == 0 && boot_id && *boot_id)
                e = put(&buf, &len, &cap, "_BOOT_ID", boot_id);
        if (e == 0 && m->hostname)
                e = put(&buf, &len, &cap, "_HOSTNAME", m->hostname);
        if (e == 0 && m->machine_id)
                e = put(&buf, &len, &cap, "_MACHINE_ID", m->machine_id);
        if (e == 0)
                e = put(&buf, &len, &cap, "_TRANSPORT", "kernel");
        if (e == 0)
                e = put(&buf, &len, &cap, "PRIORITY", "4");
        if (e == 0)
                e = put(&buf, &len, &cap, "SYSLOG_IDENTIFIER", "kdmesg");
        if (e == 0)
                e = put(&buf, &len, &cap, "MESSAGE_ID", EXPORT_LOSS_MESSAGE_ID);
        if (e == 0)
                e = put(&buf, &len, &cap, "MESSAGE", msg);
        snprintf(num, sizeof(num), "%llu", (unsigned long long)count);
        if (e == 0)
                e = put(&buf, &len, &cap, "KDMESG_LOST", num);
        snprintf(num, sizeof(num), "%llu", (unsigned long long)first);
        if (e == 0)
                e = put(&buf, &len, &cap, "KDMESG_LOST_FIRST_SEQ", num);
        snprintf(num, sizeof(num), "%llu", (unsigned long long)last);
        if (e == 0 && last != first)
                e = put(&buf, &len, &cap, "KDMESG_LOST_LAST_SEQ", num);
        if (e == 0)
                e = put(&buf, &len, &cap, "KDMESG_LOST_CAUSE", cause);
        if (e == 0 && reason)
                e = put(&buf, &len, &cap, "KDMESG_REFUSED_REASON", reason);
        if (e == 0 && merged && *merged)
                e = put(&buf, &len, &cap, "KDMESG_LOST_MERGED", merged);
        if (e == 0 && len + 1 > cap) {
                char *p = realloc(buf, len + 1);

                if (!p)
                        e = -ENOMEM;
                else
                        buf = p;
        }
        if (e < 0) {
                free(buf);
                return e;
        }
        buf[len++] = '\n';
        *ret = buf;
        *ret_len = len;
        return 0;
}

int export_refused_entry(const struct export_machine *m, const char *boot_id, uint64_t seq, uint64_t usec,
                         const char *reason, char **ret, size_t *ret_len) {
        bool this_boot = !boot_id || (m->boot_id && strcmp(boot_id, m->boot_id) == 0);
        char msg[512];

        snprintf(msg, sizeof(msg), "-- 1 message lost (seq %llu%s, refused by the collector: %s) --",
                 (unsigned long long)seq, this_boot ? "" : " of an earlier boot", reason);
        return loss_entry(m, boot_id ? boot_id : m->boot_id, this_boot, 1, seq, seq, usec, msg, "refused", reason,
                          NULL, ret, ret_len);
}

int export_spool_loss_entry(const struct export_machine *m, const char *boot_id, uint64_t count, uint64_t first,
                            uint64_t last, uint64_t usec, const char *merged, char **ret, size_t *ret_len) {
        bool this_boot = boot_id && m->boot_id && strcmp(boot_id, m->boot_id) == 0;
        char msg[256], range[64], also[128] = "";

        if (first == last)
                snprintf(range, sizeof(range), "seq %llu", (unsigned long long)first);
        else
                snprintf(range, sizeof(range), "seq %llu-%llu", (unsigned long long)first, (unsigned long long)last);
        if (merged && *merged)
                snprintf(also, sizeof(also), "; earlier loss entries merged in: %s", merged);
        snprintf(msg, sizeof(msg), "-- %llu message%s lost (%s%s, the upload spool was full%s) --",
                 (unsigned long long)count, count == 1 ? "" : "s", range, this_boot ? "" : " of an earlier boot", also);
        return loss_entry(m, boot_id, this_boot, count, first, last, usec, msg, "spool-full", NULL, merged, ret,
                          ret_len);
}
