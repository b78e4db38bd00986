/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names for DEVICE values: "b8:0" -> "sda" (/sys/dev/block/8:0),
 * "c189:130" -> "2-1.4" (/sys/dev/char/189:130), "n2" -> "eth0" (the
 * interface whose ifindex is 2), "+pci:0000:00:1f.2" -> "0000:00:1f.2".
 * Each value is looked up once and cached; a value without a name is looked
 * up again after a second at the earliest, since when following, a device's
 * first message can come before its sysfs entry.  The sinks ask through
 * a struct devnamer: a record's device name, and the classic view's tag.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/parse-u64.h"
#include "base/strmap.h"
#include "select/device.h"
#include "text/escape.h"
#include "text/writer.h"

#define N_BUCKETS 1024
/* Distinct DEVICE values cached at most; beyond, names are looked up each time. */
#define MAX_ENTRIES 65536

struct entry {
        struct strmap_node node; /* keyed by device */
        char *name;   /* NULL: no name known */
        time_t tried; /* when the lookup that found no name ran */
        char device[];
};

struct ifname {
        uint32_t ifindex;
        char *name;
};

struct devnames {
        bool sysfs; /* whether to look in sysfs at all */
        char *root;
        struct strmap *entries;
        struct ifname *ifs; /* /sys/class/net, read on first use */
        size_t n_ifs;
        bool ifs_read;
        char scratch[PATH_MAX];
};

struct devnames *devnames_new(const struct sysroot *root) {
        struct devnames *n = calloc(1, sizeof(*n));

        if (!n)
                return NULL;
        n->sysfs = root != NULL;
        n->root = strdup(root ? root->dir : "");
        n->entries = strmap_new(N_BUCKETS);
        if (!n->root || !n->entries) {
                free(n->root);
                strmap_free(n->entries);
                free(n);
                return NULL;
        }
        return n;
}

static void free_interfaces(struct devnames *n) {
        size_t i;

        for (i = 0; i < n->n_ifs; i++)
                free(n->ifs[i].name);
        free(n->ifs);
        n->ifs = NULL;
        n->n_ifs = 0;
        n->ifs_read = false;
}

static void free_entry(struct strmap_node *node, void *userdata) {
        struct entry *e = (struct entry *)node;

        free(e->name);
        free(e);
}

void devnames_free(struct devnames *n) {
        if (!n)
                return;
        strmap_each(n->entries, free_entry, NULL);
        strmap_free(n->entries);
        free_interfaces(n);
        free(n->root);
        free(n);
}

static void read_interfaces(struct devnames *n) {
        char dir[PATH_MAX], path[PATH_MAX], buf[32];
        struct dirent *de;
        DIR *d;

        n->ifs_read = true;
        pathf(dir, "%s/sys/class/net", n->root);
        d = opendir(dir);
        if (!d)
                return;
        while ((de = readdir(d))) {
                struct ifname *a;
                uint64_t v;

                if (de->d_name[0] == '.')
                        continue;
                pathf(path, "%s/%s", dir, de->d_name);
                if (sysfs_read_attr(path, "ifindex", buf, sizeof(buf)) < 0)
                        continue;
                if (parse_u64(buf, &v) < 0 || v > UINT32_MAX)
                        continue;
                a = realloc(n->ifs, (n->n_ifs + 1) * sizeof(*a));
                if (!a)
                        break;
                n->ifs = a;
                a[n->n_ifs].ifindex = (uint32_t)v;
                a[n->n_ifs].name = strdup(de->d_name);
                if (a[n->n_ifs].name)
                        n->n_ifs++;
        }
        closedir(d);
}

/* Look a parsed value up; the name is copied into n->scratch.  Returns it or NULL. */
static const char *lookup(struct devnames *n, const struct devid *id) {
        char path[PATH_MAX];
        ssize_t len;
        size_t i;

        switch (id->kind) {
        case '+':
                snprintf(n->scratch, sizeof(n->scratch), "%s", strchr(id->str, ':') + 1);
                return n->scratch;
        case 'n':
                if (!n->sysfs)
                        return NULL;
                if (!n->ifs_read)
                        read_interfaces(n);
                for (i = 0; i < n->n_ifs; i++)
                        if (n->ifs[i].ifindex == id->minor) {
                                snprintf(n->scratch, sizeof(n->scratch), "%s", n->ifs[i].name);
                                return n->scratch;
                        }
                return NULL;
        case 'b':
        case 'c':
                if (!n->sysfs)
                        return NULL;
                pathf(path, "%s/sys/dev/%s/%u:%u", n->root, id->kind == 'b' ? "block" : "char",
                         id->major, id->minor);
                /* A symbolic link to the device's directory, named as the device. */
                len = readlink(path, n->scratch, sizeof(n->scratch) - 1);
                if (len > 0) {
                        n->scratch[len] = '\0';
                        memmove(n->scratch, path_basename(n->scratch), strlen(path_basename(n->scratch)) + 1);
                        return n->scratch;
                }
                if (realpath(path, n->scratch)) {
                        const char *b = path_basename(n->scratch);

                        memmove(n->scratch, b, strlen(b) + 1);
                        return n->scratch;
                }
                return NULL;
        }
        return NULL;
}

