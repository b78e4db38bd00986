/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_I18N_H
#define KDMESG_I18N_H

#include <libintl.h>
#include <locale.h>
#include <stdlib.h>

#define _(s) gettext(s)
#define N_(s) (s)
/* The singular or plural form for n (po/meson.build names it to xgettext: --keyword=P_:1,2). */
#define P_(s, p, n) ngettext(s, p, n)

/*
 * Bind the message catalogs.  KDMESG_LOCALEDIR replaces the directory
 * chosen at build time, so that the tests can run the program from the
 * build tree (where po/<lang>/LC_MESSAGES/kdmesg.mo is built).
 */
static inline void i18n_init(void) {
        const char *dir = secure_getenv("KDMESG_LOCALEDIR");

        bindtextdomain(GETTEXT_PACKAGE, dir && *dir ? dir : LOCALEDIR);
        textdomain(GETTEXT_PACKAGE);
}

#endif
