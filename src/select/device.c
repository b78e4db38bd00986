/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --device arguments: from what the user calls a device (a node in /dev, a
 * block or interface name, a sysfs path, a raw DEVICE value) to the DEVICE
 * values the kernel writes for it, through sysfs.  Done once, at start.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "select/device.h"
#include "base/i18n.h"
#include "text/util.h"

/* sysfs device trees are shallow; this only guards against a strange saved tree. */
#define MAX_CHILD_DEPTH 32

static int parse_u32(const char **p, uint32_t *ret) {
        const char *s = *p;
        uint64_t v;

        if (parse_u64_prefix(&s, &v) < 0 || v > UINT32_MAX)
                return -EINVAL;
        *p = s;
        *ret = (uint32_t)v;
        return 0;
}

int devid_parse(const char *v, struct devid *ret) {
        const char *p = v + 1;
        struct devid d = { .kind = v[0] };

        switch (v[0]) {
        case 'b':
        case 'c':
                if (parse_u32(&p, &d.major) < 0 || *p++ != ':' || parse_u32(&p, &d.minor) < 0 || *p)
                        return -EINVAL;
                break;
        case 'n':
                if (parse_u32(&p, &d.minor) < 0 || *p)
                        return -EINVAL;
                break;
        case '+':
                /* "+subsystem:name", split at the first ':'; both parts non-empty. */
                p = strchr(v, ':');
                if (!p || p == v + 1 || !p[1])
                        return -EINVAL;
                d.str = v;
                break;
        default:
                return -EINVAL;
        }
        *ret = d;
        return 0;
}

bool devid_equal(const struct devid *a, const struct devid *b) {
        if (a->kind != b->kind)
                return false;
        if (a->kind == '+')
                return strcmp(a->str, b->str) == 0;
        return a->major == b->major && a->minor == b->minor;
}

/* ------------------------------------------------------------------ */
/* Building the resolved set                                          */

static char *keep_string(struct devfilter *f, const char *s) {
        char **a = realloc(f->strings, (f->n_strings + 1) * sizeof(*a));
        char *d;

        if (!a)
                return NULL;
        f->strings = a;
        d = strdup(s);
        if (!d)
                return NULL;
        f->strings[f->n_strings++] = d;
        return d;
}

/* An id the kernel writes for a selected device, or (parent) for a device above one. */
static int add_id_to(struct devfilter *f, const struct devid *id, bool parent) {
        struct devid **ids = parent ? &f->parent_ids : &f->ids, *a;
        size_t *n = parent ? &f->n_parent_ids : &f->n_ids, i;

        for (i = 0; i < *n; i++)
                if (devid_equal(&(*ids)[i], id))
                        return 0;
        a = realloc(*ids, (*n + 1) * sizeof(*a));
        if (!a)
                return -ENOMEM;
        *ids = a;
        a[*n] = *id;
        if (id->kind == '+' && !(a[*n].str = keep_string(f, id->str)))
                return -ENOMEM;
        (*n)++;
        return 0;
}

static int add_id(struct devfilter *f, const struct devid *id) {
        return add_id_to(f, id, false);
}

/*
 * A name for --device-text, with the DEVICE value and subsystem of the
 * device it names.  The first device of a name keeps it.
 */
static int add_name(struct devfilter *f, const char *name, const char *device, const char *subsys) {
        const char **a;
        size_t i;

        for (i = 0; i < f->n_names; i++)
                if (strcmp(f->names[i], name) == 0)
                        return 0;
        a = realloc(f->names, (f->n_names + 1) * sizeof(*a));
        if (!a)
                return -ENOMEM;
        f->names = a;
        a = realloc(f->name_devices, (f->n_names + 1) * sizeof(*a));
        if (!a)
                return -ENOMEM;
        f->name_devices = a;
        a = realloc(f->name_subsystems, (f->n_names + 1) * sizeof(*a));
        if (!a)
                return -ENOMEM;
        f->name_subsystems = a;
        if (!(f->names[f->n_names] = keep_string(f, name)) ||
            !(f->name_devices[f->n_names] = keep_string(f, device)))
                return -ENOMEM;
        f->name_subsystems[f->n_names] = NULL;
        if (subsys && !(f->name_subsystems[f->n_names] = keep_string(f, subsys)))
                return -ENOMEM;
        f->n_names++;
        return 0;
}

/*
 * Add every DEVICE value the kernel may write for the device whose
 * canonical sysfs directory is dir: its device number (b/c), its ifindex
 * (n), and +subsystem:name; and its name for --device-text.  parent: the
 * values go to the parents' set, without a name.
 */
