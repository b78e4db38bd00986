/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_UPLOAD_RFC5424_H
#define KDMESG_UPLOAD_RFC5424_H

/*
 * --upload relp://: an entry of the export stream as an RFC 5424 syslog
 * message, for upload-relp.c.  Buffers only: no network, no clock (the
 * time is the entry's), so the unit tests call it directly.
 *
 *   <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD...] MSG
 *
 * PRI is SYSLOG_FACILITY * 8 + PRIORITY (kern.notice for what has
 * neither; a facility past 23, which RFC 5424 cannot say, is sent as user
 * with facility="N" in the kdmesg element); TIMESTAMP the entry's
 * __REALTIME_TIMESTAMP in UTC with microseconds; HOSTNAME _HOSTNAME;
 * APP-NAME SYSLOG_IDENTIFIER ("kernel" for the kernel's records, "kdmesg"
 * for the loss and boot entries); PROCID SYSLOG_PID.  A header field that
 * is missing or that RFC 5424 cannot carry (not printable ASCII, too
 * long) is "-".  MSGID: RFC5424_MSGID_RECORD, _LOST or _BOOT.
 *
 * The structured data, SD-IDs in the name@number form with 32473, the
 * enterprise number RFC 5612 sets aside for documentation, as kdmesg has
 * none of its own:
 *   [kdmesg@32473 seq= mono= flags= caller= fields= boot= machine= dict=]
 *     the record's sequence number, kernel time stamp (us), flags, caller
 *     id ("T1", "C0"), all the header's fields after the flags when there
 *     are others than the caller, boot id, machine id; each a parameter
 *     when the entry has it.  dict="KEY=VALUE" for a dictionary key that
 *     cannot be a parameter name (an SD-NAME: at most 32 printable ASCII,
 *     no '=', ' ', ']', '"'), one each.
 *   [kdmesg-problem@32473 kind= subject= start=]  the problem the record
 *     belongs to (KDMESG_PROBLEM, KDMESG_PROBLEM_SUBJECT,
 *     KDMESG_PROBLEM_START="1" on its first record), when the entry names one.
 *   [kdmesg-dict@32473 KEY="VALUE"...]  the record's dictionary, in order.
 *   [kdmesg-lost@32473 count= first= last= cause= reason=]  a loss entry:
 *     how many (0: unknown, then no last), the first and last sequence
 *     number, why; reason for a record the collector refused.
 *   [kdmesg-boot@32473 number= first=]  a new boot: its number in the
 *     input (2 for the first new one) and its first sequence number.
 * A parameter value escapes '"', '\' and ']' with '\' (RFC 5424 6.3.3).
 *
 * MSG is MESSAGE (without the BOM: MSG-ANY), escaped as the kernel's
 * /dev/kmsg escapes it: control characters but the tab, '\' and bytes
 * that are not UTF-8 become \xNN.  Parameter values keep control
 * characters as they are, and write bytes that are not UTF-8 as \xNN
 * too, so that every message is valid UTF-8.
 */
#include <stddef.h>

#define RFC5424_SD_NUMBER "32473"
#define RFC5424_MSGID_RECORD "kmsg"
#define RFC5424_MSGID_LOST "kmsg-lost"
#define RFC5424_MSGID_BOOT "kmsg-boot"

/*
 * The message for the export entry at p (len bytes, one entry as
 * export_entry_len() measures it), appended to *buf (size *cap, grown
 * with realloc(); *len its length).  0, -EBADMSG when p is no entry of
 * the export form, or -ENOMEM.
 */
int rfc5424_from_export(const char *p, size_t len, char **buf, size_t *cap, size_t *ret_len);

#endif
