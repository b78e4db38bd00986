/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg's device selection: DEVICE values, the text rules, the filter. */
#include <errno.h>
#include <stdlib.h>

#include "select/device.h"
#include "tests.h"

TEST(devid_parse_forms) {
        struct devid d;

        CHECK_INT(devid_parse("b8:0", &d), 0);
        CHECK_INT(d.kind, 'b');
        CHECK_INT(d.major, 8);
        CHECK_INT(d.minor, 0);
        CHECK_INT(devid_parse("c189:130", &d), 0);
        CHECK_INT(d.kind, 'c');
        CHECK_INT(d.major, 189);
        CHECK_INT(d.minor, 130);
        CHECK_INT(devid_parse("n2", &d), 0);
        CHECK_INT(d.kind, 'n');
        CHECK_INT(d.minor, 2);
        CHECK_INT(devid_parse("+scsi:0:0:0:0", &d), 0);
        CHECK_INT(d.kind, '+');
        CHECK_STR(d.str, "+scsi:0:0:0:0");
}

TEST(devid_parse_rejects) {
        static const char *const bad[] = { "", "b", "b8", "b8:", "b:0", "b8:0x", "b8:0:1", "c-1:0",
                                           "n", "nx", "n2 ", "+", "+usb", "+:x", "+usb:", "x8:0",
                                           "b4294967296:0", "sda" };
        struct devid d = { .kind = 'z' };
        size_t i;

        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                if (devid_parse(bad[i], &d) != -EINVAL)
                        test_fail(__FILE__, __LINE__, "\"%s\" was accepted", bad[i]);
        }
        /* Untouched on failure. */
        CHECK_INT(d.kind, 'z');
}

TEST(devid_equal_kinds) {
        struct devid a, b;

        devid_parse("b8:0", &a);
        devid_parse("c8:0", &b);
        CHECK(!devid_equal(&a, &b));
        devid_parse("b8:0", &b);
        CHECK(devid_equal(&a, &b));
        devid_parse("b8:1", &b);
        CHECK(!devid_equal(&a, &b));
        devid_parse("+usb:2-1.4", &a);
        devid_parse("+usb:2-1.4:1.0", &b);
        CHECK(!devid_equal(&a, &b));
        devid_parse("+usb:2-1.4", &b);
        CHECK(devid_equal(&a, &b));
}

static const char *find(const char *msg, const char *name) {
        const char *names[] = { name };

        return devtext_find(msg, strlen(msg), names, 1);
}

TEST(devtext_prefixes) {
        CHECK(find("EXT4-fs (sda1): mounted filesystem", "sda1"));
        CHECK(find("EXT4-fs warning (device sda1): index full", "sda1"));
        CHECK(find("BTRFS info (device nvme0n1p2): using crc32c", "nvme0n1p2"));
        CHECK(find("sd 0:0:0:0: [sda] Attached SCSI disk", "sda"));
        CHECK(find("nvme0n1: I/O 42 QID 3 timeout", "nvme0n1"));
        CHECK(find("eth0: renamed from veth1234", "eth0"));
        CHECK(find(" sda: sda1 sda2", "sda"));
        CHECK(find("usb 2-1.4: new high-speed USB device", "2-1.4"));
        CHECK(find("e1000e 0000:00:19.0 eth0: NIC Link is Up", "eth0"));
        CHECK(find("blk_update_request: I/O error, dev sda, sector 2048", "sda"));
        CHECK(find("Buffer I/O error on dev sda1, logical block 0", "sda1"));
}

TEST(devtext_not_other_devices) {
        /* A name is a whole word: sda is not sda1, sdb1 is not sda1. */
        CHECK(!find("EXT4-fs (sda1): mounted filesystem", "sda"));
        CHECK(!find("EXT4-fs (sdb1): mounted filesystem", "sda1"));
        CHECK(!find("sd 0:0:0:0: [sdab] Attached", "sda"));
        CHECK(!find("sda1: write access", "sda"));
        CHECK(!find("Buffer I/O error on dev sda1, logical block 0", "sda"));
        CHECK(!find("blk_update_request: I/O error, dev sda, sector 2048", "da"));
        /* Only in the usual prefixes, not anywhere in the text. */
        CHECK(!find("random: sda is a fine name", "sda"));
        CHECK(!find("a b c sda: late", "sda"));
        CHECK(!find("foo: bar (sda1): not the first colon", "sda1"));
        CHECK(!find("sda", "sda"));
        CHECK(!find("", "sda"));
}

static struct kmsg_record *rec(const char *s) {
        struct kmsg_record *r = NULL;

        if (kmsg_record_parse(s, strlen(s), &r) < 0)
                test_fail(__FILE__, __LINE__, "cannot parse \"%s\"", s);
        return r;
}

/* What devfilter_match() found for the record match() last gave it. */
static struct match last;

static enum devmatch match(struct devfilter *f, const char *s) {
        struct kmsg_record *r = rec(s);
        enum devmatch m;

