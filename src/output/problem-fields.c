/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The problem a record belongs to, as export and json name it (problem-fields.h). */
#include <stdlib.h>
#include <string.h>

#include "output/problem-fields.h"

static void keep_subject(struct problem_fields *pf, const char *s) {
        size_t n = s ? strlen(s) : 0;

        pf->len = 0;
        pf->failed = false;
        if (n + 1 > pf->cap) {
                char *p = realloc(pf->subject, n + 1);

                if (!p) {
                        pf->failed = true;
                        return;
                }
                pf->subject = p;
                pf->cap = n + 1;
        }
        if (n)
                memcpy(pf->subject, s, n);
        pf->len = n;
}

const char *problem_fields_of(struct problem_fields *pf, const struct problem_hit *h, const char **subject,
                              size_t *subject_len, bool *start) {
        if (h->kind == PROBLEM_NONE)
                return NULL;
        if (h->opens || h->retitled)
                keep_subject(pf, h->subject);
        *subject = pf->failed || !pf->len ? "" : pf->subject;
        *subject_len = pf->failed ? 0 : pf->len;
        *start = h->opens;
        return problem_kind_name(h->kind);
}

void problem_fields_free(struct problem_fields *pf) {
        free(pf->subject);
        *pf = (struct problem_fields){ 0 };
}