int devfilter_add_sysfs_device(struct devfilter *f, const char *dir, bool parent) {
        char path[PATH_MAX], subsys_path[PATH_MAX], buf[64], plus[PATH_MAX], device[PATH_MAX] = "";
        const char *name = path_basename(dir), *subsys = NULL;
        struct devid id;
        int e;

        if (pathf(path, "%s/subsystem", dir) < 0)
                return -ENAMETOOLONG;
        if (realpath(path, subsys_path))
                subsys = path_basename(subsys_path);

        /*
         * The kernel writes the device number when there is one, else the
         * ifindex of a network interface, else +subsystem:name; the first
         * found is the one --devices counts text matches under.
         */
        if (sysfs_read_attr(dir, "dev", buf, sizeof(buf)) == 0) {
                const char *p = buf;

                id = (struct devid){ .kind = subsys && strcmp(subsys, "block") == 0 ? 'b' : 'c' };
                if (parse_u32(&p, &id.major) == 0 && *p++ == ':' && parse_u32(&p, &id.minor) == 0 && id.major > 0) {
                        if ((e = add_id_to(f, &id, parent)) < 0)
                                return e;
                        pathf(device, "%c%u:%u", id.kind, id.major, id.minor);
                }
        }
        if (subsys && strcmp(subsys, "net") == 0 && sysfs_read_attr(dir, "ifindex", buf, sizeof(buf)) == 0) {
                const char *p = buf;

                id = (struct devid){ .kind = 'n' };
                if (parse_u32(&p, &id.minor) == 0) {
                        if ((e = add_id_to(f, &id, parent)) < 0)
                                return e;
                        if (!device[0])
                                pathf(device, "n%u", id.minor);
                }
        }
        if (subsys && pathf(plus, "+%s:%s", subsys, name) == 0) {
                id = (struct devid){ .kind = '+', .str = plus };
                if ((e = add_id_to(f, &id, parent)) < 0)
                        return e;
                if (!device[0])
                        memcpy(device, plus, strlen(plus) + 1);
        }
        if (!device[0] || parent)
                return 0; /* no subsystem: nothing the kernel would write for it */
        return add_name(f, name, device, subsys);
}

/*
 * --with-children: every device below dir in the sysfs device tree (a
 * disk's partitions, a USB device's interfaces and what hangs off them).
 * Symbolic links are not followed, so the walk stays inside the subtree.
 */
static int add_children(struct devfilter *f, const char *dir, unsigned depth) {
        DIR *d;
        struct dirent *de;
        int e = 0;

        if (depth > MAX_CHILD_DEPTH)
                return 0;
        d = opendir(dir);
        if (!d)
                return 0;
        while ((de = readdir(d)) && e >= 0) {
                char path[PATH_MAX];
                struct stat st;

                if (de->d_name[0] == '.')
                        continue;
                if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
                        continue;
                if (pathf(path, "%s/%s", dir, de->d_name) < 0)
                        continue;
                if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
                        continue;
                if (sysfs_is_device_dir(path) && (e = devfilter_add_sysfs_device(f, path, false)) < 0)
                        break;
                e = add_children(f, path, depth + 1);
        }
        closedir(d);
        return e;
}

static int add_parent(const char *dir, void *userdata) {
        return devfilter_add_sysfs_device(userdata, dir, true);
}

/* A device the user named: itself, the devices above it, and with --with-children those below. */
static int add_device_dir(struct devfilter *f, const char *dir) {
        int e = devfilter_add_sysfs_device(f, dir, false);

        if (e >= 0)
                e = sysfs_each_parent(dir, add_parent, f);
        if (e < 0 || !f->children)
                return e;
        return add_children(f, dir, 0);
}

/* Canonical directory of root + rel, which must be a sysfs device. */
static int sysfs_device_dir(const struct sysroot *root, const char *rel, char ret[PATH_MAX]) {
        char path[PATH_MAX];

        if (pathf(path, "%s%s", root->dir, rel) < 0)
                return -ENAMETOOLONG;
        if (!realpath(path, ret))
                return -errno;
        if (!sysfs_is_device_dir(ret))
                return -ENODEV;
        return 0;
}

/* The sysfs directory of a device number, if this sysfs has it. */
static int sysfs_devnum_dir(const struct sysroot *root, char kind, uint32_t major, uint32_t minor,
                            char ret[PATH_MAX]) {
        char rel[PATH_MAX];

        pathf(rel, "/sys/dev/%s/%u:%u", kind == 'b' ? "block" : "char", major, minor);
        return sysfs_device_dir(root, rel, ret);
}

