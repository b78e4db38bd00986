/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_COLOR_H
#define KDMESG_COLOR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Named color slots.  The defaults are util-linux dmesg 2.43's scheme
 * (time green, subsystem brown, alert reverse red, crit bold red, err red,
 * warn bold, segfault half-bright red), plus kdmesg's own device and loss
 * slots.  A terminal-colors.d scheme file (terminal-colors.d(5): dmesg or
 * kdmesg, per terminal) and then KDMESG_COLORS ("time=32:err=1;31:prefix=")
 * change them; an empty value turns a slot off.
 */
enum color_slot {
        COLOR_EMERG = 0, /* the levels first: COLOR_EMERG + level */
        COLOR_ALERT,
        COLOR_CRIT,
        COLOR_ERR,
        COLOR_WARN,
        COLOR_NOTICE,
        COLOR_INFO,
        COLOR_DEBUG,
        COLOR_TIME,      /* the time stamp */
        COLOR_TIMEBREAK, /* the reltime view's full time at a new minute */
        COLOR_PREFIX,    /* "kern  :info  : " (--decode) */
        COLOR_SUBSYSTEM, /* the message's own "subsystem: " head */
        COLOR_DEVICE,    /* the --show-device tag */
        COLOR_LOSS,      /* lost-message markers */
        COLOR_SEGFAULT,  /* a message with "segfault at", where its level has no color */
        COLOR_SLOTS
};

enum color_mode {
        COLOR_UNSET = 0, /* no --color: auto, unless terminal-colors.d disables */
        COLOR_AUTO,
        COLOR_ALWAYS,
        COLOR_NEVER,
};

/* "auto", "always", "never" (NULL: auto); returns the mode or -EINVAL. */
int color_mode_from_name(const char *name);
/*
 * Decide whether to color, then read the scheme file and KDMESG_COLORS.
 * Auto colors only when standard output is a terminal, TERM is set and is
 * not "dumb", and NO_COLOR is unset or empty.  The terminal-colors.d
 * directories are $KDMESG_SYSTEM_COLORS_DIR (for tests; default
 * /etc/terminal-colors.d) and $XDG_CONFIG_HOME/terminal-colors.d (or
 * ~/.config/terminal-colors.d); a bad scheme line is a warning.  Returns 0,
 * or -EINVAL (with a message) for a bad KDMESG_COLORS.
 */
int color_init(enum color_mode mode);
static inline bool color_enabled(void);
/* Start coloring with slot (nothing when disabled or the slot is empty). */
static inline void color_on(enum color_slot slot);
/* End what color_on() started. */
static inline void color_off(enum color_slot slot);
/* Whether the slot has a color (when colors are on). */
bool color_slot_set(enum color_slot slot);
/* The slot's name ("time", "err", ...), for KDMESG_COLORS. */
const char *color_slot_name(enum color_slot slot);

/*
 * The colors of the run: whether they are on, and each slot's escape
 * sequences (the defaults, then color_init()'s changes).  One per process,
 * as standard output is: set once before the first record, read for every
 * colored piece by the inline functions below.
 */
#define COLOR_SEQ_MAX 48
struct color_state {
        bool on;
        char slots[COLOR_SLOTS][COLOR_SEQ_MAX];
};
extern struct color_state color_state;
void color_start(enum color_slot slot);
void color_end(enum color_slot slot);

/*
 * text in the slot's color, for a cell printed by kdmesg's own table
 * printer, which takes a cell's width apart from its bytes (the escape
 * sequences take no column), and so never for text that may be cut.  The
 * length written to buf, or 0: colors off, the slot has none, no room.
 */
size_t color_wrap(enum color_slot slot, const char *text, char *buf, size_t size);

static inline bool color_enabled(void) {
        return color_state.on;
}

static inline void color_on(enum color_slot slot) {
        if (color_state.on)
                color_start(slot);
}

static inline void color_off(enum color_slot slot) {
        if (color_state.on)
                color_end(slot);
}

#endif
