/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Named color slots: defaults, terminal-colors.d, NO_COLOR, TERM and KDMESG_COLORS. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/color.h"
#include "base/i18n.h"
#include "text/writer.h"
#include "text/util.h"

#define SGR_MAX 32
#define ESC "\033"

static const char *const slot_names[COLOR_SLOTS] = {
        [COLOR_EMERG] = "emerg",   [COLOR_ALERT] = "alert",         [COLOR_CRIT] = "crit",
        [COLOR_ERR] = "err",       [COLOR_WARN] = "warn",           [COLOR_NOTICE] = "notice",
        [COLOR_INFO] = "info",     [COLOR_DEBUG] = "debug",         [COLOR_TIME] = "time",
        [COLOR_TIMEBREAK] = "timebreak", [COLOR_PREFIX] = "prefix", [COLOR_SUBSYSTEM] = "subsystem",
        [COLOR_DEVICE] = "device", [COLOR_LOSS] = "loss",           [COLOR_SEGFAULT] = "segfault",
};

/*
 * The colors of the process (color.h says why one): whole escape sequences,
 * so that the defaults are byte for byte those of util-linux 2.43, which
 * writes one sequence per attribute.
 */
struct color_state color_state = {
        .slots = {
                [COLOR_ALERT] = ESC "[7m" ESC "[31m",    /* reverse red */
                [COLOR_CRIT] = ESC "[1m" ESC "[31m",     /* bold red */
                [COLOR_ERR] = ESC "[31m",                /* red */
                [COLOR_WARN] = ESC "[1m",                /* bold */
                [COLOR_TIME] = ESC "[32m",               /* green */
                [COLOR_TIMEBREAK] = ESC "[32m" ESC "[1m", /* green bold */
                [COLOR_SUBSYSTEM] = ESC "[33m",          /* brown */
                [COLOR_DEVICE] = ESC "[36m",             /* cyan */
                [COLOR_LOSS] = ESC "[1;35m",             /* bold magenta */
                [COLOR_SEGFAULT] = ESC "[2m" ESC "[31m", /* half-bright red */
        },
};

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

bool color_slot_set(enum color_slot slot) {
        return slot < COLOR_SLOTS && color_state.slots[slot][0];
}

