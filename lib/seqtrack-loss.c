/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A run of missing records (struct kmsg_loss): made by the tracker or by a program. */
#include <errno.h>
#include <stdlib.h>

#include "seqtrack-private.h"

struct kmsg_loss *loss_alloc(void) {
        struct kmsg_loss *l = calloc(1, sizeof(*l));

        if (l)
                l->n_ref = 1;
        return l;
}

_public_ int kmsg_loss_new(uint64_t first_seq, uint64_t count, enum kmsg_loss_cause cause, struct kmsg_loss **ret) {
        struct kmsg_loss *l;

        if (!ret || (unsigned)cause > KMSG_LOSS_INTERRUPTED)
                return -EINVAL;
        l = loss_alloc();
        if (!l)
                return -ENOMEM;
        l->first_seq = first_seq;
        l->count = count;
        l->cause = cause;
        *ret = l;
        return 0;
}

_public_ struct kmsg_loss *kmsg_loss_ref(struct kmsg_loss *l) {
        if (l)
                l->n_ref++;
        return l;
}

_public_ struct kmsg_loss *kmsg_loss_unref(struct kmsg_loss *l) {
        if (l && --l->n_ref == 0)
                free(l);
        return NULL;
}

_public_ int kmsg_loss_set_before(struct kmsg_loss *l, uint64_t usec) {
        if (!l)
                return -EINVAL;
        l->has_before = true;
        l->usec_before = usec;
        return 0;
}

_public_ int kmsg_loss_set_after(struct kmsg_loss *l, uint64_t usec) {
        if (!l)
                return -EINVAL;
        l->usec_after = usec;
        return 0;
}

_public_ int kmsg_loss_set_before_newest(struct kmsg_loss *l) {
        if (!l)
                return -EINVAL;
        l->before_newest = true;
        return 0;
}

_public_ int kmsg_loss_before_newest(const struct kmsg_loss *l) {
        return l && l->before_newest;
}

_public_ uint64_t kmsg_loss_get_first_seq(const struct kmsg_loss *l) {
        return l ? l->first_seq : 0;
}

_public_ uint64_t kmsg_loss_get_count(const struct kmsg_loss *l) {
        return l ? l->count : 0;
}

_public_ int kmsg_loss_has_before(const struct kmsg_loss *l) {
        return l && l->has_before;
}

_public_ uint64_t kmsg_loss_get_usec_before(const struct kmsg_loss *l) {
        return l ? l->usec_before : 0;
}

_public_ uint64_t kmsg_loss_get_usec_after(const struct kmsg_loss *l) {
        return l ? l->usec_after : 0;
}

_public_ enum kmsg_loss_cause kmsg_loss_get_cause(const struct kmsg_loss *l) {
        return l ? l->cause : KMSG_LOSS_GAP;
}
