/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_COLOR_H
#define KDMESG_COLOR_H

#include <stdbool.h>

/*
 * Named color slots.  Each has a default SGR sequence; KDMESG_COLORS
 * ("time=32:err=1;31:prefix=") changes them, an empty value turns a slot
 * off.  Colors are used with --color=always, or with auto (the default)
 * when standard output is a terminal and NO_COLOR is not set.
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
        COLOR_SUBSYSTEM, /* the message's own "subsystem:" head, SUBSYSTEM= */
        COLOR_DEVICE,    /* DEVICE= */
        COLOR_LOSS,      /* lost-message markers */
        COLOR_SLOTS
};

enum color_mode {
        COLOR_AUTO = 0,
        COLOR_ALWAYS,
        COLOR_NEVER,
};

/* "auto", "always", "never"; returns the mode or -EINVAL. */
int color_mode_from_name(const char *name);
/*
 * Decide whether to color and read KDMESG_COLORS.  Returns 0, or -EINVAL
 * (with a message) for a bad KDMESG_COLORS.
 */
int color_init(enum color_mode mode);
static inline bool color_enabled(void);
/* Start coloring with slot (nothing when disabled or the slot is empty). */
static inline void color_on(enum color_slot slot);
/* End what color_on() started. */
static inline void color_off(enum color_slot slot);
/* The slot's name ("time", "err", ...), for KDMESG_COLORS. */
const char *color_slot_name(enum color_slot slot);

/* Internals for the inline functions. */
extern bool color_is_on;
void color_start(enum color_slot slot);
void color_end(enum color_slot slot);

static inline bool color_enabled(void) {
        return color_is_on;
}

static inline void color_on(enum color_slot slot) {
        if (color_is_on)
                color_start(slot);
}

static inline void color_off(enum color_slot slot) {
        if (color_is_on)
                color_end(slot);
}

#endif
