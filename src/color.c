/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Named color slots with defaults, NO_COLOR and KDMESG_COLORS. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "i18n.h"
#include "output.h"
#include "util.h"

#define SGR_MAX 32

static const char *const slot_names[COLOR_SLOTS] = {
        [COLOR_EMERG] = "emerg",   [COLOR_ALERT] = "alert",         [COLOR_CRIT] = "crit",
        [COLOR_ERR] = "err",       [COLOR_WARN] = "warn",           [COLOR_NOTICE] = "notice",
        [COLOR_INFO] = "info",     [COLOR_DEBUG] = "debug",         [COLOR_TIME] = "time",
        [COLOR_TIMEBREAK] = "timebreak", [COLOR_PREFIX] = "prefix", [COLOR_SUBSYSTEM] = "subsystem",
        [COLOR_DEVICE] = "device", [COLOR_LOSS] = "loss",
};

/* SGR parameters, without "\033[" and "m". */
static char slots[COLOR_SLOTS][SGR_MAX] = {
        [COLOR_EMERG] = "1;7;31", /* bold reverse red */
        [COLOR_ALERT] = "1;31",   /* bold red */
        [COLOR_CRIT] = "1;31",
        [COLOR_ERR] = "31",       /* red */
        [COLOR_WARN] = "1",       /* bold */
        [COLOR_NOTICE] = "",
        [COLOR_INFO] = "",
        [COLOR_DEBUG] = "2",      /* dim */
        [COLOR_TIME] = "32",      /* green */
        [COLOR_TIMEBREAK] = "1;32",
        [COLOR_PREFIX] = "34",    /* blue */
        [COLOR_SUBSYSTEM] = "33", /* yellow */
        [COLOR_DEVICE] = "36",    /* cyan */
        [COLOR_LOSS] = "1;35",    /* bold magenta */
};

bool color_is_on;

int color_mode_from_name(const char *name) {
        if (!name || strcmp(name, "auto") == 0)
                return COLOR_AUTO;
        if (strcmp(name, "always") == 0)
                return COLOR_ALWAYS;
        if (strcmp(name, "never") == 0)
                return COLOR_NEVER;
        return -EINVAL;
}

const char *color_slot_name(enum color_slot slot) {
        return slot < COLOR_SLOTS ? slot_names[slot] : NULL;
}

static bool valid_sgr(const char *s, size_t n) {
        size_t i;

        if (n >= SGR_MAX)
                return false;
        for (i = 0; i < n; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
                        return false;
        return true;
}

/* "name=SGR:name=SGR". */
static int parse_colors(const char *spec) {
        const char *p = spec;

        while (*p) {
                const char *end = strchr(p, ':'), *eq;
                size_t n = end ? (size_t)(end - p) : strlen(p);
                unsigned i;

                eq = memchr(p, '=', n);
                if (n > 0) {
                        if (!eq)
                                goto bad;
                        for (i = 0; i < COLOR_SLOTS; i++)
                                if (strlen(slot_names[i]) == (size_t)(eq - p) &&
                                    strncmp(slot_names[i], p, (size_t)(eq - p)) == 0)
                                        break;
                        if (i == COLOR_SLOTS || !valid_sgr(eq + 1, n - (size_t)(eq + 1 - p)))
                                goto bad;
                        memcpy(slots[i], eq + 1, n - (size_t)(eq + 1 - p));
                        slots[i][n - (size_t)(eq + 1 - p)] = '\0';
                }
                p += n + (end ? 1 : 0);
        }
        return 0;
bad:
        warnx_(_("bad KDMESG_COLORS entry '%.*s' (expected SLOT=SGR, e.g. time=32)"),
               (int)(strchr(p, ':') ? strchr(p, ':') - p : (long)strlen(p)), p);
        return -EINVAL;
}

int color_init(enum color_mode mode) {
        const char *spec = getenv("KDMESG_COLORS");
        const char *no_color = getenv("NO_COLOR");

        switch (mode) {
        case COLOR_ALWAYS:
                color_is_on = true;
                break;
        case COLOR_NEVER:
                color_is_on = false;
                break;
        case COLOR_AUTO:
                color_is_on = isatty(STDOUT_FILENO) && !(no_color && *no_color);
                break;
        }
        if (color_is_on && spec)
                return parse_colors(spec);
        return 0;
}

void color_start(enum color_slot slot) {
        if (slot >= COLOR_SLOTS || !slots[slot][0])
                return;
        out_write("\033[", 2);
        out_puts(slots[slot]);
        out_putc('m');
}

void color_end(enum color_slot slot) {
        if (slot >= COLOR_SLOTS || !slots[slot][0])
                return;
        out_write("\033[0m", 4);
}
