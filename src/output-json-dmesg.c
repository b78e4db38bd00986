/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=json-dmesg (--json=dmesg): the document util-linux 2.43
 * "dmesg --json" prints, byte for byte: its indentation, its key order
 * ("pri", "time", "caller", "msg"; "fac" first with -x), its "time" padded
 * to five digits before the point, and its "pri", facility * 8 + level (a
 * user.info record is "pri": 14).  util-linux takes the facility from the
 * seven bits of LOG_FACMASK (facility 139 is ftp, 11) and writes "pri"
 * only for the facilities it has names for (kern to local7, 0 to 23): a
 * record of another facility, and one with no priority at all, has no
 * "pri".  It
 * leaves out a record whose message is empty.  With -x it writes "fac" and
 * "pri" as names instead, for the same records.  "caller" is the record's
 * caller field as written.  Where util-linux writes invalid JSON (bytes
 * that are not UTF-8) or cuts a message at a NUL byte, this writes the byte
 * as the text \xNN and a NUL as \u0000.  No records, no output, as
 * util-linux.  Losses go to standard error.
 */
#include <stdlib.h>
#include <string.h>

#include "loss-text.h"
#include "output-json.h"
#include "output.h"
#include "sink.h"
#include "utf8.h"

struct json_dmesg {
        struct sink s;
        size_t n;
};

/* The facilities util-linux has names for, and writes "pri" for: kern (0) to local7 (23). */
#define UL_FACILITIES 24

static int json_dmesg_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct json_dmesg *j = (struct json_dmesg *)s;
        const char *msg, *caller;
        unsigned fac;
        size_t len;

        msg = kmsg_record_get_message(r, &len);
        if (len == 0) {
                sink_end_item(s);
                return 0;
        }
        out_puts(j->n++ == 0 ? "{\n   \"dmesg\": [\n      {\n" : "},{\n");
        fac = kmsg_record_get_facility(r) & 0x7f;
        if (kmsg_record_has_priority(r) && fac < UL_FACILITIES) {
                if (s->settings->decode) {
                        /* -x: the names, as "dmesg --json -x" writes them. */
                        out_puts("         \"fac\": \"");
                        out_puts(kmsg_facility_to_name(fac));
                        out_puts("\",\n         \"pri\": \"");
                        out_puts(kmsg_level_to_name(kmsg_record_get_level(r)));
                        out_puts("\",\n");
                } else {
                        out_puts("         \"pri\": ");
                        out_u64(fac * 8 + kmsg_record_get_level(r));
                        out_puts(",\n");
                }
        }
        out_puts("         \"time\": ");
        out_usec(kmsg_record_get_timestamp(r), 5);
        out_puts(",\n");
        caller = kmsg_record_get_caller_text(r);
        if (caller) {
                out_puts("         \"caller\": ");
                out_json_text(caller, strlen(caller));
                out_puts(",\n");
        }
        out_puts("         \"msg\": ");
        out_json_text(msg, len);
        out_puts("\n      ");
        sink_end_item(s);
        return 0;
}

static int json_dmesg_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l);
        return 0;
}

static int json_dmesg_boot(struct sink *s, uint64_t n, const struct kmsg_record *r) {
        err_boot_line(n);
        return 0;
}

static int json_dmesg_finish(struct sink *s) {
        struct json_dmesg *j = (struct json_dmesg *)s;

        if (j->n > 0)
                out_puts("}\n   ]\n}\n");
        return 0;
}

static void json_dmesg_free(struct sink *s) {
        free(s);
}

const struct sink_ops sink_json_dmesg_ops = {
        .size = sizeof(struct json_dmesg),
        .record = json_dmesg_record,
        .loss = json_dmesg_loss,
        .boot = json_dmesg_boot,
        .finish = json_dmesg_finish,
        .free = json_dmesg_free,
};
