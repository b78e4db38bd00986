/* SPDX-License-Identifier: GPL-2.0-or-later */
/* 128-bit ids as the journal writes them: the boot id and the machine id of --format=export. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/bootid.h"

int id128_parse(const char *s, char ret[33]) {
        char id[33];
        size_t i, n = 0;

        for (i = 0; s[i] && s[i] != '\n'; i++) {
                char c = s[i];

                if (c >= 'A' && c <= 'F')
                        c = (char)(c - 'A' + 'a');
                if (((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) && n < 32)
                        id[n++] = c;
                else if (c != '-')
                        return -EINVAL;
        }
        if (n != 32 || (s[i] == '\n' && s[i + 1]))
                return -EINVAL;
        id[32] = '\0';
        memcpy(ret, id, 33);
        return 0;
}

static int read_id(const char *path, char ret[33]) {
        FILE *f = fopen(path, "re");
        char line[64];
        int e = -EBADMSG;

        if (!f)
                return -errno;
        if (fgets(line, sizeof(line), f) && id128_parse(line, ret) == 0)
                e = 0;
        fclose(f);
        return e;
}

int boot_id_read(char ret[33]) {
        return read_id("/proc/sys/kernel/random/boot_id", ret);
}

int machine_id_read(char ret[33]) {
        return read_id("/etc/machine-id", ret);
}