static time_t now(void) {
        struct timespec ts;

        if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) < 0)
                return 0;
        return ts.tv_sec;
}

const char *devnames_get(struct devnames *n, const char *device) {
        struct devid id;
        struct entry *e;
        const char *name;
        size_t len;

        if (!n || !device || devid_parse(device, &id) < 0)
                return NULL;
        if (id.kind == '+')
                return strchr(device, ':') + 1;
        e = (struct entry *)strmap_find(n->entries, device);
        if (e && (e->name || !n->sysfs))
                return e->name;
        if (e) {
                time_t t = now();
                char *found;

                if (t - e->tried < 1)
                        return NULL;
                e->tried = t;
                if (id.kind == 'n')
                        free_interfaces(n);
                name = lookup(n, &id);
                if (name && (found = strdup(name)))
                        e->name = found;
                return e->name;
        }
        name = lookup(n, &id);
        if (n->entries->n >= MAX_ENTRIES)
                return name;
        len = strlen(device);
        e = malloc(sizeof(*e) + len + 1);
        if (!e)
                return name;
        memcpy(e->device, device, len + 1);
        e->name = name ? strdup(name) : NULL;
        e->tried = name ? 0 : now();
        e->node.key = e->device;
        strmap_add(n->entries, &e->node);
        return e->name;
}

bool devnames_in_sysfs(struct devnames *n, const char *device) {
        const char *name;
        char path[PATH_MAX];
        struct devid id;
        struct stat st;
        int sl;

        if (!n || !n->sysfs || !device || devid_parse(device, &id) < 0)
                return false;
        if (id.kind != '+')
                return devnames_get(n, device) != NULL;
        /* "+subsystem:name": where udev looks, a bus's device or a class's ('!' in a name is '/'). */
        name = strchr(device, ':') + 1;
        sl = (int)(name - 1 - (device + 1));
        if (pathf(path, "%s/sys/bus/%.*s/devices/%s", n->root, sl, device + 1, name) == 0 && stat(path, &st) == 0)
                return true;
        return pathf(path, "%s/sys/class/%.*s/%s", n->root, sl, device + 1, name) == 0 && stat(path, &st) == 0;
}

bool devnames_from_sysfs(const struct devnames *n) {
        return n && n->sysfs;
}

int devnames_get_node(struct devnames *n, const char *device, char *buf, size_t size) {
        char dir[PATH_MAX], uevent[4096];
        const char *p;
        struct devid id;
        size_t len;

        if (!n || !n->sysfs || !device || devid_parse(device, &id) < 0 || (id.kind != 'b' && id.kind != 'c'))
                return -ENOENT;
        if (pathf(dir, "%s/sys/dev/%s/%u:%u", n->root, id.kind == 'b' ? "block" : "char", id.major, id.minor) < 0 ||
            sysfs_read_attr(dir, "uevent", uevent, sizeof(uevent)) < 0)
                return -ENOENT;
        for (p = uevent; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
                if (strncmp(p, "DEVNAME=", 8) == 0) {
                        p += 8;
                        len = strcspn(p, "\n");
                        if (len == 0 || snprintf(buf, size, "/dev/%.*s", (int)len, p) >= (int)size)
                                return -ENOENT;
                        return 0;
                }
        return -ENOENT;
}

void devnames_each_link(struct devnames *n, const char *device, void (*fn)(const char *link, void *userdata),
                        void *userdata) {
        char path[PATH_MAX], line[4096 + 8];
        struct devid id;
        FILE *f;

        if (!n || !n->sysfs || !device || devid_parse(device, &id) < 0 || (id.kind != 'b' && id.kind != 'c'))
                return;
        if (pathf(path, "%s/run/udev/data/%c%u:%u", n->root, id.kind, id.major, id.minor) < 0)
                return;
        f = fopen(path, "re");
        if (!f)
                return;
        while (fgets(line, sizeof(line), f)) {
                size_t len = strcspn(line, "\n");

                line[len] = '\0';
                if (strncmp(line, "S:", 2) == 0 && line[2]) {
                        char link[sizeof(line) + 8];

                        snprintf(link, sizeof(link), "/dev/%s", line + 2);
                        fn(link, userdata);
                }
        }
        fclose(f);
}

const char *devnamer_name(const struct devnamer *n, const struct kmsg_record *r) {
        return n ? devnames_get(n->names, kmsg_record_get_device(r)) : NULL;
}

size_t devnamer_write_tag(const struct devnamer *n, const struct kmsg_record *r, const struct match *m) {
        const char *name;

        if (!n)
                return 0;
        if (m->how == DEVMATCH_TEXT) {
                out_putc('<');
                out_text(m->name, strlen(m->name), false);
                out_write("?> ", 3);
                return text_width(m->name, strlen(m->name), SIZE_MAX, NULL) + 4;
        }
        if (!n->show_device)
                return 0;
        name = devnamer_name(n, r);
        if (!name)
                name = kmsg_record_get_device(r);
        if (!name)
                return 0;
        out_putc('<');
        out_text(name, strlen(name), false);
        out_write("> ", 2);
        return text_width(name, strlen(name), SIZE_MAX, NULL) + 3;
}
