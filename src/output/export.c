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
 * KMSG_FIELDS, KDMESG_PROBLEM=<kind> with KDMESG_PROBLEM_SUBJECT and, on
 * its first record, KDMESG_PROBLEM_START=1 for the records of a problem
 * (output/problem-fields.h; the records are classified for export), and
 * KMSG_DICT=KEY=VALUE for a dictionary key that cannot
 * follow _KERNEL_ in a journal field name ([A-Z0-9_], at most 64 bytes in
 * all), with '=' and '\' in KEY escaped as \x3d and \x5c.  The journal
 * fields a record read from export input carried that kdmesg does not
 * make itself are written after them, as they were.
 *
 * What journald and systemd-journal-remote refuse is never written, since
 * the collector drops the connection at such an entry and everything
 * after it (issue 32): __REALTIME_TIMESTAMP and __MONOTONIC_TIMESTAMP are
 * clamped to journald's range (below 2^55 us), a _BOOT_ID that is no
 * 128-bit id is left out, a carried __ field (the source journal's
 * __CURSOR, __SEQNUM, ...) is not passed on, and the fields past the
 * collector's limit (journald's 1024 per entry) are merged into one,
 * KMSG_MERGED ("NAME=VALUE" lines).  Each change is said on stderr.
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
#include "output/export-fields.h"
#include "output/export.h"
#include "output/loss-text.h"
#include "output/loss.h"
#include "output/problem-fields.h"
#include "select/match.h"
#include "text/writer.h"
#include "output/sink.h"
#include "text/diag.h"
#include "base/bootid.h"
#include "base/i18n.h"

