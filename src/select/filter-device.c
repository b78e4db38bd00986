/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Selecting records by device: --device (by DEVICE value, or by the text
 * with --device-text), --subsystem and --match KEY=GLOB.  Different options
 * combine with AND; repeats of one option (of one KEY for --match) with OR.
 * Per record: no allocation, no system call.
 */
#include <fnmatch.h>
#include <string.h>

#include "select/device.h"

static bool ids_contain(const struct devfilter *f, const struct devid *id) {
        size_t i;

        for (i = 0; i < f->n_ids; i++)
                if (devid_equal(&f->ids[i], id))
                        return true;
        return false;
}

static bool is_space(char c) {
        return c == ' ';
}

/* Whether p[0..len) starts with name followed by one of the bytes in after. */
static bool name_at(const char *p, const char *end, const char *name, size_t nlen, const char *after) {
        if ((size_t)(end - p) < nlen + 1 || memcmp(p, name, nlen) != 0)
                return false;
        return strchr(after, p[nlen]) != NULL && p[nlen] != '\0';
}

/* Where the token starting at p ends (at a space or the end). */
static const char *token_end(const char *p, const char *end) {
        while (p < end && !is_space(*p))
                p++;
        return p;
}

static bool text_names(const char *msg, size_t len, const char *name) {
        const char *end = msg + len, *p, *q;
        size_t nlen = strlen(name);
        int i;

        /* Most messages do not contain the name at all: one scan says so. */
        if (!memmem(msg, len, name, nlen))
                return false;
        /* " sda: sda1 sda2" (the partition scan) starts with a space. */
        while (msg < end && *msg == ' ')
                msg++;
        len = (size_t)(end - msg);

        /* "NAME: ..." (nvme0n1: ..., eth0: ...) */
        if (name_at(msg, end, name, nlen, ":"))
                return true;
        /*
         * "driver NAME: ..." (usb 2-1.4: ...), "driver bus-id NAME: ..."
         * (e1000e 0000:00:1f.6 eth0: ...) and "sd 0:0:0:0: [NAME] ...".
         */
        p = msg;
        for (i = 0; i < 2; i++) {
                p = token_end(p, end);
                if (p >= end)
                        break;
                p++;
                if (name_at(p, end, name, nlen, ":"))
                        return true;
                if (i == 1 && p < end && *p == '[' && name_at(p + 1, end, name, nlen, "]"))
                        return true;
        }
        /* "EXT4-fs (NAME): ...", "BTRFS info (device NAME): ..." before the first ": ". */
        q = memchr(msg, ':', len);
        if (q) {
                for (p = msg; p < q; p++) {
                        if (*p != '(')
                                continue;
                        if (name_at(p + 1, q + 1, name, nlen, ")") && p + 1 + nlen + 1 == q)
                                return true;
                        if ((size_t)(q - p) > 8 && memcmp(p + 1, "device ", 7) == 0 &&
                            name_at(p + 8, q + 1, name, nlen, ")") && p + 8 + nlen + 1 == q)
                                return true;
                }
        }
        /* "I/O error, dev NAME, sector ...", "Buffer I/O error on dev NAME, ..." */
        for (p = msg; (p = memmem(p, (size_t)(end - p), "dev ", 4)); p += 4) {
                if (p > msg && p[-1] != ' ')
                        continue;
                if (name_at(p + 4, end, name, nlen, ","))
                        return true;
        }
        return false;
}

/* The index of the first of names that msg names, or n_names. */
static size_t devtext_index(const char *msg, size_t len, const char *const *names, size_t n_names) {
        size_t i;

        for (i = 0; i < n_names; i++)
                if (text_names(msg, len, names[i]))
                        break;
        return i;
}

const char *devtext_find(const char *msg, size_t len, const char *const *names, size_t n_names) {
        size_t i = devtext_index(msg, len, names, n_names);

        return i < n_names ? names[i] : NULL;
}

static bool parents_contain(const struct devfilter *f, const struct devid *id) {
        size_t i;

        for (i = 0; i < f->n_parent_ids; i++)
                if (devid_equal(&f->parent_ids[i], id))
                        return true;
        return false;
}

/* A parent's record is the device's when its text names one of the selected devices. */
static bool names_a_device(const struct devfilter *f, const struct kmsg_record *r) {
        size_t len;
        const char *msg = kmsg_record_get_message(r, &len);

        return devtext_index(msg, len, f->names, f->n_names) < f->n_names;
}

static bool fnmatch_value(const char *glob, const char *value) {
        return fnmatch(glob, value, 0) == 0;
}

/* --match: for each key, one of its globs matches one of its values. */
static bool matches_ok(const struct devfilter *f, const struct kmsg_record *r) {
        size_t i, j;

        for (i = 0; i < f->n_matches; i++) {
                bool ok = false;

                if (!f->matches[i].first_of_key)
                        continue;
                for (j = i; j < f->n_matches && !ok; j++) {
                        size_t k, n = kmsg_record_get_dict_count(r);

                        if (strcmp(f->matches[j].key, f->matches[i].key) != 0)
                                continue;
                        for (k = 0; k < n && !ok; k++) {
                                const char *key, *value;

                                if (kmsg_record_get_dict_entry(r, k, &key, &value, NULL) == 0 &&
                                    strcmp(key, f->matches[i].key) == 0 && fnmatch_value(f->matches[j].glob, value))
                                        ok = true;
                        }
                }
                if (!ok)
                        return false;
        }
        return true;
}

/* The device filter's part of *ret, from found; the record's problem is problem_select()'s. */
static void put_found(struct match *ret, const struct match *found) {
        if (!ret)
                return;
        ret->how = found->how;
        ret->name = found->name;
        ret->device = found->device;
        ret->subsystem = found->subsystem;
}

enum devmatch devfilter_match(struct devfilter *f, const struct kmsg_record *r, struct match *ret) {
        enum devmatch m = DEVMATCH_DICT;
        struct match found = {};
        size_t i;

        put_found(ret, &found);
        if (f->n_dev_args > 0) {
                const char *v = kmsg_record_get_device(r);
                struct devid id;

                if (v) {
                        if (devid_parse(v, &id) < 0)
                                return DEVMATCH_NONE;
                        if (!ids_contain(f, &id) && !(parents_contain(f, &id) && names_a_device(f, r)))
                                return DEVMATCH_NONE;
                } else {
                        const char *msg;
                        size_t len, k;

                        if (!f->text)
                                return DEVMATCH_NONE;
                        msg = kmsg_record_get_message(r, &len);
                        k = devtext_index(msg, len, f->names, f->n_names);
                        if (k == f->n_names)
                                return DEVMATCH_NONE;
                        m = DEVMATCH_TEXT;
                        found.name = f->names[k];
                        found.device = f->name_devices[k];
                        found.subsystem = f->name_subsystems[k];
                }
        }
        if (f->n_subsystems > 0) {
                const char *s = kmsg_record_get_subsystem(r);
                bool ok = false;

                for (i = 0; s && i < f->n_subsystems && !ok; i++)
                        ok = strcmp(s, f->subsystems[i]) == 0;
                if (!ok)
                        return DEVMATCH_NONE;
        }
        if (f->n_matches > 0 && !matches_ok(f, r))
                return DEVMATCH_NONE;
        found.how = m;
        put_found(ret, &found);
        if (m == DEVMATCH_TEXT)
                f->n_text++;
        return m;
}
