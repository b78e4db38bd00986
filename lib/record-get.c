/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record object read: references and the public getters of what
 * record.c built.  They take NULL and give a neutral answer (0, NULL or
 * -EINVAL), so a caller's missing record is never a crash.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg-private.h"

_public_ struct kmsg_record *kmsg_record_ref(struct kmsg_record *r) {
        if (r)
                r->n_ref++;
        return r;
}

_public_ struct kmsg_record *kmsg_record_unref(struct kmsg_record *r) {
        if (!r || --r->n_ref > 0)
                return NULL;
        free(r->data);
        free(r->dict);
        free(r->jf);
        free(r);
        return NULL;
}

_public_ unsigned kmsg_record_get_priority(const struct kmsg_record *r) {
        return r ? r->priority : 0;
}

_public_ int kmsg_record_has_priority(const struct kmsg_record *r) {
        return r && r->has_priority;
}

_public_ unsigned kmsg_record_get_level(const struct kmsg_record *r) {
        return r ? r->priority & 7 : 0;
}

_public_ unsigned kmsg_record_get_facility(const struct kmsg_record *r) {
        return r ? r->priority >> 3 : 0;
}

_public_ int kmsg_record_has_seqnum(const struct kmsg_record *r) {
        return r && r->has_seqnum;
}

_public_ uint64_t kmsg_record_get_seqnum(const struct kmsg_record *r) {
        return r ? r->seqnum : 0;
}

_public_ int kmsg_record_has_timestamp(const struct kmsg_record *r) {
        return r && r->has_timestamp;
}

_public_ uint64_t kmsg_record_get_timestamp(const struct kmsg_record *r) {
        return r ? r->usec : 0;
}

static const char *str_at(const struct kmsg_record *r, size_t off) {
        return r->data_cap ? r->data + off : "";
}

_public_ const char *kmsg_record_get_flags(const struct kmsg_record *r) {
        return r ? str_at(r, r->flags_off) : NULL;
}

_public_ int kmsg_record_is_fragment(const struct kmsg_record *r) {
        const char *f = kmsg_record_get_flags(r);

        if (!f || (f[0] == '-' && f[1] == '\0')) /* "-", as nearly every record has */
                return 0;
        if (strchr(f, '+'))
                return '+';
        return strchr(f, 'c') ? 'c' : 0;
}

_public_ int kmsg_record_get_caller(const struct kmsg_record *r, char *ret_kind, uint32_t *ret_id) {
        if (!r)
                return -EINVAL;
        if (!r->has_caller)
                return -ENODATA;
        if (ret_kind)
                *ret_kind = r->caller_kind;
        if (ret_id)
                *ret_id = r->caller_id;
        return 0;
}

_public_ const char *kmsg_record_get_caller_text(const struct kmsg_record *r) {
        if (!r || r->caller_off == SIZE_MAX)
                return NULL;
        return r->data + r->caller_off;
}

_public_ const char *kmsg_record_get_fields(const struct kmsg_record *r) {
        return r ? str_at(r, r->fields_off) : NULL;
}

_public_ const char *kmsg_record_get_message(const struct kmsg_record *r, size_t *ret_len) {
        if (!r)
                return NULL;
        if (ret_len)
                *ret_len = r->msg_len;
        return str_at(r, r->msg_off);
}

_public_ size_t kmsg_record_get_dict_count(const struct kmsg_record *r) {
        return r ? r->n_dict : 0;
}

_public_ int kmsg_record_get_dict_entry(const struct kmsg_record *r, size_t i, const char **ret_key,
                                        const char **ret_value, size_t *ret_len) {
        if (!r)
                return -EINVAL;
        if (i >= r->n_dict)
                return -ERANGE;
        if (ret_key)
                *ret_key = r->data + r->dict[i].key_off;
        if (ret_value)
                *ret_value = r->data + r->dict[i].val_off;
        if (ret_len)
                *ret_len = r->dict[i].val_len;
        return 0;
}

_public_ size_t kmsg_record_get_journal_count(const struct kmsg_record *r) {
        return r ? r->n_jf : 0;
}

