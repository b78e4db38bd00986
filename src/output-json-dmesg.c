/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=json-dmesg (--json=dmesg): the document util-linux 2.38
 * "dmesg --json" prints, byte for byte: its indentation, its "time" padded
 * to five digits before the point, and its "pri", which is the facility
 * number OR'ed with the level (not facility * 8 + level: a user.info record
 * is "pri": 7 there, and so here).  Newer util-linux adds "caller" when the
 * record has one; so does this.  Where util-linux writes invalid JSON
 * (bytes that are not UTF-8) or cuts a message at a NUL byte, this writes
 * the byte as the text \xNN and a NUL as \u0000.  No records, no output, as
 * util-linux.  Losses go to standard error.
 */
#include <stdlib.h>
#include <string.h>

#include "loss-text.h"
#include "output.h"
#include "sink.h"
#include "utf8.h"

struct json_dmesg {
        struct sink s;
        size_t n;
};

static const char hexdigits[] = "0123456789abcdef";

static void out_json_string(const char *p, size_t len) {
        const unsigned char *s = (const unsigned char *)p, *end = s + len, *run;

        out_putc('"');
        for (run = s; s < end;) {
                unsigned char c = *s;
                char e[6];
                size_t n = 0;

                if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
                        s++;
                        continue;
                }
                if (c >= 0x80) {
                        /* Find the length of a valid UTF-8 sequence here. */
                        size_t k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;

                        if (k && (size_t)(end - s) >= k && utf8_is_valid((const char *)s, k)) {
                                s += k;
                                continue;
                        }
                }
                out_write(run, (size_t)(s - run));
                switch (c) {
                case '"':
                case '\\':
                        e[n++] = '\\';
                        e[n++] = (char)c;
                        break;
                case '\b':
                        out_write("\\b", 2);
                        break;
                case '\f':
                        out_write("\\f", 2);
                        break;
                case '\n':
                        out_write("\\n", 2);
                        break;
                case '\r':
                        out_write("\\r", 2);
                        break;
                case '\t':
                        out_write("\\t", 2);
                        break;
                default:
                        if (c < 0x20) {
                                out_write("\\u00", 4);
                                e[n++] = hexdigits[c >> 4];
                                e[n++] = hexdigits[c & 15];
                        } else {
                                /* Not UTF-8: the text \xNN, as dmesg shows it on a terminal. */
                                out_write("\\\\x", 3);
                                e[n++] = hexdigits[c >> 4];
                                e[n++] = hexdigits[c & 15];
                        }
                }
                out_write(e, n);
                s++;
                run = s;
        }
        out_write(run, (size_t)(s - run));
        out_putc('"');
}

static int json_dmesg_record(struct sink *s, const struct kmsg_record *r) {
        struct json_dmesg *j = (struct json_dmesg *)s;
        const char *msg, *caller;
        size_t len;

        out_puts(j->n++ == 0 ? "{\n   \"dmesg\": [\n      {\n" : "},{\n");
        out_puts("         \"pri\": ");
        out_u64(kmsg_record_get_facility(r) | kmsg_record_get_level(r));
        out_puts(",\n         \"time\": ");
        out_usec(kmsg_record_get_timestamp(r), 5);
        out_puts(",\n");
        caller = kmsg_record_get_caller_text(r);
        if (caller) {
                out_puts("         \"caller\": ");
                out_json_string(caller, strlen(caller));
                out_puts(",\n");
        }
        out_puts("         \"msg\": ");
        msg = kmsg_record_get_message(r, &len);
        out_json_string(msg, len);
        out_puts("\n      ");
        sink_end_item(s);
        return 0;
}

static int json_dmesg_loss(struct sink *s, const struct kmsg_loss *l) {
        err_loss_line(l);
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

struct sink *sink_json_dmesg_new(const struct output_settings *settings) {
        struct json_dmesg *j = calloc(1, sizeof(*j));

        if (!j)
                return NULL;
        j->s.name = "json-dmesg";
        j->s.record = json_dmesg_record;
        j->s.loss = json_dmesg_loss;
        j->s.finish = json_dmesg_finish;
        j->s.free = json_dmesg_free;
        j->s.settings = settings;
        return &j->s;
}
