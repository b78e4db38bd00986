/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=export: the journal export format, as systemd-journal-remote
 * reads it.  One entry per record, a blank line after each.  A value that
 * is not printable UTF-8 on one line is written in the binary form:
 * "KEY\n", a little-endian u64 length, the bytes, "\n".
 *
 * Besides the journal's own fields (_TRANSPORT=kernel, PRIORITY,
 * SYSLOG_FACILITY, SYSLOG_IDENTIFIER=kernel, _KERNEL_SUBSYSTEM,
 * _KERNEL_DEVICE, MESSAGE), the record's exact header goes into SEQNUM,
 * TIMESTAMP, KMSG_FLAGS and KMSG_FIELDS, so that reading the export back
 * (-K) gives the same record.  Dictionary keys are written as they are when
 * they are valid journal field names ([A-Z0-9_], not starting with a digit
 * or '_', at most 64 bytes) and not one of the names above; any other pair
 * is written as KMSG_DICT=KEY=VALUE, with '=' and '\' in KEY escaped as
 * \x3d and \x5c.  Losses go to standard error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "loss-text.h"
#include "output.h"
#include "sink.h"
#include "utf8.h"

/* Whether a value must use the binary form. */
static bool needs_binary(const char *p, size_t len) {
        size_t i;

        for (i = 0; i < len; i++) {
                unsigned char c = (unsigned char)p[i];

                if ((c < 0x20 && c != '\t') || c == 0x7f)
                        return true;
        }
        return !utf8_is_valid(p, len);
}

static void out_le64(uint64_t v) {
        char b[8];
        int i;

        for (i = 0; i < 8; i++) {
                b[i] = (char)(v & 0xff);
                v >>= 8;
        }
        out_write(b, 8);
}

static void field(const char *key, const char *val, size_t len) {
        out_puts(key);
        if (needs_binary(val, len)) {
                out_putc('\n');
                out_le64(len);
        } else
                out_putc('=');
        out_write(val, len);
        out_putc('\n');
}

static void field_str(const char *key, const char *val) {
        field(key, val, strlen(val));
}

static void field_u64(const char *key, uint64_t v) {
        out_puts(key);
        out_putc('=');
        out_u64(v);
        out_putc('\n');
}

/* Names kdmesg writes or reads back with a meaning of their own. */
static const char *const reserved[] = {
        "MESSAGE", "PRIORITY", "SYSLOG_FACILITY", "SYSLOG_IDENTIFIER", "SEQNUM",
        "TIMESTAMP", "KMSG_FLAGS", "KMSG_FIELDS", "KMSG_DICT", NULL,
};

/* Whether a dictionary key can be written as a journal field of the same name. */
static bool export_key_is_plain(const char *key) {
        size_t len = strlen(key), i;

        if (len == 0 || len > 64 || key[0] == '_' || (key[0] >= '0' && key[0] <= '9'))
                return false;
        for (i = 0; i < len; i++)
                if (!((key[i] >= 'A' && key[i] <= 'Z') || (key[i] >= '0' && key[i] <= '9') || key[i] == '_'))
                        return false;
        for (i = 0; reserved[i]; i++)
                if (strcmp(key, reserved[i]) == 0)
                        return false;
        return true;
}

static int export_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        const struct output_settings *set = s->settings;
        const char *msg, *key, *val;
        size_t len, i, n;

        if (kmsg_record_has_timestamp(r)) {
                uint64_t usec = kmsg_record_get_timestamp(r);

                if (set->time.have_boot)
                        field_u64("__REALTIME_TIMESTAMP", (uint64_t)(set->time.boot_usec + (int64_t)usec));
                field_u64("__MONOTONIC_TIMESTAMP", usec);
        }
        /* The record's own boot, from export input, goes through: the boots stay apart. */
        if (kmsg_record_get_boot_id(r))
                field_str("_BOOT_ID", kmsg_record_get_boot_id(r));
        else if (set->boot_id)
                field_str("_BOOT_ID", set->boot_id);
        field_str("_TRANSPORT", "kernel");
        if (kmsg_record_has_priority(r)) {
                field_u64("PRIORITY", kmsg_record_get_level(r));
                field_u64("SYSLOG_FACILITY", kmsg_record_get_facility(r));
        }
        field_str("SYSLOG_IDENTIFIER", "kernel");
        if (kmsg_record_has_seqnum(r))
                field_u64("SEQNUM", kmsg_record_get_seqnum(r));
        if (kmsg_record_has_timestamp(r)) {
                field_u64("_SOURCE_MONOTONIC_TIMESTAMP", kmsg_record_get_timestamp(r));
                field_u64("TIMESTAMP", kmsg_record_get_timestamp(r));
        }
        field_str("KMSG_FLAGS", kmsg_record_get_flags(r));
        if (*kmsg_record_get_fields(r))
                field_str("KMSG_FIELDS", kmsg_record_get_fields(r));
        n = kmsg_record_get_dict_count(r);
        for (i = 0; i < n; i++) {
                if (kmsg_record_get_dict_entry(r, i, &key, &val, &len) < 0)
                        continue;
                if (strcmp(key, "SUBSYSTEM") == 0)
                        field("_KERNEL_SUBSYSTEM", val, len);
                else if (strcmp(key, "DEVICE") == 0)
                        field("_KERNEL_DEVICE", val, len);
                else if (export_key_is_plain(key))
                        field(key, val, len);
                else {
                        /* KEY=VALUE, with '=' and '\' in KEY escaped, so that the first '=' ends it. */
                        size_t klen = strlen(key), k;
                        char *kv = malloc(klen * 4 + 1 + len);

                        if (!kv)
                                return -ENOMEM;
                        k = escape_into(kv, key, klen, ESC_EXPORT_KEY);
                        kv[k++] = '=';
                        memcpy(kv + k, val, len);
                        field("KMSG_DICT", kv, k + len);
                        free(kv);
                }
        }
        msg = kmsg_record_get_message(r, &len);
        field("MESSAGE", msg, len);
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int export_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l);
        return 0;
}

static int export_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        err_boot_line(n);
        return 0;
}

static int export_finish(struct sink *s) {
        return 0;
}

static void export_free(struct sink *s) {
        free(s);
}

const struct sink_ops sink_export_ops = {
        .size = sizeof(struct sink),
        .record = export_record,
        .loss = export_loss,
        .boot = export_boot,
        .finish = export_finish,
        .free = export_free,
};
