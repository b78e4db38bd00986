/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Devices: what the user names on the command line (--device, --subsystem,
 * --match), the DEVICE values records carry, and names for them from sysfs.
 *
 * Arguments are resolved once, before the first record; matching a record
 * then only parses its DEVICE value in place and compares numbers.
 */
#ifndef KDMESG_DEVICE_H
#define KDMESG_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libkmsg.h"
#include "select/match.h"

/* A DEVICE value, parsed without allocating. */
struct devid {
        char kind;          /* 'b' block, 'c' char, 'n' network, '+' subsystem:name */
        uint32_t major;     /* b, c */
        uint32_t minor;     /* b, c; n: the ifindex */
        const char *str;    /* '+': the whole value, e.g. "+usb:2-1.4" */
};

/* Parse "b8:0", "c189:130", "n2" or "+usb:2-1.4".  Returns 0 or -EINVAL. */
int devid_parse(const char *v, struct devid *ret);
/* Whether two parsed values name the same device. */
bool devid_equal(const struct devid *a, const struct devid *b);

/*
 * Where sysfs is: "" for the live system, or a directory that holds a saved
 * tree as DIR/sys/... (--sysroot DIR).
 */
struct sysroot {
        const char *dir;
};

/* The device options' codes: cli/ routes them to devctx_option(), the filter's to devfilter_add(). */
enum {
        DEVOPT_DEVICE = 0x400,
        DEVOPT_SUBSYSTEM,
        DEVOPT_MATCH,
        DEVOPT_WITH_CHILDREN,
        DEVOPT_DEVICE_TEXT,
        DEVOPT_SHOW_DEVICE,
        DEVOPT_RESOLVE,
        DEVOPT_SYSROOT,
};

/* --device, --subsystem, --match, --with-children, --device-text. */
struct devfilter {
        /* Command line, in order. */
        const char **dev_args;
        size_t n_dev_args;
        const char **subsystems;
        size_t n_subsystems;
        struct devmatch_kv {
                char *key;
                const char *glob;
                bool first_of_key; /* the first --match with this key */
        } *matches;
        size_t n_matches;
        bool children;
        bool text;

        /* Resolved by devfilter_resolve(). */
        struct devid *ids;
        size_t n_ids;
        /*
         * The DEVICE values of the devices above those named (virtio1 and
         * its PCI device above vda): their records are taken when their
         * text names one of names ("virtio_blk virtio1: [vda] ...").
         */
        struct devid *parent_ids;
        size_t n_parent_ids;
        char **strings; /* owned storage behind ids[].str and names */
        size_t n_strings;
        const char **names; /* kernel names for --device-text: "sda1", "eth0" */
        size_t n_names;
        /*
         * For each name, the DEVICE value the kernel writes for that device
         * ("b8:1", "n2", "+usb-serial:ttyUSB0") and its subsystem (or NULL):
         * where --devices counts a record selected by its text.
         */
        const char **name_devices;
        const char **name_subsystems;

        uint64_t n_text; /* records selected by their text so far */
};

/*
 * Record an option.  opt is one of the DEVOPT_* values below; returns 0, or
 * -EINVAL for a malformed argument (--match without '=').
 */
int devfilter_add(struct devfilter *f, int opt, const char *arg);
/* Whether any device selection option was given. */
bool devfilter_active(const struct devfilter *f);
/*
 * Resolve every --device argument once, through sysfs below root.  On
 * failure returns -errno and sets *ret_arg to the argument and *ret_what to
 * a description (or NULL to use strerror).
 */
int devfilter_resolve(struct devfilter *f, const struct sysroot *root, const char **ret_arg,
                      const char **ret_what);
/*
 * Whether r is selected, and how.  *ret (may be NULL) gets what was found,
 * its device fields all zero when r is not selected; its problem is left
 * alone.
 */
enum devmatch devfilter_match(struct devfilter *f, const struct kmsg_record *r, struct match *ret);
void devfilter_done(struct devfilter *f);

