/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names of levels, facilities and loss causes. */
#include <errno.h>
#include <strings.h>

#include "kmsg-private.h"

static const char *const level_names[8] = {
        "emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

static const char *const facility_names[24] = {
        "kern",   "user",   "mail",   "daemon", "auth",   "syslog", "lpr",    "news",
        "uucp",   "cron",   "authpriv", "ftp",  "res0",   "res1",   "res2",   "res3",
        "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};

_public_ const char *kmsg_version(void) {
        return PACKAGE_VERSION;
}

_public_ const char *kmsg_level_to_name(unsigned level) {
        return level < 8 ? level_names[level] : NULL;
}

_public_ int kmsg_level_from_name(const char *name) {
        unsigned i;

        if (!name)
                return -EINVAL;
        for (i = 0; i < 8; i++)
                if (strcasecmp(name, level_names[i]) == 0)
                        return (int)i;
        /* Spellings syslog(3) and util-linux also accept. */
        if (strcasecmp(name, "error") == 0)
                return 3;
        if (strcasecmp(name, "warning") == 0)
                return 4;
        if (strcasecmp(name, "panic") == 0)
                return 0;
        return -EINVAL;
}

_public_ const char *kmsg_facility_to_name(unsigned facility) {
        return facility < 24 ? facility_names[facility] : NULL;
}

_public_ int kmsg_facility_from_name(const char *name) {
        unsigned i;

        if (!name)
                return -EINVAL;
        for (i = 0; i < 24; i++)
                if (strcasecmp(name, facility_names[i]) == 0)
                        return (int)i;
        if (strcasecmp(name, "security") == 0)
                return 4;
        return -EINVAL;
}

_public_ const char *kmsg_loss_cause_to_name(enum kmsg_loss_cause cause) {
        switch (cause) {
        case KMSG_LOSS_GAP:
                return "gap";
        case KMSG_LOSS_OVERRUN:
                return "overrun";
        case KMSG_LOSS_ROTATED:
                return "rotated";
        case KMSG_LOSS_TOOBIG:
                return "toobig";
        case KMSG_LOSS_REBOOT:
                return "reboot";
        case KMSG_LOSS_INTERRUPTED:
                return "interrupted";
        }
        return NULL;
}
