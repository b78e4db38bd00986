/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload relp://: export entries as RFC 5424 messages: PRI, time, header fields, structured data, escaping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "output/export.h"
#include "ship/upload-rfc5424.h"

/* The message of the entry (text of len bytes, or strlen); NULL with *ret_err set when there is none. */
static char *message(const char *entry, size_t len, int *ret_err) {
        char *buf = NULL;
        size_t cap = 0, n = 0;
        int e;

        e = rfc5424_from_export(entry, len ? len : strlen(entry), &buf, &cap, &n);
        if (ret_err)
                *ret_err = e;
        if (e < 0) {
                free(buf);
                return NULL;
        }
        buf = realloc(buf, n + 1);
        buf[n] = '\0';
        return buf;
}

#define CHECK_MESSAGE(entry, want)                                                       \
        do {                                                                             \
                char *got_ = message(entry, 0, NULL);                                    \
                CHECK(got_ && strcmp(got_, want) == 0);                                  \
                if (got_ && strcmp(got_, want) != 0)                                     \
                        fprintf(stderr, "# got:  %s\n# want: %s\n", got_, want);         \
                free(got_);                                                              \
        } while (0)

TEST(a_kernel_record_pri_time_header_and_structured_data) {
        CHECK_MESSAGE("__REALTIME_TIMESTAMP=1700000001500042\n"
                      "__MONOTONIC_TIMESTAMP=1500042\n"
                      "_BOOT_ID=aba7d49a3f9a484a8905db37a872b9f5\n"
                      "_SOURCE_MONOTONIC_TIMESTAMP=1500042\n"
                      "_TRANSPORT=kernel\n"
                      "PRIORITY=3\n"
                      "SYSLOG_FACILITY=0\n"
                      "SYSLOG_IDENTIFIER=kernel\n"
                      "MESSAGE=usb 2-1.4: device descriptor read/64, error -71\n"
                      "_KERNEL_SUBSYSTEM=usb\n"
                      "_KERNEL_DEVICE=c189:130\n"
                      "KMSG_DICT=lower=x\n"
                      "KMSG_DICT=a\\x3db=y\n"
                      "_HOSTNAME=host1\n"
                      "_MACHINE_ID=3d1219c7c4c5404aaa1f6d2a48adfda4\n"
                      "SEQNUM=11\n"
                      "KMSG_FLAGS=-\n"
                      "KMSG_FIELDS=caller=T7\n"
                      "\n",
                      "<3>1 2023-11-14T22:13:21.500042Z host1 kernel - kmsg "
                      "[kdmesg@32473 seq=\"11\" mono=\"1500042\" flags=\"-\" caller=\"T7\" "
                      "boot=\"aba7d49a3f9a484a8905db37a872b9f5\" machine=\"3d1219c7c4c5404aaa1f6d2a48adfda4\" "
                      "dict=\"a\\\\x3db=y\"]"
                      "[kdmesg-dict@32473 SUBSYSTEM=\"usb\" DEVICE=\"c189:130\" lower=\"x\"] "
                      "usb 2-1.4: device descriptor read/64, error -71");
}

TEST(pri_is_facility_times_8_plus_level_a_facility_past_23_is_user_with_its_number) {
        CHECK_MESSAGE("PRIORITY=4\nSYSLOG_FACILITY=3\nSYSLOG_IDENTIFIER=systemd\nSYSLOG_PID=1\nMESSAGE=Started.\n\n",
                      "<28>1 - - systemd 1 kmsg - Started.");
        CHECK_MESSAGE("PRIORITY=7\nSYSLOG_FACILITY=23\nMESSAGE=x\n\n", "<191>1 - - - - kmsg - x");
        CHECK_MESSAGE("PRIORITY=2\nSYSLOG_FACILITY=100\nMESSAGE=x\n\n",
                      "<10>1 - - - - kmsg [kdmesg@32473 facility=\"100\"] x");
        /* Neither: kern.notice. */
        CHECK_MESSAGE("MESSAGE=x\n\n", "<5>1 - - - - kmsg - x");
}