/*
 * Whether the message names one of names in a usual kernel prefix:
 * "NAME: ", "driver NAME: ", "driver bus-id NAME: ", "sd 0:0:0:0: [NAME] ",
 * "EXT4-fs (NAME): ", "BTRFS info (device NAME): ", "..., dev NAME, ...".
 * Returns the name found or NULL.
 */
const char *devtext_find(const char *msg, size_t len, const char *const *names, size_t n_names);

/* Names for DEVICE values, looked up in sysfs once each and cached. */
struct devnames;

/*
 * root NULL: names only for the "+subsystem:name" form, which carries its
 * name; no sysfs access.
 */
struct devnames *devnames_new(const struct sysroot *root);
void devnames_free(struct devnames *n);
/* The name for a DEVICE value ("b8:0" -> "sda"), or NULL when unknown. */
const char *devnames_get(struct devnames *n, const char *device);
/*
 * Whether sysfs (below the root; names from sysfs only) has the device of
 * a DEVICE value: "+subsystem:name" as /sys/bus/SUBSYSTEM/devices/NAME or
 * /sys/class/SUBSYSTEM/NAME, the others by their name.
 */
bool devnames_in_sysfs(struct devnames *n, const char *device);
/* Whether names come from sysfs (the live one, --resolve or --sysroot). */
bool devnames_from_sysfs(const struct devnames *n);
/*
 * The device node of a block or char DEVICE value, "/dev/" + DEVNAME of its
 * uevent file ("b8:0" -> "/dev/sda"), into buf.  Returns 0, or -ENOENT
 * (none known, or names do not come from sysfs).
 */
int devnames_get_node(struct devnames *n, const char *device, char *buf, size_t size);
/*
 * The device links udev made for a block or char DEVICE value, as
 * "/dev/" + each "S:" line of its udev database entry (/run/udev/data/b8:0
 * below the root), in order: fn is called with each.  Nothing when names
 * do not come from sysfs or udev has no entry.
 */
void devnames_each_link(struct devnames *n, const char *device, void (*fn)(const char *link, void *userdata),
                        void *userdata);

/*
 * The DEVICE values the kernel may write for the sysfs device directory dir
 * into f's selected set, with its name (or, parent, into the parents' set).
 */
int devfilter_add_sysfs_device(struct devfilter *f, const char *dir, bool parent);
/* sysfs helpers (sysfs.c). */
/*
 * fn for every device directory above the sysfs device directory dir,
 * nearest first, up to /sys/devices; stops at fn's first value < 0 and
 * returns it, else 0.
 */
int sysfs_each_parent(const char *dir, int (*fn)(const char *dir, void *userdata), void *userdata);
/* Whether dir is a device's directory in sysfs (it has a uevent file). */
bool sysfs_is_device_dir(const char *dir);
/* Read a small sysfs attribute into buf, without the trailing newline. */
int sysfs_read_attr(const char *dir, const char *attr, char *buf, size_t size);
/* Format a path into buf; returns 0, or -ENAMETOOLONG (buf is then ""). */
int pathf(char buf[4096], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last path component of p. */
const char *path_basename(const char *p);

/*
 * What the sinks know of the device options: names for DEVICE values, and
 * whether a tag goes before each message.  The options (cli/) fill it.
 */
struct devnamer {
        struct devnames *names; /* NULL when names are not resolved */
        bool show_device;       /* --show-device */
        bool by_text;           /* --device-text: records may be selected by their text */
};

/*
 * The classic view's device tag, written before the message: "<sda> " for
 * --show-device, "<sda1?> " for a record selected from its text (always).
 * Returns its width in columns (text_width(): a raw DEVICE name can hold
 * anything).  n may be NULL.
 */
size_t devnamer_write_tag(const struct devnamer *n, const struct kmsg_record *r, const struct match *m);
/* The name for r's DEVICE (NULL when none or unknown, or n is NULL); the DEVNAME column. */
const char *devnamer_name(const struct devnamer *n, const struct kmsg_record *r);

#endif