/* Fields kdmesg makes itself: the same names from export input are not written twice. */
static const char *const own[] = {
        "__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP", "_BOOT_ID", "_SOURCE_MONOTONIC_TIMESTAMP",
        "_TRANSPORT", "PRIORITY", "SYSLOG_FACILITY", "SYSLOG_IDENTIFIER", "SYSLOG_PID", "MESSAGE",
        "_HOSTNAME", "_MACHINE_ID", "_RUNTIME_SCOPE", "SEQNUM", "TIMESTAMP", "KMSG_FLAGS", "KMSG_FIELDS", "KMSG_DICT", "KMSG_MESSAGE",
        "_UDEV_SYSNAME", "_UDEV_DEVNODE", "KDMESG_PROBLEM", "KDMESG_PROBLEM_SUBJECT", "KDMESG_PROBLEM_START", NULL,
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
static void machine_fields(struct export_entry *ent, const struct output_settings *set, const struct kmsg_record *r) {
        const char *v, *rec_id = r ? kmsg_record_get_boot_id(r) : NULL;
        char id[33];

        /* Only export input carries journal fields: the others are not looked for (a search each). */
        if (r && kmsg_record_get_journal_count(r) == 0)
                r = NULL;
        /* The collector refuses a _BOOT_ID that is no 128-bit id: the input's is checked. */
        if ((v = rec_id) || (v = set->boot_id)) {
                if (id128_parse(v, id) == 0)
                        export_field_str(ent, "_BOOT_ID", id);
                else
                        ent->bad_boot = v;
        }
        if ((r && (v = jf(r, "_HOSTNAME"))) || (v = set->hostname))
                export_field_str(ent, "_HOSTNAME", v);
        if ((r && (v = jf(r, "_MACHINE_ID"))) || (v = set->machine_id))
                export_field_str(ent, "_MACHINE_ID", v);
        if ((r && (v = jf(r, "_RUNTIME_SCOPE"))) || (v = set->runtime_scope))
                export_field_str(ent, "_RUNTIME_SCOPE", v);
}

static int dict_fields(struct export_entry *ent, const struct kmsg_record *r) {
        const char *key, *val;
        size_t len, i, n = kmsg_record_get_dict_count(r);
        char name[72];

        for (i = 0; i < n; i++) {
                if (kmsg_record_get_dict_entry(r, i, &key, &val, &len) < 0)
                        continue;
                if (kernel_key_ok(key)) {
                        /* kernel_key_ok(): at most 56 bytes, so that name holds it (no snprintf(): 650 instructions). */
                        size_t klen = strlen(key);

                        memcpy(name, "_KERNEL_", 8);
                        memcpy(name + 8, key, klen + 1);
                        export_var_field(ent, name, val, len);
                } else {
                        /* KEY=VALUE, with '=' and '\' in KEY escaped, so that the first '=' ends it. */
                        size_t klen = strlen(key), k;
                        char *kv = malloc(klen * 4 + 1 + len);

                        if (!kv)
                                return -ENOMEM;
                        k = escape_into(kv, key, klen, ESC_EXPORT_KEY);
                        kv[k++] = '=';
                        memcpy(kv + k, val, len);
                        export_var_field(ent, "KMSG_DICT", kv, k + len);
                        free(kv);
                }
        }
        return 0;
}

static void devlink_field(const char *link, void *userdata) {
        struct export_entry *ent = userdata;

        export_var_field(ent, "_UDEV_DEVLINK", link, strlen(link));
}

/*
 * _UDEV_SYSNAME, _UDEV_DEVNODE and _UDEV_DEVLINK, as journald adds them,
 * when sysfs names the device; a record of export input keeps its own
 * (journalctl writes them so too).
 */
static void udev_fields(struct export_entry *ent, const struct output_settings *set, const struct kmsg_record *r) {
        struct devnames *names = set->devices ? set->devices->names : NULL;
        const char *dev = kmsg_record_get_device(r), *name, *val;
        char node[4096];
        size_t len;

        if (kmsg_record_get_journal_count(r) && (val = kmsg_record_get_journal_value(r, "_UDEV_SYSNAME", &len))) {
                const char *key;
                size_t i, n = kmsg_record_get_journal_count(r);

                export_field(ent, "_UDEV_SYSNAME", val, len);
                if ((val = kmsg_record_get_journal_value(r, "_UDEV_DEVNODE", &len)))
                        export_field(ent, "_UDEV_DEVNODE", val, len);
                for (i = 0; i < n; i++)
                        if (kmsg_record_get_journal_field(r, i, &key, &val, &len) == 0 &&
                            strcmp(key, "_UDEV_DEVLINK") == 0)
                                export_var_field(ent, "_UDEV_DEVLINK", val, len);
                return;
        }
        /* As journald: only for a device sysfs has (a "+pci:..." value names one that may be gone). */
        if (!dev || !devnames_in_sysfs(names, dev))
                return;
        name = devnames_get(names, dev);
        if (!name)
                return;
        export_field_str(ent, "_UDEV_SYSNAME", name);
        if (devnames_get_node(names, dev, node, sizeof(node)) == 0)
                export_field_str(ent, "_UDEV_DEVNODE", node);
        devnames_each_link(names, dev, devlink_field, ent);
}

static void flush_loss(struct sink *s, const struct kmsg_record *next);

/*
 * A loss is written right before the record after it, with that record's
 * _BOOT_ID, _HOSTNAME and _MACHINE_ID (from export input they can differ
 * from record to record), or at the end of input.
 */
struct export_sink {
        struct sink base;
        struct kmsg_loss *pending;
        uint64_t n_adjusted; /* records changed for the collector */
        struct export_entry ent; /* the entry being written */
        struct problem_fields pf; /* the problem of the records being written */
};

/*
 * A time stamp of export input: -1 when there is none or it is not a
 * number (*clamped set then, it is left out), else in journald's range.
 */
static int64_t carried_time(const struct kmsg_record *r, const char *key, bool *clamped) {
        const char *val = kmsg_record_get_journal_count(r) ? kmsg_record_get_journal_value(r, key, NULL) : NULL;
        uint64_t v = 0;

        if (!val)
                return -1;
        if (!*val || strspn(val, "0123456789") != strlen(val) || strlen(val) > 20) {
                *clamped = true;
                return -1;
        }
        for (; *val; val++)
                v = v > EXPORT_TIME_MAX ? v : v * 10 + (uint64_t)(*val - '0');
        return (int64_t)export_clamp_time(v > EXPORT_TIME_MAX ? INT64_MAX : (int64_t)v, strcmp(key, "__REALTIME_TIMESTAMP") == 0,
                                   clamped);
}

/* After the entry: what was changed for the collector, one line per record (ADJUSTED_SHOWN of them). */
static void say_adjusted(struct export_sink *x, const struct kmsg_record *r) {
        const struct export_entry *ent = &x->ent;
        char what[64];

        if (!ent->rt_clamped && !ent->mono_clamped && !ent->bad_boot && !ent->n_merged && !ent->merge_failed)
                return;
        if (++x->n_adjusted > ADJUSTED_SHOWN)
                return;
        if (kmsg_record_has_seqnum(r))
                snprintf(what, sizeof(what), _("seq %llu"), (unsigned long long)kmsg_record_get_seqnum(r));
        else
                snprintf(what, sizeof(what), _("a record without a sequence number"));
        if (ent->rt_clamped || ent->mono_clamped)
                warnx_(_("%s: a time stamp outside journald's range (0 to 2^55 us) is written as its end or "
                         "left out"),
                       what);
        if (ent->bad_boot)
                warnx_(_("%s: _BOOT_ID '%s' is no 128-bit id: left out (the collector refuses it)"), what,
                       ent->bad_boot);
        if (ent->n_merged)
                warnx_(_("%s: %u fields past the collector's limit of fields per entry go into KMSG_MERGED"), what,
                       ent->n_merged);
        if (ent->merge_failed)
                warnx_(_("%s: fields past the collector's limit left out: %s"), what, strerror(ENOMEM));
}

static int export_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct export_entry *ent = &((struct export_sink *)s)->ent;
        const struct output_settings *set = s->settings;
        const struct kmsg_record_view *rv = m->view;
        struct kmsg_record_view fetched;
        const char *msg, *key, *val;
        struct syslog_ident id;
        bool has_id = false;
        size_t len, i, n;
        int64_t v;
        int e;

        /* The pipeline's view of the record, where it took one. */
        if (!rv) {
                kmsg_record_get_view(r, &fetched, sizeof(fetched));
                rv = &fetched;
        }
        flush_loss(s, r);
        export_entry_begin(ent);
        if (rv->has_timestamp && set->time.have_boot)
                export_field_u64(ent, "__REALTIME_TIMESTAMP",
                          export_clamp_time(timefmt_wall(&set->time, rv->usec), true, &ent->rt_clamped));
        else if (rv->n_journal && (v = carried_time(r, "__REALTIME_TIMESTAMP", &ent->rt_clamped)) > 0)
                export_field_u64(ent, "__REALTIME_TIMESTAMP", (uint64_t)v);
        else if (!rv->has_timestamp && rv->has_printed_time && record_printed_wall(r, &v))
                /* A "dmesg -T" paste's printed time, read in the local zone (time/timefmt.h). */
                export_field_u64(ent, "__REALTIME_TIMESTAMP", export_clamp_time(v, true, &ent->rt_clamped));
        if (rv->n_journal && (v = carried_time(r, "__MONOTONIC_TIMESTAMP", &ent->mono_clamped)) >= 0)
                export_field_u64(ent, "__MONOTONIC_TIMESTAMP", (uint64_t)v);
        else if (rv->has_timestamp)
                export_field_u64(ent, "__MONOTONIC_TIMESTAMP",
                          export_clamp_time(rv->usec > INT64_MAX ? INT64_MAX : (int64_t)rv->usec, false,
                                            &ent->mono_clamped));
        machine_fields(ent, set, r);
        if (rv->has_timestamp)
                export_field_u64(ent, "_SOURCE_MONOTONIC_TIMESTAMP", rv->usec);
        export_field_str(ent, "_TRANSPORT", "kernel");
        msg = rv->message;
        len = rv->message_len;
        if (rv->has_priority) {
                export_field_u64(ent, "PRIORITY", rv->priority & 7);
                /* journald writes it on every record, the kernel's (0) too: journalctl --facility=kern. */
                export_field_u64(ent, "SYSLOG_FACILITY", rv->priority >> 3);
                if (rv->priority >> 3 != 0)
                        has_id = export_parse_identifier(msg, len, &id);
        }
        if (has_id) {
                export_field(ent, "SYSLOG_IDENTIFIER", id.ident, id.ident_len);
                if (id.pid)
                        export_field(ent, "SYSLOG_PID", id.pid, id.pid_len);
                export_field(ent, "MESSAGE", msg + id.rest, len - id.rest);
                /* Where "ident[pid]: " + MESSAGE is not the message (white space), the exact one. */
                if (!prefix_is_plain(msg, len, &id))
                        export_field(ent, "KMSG_MESSAGE", msg, len);
        } else {
                if (!rv->has_priority || rv->priority >> 3 == 0)
                        export_field_str(ent, "SYSLOG_IDENTIFIER", "kernel");
                export_field(ent, "MESSAGE", msg, len);
        }
        export_entry_limit(ent, set->journal_fields_max);
        e = dict_fields(ent, r);
        if (e < 0)
                return e;
        udev_fields(ent, set, r);
        if (rv->has_seqnum)
                export_field_u64(ent, "SEQNUM", rv->seqnum);
        export_field_str(ent, "KMSG_FLAGS", rv->flags);
        if (*rv->fields)
                export_field_str(ent, "KMSG_FIELDS", rv->fields);
        if (set->problem_fields) {
                const char *kind, *subject;
                size_t subject_len;
                bool start;

                kind = problem_fields_of(&((struct export_sink *)s)->pf, &m->problem, &subject, &subject_len, &start);
                if (kind) {
                        export_field_str(ent, "KDMESG_PROBLEM", kind);
                        if (subject_len)
                                export_field(ent, "KDMESG_PROBLEM_SUBJECT", subject, subject_len);
                        if (start)
                                export_field_str(ent, "KDMESG_PROBLEM_START", "1");
                }
        }
        n = rv->n_journal;
        /* The source journal's own __ fields (__CURSOR, __SEQNUM, ...) are not the record's. */
        for (i = 0; i < n; i++)
                if (kmsg_record_get_journal_field(r, i, &key, &val, &len) == 0 && !is_own(key) &&
                    strncmp(key, "__", 2) != 0 && !(strcmp(key, "_UDEV_DEVLINK") == 0 && jf(r, "_UDEV_SYSNAME")))
                        export_var_field(ent, key, val, len);
        export_entry_end(ent);
        sink_end_item(s);
        say_adjusted((struct export_sink *)s, r);
        return 0;
}

