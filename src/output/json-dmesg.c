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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/loss-text.h"
#include "text/json.h"
#include "text/writer.h"
#include "output/sink.h"
#include "text/utf8.h"

/* The facilities util-linux has names for, and writes "pri" for: kern (0) to local7 (23). */
#define UL_FACILITIES 24

/* A literal at o, which has room for it; o moves past it. */
#define PUT(o, lit) (memcpy(o, lit, sizeof(lit) - 1), (o) += sizeof(lit) - 1)

struct json_dmesg {
        struct sink s;
        size_t n;
        /* The members before "time" for each priority of those facilities: "pri", or "fac" and "pri" for -x. */
        struct {
                char s[64];
                size_t n;
        } pri[UL_FACILITIES * 8];
};

static int json_dmesg_init(struct sink *s) {
        struct json_dmesg *j = (struct json_dmesg *)s;
        unsigned i;

        for (i = 0; i < UL_FACILITIES * 8; i++) {
                int n;

                if (s->settings->decode)
                        /* -x: the names, as "dmesg --json -x" writes them. */
                        n = snprintf(j->pri[i].s, sizeof(j->pri[i].s),
                                     "         \"fac\": \"%s\",\n         \"pri\": \"%s\",\n",
                                     kmsg_facility_to_name(i >> 3), kmsg_level_to_name(i & 7));
                else
                        n = snprintf(j->pri[i].s, sizeof(j->pri[i].s), "         \"pri\": %u,\n", i);
                if (n < 0 || (size_t)n >= sizeof(j->pri[i].s))
                        return -EINVAL;
                j->pri[i].n = (size_t)n;
        }
        return 0;
}

/* Room for n bytes at the end of the output buffer (n at most OUT_BUF_SIZE): where to write them. */
static char *room(size_t n) {
        if (OUT_BUF_SIZE - out_len < n)
                out_drain();
        return out_buf + out_len;
}

/*
 * The most the members before "caller" take (the opening, "pri" or "fac"
 * and "pri", "time", the key "caller"), and what is written after a text.
 */
#define HEAD_ROOM 192
#define TAIL_ROOM 32

static int json_dmesg_record(struct sink *s, const struct kmsg_record *r, const struct match *m) {
        struct json_dmesg *j = (struct json_dmesg *)s;
        const char *msg, *caller;
        unsigned pri;
        size_t len;
        char *o;

        msg = kmsg_record_get_message(r, &len);
        if (len == 0) {
                sink_end_item(s);
                return 0;
        }
        o = room(HEAD_ROOM);
        if (j->n++ == 0)
                PUT(o, "{\n   \"dmesg\": [\n      {\n");
        else
                PUT(o, "},{\n");
        pri = kmsg_record_get_priority(r);
        /* The facility's seven bits of LOG_FACMASK, as util-linux takes them. */
        pri = ((pri >> 3) & 0x7f) << 3 | (pri & 7);
        if (kmsg_record_has_priority(r) && pri < UL_FACILITIES * 8) {
                memcpy(o, j->pri[pri].s, sizeof(j->pri[pri].s));
                o += j->pri[pri].n;
        }
        PUT(o, "         \"time\": ");
        o += put_seconds(o, kmsg_record_get_timestamp(r), 5);
        PUT(o, ",\n");
        caller = kmsg_record_get_caller_text(r);
        if (caller) {
                PUT(o, "         \"caller\": ");
                out_len = (size_t)(o - out_buf);
                out_json_text(caller, strlen(caller));
                o = room(TAIL_ROOM);
                PUT(o, ",\n");
        }
        PUT(o, "         \"msg\": ");
        out_len = (size_t)(o - out_buf);
        out_json_text(msg, len);
        o = room(TAIL_ROOM);
        PUT(o, "\n      ");
        out_len = (size_t)(o - out_buf);
        sink_end_item(s);
        return 0;
}

static int json_dmesg_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l, &s->settings->time);
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

const struct sink_ops sink_json_dmesg_ops = {
        .size = sizeof(struct json_dmesg),
        .init = json_dmesg_init,
        .record = json_dmesg_record,
        .loss = json_dmesg_loss,
        .boot = json_dmesg_boot,
        .finish = json_dmesg_finish,
};
