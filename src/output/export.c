/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=export: the journal export format, as systemd-journal-remote
 * reads it.  One entry per record, a blank line after each.  A value that
 * is not printable UTF-8 on one line is written in the binary form:
 * "KEY\n", a little-endian u64 length, the bytes, "\n".
 *
 * The entry holds the fields journald writes for the same record
 * (systemd.journal-fields(7)): __REALTIME_TIMESTAMP, __MONOTONIC_TIMESTAMP,
 * _BOOT_ID, _SOURCE_MONOTONIC_TIMESTAMP, _TRANSPORT=kernel, PRIORITY,
 * SYSLOG_FACILITY (0 for the kernel's own records too), SYSLOG_IDENTIFIER
 * ("kernel" for the kernel's records; for userspace facilities the
 * "ident[pid]: " prefix is taken off the message into SYSLOG_IDENTIFIER
 * and SYSLOG_PID), MESSAGE, every dictionary line as _KERNEL_KEY,
 * _UDEV_SYSNAME and _UDEV_DEVNODE from sysfs, _UDEV_DEVLINK from udev's
 * database, _HOSTNAME, _MACHINE_ID and, for the live log, _RUNTIME_SCOPE
 * (journald 252 writes it on every entry: "system", or "initrd" there).
 * kdmesg's own fields keep the rest of the record: SEQNUM, KMSG_FLAGS,
 * KMSG_FIELDS, and KMSG_DICT=KEY=VALUE for a dictionary key that cannot
 * follow _KERNEL_ in a journal field name ([A-Z0-9_], at most 64 bytes in
 * all), with '=' and '\' in KEY escaped as \x3d and \x5c.  The journal
 * fields a record read from export input carried that kdmesg does not
 * make itself are written after them, as they were.
 *
 * A loss is an entry of its own: KDMESG_LOST (how many, 0 unknown),
 * KDMESG_LOST_FIRST_SEQ, KDMESG_LOST_CAUSE, MESSAGE worded as the loss
 * lines, MESSAGE_ID=EXPORT_LOSS_MESSAGE_ID, SYSLOG_IDENTIFIER=kdmesg.
 * So is a new boot (export_boot()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/device.h"
#include "text/escape.h"
#include "output/export.h"
#include "output/loss-text.h"
#include "output/loss.h"
#include "text/writer.h"
#include "output/sink.h"
#include "text/utf8.h"

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

/* Fields kdmesg makes itself: the same names from export input are not written twice. */
static const char *const own[] = {
        "__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP", "_BOOT_ID", "_SOURCE_MONOTONIC_TIMESTAMP",
        "_TRANSPORT", "PRIORITY", "SYSLOG_FACILITY", "SYSLOG_IDENTIFIER", "SYSLOG_PID", "MESSAGE",
        "_HOSTNAME", "_MACHINE_ID", "_RUNTIME_SCOPE", "SEQNUM", "TIMESTAMP", "KMSG_FLAGS", "KMSG_FIELDS", "KMSG_DICT", "KMSG_MESSAGE",
        "_UDEV_SYSNAME", "_UDEV_DEVNODE", NULL,
};

static bool is_own(const char *key) {
        size_t i;

        for (i = 0; own[i]; i++)
                if (strcmp(key, own[i]) == 0)
                        return true;
        return strncmp(key, "_KERNEL_", 8) == 0;
}

/* Whether "_KERNEL_" + key is a journal field name: [A-Z0-9_], at most 64 bytes. */
static bool kernel_key_ok(const char *key) {
        size_t len = strlen(key), i;

        if (len == 0 || len > 64 - 8)
                return false;
        for (i = 0; i < len; i++)
                if (!((key[i] >= 'A' && key[i] <= 'Z') || (key[i] >= '0' && key[i] <= '9') || key[i] == '_'))
                        return false;
        return true;
}

static bool is_space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool export_parse_identifier(const char *msg, size_t len, struct syslog_ident *ret) {
        size_t i = 0, w, end, lb;

        while (i < len && is_space(msg[i]))
                i++;
        w = i;
        while (i < len && !is_space(msg[i]))
                i++;
        end = i; /* the word is msg[w..end) */
        if (end == w || msg[end - 1] != ':')
                return false;
        *ret = (struct syslog_ident){ .ident = msg + w, .ident_len = end - 1 - w };
        if (end - w >= 3 && msg[end - 2] == ']') {
                for (lb = end - 2; lb > w && msg[lb] != '['; lb--)
                        ;
                if (msg[lb] == '[') {
                        ret->ident_len = lb - w;
                        ret->pid = msg + lb + 1;
                        ret->pid_len = end - 2 - (lb + 1);
                }
        }
        if (ret->ident_len == 0)
                return false;
        /* One white space character after the colon goes with the prefix. */
        ret->rest = end < len && is_space(msg[end]) ? end + 1 : end;
        return true;
}

/* Whether the message is exactly "ident[pid]: " + the rest, as reading the export back rebuilds it. */
static bool prefix_is_plain(const char *msg, size_t len, const struct syslog_ident *id) {
        size_t n = id->ident_len + (id->pid ? id->pid_len + 2 : 0) + 1;

        return id->ident == msg && id->rest == n + 1 && n < len && msg[n] == ' ';
}

static const char *jf(const struct kmsg_record *r, const char *key) {
        return kmsg_record_get_journal_value(r, key, NULL);
}

/*
 * The machine's fields: a record's own from export input (merged exports
 * of several boots and machines stay apart), else the options' or the
 * live machine's.
 */
static void machine_fields(const struct output_settings *set, const struct kmsg_record *r) {
        const char *v;

        if ((r && (v = kmsg_record_get_boot_id(r))) || (v = set->boot_id))
                field_str("_BOOT_ID", v);
        if ((r && (v = jf(r, "_HOSTNAME"))) || (v = set->hostname))
                field_str("_HOSTNAME", v);
        if ((r && (v = jf(r, "_MACHINE_ID"))) || (v = set->machine_id))
                field_str("_MACHINE_ID", v);
        if ((r && (v = jf(r, "_RUNTIME_SCOPE"))) || (v = set->runtime_scope))
                field_str("_RUNTIME_SCOPE", v);
}

static int dict_fields(const struct kmsg_record *r) {
        const char *key, *val;
        size_t len, i, n = kmsg_record_get_dict_count(r);
        char name[72];

        for (i = 0; i < n; i++) {
                if (kmsg_record_get_dict_entry(r, i, &key, &val, &len) < 0)
                        continue;
                if (kernel_key_ok(key)) {
                        snprintf(name, sizeof(name), "_KERNEL_%s", key);
                        field(name, val, len);
                } else {
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
        return 0;
}

static void devlink_field(const char *link, void *userdata) {
        field_str("_UDEV_DEVLINK", link);
}

/*
 * _UDEV_SYSNAME, _UDEV_DEVNODE and _UDEV_DEVLINK, as journald adds them,
 * when sysfs names the device; a record of export input keeps its own
 * (journalctl writes them so too).
 */
static void udev_fields(const struct output_settings *set, const struct kmsg_record *r) {
        struct devnames *names = set->devices ? set->devices->names : NULL;
        const char *dev = kmsg_record_get_device(r), *name, *val;
        char node[4096];
        size_t len;

        if ((val = kmsg_record_get_journal_value(r, "_UDEV_SYSNAME", &len))) {
                const char *key;
                size_t i, n = kmsg_record_get_journal_count(r);

                field("_UDEV_SYSNAME", val, len);
                if ((val = kmsg_record_get_journal_value(r, "_UDEV_DEVNODE", &len)))
                        field("_UDEV_DEVNODE", val, len);
                for (i = 0; i < n; i++)
                        if (kmsg_record_get_journal_field(r, i, &key, &val, &len) == 0 &&
                            strcmp(key, "_UDEV_DEVLINK") == 0)
                                field("_UDEV_DEVLINK", val, len);
                return;
        }
        /* As journald: only for a device sysfs has (a "+pci:..." value names one that may be gone). */
        if (!dev || !devnames_in_sysfs(names, dev))
                return;
        name = devnames_get(names, dev);
        if (!name)
                return;
        field_str("_UDEV_SYSNAME", name);
        if (devnames_get_node(names, dev, node, sizeof(node)) == 0)
                field_str("_UDEV_DEVNODE", node);
        devnames_each_link(names, dev, devlink_field, NULL);
}

static void flush_loss(struct sink *s, const struct kmsg_record *next);

static int export_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        const struct output_settings *set = s->settings;
        const char *msg, *key, *val;
        struct syslog_ident id;
        bool has_id = false;
        size_t len, i, n;
        int e;

        flush_loss(s, r);
        if (kmsg_record_has_timestamp(r) && set->time.have_boot)
                field_u64("__REALTIME_TIMESTAMP", (uint64_t)timefmt_wall(&set->time, kmsg_record_get_timestamp(r)));
        else if ((val = kmsg_record_get_journal_value(r, "__REALTIME_TIMESTAMP", &len)))
                field("__REALTIME_TIMESTAMP", val, len);
        if ((val = kmsg_record_get_journal_value(r, "__MONOTONIC_TIMESTAMP", &len)))
                field("__MONOTONIC_TIMESTAMP", val, len);
        else if (kmsg_record_has_timestamp(r))
                field_u64("__MONOTONIC_TIMESTAMP", kmsg_record_get_timestamp(r));
        machine_fields(set, r);
        if (kmsg_record_has_timestamp(r))
                field_u64("_SOURCE_MONOTONIC_TIMESTAMP", kmsg_record_get_timestamp(r));
        field_str("_TRANSPORT", "kernel");
        msg = kmsg_record_get_message(r, &len);
        if (kmsg_record_has_priority(r)) {
                field_u64("PRIORITY", kmsg_record_get_level(r));
                /* journald writes it on every record, the kernel's (0) too: journalctl --facility=kern. */
                field_u64("SYSLOG_FACILITY", kmsg_record_get_facility(r));
                if (kmsg_record_get_facility(r) != 0)
                        has_id = export_parse_identifier(msg, len, &id);
        }
        if (has_id) {
                field("SYSLOG_IDENTIFIER", id.ident, id.ident_len);
                if (id.pid)
                        field("SYSLOG_PID", id.pid, id.pid_len);
                field("MESSAGE", msg + id.rest, len - id.rest);
                /* Where "ident[pid]: " + MESSAGE is not the message (white space), the exact one. */
                if (!prefix_is_plain(msg, len, &id))
                        field("KMSG_MESSAGE", msg, len);
        } else {
                if (!kmsg_record_has_priority(r) || kmsg_record_get_facility(r) == 0)
                        field_str("SYSLOG_IDENTIFIER", "kernel");
                field("MESSAGE", msg, len);
        }
        e = dict_fields(r);
        if (e < 0)
                return e;
        udev_fields(set, r);
        if (kmsg_record_has_seqnum(r))
                field_u64("SEQNUM", kmsg_record_get_seqnum(r));
        field_str("KMSG_FLAGS", kmsg_record_get_flags(r));
        if (*kmsg_record_get_fields(r))
                field_str("KMSG_FIELDS", kmsg_record_get_fields(r));
        n = kmsg_record_get_journal_count(r);
        for (i = 0; i < n; i++)
                if (kmsg_record_get_journal_field(r, i, &key, &val, &len) == 0 && !is_own(key) &&
                    !(strcmp(key, "_UDEV_DEVLINK") == 0 && jf(r, "_UDEV_SYSNAME")))
                        field(key, val, len);
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

/*
 * A loss is written right before the record after it, with that record's
 * _BOOT_ID, _HOSTNAME and _MACHINE_ID (from export input they can differ
 * from record to record), or at the end of input.
 */
struct export_sink {
        struct sink base;
        struct kmsg_loss *pending;
};

static void write_loss(const struct sink *s, const struct kmsg_loss *l, const struct kmsg_record *next) {
        const struct output_settings *set = s->settings;
        uint64_t at = kmsg_loss_get_usec_after(l);
        char buf[256];
        int n;

        if (set->time.have_boot)
                field_u64("__REALTIME_TIMESTAMP", (uint64_t)timefmt_wall(&set->time, at));
        field_u64("__MONOTONIC_TIMESTAMP", at);
        machine_fields(set, next);
        field_str("_TRANSPORT", "kernel");
        field_u64("PRIORITY", 4);
        field_str("SYSLOG_IDENTIFIER", "kdmesg");
        field_str("MESSAGE_ID", EXPORT_LOSS_MESSAGE_ID);
        n = loss_describe(l, &set->time, buf, sizeof(buf));
        if (n > 0)
                field("MESSAGE", buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
        field_u64("KDMESG_LOST", kmsg_loss_get_count(l));
        field_u64("KDMESG_LOST_FIRST_SEQ", kmsg_loss_get_first_seq(l));
        field_str("KDMESG_LOST_CAUSE", kmsg_loss_cause_to_name(kmsg_loss_get_cause(l)));
        out_putc('\n');
        sink_end_item(s);
}

static void flush_loss(struct sink *s, const struct kmsg_record *next) {
        struct export_sink *x = (struct export_sink *)s;

        if (x->pending) {
                write_loss(s, x->pending, next);
                x->pending = kmsg_loss_unref(x->pending);
        }
}

static int export_loss(struct sink *s, const struct kmsg_loss *l) {
        struct export_sink *x = (struct export_sink *)s;
        int e;

        flush_loss(s, NULL);
        e = loss_copy(l, &x->pending);
        return e < 0 ? e : 0;
}

/*
 * A new boot is an entry of its own too, before the rotated loss of that
 * boot and its first record, with that record's time and machine fields:
 * KDMESG_BOOT (its number in the input, 2 for the first new one),
 * KDMESG_BOOT_FIRST_SEQ, MESSAGE worded as the boot lines and
 * MESSAGE_ID=EXPORT_BOOT_MESSAGE_ID.
 */
static int export_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        const struct output_settings *set = s->settings;
        char buf[64];
        int len;

        flush_loss(s, NULL);
        if (r && kmsg_record_has_timestamp(r)) {
                uint64_t at = kmsg_record_get_timestamp(r);

                if (set->time.have_boot)
                        field_u64("__REALTIME_TIMESTAMP", (uint64_t)timefmt_wall(&set->time, at));
                field_u64("__MONOTONIC_TIMESTAMP", at);
        }
        machine_fields(set, r);
        field_str("_TRANSPORT", "kernel");
        field_u64("PRIORITY", 5);
        field_str("SYSLOG_IDENTIFIER", "kdmesg");
        field_str("MESSAGE_ID", EXPORT_BOOT_MESSAGE_ID);
        len = boot_describe(n, buf, sizeof(buf));
        if (len > 0)
                field("MESSAGE", buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
        field_u64("KDMESG_BOOT", n);
        if (r && kmsg_record_has_seqnum(r))
                field_u64("KDMESG_BOOT_FIRST_SEQ", kmsg_record_get_seqnum(r));
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int export_finish(struct sink *s) {
        flush_loss(s, NULL);
        return 0;
}

static void export_free(struct sink *s) {
        kmsg_loss_unref(((struct export_sink *)s)->pending);
}

const struct sink_ops sink_export_ops = {
        .size = sizeof(struct export_sink),
        .record = export_record,
        .loss = export_loss,
        .boot = export_boot,
        .finish = export_finish,
        .free = export_free,
};
