/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boot id, for the _BOOT_ID field of --format=export on the live log. */
#include <errno.h>
#include <stdio.h>

#include "bootid.h"

int boot_id_read(char ret[33]) {
        FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
        char line[64], id[33];
        size_t i, n = 0;

        if (!f)
                return -errno;
        if (fgets(line, sizeof(line), f))
                for (i = 0; line[i] && n < 32; i++) {
                        if ((line[i] >= '0' && line[i] <= '9') || (line[i] >= 'a' && line[i] <= 'f'))
                                id[n++] = line[i];
                        else if (line[i] != '-' && line[i] != '\n')
                                break;
                }
        fclose(f);
        if (n != 32)
                return -EBADMSG;
        id[32] = '\0';
        for (i = 0; i < 33; i++)
                ret[i] = id[i];
        return 0;
}