TEST(the_time_is_utc_with_microseconds_or_nil) {
        CHECK_MESSAGE("__REALTIME_TIMESTAMP=0\nPRIORITY=6\n\n", "<6>1 1970-01-01T00:00:00.000000Z - - - kmsg -");
        CHECK_MESSAGE("__REALTIME_TIMESTAMP=951782400000001\nPRIORITY=6\n\n",
                      "<6>1 2000-02-29T00:00:00.000001Z - - - kmsg -");
        /* Past year 9999, or no number: NILVALUE. */
        CHECK_MESSAGE("__REALTIME_TIMESTAMP=253402300800000000\nPRIORITY=6\n\n", "<6>1 - - - - kmsg -");
        CHECK_MESSAGE("__REALTIME_TIMESTAMP=12x\nPRIORITY=6\n\n", "<6>1 - - - - kmsg -");
}

TEST(header_fields_rfc5424_cannot_carry_are_nil) {
        CHECK_MESSAGE("_HOSTNAME=has space\nSYSLOG_IDENTIFIER=x\xc3\xa9\nPRIORITY=6\n\n", "<6>1 - - - - kmsg -");
        CHECK_MESSAGE("SYSLOG_IDENTIFIER=0123456789012345678901234567890123456789012345678\nPRIORITY=6\n\n",
                      "<6>1 - - - - kmsg -");
        CHECK_MESSAGE("SYSLOG_IDENTIFIER=012345678901234567890123456789012345678901234567\nPRIORITY=6\n\n",
                      "<6>1 - - 012345678901234567890123456789012345678901234567 - kmsg -");
}

TEST(parameter_values_escape_quote_backslash_bracket_and_bytes_that_are_not_utf8) {
        CHECK_MESSAGE("PRIORITY=6\n_KERNEL_X=a\"b\\c]d\xc3\xa9\xff\te\n\n",
                      "<6>1 - - - - kmsg [kdmesg-dict@32473 X=\"a\\\"b\\\\c\\]d\xc3\xa9\\xff\te\"]");
        /* A key that cannot be a parameter name: longer than 32, or with '=' escaped. */
        CHECK_MESSAGE("PRIORITY=6\n_KERNEL_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456=v]\n\n",
                      "<6>1 - - - - kmsg [kdmesg@32473 dict=\"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456=v\\]\"]");
}

TEST(the_message_is_escaped_as_kmsg_escapes_it_and_stays_utf8) {
        static const char entry[] = "PRIORITY=6\nMESSAGE\n\x14\0\0\0\0\0\0\0"
                                    "a\nb\\c\td\x01\x7f\xc3\xa9\xe2\x82\xac\xc3(\xed\xa0\x80z\n\n";

        char *got = message(entry, sizeof(entry) - 1, NULL);

        CHECK(got && strcmp(got, "<6>1 - - - - kmsg - a\\x0ab\\x5cc\td\\x01\\x7f\xc3\xa9\xe2\x82\xac\\xc3(\\xed\\xa0\\x80z") ==
                             0);
        free(got);
}

TEST(c1_controls_in_the_message_are_escaped_byte_by_byte_in_a_value_kept) {
        /* U+0085 (NEL) and U+009B (CSI) are controls a terminal obeys; U+00A0 is none. */
        CHECK_MESSAGE("PRIORITY=6\nMESSAGE=a\xc2\x85" "b\xc2\x9b" "c\xc2\xa0" "d\n_KERNEL_X=\xc2\x85\n\n",
                      "<6>1 - - - - kmsg [kdmesg-dict@32473 X=\"\xc2\x85\"] a\\xc2\\x85" "b\\xc2\\x9b" "c\xc2\xa0" "d");
}

