/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_EXPORT_H
#define KDMESG_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

/* The MESSAGE_ID of every loss entry in the export stream (journalctl MESSAGE_ID=...). */
#define EXPORT_LOSS_MESSAGE_ID "9ac1b3703093449dace9a589386bdafe"
/* The MESSAGE_ID of every new-boot entry in the export stream. */
#define EXPORT_BOOT_MESSAGE_ID "fab5b5ca374041ef9ca064a2b02def0a"

/* "ident[pid]: " at the head of a message of a userspace facility. */
struct syslog_ident {
        const char *ident;
        size_t ident_len;
        const char *pid; /* NULL: none */
        size_t pid_len;
        size_t rest; /* where the message after the prefix starts */
};

/*
 * journald's rule for the messages of userspace facilities: after white
 * space, a word without white space that ends in ':' is the identifier;
 * when it ends in "]:", what is between the last '[' and the ']' is the
 * PID; one white space character after the ':' goes with it.  Returns
 * whether there is one (*ret set).
 */
bool export_parse_identifier(const char *msg, size_t len, struct syslog_ident *ret);

#endif
