/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The record grammar: header, escapes, dictionary. */
#include <errno.h>
#include <stdlib.h>

#include "kmsg-private.h"
#include "tests.h"

static struct kmsg_record *parse(const char *s) {
        struct kmsg_record *r = NULL;
        int e = kmsg_record_parse(s, strlen(s), &r);

        if (e < 0)
                test_fail(__FILE__, __LINE__, "parse of \"%s\" failed: %d", s, e);
        return r;
}

TEST(header_fields) {
        struct kmsg_record *r = parse("6,438,377378,-,caller=T1;acpi PNP0A08:00: _OSC\n");
        char kind = 0;
        uint32_t id = 0;

        if (!r)
                return;
        CHECK_INT(kmsg_record_get_priority(r), 6);
        CHECK_INT(kmsg_record_get_level(r), 6);
        CHECK_INT(kmsg_record_get_facility(r), 0);
        CHECK_INT(kmsg_record_get_seqnum(r), 438);
        CHECK_INT(kmsg_record_get_timestamp(r), 377378);
        CHECK_STR(kmsg_record_get_flags(r), "-");
        CHECK_INT(kmsg_record_get_caller(r, &kind, &id), 0);
        CHECK_INT(kind, 'T');
        CHECK_INT(id, 1);
        CHECK_STR(kmsg_record_get_message(r, NULL), "acpi PNP0A08:00: _OSC");
        kmsg_record_unref(r);
}