static void write_loss(struct sink *s, const struct kmsg_loss *l, const struct kmsg_record *next) {
        struct export_entry *ent = &((struct export_sink *)s)->ent;
        const struct output_settings *set = s->settings;
        uint64_t at = kmsg_loss_get_usec_after(l);
        char buf[256];
        int n;

        bool clamped;

        export_entry_begin(ent);
        if (set->time.have_boot)
                export_field_u64(ent, "__REALTIME_TIMESTAMP", export_clamp_time(timefmt_wall(&set->time, at), true, &clamped));
        export_field_u64(ent, "__MONOTONIC_TIMESTAMP", export_clamp_time(at > INT64_MAX ? INT64_MAX : (int64_t)at, false, &clamped));
        machine_fields(ent, set, next);
        export_field_str(ent, "_TRANSPORT", "kernel");
        export_field_u64(ent, "PRIORITY", 4);
        export_field_str(ent, "SYSLOG_IDENTIFIER", "kdmesg");
        export_field_str(ent, "MESSAGE_ID", EXPORT_LOSS_MESSAGE_ID);
        n = loss_describe(l, &set->time, buf, sizeof(buf));
        if (n > 0)
                export_field(ent, "MESSAGE", buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
        export_field_u64(ent, "KDMESG_LOST", kmsg_loss_get_count(l));
        export_field_u64(ent, "KDMESG_LOST_FIRST_SEQ", kmsg_loss_get_first_seq(l));
        export_field_str(ent, "KDMESG_LOST_CAUSE", kmsg_loss_cause_to_name(kmsg_loss_get_cause(l)));
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
        struct export_entry *ent = &((struct export_sink *)s)->ent;
        const struct output_settings *set = s->settings;
        char buf[64];
        int len;

        flush_loss(s, NULL);
        export_entry_begin(ent);
        if (r && kmsg_record_has_timestamp(r)) {
                uint64_t at = kmsg_record_get_timestamp(r);
                bool clamped;

                if (set->time.have_boot)
                        export_field_u64(ent, "__REALTIME_TIMESTAMP", export_clamp_time(timefmt_wall(&set->time, at), true, &clamped));
                export_field_u64(ent, "__MONOTONIC_TIMESTAMP",
                          export_clamp_time(at > INT64_MAX ? INT64_MAX : (int64_t)at, false, &clamped));
        }
        machine_fields(ent, set, r);
        export_field_str(ent, "_TRANSPORT", "kernel");
        export_field_u64(ent, "PRIORITY", 5);
        export_field_str(ent, "SYSLOG_IDENTIFIER", "kdmesg");
        export_field_str(ent, "MESSAGE_ID", EXPORT_BOOT_MESSAGE_ID);
        len = boot_describe(n, buf, sizeof(buf));
        if (len > 0)
                export_field(ent, "MESSAGE", buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
        export_field_u64(ent, "KDMESG_BOOT", n);
        if (r && kmsg_record_has_seqnum(r))
                export_field_u64(ent, "KDMESG_BOOT_FIRST_SEQ", kmsg_record_get_seqnum(r));
        out_putc('\n');
        sink_end_item(s);
        return 0;
}

static int export_finish(struct sink *s) {
        struct export_sink *x = (struct export_sink *)s;

        flush_loss(s, NULL);
        if (x->n_adjusted > ADJUSTED_SHOWN)
                warnx_(_("%llu records in all had fields changed for the collector (the first %d are named above)"),
                       (unsigned long long)x->n_adjusted, ADJUSTED_SHOWN);
        return 0;
}

static void export_free(struct sink *s) {
        kmsg_loss_unref(((struct export_sink *)s)->pending);
        export_entry_free(&((struct export_sink *)s)->ent);
        problem_fields_free(&((struct export_sink *)s)->pf);
}

const struct sink_ops sink_export_ops = {
        .size = sizeof(struct export_sink),
        .record = export_record,
        .loss = export_loss,
        .boot = export_boot,
        .finish = export_finish,
        .free = export_free,
};