        if (!r)
                return -1;
        m = devfilter_match(f, r, &last);
        kmsg_record_unref(r);
        return m;
}

TEST(filter_kinds_and_repeats) {
        struct devfilter f = {};
        struct sysroot root = { "/nonexistent" };
        const char *arg = NULL, *what = NULL;

        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "b8:0"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "n2"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_SUBSYSTEM, "block"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_SUBSYSTEM, "net"), 0);
        CHECK_INT(devfilter_resolve(&f, &root, &arg, &what), 0);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=b8:0\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=net\n DEVICE=n2\n"), DEVMATCH_DICT);
        /* Device OR, subsystem OR, the two AND. */
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=scsi\n DEVICE=b8:0\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=b8:1\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;sda: x\n"), DEVMATCH_NONE);
        devfilter_done(&f);
}

TEST(filter_match_globs) {
        struct devfilter f = {};

        CHECK_INT(devfilter_add(&f, DEVOPT_MATCH, "novalue"), -EINVAL);
        CHECK_INT(devfilter_add(&f, DEVOPT_MATCH, "=x"), -EINVAL);
        CHECK_INT(devfilter_add(&f, DEVOPT_MATCH, "SUBSYSTEM=usb*"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_MATCH, "SUBSYSTEM=tty"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_MATCH, "DEVICE=c*"), 0);
        CHECK(devfilter_active(&f));
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=usb\n DEVICE=c189:130\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=tty\n DEVICE=c188:0\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=usb-serial\n DEVICE=c188:1\n"), DEVMATCH_DICT);
        /* Different keys AND. */
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=usb\n DEVICE=+usb:2-1.4\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=c1:3\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;x\n"), DEVMATCH_NONE);
        devfilter_done(&f);
}

TEST(filter_text_only_when_asked) {
        struct devfilter f = {};
        struct sysroot root = { "/nonexistent" };
        const char *arg = NULL, *what = NULL;

        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "+block:sda1"), 0);
        CHECK_INT(devfilter_resolve(&f, &root, &arg, &what), 0);
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sda1): mounted\n"), DEVMATCH_NONE);
        f.text = true;
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sda1): mounted\n"), DEVMATCH_TEXT);
        CHECK_STR(last.name, "sda1");
        /* A record with a DEVICE is judged by it, never by its text. */
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sda1): x\n SUBSYSTEM=block\n DEVICE=b8:17\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sdb1): mounted\n"), DEVMATCH_NONE);
        CHECK(last.name == NULL);
        devfilter_done(&f);
}

TEST(resolve_raw_needs_no_sysfs_but_names_do) {
        struct devfilter f = {};
        struct sysroot root = { "/nonexistent" };
        const char *arg = NULL, *what = NULL;

        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "sda"), 0);
        CHECK_INT(devfilter_resolve(&f, &root, &arg, &what), -ENODEV);
        CHECK_STR(arg, "sda");
        CHECK(what != NULL);
        devfilter_done(&f);
}

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(devnames_cache_and_retry) {
        char root[] = "/tmp/test-devnames-XXXXXX", path[512], target[512];
        struct sysroot sr = { root };
        struct devnames *n;

        if (!mkdtemp(root)) {
                test_fail(__FILE__, __LINE__, "mkdtemp failed");
                return;
        }
        snprintf(path, sizeof(path), "%s/sys", root);
        mkdir(path, 0755);
        snprintf(path, sizeof(path), "%s/sys/dev", root);
        mkdir(path, 0755);
        snprintf(path, sizeof(path), "%s/sys/dev/block", root);
        mkdir(path, 0755);

        n = devnames_new(&sr);
        CHECK(n != NULL);
        /* The +subsystem:name form names itself. */
        CHECK_STR(devnames_get(n, "+pci:0000:00:1f.2"), "0000:00:1f.2");
        CHECK(devnames_get(n, "b8:0") == NULL);
        CHECK(devnames_get(n, "garbage") == NULL);

        /* The device appears: the miss is cached, then retried after a second. */
        snprintf(path, sizeof(path), "%s/sys/dev/block/8:0", root);
        snprintf(target, sizeof(target), "../../devices/pci0000:00/block/sda");
        CHECK_INT(symlink(target, path), 0);
        CHECK(devnames_get(n, "b8:0") == NULL);
        sleep(1);
        usleep(100000);
        CHECK_STR(devnames_get(n, "b8:0"), "sda");
        /* A name found stays. */
        unlink(path);
        CHECK_STR(devnames_get(n, "b8:0"), "sda");
        devnames_free(n);

        /* Without sysfs (a dump without --resolve): only +subsystem:name. */
        n = devnames_new(NULL);
        CHECK(devnames_get(n, "b8:0") == NULL);
        CHECK_STR(devnames_get(n, "+usb:2-1.4"), "2-1.4");
        devnames_free(n);

        snprintf(path, sizeof(path), "rm -rf '%s'", root);
        CHECK_INT(system(path), 0);
}