/* The sysfs directory of the network interface with this ifindex. */
static int sysfs_ifindex_dir(const struct sysroot *root, uint32_t ifindex, char ret[PATH_MAX]) {
        char dir[PATH_MAX], path[PATH_MAX], buf[32];
        struct dirent *de;
        uint64_t v;
        DIR *d;
        int e = -ENODEV;

        pathf(dir, "%s/sys/class/net", root->dir);
        d = opendir(dir);
        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                if (de->d_name[0] == '.')
                        continue;
                pathf(path, "%s/%s", dir, de->d_name);
                if (sysfs_read_attr(path, "ifindex", buf, sizeof(buf)) == 0 && parse_u64(buf, &v) == 0 &&
                    v == ifindex) {
                        if (realpath(path, ret))
                                e = 0;
                        break;
                }
        }
        closedir(d);
        return e;
}

static int add_device_dir(struct devfilter *f, const char *dir);

/*
 * A name: a block device, a network interface, or any device of that name on
 * a bus or in a class (ttyUSB0 is both a usb-serial port and a tty).  Adds
 * every device found; -ENODEV when there is none.
 */
static int add_named_devices(struct devfilter *f, const struct sysroot *root, const char *name) {
        static const char *const tops[] = { "/sys/class", "/sys/bus" };
        char rel[PATH_MAX], dir[PATH_MAX];
        size_t i;
        int e, found = 0;

        if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
                return -ENODEV;
        for (i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
                char top[PATH_MAX];
                struct dirent *de;
                DIR *d;

                if (pathf(top, "%s%s", root->dir, tops[i]) < 0 || !(d = opendir(top)))
                        continue;
                while ((de = readdir(d))) {
                        if (de->d_name[0] == '.')
                                continue;
                        if (i == 1)
                                pathf(rel, "%s/%s/devices/%s", tops[i], de->d_name, name);
                        else
                                pathf(rel, "%s/%s/%s", tops[i], de->d_name, name);
                        if (sysfs_device_dir(root, rel, dir) < 0)
                                continue;
                        found++;
                        if ((e = add_device_dir(f, dir)) < 0) {
                                closedir(d);
                                return e;
                        }
                }
                closedir(d);
        }
        return found ? 0 : -ENODEV;
}

/*
 * In a saved tree there are no device nodes: find the device whose uevent
 * says DEVNAME=<node below /dev>.
 */
static int sysfs_devname_dir(const struct sysroot *root, const char *node, char ret[PATH_MAX]) {
        static const char *const kinds[] = { "block", "char" };
        size_t i;

        for (i = 0; i < 2; i++) {
                char dir[PATH_MAX], path[PATH_MAX], buf[4096];
                struct dirent *de;
                DIR *d;
                int e = -ENOENT;

                pathf(dir, "%s/sys/dev/%s", root->dir, kinds[i]);
                d = opendir(dir);
                if (!d)
                        continue;
                while ((de = readdir(d)) && e < 0) {
                        char *line, *save = NULL;

                        if (de->d_name[0] == '.')
                                continue;
                        pathf(path, "%s/%s", dir, de->d_name);
                        if (sysfs_read_attr(path, "uevent", buf, sizeof(buf)) < 0)
                                continue;
                        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
                                if (strncmp(line, "DEVNAME=", 8) == 0 && strcmp(line + 8, node) == 0 &&
                                    realpath(path, ret))
                                        e = 0;
                }
                closedir(d);
                if (e == 0)
                        return 0;
        }
        return -ENOENT;
}