_public_ int kmsg_record_get_journal_field(const struct kmsg_record *r, size_t i, const char **ret_key,
                                           const char **ret_value, size_t *ret_len) {
        if (!r)
                return -EINVAL;
        if (i >= r->n_jf)
                return -ERANGE;
        if (ret_key)
                *ret_key = r->data + r->jf[i].key_off;
        if (ret_value)
                *ret_value = r->data + r->jf[i].val_off;
        if (ret_len)
                *ret_len = r->jf[i].val_len;
        return 0;
}

_public_ const char *kmsg_record_get_journal_value(const struct kmsg_record *r, const char *key,
                                                   size_t *ret_len) {
        size_t i;

        if (!r || !key)
                return NULL;
        for (i = 0; i < r->n_jf; i++)
                if (strcmp(r->data + r->jf[i].key_off, key) == 0) {
                        if (ret_len)
                                *ret_len = r->jf[i].val_len;
                        return r->data + r->jf[i].val_off;
                }
        return NULL;
}

_public_ const char *kmsg_record_get_dict_value(const struct kmsg_record *r, const char *key, size_t *ret_len) {
        size_t i;

        if (!r || !key)
                return NULL;
        for (i = 0; i < r->n_dict; i++)
                if (strcmp(r->data + r->dict[i].key_off, key) == 0) {
                        if (ret_len)
                                *ret_len = r->dict[i].val_len;
                        return r->data + r->dict[i].val_off;
                }
        return NULL;
}

_public_ const char *kmsg_record_get_subsystem(const struct kmsg_record *r) {
        if (!r || r->subsystem_idx < 0)
                return NULL;
        return r->data + r->dict[r->subsystem_idx].val_off;
}

_public_ const char *kmsg_record_get_device(const struct kmsg_record *r) {
        if (!r || r->device_idx < 0)
                return NULL;
        return r->data + r->dict[r->device_idx].val_off;
}

_public_ int kmsg_record_get_printed_time(const struct kmsg_record *r, int64_t *ret_sec) {
        if (!r || !ret_sec)
                return -EINVAL;
        if (!r->has_printed_time)
                return -ENODATA;
        *ret_sec = r->printed_sec;
        return 0;
}

_public_ const char *kmsg_record_get_boot_id(const struct kmsg_record *r) {
        if (!r || r->boot_id_off == SIZE_MAX)
                return NULL;
        return r->data + r->boot_id_off;
}

/* The view as libkmsg 1.5 made it: the smallest size a caller may pass. */
#define VIEW_1_5_SIZE (offsetof(struct kmsg_record_view, n_journal) + sizeof(size_t))

static void view_fill(const struct kmsg_record *r, struct kmsg_record_view *v) {
        const char *d = r->data;

        v->seqnum = r->seqnum;
        v->usec = r->usec;
        v->priority = r->priority;
        v->has_priority = r->has_priority;
        v->has_seqnum = r->has_seqnum;
        v->has_timestamp = r->has_timestamp;
        v->has_printed_time = r->has_printed_time;
        v->message_len = r->msg_len;
        v->n_dict = r->n_dict;
        v->n_journal = r->n_jf;
        if (!r->data_cap) {
                /* A record that never held text has no data area: its texts are "" (str_at()), and it has no others. */
                v->flags = v->fields = v->message = "";
                v->caller = v->subsystem = v->device = v->boot_id = NULL;
                v->caller_len = 0;
                return;
        }
        v->flags = d + r->flags_off;
        v->fields = d + r->fields_off;
        v->message = d + r->msg_off;
        v->caller = r->caller_off == SIZE_MAX ? NULL : d + r->caller_off;
        v->caller_len = r->caller_off == SIZE_MAX ? 0 : r->caller_len;
        v->subsystem = r->subsystem_idx < 0 ? NULL : d + r->dict[r->subsystem_idx].val_off;
        v->device = r->device_idx < 0 ? NULL : d + r->dict[r->device_idx].val_off;
        v->boot_id = r->boot_id_off == SIZE_MAX ? NULL : d + r->boot_id_off;
}

_public_ int kmsg_record_get_view(const struct kmsg_record *r, struct kmsg_record_view *v, size_t size) {
        struct kmsg_record_view all;

        if (!r || !v || size < VIEW_1_5_SIZE)
                return -EINVAL;
        if (size == sizeof(*v)) {
                view_fill(r, v);
                return 0;
        }
        /* A caller built against another version: as much as both know. */
        view_fill(r, &all);
        memcpy(v, &all, size < sizeof(all) ? size : sizeof(all));
        return 0;
}