TEST(loss_and_boot_entries_are_messages_with_counts_and_ranges) {
        CHECK_MESSAGE("__REALTIME_TIMESTAMP=1700000004000000\n_BOOT_ID=aba7d49a3f9a484a8905db37a872b9f5\n"
                      "_HOSTNAME=host1\n_TRANSPORT=kernel\nPRIORITY=4\nSYSLOG_IDENTIFIER=kdmesg\n"
                      "MESSAGE_ID=" EXPORT_LOSS_MESSAGE_ID "\n"
                      "MESSAGE=-- 2 messages lost (seq 22-23, gap) --\n"
                      "KDMESG_LOST=2\nKDMESG_LOST_FIRST_SEQ=22\nKDMESG_LOST_CAUSE=gap\n\n",
                      "<4>1 2023-11-14T22:13:24.000000Z host1 kdmesg - kmsg-lost "
                      "[kdmesg-lost@32473 count=\"2\" first=\"22\" last=\"23\" cause=\"gap\"]"
                      "[kdmesg@32473 boot=\"aba7d49a3f9a484a8905db37a872b9f5\"] "
                      "-- 2 messages lost (seq 22-23, gap) --");
        /* An unknown count has no last; a refused record says why. */
        CHECK_MESSAGE("PRIORITY=4\nMESSAGE_ID=" EXPORT_LOSS_MESSAGE_ID "\nKDMESG_LOST=0\nKDMESG_LOST_FIRST_SEQ=5\n"
                      "KDMESG_LOST_CAUSE=reboot\n\n",
                      "<4>1 - - - - kmsg-lost [kdmesg-lost@32473 count=\"0\" first=\"5\" cause=\"reboot\"]");
        CHECK_MESSAGE("PRIORITY=4\nMESSAGE_ID=" EXPORT_LOSS_MESSAGE_ID "\nKDMESG_LOST=1\nKDMESG_LOST_FIRST_SEQ=7\n"
                      "KDMESG_LOST_CAUSE=refused\nKDMESG_REFUSED_REASON=the server answered 500 \"no\"\n\n",
                      "<4>1 - - - - kmsg-lost [kdmesg-lost@32473 count=\"1\" first=\"7\" last=\"7\" cause=\"refused\" "
                      "reason=\"the server answered 500 \\\"no\\\"\"]");
        CHECK_MESSAGE("PRIORITY=5\nSYSLOG_IDENTIFIER=kdmesg\nMESSAGE_ID=" EXPORT_BOOT_MESSAGE_ID "\n"
                      "MESSAGE=-- boot 2 --\nKDMESG_BOOT=2\nKDMESG_BOOT_FIRST_SEQ=0\n\n",
                      "<5>1 - - kdmesg - kmsg-boot [kdmesg-boot@32473 number=\"2\" first=\"0\"] -- boot 2 --");
}

TEST(a_record_of_a_problem_carries_its_kind_subject_and_start_in_kdmesg_problem) {
        CHECK_MESSAGE("PRIORITY=1\nSYSLOG_FACILITY=0\nSYSLOG_IDENTIFIER=kernel\nMESSAGE=BUG: unable to handle page fault\n"
                      "SEQNUM=4\nKDMESG_PROBLEM=oops\nKDMESG_PROBLEM_SUBJECT=BUG: \"x\" ]\\ y\nKDMESG_PROBLEM_START=1\n\n",
                      "<1>1 - - kernel - kmsg [kdmesg@32473 seq=\"4\"]"
                      "[kdmesg-problem@32473 kind=\"oops\" subject=\"BUG: \\\"x\\\" \\]\\\\ y\" start=\"1\"] "
                      "BUG: unable to handle page fault");
        /* A later record of it: no start; a record of no problem: no element. */
        CHECK_MESSAGE("PRIORITY=4\nMESSAGE=RIP: f\nKDMESG_PROBLEM=oops\n\n",
                      "<4>1 - - - - kmsg [kdmesg-problem@32473 kind=\"oops\"] RIP: f");
        CHECK_MESSAGE("PRIORITY=6\nMESSAGE=ok\n\n", "<6>1 - - - - kmsg - ok");
}

TEST(what_is_not_one_entry_of_the_export_form_is_ebadmsg_and_the_buffer_keeps_what_it_had) {
        char *buf = strdup("kept"), *m;
        size_t cap = 5, n = 4;
        int e;

        CHECK_INT(rfc5424_from_export("MESSAGE=x\n", 10, &buf, &cap, &n), -EBADMSG);
        CHECK_INT(rfc5424_from_export("MESSAGE=x\n\nMESSAGE=y\n\n", 22, &buf, &cap, &n), -EBADMSG);
        CHECK_INT(rfc5424_from_export("MESSAGE\n\x09\0\0\0\0\0\0\0ab\n", 19, &buf, &cap, &n), -EBADMSG);
        CHECK_INT(n, 4);
        /* Appended after what is there. */
        CHECK_INT(rfc5424_from_export("PRIORITY=6\n\n", 12, &buf, &cap, &n), 0);
        CHECK(n == 4 + 19 && memcmp(buf, "kept<6>1 - - - - kmsg -", n) == 0);
        free(buf);
        m = message("", 0, &e);
        CHECK(!m && e == -EBADMSG);
}
