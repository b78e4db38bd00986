/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The device options as a whole: parsing and set-up (what sinks ask of them: devnamer_*() in select/). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/device-options.h"
#include "base/i18n.h"

const char *devctx_help(void) {
        return _("     --device <dev>          only this device (sda, eth0, /dev/sda, b8:0, ...)\n"
                 "     --subsystem <name>      only messages of this subsystem\n"
                 "     --match <key>=<glob>    only records whose dictionary KEY matches GLOB\n"
                 "     --with-children         --device also selects the devices below it\n"
                 "     --device-text           --device also selects records that name it\n");
}

const char *devctx_help_devices(void) {
        return _("     --show-device           show the device name before each message: <name>\n"
                 "     --resolve               name devices of a dump (-K) from this /sys\n"
                 "     --sysroot <dir>         use the sysfs saved in <dir>/sys for names\n");
}

int devctx_option(struct devctx *d, int opt, const char *arg) {
        switch (opt) {
        case DEVOPT_SHOW_DEVICE:
                d->namer.show_device = true;
                return 0;
        case DEVOPT_RESOLVE:
                d->resolve = true;
                return 0;
        case DEVOPT_SYSROOT:
                d->root.dir = arg;
                return 0;
        default:
                return devfilter_add(&d->filter, opt, arg);
        }
}

int devctx_setup(struct devctx *d, bool live, void (*warn)(const char *fmt, ...)) {
        const char *arg = NULL, *what = NULL;
        bool sysroot = d->root.dir != NULL;
        int e;

        if (!sysroot)
                d->root.dir = "";
        else {
                char path[4096];
                struct stat st;

                snprintf(path, sizeof(path), "%s/sys", d->root.dir);
                if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
                        warn(_("--sysroot %s: no sys/ directory in it"), d->root.dir);
                        return -ENOENT;
                }
                /* "--sysroot /" is the live system. */
                if (strcmp(d->root.dir, "/") == 0)
                        d->root.dir = "";
        }
        if ((d->filter.children || d->filter.text) && d->filter.n_dev_args == 0) {
                warn(_("%s needs --device"), d->filter.children ? "--with-children" : "--device-text");
                return -EINVAL;
        }
        e = devfilter_resolve(&d->filter, &d->root, &arg, &what);
        if (e < 0) {
                warn("--device %s: %s", arg, what ? what : strerror(-e));
                return e;
        }
        /* Numbers from another machine mean nothing here: names only when asked. */
        d->namer.names = devnames_new(live || d->resolve || sysroot ? &d->root : NULL);
        d->namer.by_text = d->filter.text;
        if (!d->namer.names) {
                warn("%s", strerror(ENOMEM));
                return -ENOMEM;
        }
        return 0;
}

void devctx_done(struct devctx *d) {
        devfilter_done(&d->filter);
        devnames_free(d->namer.names);
        d->namer.names = NULL;
}