/* One --device argument. */
static int resolve_one(struct devfilter *f, const struct sysroot *root, const char *arg,
                       const char **ret_what) {
        char dir[PATH_MAX];
        struct devid id;
        int e;

        *ret_what = NULL;
        if (devid_parse(arg, &id) == 0) {
                /* A raw DEVICE value names what the log says, here or not. */
                if ((e = add_id(f, &id)) < 0)
                        return e;
                if (id.kind == '+') {
                        const char *name = strchr(arg, ':') + 1;
                        char rel[PATH_MAX];
                        size_t sl = (size_t)(name - 1 - (arg + 1));

                        pathf(rel, "/sys/bus/%.*s/devices/%s", (int)sl, arg + 1, name);
                        e = sysfs_device_dir(root, rel, dir);
                        if (e < 0) {
                                pathf(rel, "/sys/class/%.*s/%s", (int)sl, arg + 1, name);
                                e = sysfs_device_dir(root, rel, dir);
                        }
                        if (e < 0) {
                                char subsys[PATH_MAX];

                                pathf(subsys, "%.*s", (int)sl, arg + 1);
                                return add_name(f, name, arg, subsys);
                        }
                } else if (id.kind == 'n')
                        e = sysfs_ifindex_dir(root, id.minor, dir);
                else
                        e = sysfs_devnum_dir(root, id.kind, id.major, id.minor, dir);
                return e < 0 ? 0 : add_device_dir(f, dir);
        }

        if (strncmp(arg, "/sys/", 5) == 0 || strcmp(arg, "/sys") == 0) {
                e = sysfs_device_dir(root, arg, dir);
                if (e == -ENODEV)
                        *ret_what = _("not a device directory in sysfs");
                return e < 0 ? e : add_device_dir(f, dir);
        }

        if (arg[0] == '/' || strncmp(arg, "./", 2) == 0 || strncmp(arg, "../", 3) == 0) {
                char path[PATH_MAX];
                struct stat st;

                /* A device node. */
                if (pathf(path, "%s%s", arg[0] == '/' ? root->dir : "", arg) < 0)
                        return -ENAMETOOLONG;
                if (stat(path, &st) < 0) {
                        e = -errno;
                        /* A saved sysfs tree comes without /dev: ask its uevent files. */
                        if (root->dir[0] && strncmp(arg, "/dev/", 5) == 0 &&
                            sysfs_devname_dir(root, arg + 5, dir) == 0)
                                return add_device_dir(f, dir);
                        return e;
                }
                if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
                        *ret_what = _("not a device node");
                        return -ENODEV;
                }
                id = (struct devid){ .kind = S_ISBLK(st.st_mode) ? 'b' : 'c',
                                     .major = major(st.st_rdev),
                                     .minor = minor(st.st_rdev) };
                if ((e = add_id(f, &id)) < 0)
                        return e;
                if (sysfs_devnum_dir(root, id.kind, id.major, id.minor, dir) == 0)
                        return add_device_dir(f, dir);
                return 0;
        }

        e = add_named_devices(f, root, arg);
        if (e == -ENODEV)
                *ret_what = _("no such device (not a block device, network interface, device node, "
                              "sysfs path or DEVICE value)");
        return e;
}

int devfilter_resolve(struct devfilter *f, const struct sysroot *root, const char **ret_arg,
                      const char **ret_what) {
        size_t i;
        int e;

        for (i = 0; i < f->n_dev_args; i++) {
                e = resolve_one(f, root, f->dev_args[i], ret_what);
                if (e < 0) {
                        *ret_arg = f->dev_args[i];
                        return e;
                }
        }
        return 0;
}

static int push_arg(const char ***a, size_t *n, const char *arg) {
        const char **p = realloc(*a, (*n + 1) * sizeof(*p));

        if (!p)
                return -ENOMEM;
        p[(*n)++] = arg;
        *a = p;
        return 0;
}

int devfilter_add(struct devfilter *f, int opt, const char *arg) {
        struct devmatch_kv *m;
        const char *eq;
        size_t i;

        switch (opt) {
        case DEVOPT_DEVICE:
                return push_arg(&f->dev_args, &f->n_dev_args, arg);
        case DEVOPT_SUBSYSTEM:
                return push_arg(&f->subsystems, &f->n_subsystems, arg);
        case DEVOPT_MATCH:
                eq = strchr(arg, '=');
                if (!eq || eq == arg)
                        return -EINVAL;
                m = realloc(f->matches, (f->n_matches + 1) * sizeof(*m));
                if (!m)
                        return -ENOMEM;
                f->matches = m;
                m = &f->matches[f->n_matches];
                m->key = strndup(arg, (size_t)(eq - arg));
                if (!m->key)
                        return -ENOMEM;
                m->glob = eq + 1;
                m->first_of_key = true;
                for (i = 0; i < f->n_matches; i++)
                        if (strcmp(f->matches[i].key, m->key) == 0)
                                m->first_of_key = false;
                f->n_matches++;
                return 0;
        case DEVOPT_WITH_CHILDREN:
                f->children = true;
                return 0;
        case DEVOPT_DEVICE_TEXT:
                f->text = true;
                return 0;
        }
        return -EINVAL;
}

bool devfilter_active(const struct devfilter *f) {
        return f->n_dev_args > 0 || f->n_subsystems > 0 || f->n_matches > 0;
}

void devfilter_done(struct devfilter *f) {
        size_t i;

        for (i = 0; i < f->n_strings; i++)
                free(f->strings[i]);
        for (i = 0; i < f->n_matches; i++)
                free(f->matches[i].key);
        free(f->strings);
        free(f->matches);
        free(f->ids);
        free(f->parent_ids);
        free(f->names);
        free(f->name_devices);
        free(f->name_subsystems);
        free(f->dev_args);
        free(f->subsystems);
        *f = (struct devfilter){};
}