/* The slot called name (kdmesg's names, and util-linux's "subsys"); -1 if none. */
static int slot_from_name(const char *name, size_t n) {
        unsigned i;

        if (n == 6 && strncmp(name, "subsys", 6) == 0)
                return COLOR_SUBSYSTEM;
        for (i = 0; i < COLOR_SLOTS; i++)
                if (strlen(slot_names[i]) == n && strncmp(slot_names[i], name, n) == 0)
                        return (int)i;
        return -1;
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

/* Set a slot to "ESC[<sgr>m" (n bytes of SGR parameters), or off when n is 0. */
static void set_sgr(int slot, const char *sgr, size_t n) {
        if (n == 0)
                color_state.slots[slot][0] = '\0';
        else
                snprintf(color_state.slots[slot], sizeof(color_state.slots[slot]), ESC "[%.*sm", (int)n, sgr);
}

/* "name=SGR:name=SGR". */
static int parse_colors(const char *spec) {
        const char *p = spec;

        while (*p) {
                const char *end = strchr(p, ':'), *eq;
                size_t n = end ? (size_t)(end - p) : strlen(p);
                int i;

                eq = memchr(p, '=', n);
                if (n > 0) {
                        if (!eq)
                                goto bad;
                        i = slot_from_name(p, (size_t)(eq - p));
                        if (i < 0 || !valid_sgr(eq + 1, n - (size_t)(eq + 1 - p)))
                                goto bad;
                        set_sgr(i, eq + 1, n - (size_t)(eq + 1 - p));
                }
                p += n + (end ? 1 : 0);
        }
        return 0;
bad:
        warnx_(_("bad KDMESG_COLORS entry '%.*s' (expected SLOT=SGR, e.g. time=32)"),
               (int)(strchr(p, ':') ? strchr(p, ':') - p : (long)strlen(p)), p);
        return -EINVAL;
}

/* The color names of terminal-colors.d(5), as SGR parameters. */
static const char *sgr_of_color_name(const char *name) {
        static const struct {
                const char *name, *sgr;
        } names[] = {
                { "black", "30" },        { "red", "31" },          { "green", "32" },
                { "brown", "33" },        { "blue", "34" },         { "magenta", "35" },
                { "cyan", "36" },         { "gray", "37" },         { "lightgray", "37" },
                { "darkgray", "1;30" },   { "lightred", "1;31" },   { "lightgreen", "1;32" },
                { "yellow", "1;33" },     { "lightblue", "1;34" },  { "lightmagenta", "1;35" },
                { "lightcyan", "1;36" },  { "white", "1;37" },      { "bold", "1" },
                { "halfbright", "2" },    { "blink", "5" },         { "reverse", "7" },
                { "reset", "0" },
        };
        size_t i;

        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (strcmp(name, names[i].name) == 0)
                        return names[i].sgr;
        return NULL;
}

/*
 * A scheme file: "NAME COLOR" lines, COLOR a color name or SGR parameters
 * ("1;31"); '#' starts a comment.  A bad line is a warning with its number.
 */
static void read_scheme(const char *path) {
        FILE *f = fopen(path, "re");
        char line[256];
        unsigned lineno = 0;

        if (!f) {
                warnx_(_("cannot read the color scheme %s: %s"), path, strerror(errno));
                return;
        }
        while (fgets(line, sizeof(line), f)) {
                char *name, *value, *extra, *save = NULL, *hash = strchr(line, '#');
                const char *sgr;
                int slot;

                lineno++;
                if (hash)
                        *hash = '\0';
                name = strtok_r(line, " \t\r\n", &save);
                if (!name)
                        continue;
                value = strtok_r(NULL, " \t\r\n", &save);
                extra = value ? strtok_r(NULL, " \t\r\n", &save) : NULL;
                slot = slot_from_name(name, strlen(name));
                if (slot < 0) {
                        warnx_(_("%s:%u: unknown color slot '%s'"), path, lineno, name);
                        continue;
                }
                sgr = value ? sgr_of_color_name(value) : NULL;
                if (!sgr && value && valid_sgr(value, strlen(value)))
                        sgr = value;
                if (!sgr || extra) {
                        warnx_(_("%s:%u: bad color '%s' for %s (expected a color name or SGR, e.g. 1;31)"),
                               path, lineno, value ? value : "", name);
                        continue;
                }
                set_sgr(slot, sgr, strlen(sgr));
        }
        fclose(f);
}

enum { FILE_ENABLE, FILE_DISABLE, FILE_SCHEME, FILE_TYPES };

/* The best file of each type: its score (-1: none) and path. */
struct colors_files {
        int score[FILE_TYPES];
        char path[FILE_TYPES][1024];
};

/*
 * Score a terminal-colors.d file name "[NAME][@TERM].TYPE" (or just TYPE):
 * kdmesg@term 5, kdmesg 4, dmesg@term 3, dmesg 2, @term 1, nothing 0, as
 * util-linux ranks a utility's name over the terminal.  -1: not for us.
 */
static int score_name(const char *fname, const char *term, int *ret_type) {
        static const char *const types[FILE_TYPES] = { "enable", "disable", "scheme" };
        const char *dot = strrchr(fname, '.'), *type = dot ? dot + 1 : fname;
        const char *at = memchr(fname, '@', (size_t)(dot ? dot - fname : (long)strlen(fname)));
        size_t namelen = at ? (size_t)(at - fname) : dot ? (size_t)(dot - fname) : 0;
        int score = 0, t;

        for (t = 0; t < FILE_TYPES; t++)
                if (strcmp(type, types[t]) == 0)
                        break;
        if (t == FILE_TYPES)
                return -1;
        if (at) {
                size_t termlen = (size_t)(dot - at - 1);

                if (!term || strlen(term) != termlen || strncmp(at + 1, term, termlen) != 0)
                        return -1;
                score = 1;
        }
        if (namelen == 6 && strncmp(fname, "kdmesg", 6) == 0)
                score += 4;
        else if (namelen == 5 && strncmp(fname, "dmesg", 5) == 0)
                score += 2;
        else if (namelen > 0)
                return -1;
        *ret_type = t;
        return score;
}

/*
 * Scan one directory.  The score of a file is twice its name's rank, plus
 * one in the user's directory: the user's file wins over the system's of
 * the same name, and an enable file over a disable file of the same rank.
 */
static void scan_dir(const char *dir, int bonus, const char *term, struct colors_files *cf) {
        DIR *d = opendir(dir);
        struct dirent *de;

        if (!d)
                return;
        while ((de = readdir(d))) {
                int type, score;

                if (de->d_name[0] == '.')
                        continue;
                score = score_name(de->d_name, term, &type);
                if (score < 0)
                        continue;
                score = score * 2 + bonus;
                if (score < cf->score[type])
                        continue;
                cf->score[type] = score;
                snprintf(cf->path[type], sizeof(cf->path[type]), "%s/%s", dir, de->d_name);
        }
        closedir(d);
}

static void find_files(struct colors_files *cf) {
        const char *sys = getenv("KDMESG_SYSTEM_COLORS_DIR");
        const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
        const char *term = getenv("TERM");
        char user[1024] = "";

        for (int t = 0; t < FILE_TYPES; t++)
                cf->score[t] = -1;
        scan_dir(sys && *sys ? sys : "/etc/terminal-colors.d", 0, term, cf);
        if (xdg && *xdg)
                snprintf(user, sizeof(user), "%s/terminal-colors.d", xdg);
        else if (home && *home)
                snprintf(user, sizeof(user), "%s/.config/terminal-colors.d", home);
        if (*user)
                scan_dir(user, 1, term, cf);
}

static bool terminal_has_colors(void) {
        const char *term = getenv("TERM");
        const char *no_color = getenv("NO_COLOR");

        return isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb") != 0 && !(no_color && *no_color);
}

int color_init(enum color_mode mode) {
        const char *spec = getenv("KDMESG_COLORS");
        struct colors_files cf;

        if (mode == COLOR_NEVER) {
                color_state.on = false;
                return 0;
        }
        if (mode != COLOR_ALWAYS && !terminal_has_colors()) {
                color_state.on = false;
                return 0;
        }
        find_files(&cf);
        /* Without --color, a disable file wins over an enable file of lower rank. */
        if (mode == COLOR_UNSET && cf.score[FILE_DISABLE] > cf.score[FILE_ENABLE]) {
                color_state.on = false;
                return 0;
        }
        color_state.on = true;
        if (cf.score[FILE_SCHEME] >= 0)
                read_scheme(cf.path[FILE_SCHEME]);
        if (spec)
                return parse_colors(spec);
        return 0;
}

void color_start(enum color_slot slot) {
        if (slot >= COLOR_SLOTS || !color_state.slots[slot][0])
                return;
        out_puts(color_state.slots[slot]);
}

void color_end(enum color_slot slot) {
        if (slot >= COLOR_SLOTS || !color_state.slots[slot][0])
                return;
        out_write(ESC "[0m", 4);
}

size_t color_wrap(enum color_slot slot, const char *text, char *buf, size_t size) {
        int n;

        if (!color_state.on || slot >= COLOR_SLOTS || !color_state.slots[slot][0])
                return 0;
        n = snprintf(buf, size, "%s%s" ESC "[0m", color_state.slots[slot], text);
        return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}