/* mkdir -p for the tree below. */
static void mkdirs(const char *root, const char *rel) {
        char path[1024];
        size_t i, n;

        n = (size_t)snprintf(path, sizeof(path), "%s/%s", root, rel);
        for (i = strlen(root) + 1; i <= n; i++) {
                if (path[i] != '/' && path[i] != '\0')
                        continue;
                path[i] = '\0';
                mkdir(path, 0755);
                if (i < n)
                        path[i] = '/';
        }
}

static void write_file(const char *root, const char *rel, const char *text) {
        char path[1024];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", root, rel);
        f = fopen(path, "w");
        if (!f) {
                test_fail(__FILE__, __LINE__, "cannot write %s", path);
                return;
        }
        fputs(text, f);
        fclose(f);
}

static void link_file(const char *root, const char *target, const char *rel) {
        char path[1024];

        snprintf(path, sizeof(path), "%s/%s", root, rel);
        if (symlink(target, path) < 0)
                test_fail(__FILE__, __LINE__, "cannot link %s", path);
}

/*
 * Arguments are resolved once: after devfilter_resolve() the sysfs tree
 * can go away and records still match, by number and by text; a text match
 * carries the DEVICE value and subsystem of the device it names.
 */
TEST(resolved_once_and_text_matches_name_their_device) {
        char root[] = "/tmp/test-devfilter-XXXXXX", cmd[512];
        struct devfilter f = {};
        struct sysroot sr = { root };
        const char *arg = NULL, *what = NULL;

        if (!mkdtemp(root)) {
                test_fail(__FILE__, __LINE__, "mkdtemp failed");
                return;
        }
        mkdirs(root, "sys/class/block");
        mkdirs(root, "sys/class/net");
        mkdirs(root, "sys/devices/pci0000:00/block/sda/sda1");
        mkdirs(root, "sys/devices/pci0000:00/net/eth0");
        write_file(root, "sys/devices/pci0000:00/block/sda/uevent", "DEVNAME=sda\n");
        write_file(root, "sys/devices/pci0000:00/block/sda/dev", "8:0\n");
        link_file(root, "../../../../class/block", "sys/devices/pci0000:00/block/sda/subsystem");
        write_file(root, "sys/devices/pci0000:00/block/sda/sda1/uevent", "DEVNAME=sda1\n");
        write_file(root, "sys/devices/pci0000:00/block/sda/sda1/dev", "8:1\n");
        link_file(root, "../../../../../class/block", "sys/devices/pci0000:00/block/sda/sda1/subsystem");
        link_file(root, "../../devices/pci0000:00/block/sda", "sys/class/block/sda");
        write_file(root, "sys/devices/pci0000:00/net/eth0/uevent", "INTERFACE=eth0\n");
        write_file(root, "sys/devices/pci0000:00/net/eth0/ifindex", "2\n");
        link_file(root, "../../../../class/net", "sys/devices/pci0000:00/net/eth0/subsystem");
        link_file(root, "../../devices/pci0000:00/net/eth0", "sys/class/net/eth0");

        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "sda"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "eth0"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_WITH_CHILDREN, NULL), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE_TEXT, NULL), 0);
        CHECK_INT(devfilter_resolve(&f, &sr, &arg, &what), 0);

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        CHECK_INT(system(cmd), 0);

        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=b8:0\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=b8:1\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=+block:sda1\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=net\n DEVICE=n2\n"), DEVMATCH_DICT);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=b8:2\n"), DEVMATCH_NONE);
        CHECK_INT((int)f.n_text, 0);

        /* Text matches name the DEVICE value the kernel writes for their device. */
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sda1): mounted\n"), DEVMATCH_TEXT);
        CHECK_STR(last.name, "sda1");
        CHECK_STR(last.device, "b8:1");
        CHECK_STR(last.subsystem, "block");
        CHECK_INT(match(&f, "6,1,1,-;random: eth0 is a name\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;eth0: link up\n"), DEVMATCH_TEXT);
        CHECK_STR(last.device, "n2");
        CHECK_STR(last.subsystem, "net");
        CHECK_INT((int)f.n_text, 2);
        CHECK_INT(match(&f, "6,1,1,-;x\n SUBSYSTEM=block\n DEVICE=b8:0\n"), DEVMATCH_DICT);
        CHECK(last.device == NULL);
        devfilter_done(&f);
}

TEST(text_match_of_a_raw_value_names_that_value) {
        struct devfilter f = {};
        struct sysroot root = { "/nonexistent" };
        const char *arg = NULL, *what = NULL;

        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE, "+usb-serial:ttyUSB0"), 0);
        CHECK_INT(devfilter_add(&f, DEVOPT_DEVICE_TEXT, NULL), 0);
        CHECK_INT(devfilter_resolve(&f, &root, &arg, &what), 0);
        CHECK_INT(match(&f, "4,1,1,-;ttyUSB ttyUSB0: 1 input overrun(s)\n"), DEVMATCH_TEXT);
        CHECK_STR(last.device, "+usb-serial:ttyUSB0");
        CHECK_STR(last.subsystem, "usb-serial");
        devfilter_done(&f);
}
