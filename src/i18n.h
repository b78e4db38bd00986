/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_I18N_H
#define KDMESG_I18N_H

#include <libintl.h>
#include <locale.h>

#define _(s) gettext(s)
#define N_(s) (s)

static inline void i18n_init(void) {
        bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
        textdomain(GETTEXT_PACKAGE);
}

#endif
