/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kdmesg's device selection: DEVICE values, the text rules, the filter. */
#include <errno.h>
#include <stdlib.h>

#include "device.h"
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

static enum devmatch match(struct devfilter *f, const char *s) {
        struct kmsg_record *r = rec(s);
        enum devmatch m;

        if (!r)
                return -1;
        m = devfilter_match(f, r);
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
        CHECK_STR(f.last_name, "sda1");
        /* A record with a DEVICE is judged by it, never by its text. */
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sda1): x\n SUBSYSTEM=block\n DEVICE=b8:17\n"), DEVMATCH_NONE);
        CHECK_INT(match(&f, "6,1,1,-;EXT4-fs (sdb1): mounted\n"), DEVMATCH_NONE);
        CHECK(f.last_name == NULL);
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
