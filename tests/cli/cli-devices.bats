#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Devices: --device in every form, --subsystem, --match, --with-children,
# --device-text, --show-device, --resolve/--sysroot and --devices, on
# tests/data/devices.kmsg (made by tests/data/gen-devices.py) and a fake
# sysfs tree of the same machine (tests/cli/devices.bash).

bats_require_minimum_version 1.5.0
load helpers
load devices

setup_file() {
        export ROOT="$BATS_FILE_TMPDIR/root"
        make_sysfs "$ROOT"
        export DUMP="$DATA/devices.kmsg"
        # A bigger random dump of the same machine, for independent counts.
        export BIG="$BATS_FILE_TMPDIR/big.kmsg"
        python3 "$DATA/gen-devices.py" -n 20000 -s 7 > "$BIG"
}

kd() {
        run "$KDMESG" -K "$DUMP" --sysroot "$ROOT" "$@"
}

@test "the committed dump is what the generator makes" {
        run python3 "$DATA/gen-devices.py"
        [ "$status" -eq 0 ]
        diff -u "$DUMP" <(printf '%s\n' "$output")
}

@test "--device: a device node (found through uevent DEVNAME in a saved tree)" {
        kd --device /dev/sda --show-device
        [ "$status" -eq 0 ]
        golden devices/node-sda.txt
}

@test "--device: a block device name" {
        kd --device sda --show-device
        [ "$status" -eq 0 ]
        golden devices/node-sda.txt
}

@test "--device: a raw block DEVICE value" {
        kd --device b8:0 --show-device
        [ "$status" -eq 0 ]
        golden devices/node-sda.txt
}

@test "--device: sysfs paths, by class and by device number" {
        kd --device /sys/class/block/sda --show-device
        [ "$status" -eq 0 ]
        golden devices/node-sda.txt
        kd --device /sys/dev/block/8:0 --show-device
        [ "$status" -eq 0 ]
        golden devices/node-sda.txt
}

@test "--device: a network interface name selects n<ifindex>" {
        kd --device eth0 --show-device
        [ "$status" -eq 0 ]
        golden devices/eth0.txt
        kd --device n2 --show-device
        golden devices/eth0.txt
        kd --device /sys/class/net/eth0 --show-device
        golden devices/eth0.txt
        kd --device /sys/devices/pci0000:00/0000:00:19.0/net/eth0 --show-device
        golden devices/eth0.txt
}

@test "--device: a USB device by name, by c189:130 and by sysfs path is one device" {
        kd --device 2-1.4 --show-device
        [ "$status" -eq 0 ]
        golden devices/usb.txt
        kd --device c189:130 --show-device
        golden devices/usb.txt
        kd --device /sys/bus/usb/devices/2-1.4 --show-device
        golden devices/usb.txt
        kd --device /dev/bus/usb/002/003 --show-device
        golden devices/usb.txt
}

@test "--device: a raw value without sysfs matches exactly that value" {
        run "$KDMESG" -K "$DUMP" --device +usb:2-1.4
        [ "$status" -eq 0 ]
        golden devices/raw-plus-usb.txt
        run "$KDMESG" -K "$DUMP" --device +scsi:0:0:0:0
        [ "$status" -eq 0 ]
        golden devices/raw-scsi.txt
        run "$KDMESG" -K "$DUMP" --device +pci:0000:00:1f.2
        [ "$status" -eq 0 ]
        golden devices/raw-pci.txt
}

@test "--device: a name that is both a usb-serial port and a tty selects both" {
        kd --device ttyUSB0 --show-device
        [ "$status" -eq 0 ]
        golden devices/ttyusb0.txt
}

@test "--device repeated: OR" {
        kd --device sda --device eth0
        [ "$status" -eq 0 ]
        golden devices/sda-or-eth0.txt
}

@test "--with-children: a disk selects its partitions" {
        kd --device sda --with-children --show-device
        [ "$status" -eq 0 ]
        golden devices/sda-children.txt
        kd --device sda --show-device
        [[ "$output" != *"sda1"* ]]
}

@test "--with-children: a SCSI device selects its 'sd 0:0:0:0: [sda]' lines, the disk and its partitions" {
        kd --device 0:0:0:0 --with-children --show-device
        [ "$status" -eq 0 ]
        golden devices/scsi-children.txt
        kd --device +scsi:0:0:0:0 --with-children --show-device
        golden devices/scsi-children.txt
}

@test "--with-children: a USB device selects its interfaces and what hangs off them" {
        kd --device c189:130 --with-children --show-device
        [ "$status" -eq 0 ]
        golden devices/usb-children.txt
}

@test "--device: a disk takes the records of the devices above it that name it, as journalctl does" {
        # virtio_blk logs "[vda]" lines as virtio1 (DEVICE=+virtio:virtio1),
        # above vda; virtio1's other lines and its PCI device's are not vda's.
        local want
        want=$(printf '%s\n' \
                "[    0.388059] virtio_blk virtio1: [vda] 536870912 512-byte logical blocks (275 GB/256 GiB)" \
                "[    1.171164] virtio_blk virtio1: [vda] new size: 536870912 512-byte logical blocks (275 GB/256 GiB)" \
                "[    1.171200] vda: detected capacity change from 0 to 536870912")
        for dev in vda /dev/vda b254:0 /sys/class/block/vda; do
                run "$KDMESG" -K "$DATA/virtio.kmsg" --sysroot "$ROOT" --device "$dev"
                [ "$status" -eq 0 ]
                [ "$output" = "$want" ]
        done
        # With its children: the partition's records too.
        run "$KDMESG" -K "$DATA/virtio.kmsg" --sysroot "$ROOT" --device vda --with-children
        [ "$output" = "$want"$'\n'"[    1.300000] I/O error, dev vda1, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0" ]
        # The partition alone takes no "[vda]" line: its parents' records name vda, not vda1.
        run "$KDMESG" -K "$DATA/virtio.kmsg" --sysroot "$ROOT" --device vda1
        [ "$output" = "[    1.300000] I/O error, dev vda1, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0" ]
        # The parent itself takes all of its records, and none of vda's own.
        run "$KDMESG" -K "$DATA/virtio.kmsg" --sysroot "$ROOT" --device virtio1
        [ "${#lines[@]}" -eq 3 ]
        [[ "$output" != *"capacity change"* ]]
        # --devices counts the [vda] lines under the device that logged them.
        run "$KDMESG" -K "$DATA/virtio.kmsg" --sysroot "$ROOT" --device vda --devices --json
        [ "$status" -eq 0 ]
        [[ "$output" == *'"device":"+virtio:virtio1"'*'"count":2'* ]]
}

@test "--device-text: records without a dictionary that name the device, marked <name?>" {
        kd --device sda1 --device-text
        [ "$status" -eq 0 ]
        golden devices/text-sda1.txt
        kd --device sda --with-children --device-text
        [ "$status" -eq 0 ]
        golden devices/text-sda-children.txt
        kd --device eth0 --device-text
        golden devices/text-eth0.txt
}

@test "--device-text is never on silently" {
        kd --device sda1
        [ "$status" -eq 0 ]
        [[ "$output" != *"EXT4-fs"* ]]
        [ "${#lines[@]}" -eq 1 ]
}

@test "--device-text with a raw value outside sysfs uses the name in +subsystem:name" {
        run "$KDMESG" -K "$DUMP" --device +usb-serial:ttyUSB0 --device-text
        [ "$status" -eq 0 ]
        golden devices/text-raw-ttyusb0.txt
}

@test "--subsystem, and AND with --device" {
        kd --subsystem usb --show-device
        [ "$status" -eq 0 ]
        golden devices/subsystem-usb.txt
        kd --subsystem usb --device ttyUSB0
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        kd --subsystem tty --subsystem usb-serial --device ttyUSB0
        [ "${#lines[@]}" -eq 3 ]
}

@test "--match KEY=GLOB on any dictionary key" {
        kd --match 'SUBSYSTEM=usb*' --show-device
        [ "$status" -eq 0 ]
        golden devices/match-usb-glob.txt
        kd --match DRIVER=ahci
        golden devices/match-driver.txt
        kd --match 'SUBSYSTEM=block' --match 'SUBSYSTEM=net' --match 'DEVICE=b8:?'
        golden devices/match-and-or.txt
}

@test "--match without '=' is bad usage" {
        run "$KDMESG" -K "$DUMP" --match SUBSYSTEM
        [ "$status" -eq 1 ]
        [ "${lines[0]}" = "kdmesg: invalid argument for --match: 'SUBSYSTEM' (expected KEY=GLOB, e.g. SUBSYSTEM=usb)" ]
        [[ "${lines[1]}" == "Try 'kdmesg --help' for more information." ]]
}

@test "--show-device names from the sysroot; a dump alone names only +subsystem:name" {
        kd --subsystem block --show-device
        golden devices/show-sysroot.txt
        run "$KDMESG" -K "$DUMP" --subsystem block --subsystem pci --show-device
        [ "$status" -eq 0 ]
        golden devices/show-dump.txt
}

@test "--devices: one row per device, worst level first, then count" {
        kd --devices
        [ "$status" -eq 0 ]
        golden devices/report.txt
}

@test "--devices without names for a dump from elsewhere" {
        run "$KDMESG" -K "$DUMP" --devices
        [ "$status" -eq 0 ]
        golden devices/report-dump.txt
}

@test "--devices after filters" {
        kd --devices --subsystem usb --subsystem tty --subsystem usb-serial
        [ "$status" -eq 0 ]
        golden devices/report-usb.txt
}

@test "errors name the argument and exit 1" {
        kd --device /dev/nosuch
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device /dev/nosuch: No such file or directory" ]
        kd --device nosuch0
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device nosuch0: no such device (not a block device, network interface, device node, sysfs path or DEVICE value)" ]
        kd --device /sys/class/net/nosuch0
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device /sys/class/net/nosuch0: No such file or directory" ]
        kd --device /sys/class/net
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device /sys/class/net: not a device directory in sysfs" ]
        run "$KDMESG" -K "$DUMP" --device "$DUMP"
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device $DUMP: not a device node" ]
        run "$KDMESG" -K "$DUMP" --sysroot "$BATS_FILE_TMPDIR/nosuch" --device sda
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --sysroot $BATS_FILE_TMPDIR/nosuch: no sys/ directory in it" ]
        run "$KDMESG" -K "$DUMP" --with-children
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --with-children needs --device" ]
        run "$KDMESG" -K "$DUMP" --device-text
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device-text needs --device" ]
        # Half a DEVICE value is a name, and names nothing.
        kd --device b8:
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device b8:: no such device (not a block device, network interface, device node, sysfs path or DEVICE value)" ]
        kd --device /sys/devices/pci0000:00/0000:00:99.0
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device /sys/devices/pci0000:00/0000:00:99.0: No such file or directory" ]
        kd --device /dev/nosuch-tty --device-text
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: --device /dev/nosuch-tty: No such file or directory" ]
}

# Independent counts: awk over the generated dump, not kdmesg's code.
count_dict() {
        awk -v want="$1" '/^[0-9]/ { n++ } $0 == " " want { hit[n] = 1 } END { c = 0; for (k in hit) c++; print c }' "$BIG"
}

@test "exact selection on a generated dump: --device equals an awk count" {
        local c
        for v in b8:0 b8:1 n2 c189:130 +usb:2-1.4 +scsi:0:0:0:0 +pci:0000:00:1f.2; do
                c=$(count_dict "DEVICE=$v")
                [ "$c" -gt 0 ]
                run "$KDMESG" -K "$BIG" --device "$v"
                [ "$status" -eq 0 ]
                [ "${#lines[@]}" -eq "$c" ] || { echo "$v: ${#lines[@]} != $c"; false; }
        done
}

@test "exact selection on a generated dump: names, children, subsystem, match" {
        local c
        # The disk, its partitions, and the "sd 0:0:0:0: [sda]" records of the SCSI device above it.
        c=$(( $(count_dict DEVICE=b8:0) + $(count_dict DEVICE=b8:1) + $(count_dict DEVICE=b8:2) ))
        c=$(( c + $(awk '/^[0-9]/ { n++; named[n] = $0 ~ /;sd 0:0:0:0: \[sda[12]?\] / }
                         $0 == " DEVICE=+scsi:0:0:0:0" && named[n] { hit[n] = 1 }
                         END { c = 0; for (k in hit) c++; print c }' "$BIG") ))
        run "$KDMESG" -K "$BIG" --sysroot "$ROOT" --device sda --with-children
        [ "${#lines[@]}" -eq "$c" ]
        c=$(( $(count_dict DEVICE=c189:130) + $(count_dict DEVICE=+usb:2-1.4) ))
        run "$KDMESG" -K "$BIG" --sysroot "$ROOT" --device 2-1.4
        [ "${#lines[@]}" -eq "$c" ]
        c=$(count_dict SUBSYSTEM=scsi)
        run "$KDMESG" -K "$BIG" --subsystem scsi
        [ "${#lines[@]}" -eq "$c" ]
        c=$(awk '/^[0-9]/ { n++ } /^ SUBSYSTEM=usb/ { hit[n] = 1 } END { c = 0; for (k in hit) c++; print c }' "$BIG")
        run "$KDMESG" -K "$BIG" --match 'SUBSYSTEM=usb*'
        [ "${#lines[@]}" -eq "$c" ]
}

@test "exact selection on a generated dump: --device-text equals an awk count" {
        # Records for sda1: DEVICE=b8:1, or no dictionary and sda1 in a prefix.
        local c
        c=$(awk '
                function done() { if (rec && (dev == "b8:1" || (dev == "" && \
                        (msg ~ /^EXT4-fs( [a-z]+)? \((device )?sda1\):/ || msg ~ /(^| )dev sda1,/)))) c++ }
                /^[0-9]/ { done(); rec = 1; dev = ""; msg = $0; sub(/^[^;]*;/, "", msg); next }
                /^ DEVICE=/ { dev = substr($0, 9) }
                END { done(); print c + 0 }' "$BIG")
        [ "$c" -gt 0 ]
        run "$KDMESG" -K "$BIG" --sysroot "$ROOT" --device sda1 --device-text
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq "$c" ]
}

@test "DEVNAME column and JSON devname come from the sysroot" {
        kd -o SEQ,DEVICE,DEVNAME,MESSAGE --subsystem block --subsystem net
        [ "$status" -eq 0 ]
        golden devices/table-devname.txt
        # c189:130 (a USB device) and +pci:... too, in the table and in JSON.
        kd -o SEQ,DEVICE,DEVNAME --subsystem usb --subsystem pci --subsystem tty
        [ "$status" -eq 0 ]
        golden devices/table-devname-usb.txt
        kd -J --device c189:130 --device +pci:0000:00:1f.2
        [ "$(jq -r '[.device, .devname] | join(" ")' <<<"$output" | sort -u | tr '\n' ,)" = "+pci:0000:00:1f.2 0000:00:1f.2,+usb:2-1.4 2-1.4,c189:130 2-1.4," ]
        kd -J --subsystem net
        [ "$status" -eq 0 ]
        [ "$(jq -r .devname <<<"$output" | sort -u)" = eth0 ]
        run "$KDMESG" -K "$DUMP" -J --subsystem net
        [ "$(jq -r '.devname // "none"' <<<"$output" | sort -u)" = none ]
}

@test "JSON marks --device-text matches \"match\":\"text\", and only those" {
        kd --device sda1 --device-text -J
        [ "$status" -eq 0 ]
        golden devices/text-sda1.json
        [ "$(jq -r 'select(.match == "text") | .seq' <<<"$output" | tr '\n' ' ')" = "19 41 43 " ]
        [ "$(jq -r 'select(.match == null) | .device' <<<"$output")" = "b8:1" ]
        run "$TESTS/cli/validate-json" "$TESTS/../data/kdmesg-record.schema.json" < <("$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda --with-children --device-text -J)
        [ "$status" -eq 0 ]
}

@test "--devices --json: JSON Lines, one object per device, in the table's order" {
        kd --devices --json
        [ "$status" -eq 0 ]
        golden devices/report.json
        # 16 DEVICE values, two of them another's name (c189:130 is usb 2-1.4, c188:0 ttyUSB0): 14 rows.
        [ "$(jq -s length <<<"$output")" -eq 14 ]
        [ "$(jq -s -c 'map(select(.devices)) | map(.devices)' <<<"$output")" = '[["+usb-serial:ttyUSB0","c188:0"],["+usb:2-1.4","c189:130"]]' ]
        [ "$(jq -r '.devname // .device' <<<"$output" | tr '\n' ' ')" = "$("$KDMESG" -K "$DUMP" --devices | awk 'NR > 1 { printf "%s ", $1 }')" ]
}

# 10,000 devices with a record each (c1:5 at err), then 5 more with 3
# records each (one at warn), then one more record of c1:0.
many_devices() {
        python3 - <<'EOF'
seq = 0
def rec(level, dev, msg):
    global seq
    print("%d,%d,%d,-;%s\n DEVICE=%s" % (level, seq, seq * 1000, msg, dev))
    seq += 1
for i in range(10000):
    rec(3 if i == 5 else 6, "c1:%d" % i, "device %d" % i)
for i in range(5):
    for j in range(3):
        rec(4 if (i, j) == (2, 1) else 6, "c2:%d" % i, "other %d.%d" % (i, j))
rec(6, "c1:0", "a device with a row keeps it")
EOF
}

@test "--devices: the first 10000 devices get a row, the records of the rest one (others) row, last" {
        many_devices > "$BATS_TEST_TMPDIR/many.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/many.kmsg" --devices
        [ "$status" -eq 0 ]
        # The header, 10,000 rows and (others).
        [ "${#lines[@]}" -eq 10002 ]
        output=$(printf '%s\n' "${lines[@]:0:4}" ... "${lines[@]: -2}")
        golden devices/bounded.txt
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/many.kmsg" --devices --json
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 10001 ]
        printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/many.json"
        [ "$(jq -c 'select(.others)' "$BATS_TEST_TMPDIR/many.json" | wc -l)" -eq 1 ]
        # check-schemas validates the golden file, (others) included.
        output=$( (head -3; tail -1) < "$BATS_TEST_TMPDIR/many.json")
        golden devices/bounded.json
}

@test "--devices takes no other format" {
        run "$KDMESG" -K "$DUMP" --devices --format=syslog
        [ "$status" -eq 1 ]
        [ "${lines[0]}" = "kdmesg: --devices prints a table, or JSON with --json; not --format=syslog" ]
        [ "${lines[1]}" = "Try 'kdmesg --help' for more information." ]
}

@test "device selection ANDs with the level and grep filters" {
        kd --device sda --with-children --device-text --level err,crit --show-device
        [ "$status" -eq 0 ]
        golden devices/and-level.txt
        kd --subsystem net --grep Hang
        [ "${#lines[@]}" -eq 1 ]
        [[ "$output" == *"Detected Hardware Unit Hang" ]]
}

@test "a message of several lines goes on under its text, after the device tag" {
        printf '6,0,1000000,-;usb 2-1.4: first\\x0asecond\n SUBSYSTEM=usb\n DEVICE=+usb:2-1.4\n' > "$BATS_TEST_TMPDIR/ml.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/ml.kmsg" --show-device
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "[    1.000000] <2-1.4> usb 2-1.4: first" ]
        [ "${lines[1]}" = "                       second" ]
}

# --- audit of issue 6: every ARG form, marks, the report with --device-text ---

@test "--device: a character device node in a saved tree is c188:0, the tty and its port's lines that name it" {
        kd --device /dev/ttyUSB0 --show-device
        [ "$status" -eq 0 ]
        golden devices/node-ttyusb0.txt
        kd --device c188:0 --show-device
        golden devices/node-ttyusb0.txt
        kd --device /sys/dev/char/188:0 --show-device
        golden devices/node-ttyusb0.txt
        # The usb-serial port above it is no device the node names: only its
        # records that name ttyUSB0 come, as a parent's (all of them do here).
        [[ "$output" == *"<ttyUSB0> ftdi_sio ttyUSB0: failed to get modem status"* ]]
        kd --device +usb-serial:ttyUSB0 --show-device
        [ "${#lines[@]}" -eq 2 ]
        [[ "$output" != *"error from flowcontrol urb"* ]]
}

@test "--device: device nodes are stat()ed: a char node is c<major>:<minor>, a block node b<major>:<minor>" {
        local root="$BATS_TEST_TMPDIR/root"
        cp -a "$ROOT" "$root"
        mkdir "$root/dev"
        mknod "$root/dev/ttyUSB0" c 188 0 2>/dev/null || skip "mknod is not allowed here"
        mknod "$root/dev/sda" b 8 0
        # Named so that the uevent DEVNAME= lookup cannot find them: only stat() can.
        mknod "$root/dev/serial-port" c 188 0
        mknod "$root/dev/disk-a" b 8 0
        run "$KDMESG" -K "$DUMP" --sysroot "$root" --device /dev/ttyUSB0 --show-device
        [ "$status" -eq 0 ]
        golden devices/node-ttyusb0.txt
        run "$KDMESG" -K "$DUMP" --sysroot "$root" --device /dev/serial-port --show-device
        golden devices/node-ttyusb0.txt
        run "$KDMESG" -K "$DUMP" --sysroot "$root" --device /dev/disk-a --show-device
        golden devices/node-sda.txt
        # A node of a number that sysfs does not know still selects that number.
        mknod "$root/dev/gone" c 188 7
        printf '3,0,1000000,-;gone\n SUBSYSTEM=tty\n DEVICE=c188:7\n' > "$BATS_TEST_TMPDIR/gone.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/gone.kmsg" --sysroot "$root" --device /dev/gone
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] gone" ]
}

@test "--device: nvme0n1 by name, node and number; --device-text finds 'nvme0n1:'" {
        kd --device nvme0n1 --device-text
        [ "$status" -eq 0 ]
        golden devices/text-nvme0n1.txt
        kd --device /dev/nvme0n1 --device-text
        golden devices/text-nvme0n1.txt
        kd --device b259:0 --device-text
        golden devices/text-nvme0n1.txt
        kd --device nvme0n1
        [ "$status" -eq 0 ]
        [ -z "$output" ]
}

@test "--device-text on syslog-form input (no dictionaries): 'sd 0:0:0:0: [sda]' and the others" {
        "$KDMESG" -K "$DUMP" --format=syslog > "$BATS_TEST_TMPDIR/dump.syslog"
        run "$KDMESG" -F "$BATS_TEST_TMPDIR/dump.syslog" --sysroot "$ROOT" --device sda --device-text
        [ "$status" -eq 0 ]
        golden devices/text-syslog-sda.txt
        # Without --device-text nothing matches, and that is said (issue 37), not left to an empty output.
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/dump.syslog" --sysroot "$ROOT" --device sda
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/dump.syslog: syslog-form input has no SUBSYSTEM or DEVICE: --device matches none of its records" ]
}

@test "the table marks inferred matches in its MATCH column, added to the default columns" {
        kd --device sda1 --device-text --format=table
        [ "$status" -eq 0 ]
        golden devices/text-sda1-table.txt
        [ "$(grep -c '^ .* text  ' <<<"$output")" -eq 3 ]
        kd --device sda1 --device-text -o +DEVNAME
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == *" DEVNAME "*" MATCH MESSAGE" ]]
        # Without --device-text there is no MATCH column.
        kd --device sda1 --format=table
        [[ "${lines[0]}" != *MATCH* ]]
        # Asked for, it is empty for records selected by their DEVICE.
        kd --device sda1 -o SEQ,MATCH,DEVICE
        [ "${lines[1]}" = "     42       b8:1" ]
}

@test "formats that cannot mark inferred matches say how many on stderr, and stay as they are" {
        local f
        for f in syslog cat kmsg export json-dmesg; do
                run --separate-stderr "$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda1 --device-text --format=$f --boot-time 1700000000
                [ "$status" -eq 0 ]
                [ "$stderr" = "kdmesg: records selected by their message (--device-text): 3, not marked in --format=$f" ]
                [[ "$output" != *"sda1?"* && "$output" != *'"match"'* && "$output" != *MATCH* ]]
                # The same bytes as the same records selected by sequence number.
                [ "$f" = json-dmesg ] && continue
                # (--sysroot: export names the devices in _UDEV_SYSNAME and _UDEV_DEVNODE.)
                [ "$output" = "$("$KDMESG" -K "$DUMP" --sysroot "$ROOT" --seq 19 --format=$f --boot-time 1700000000
                                 "$KDMESG" -K "$DUMP" --sysroot "$ROOT" --seq 41-43 --format=$f --boot-time 1700000000)" ]
        done
        [ "$(jq '.dmesg | length' <<<"$output")" -eq 4 ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda1 --device-text -o SEQ,MESSAGE
        [ "$stderr" = "kdmesg: records selected by their message (--device-text): 3; the MATCH column marks them" ]
        # Marked outputs say nothing; neither does a selection without text matches.
        for f in "" "--format=table" "--json" "--devices"; do
                run --separate-stderr "$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda1 --device-text $f
                [ -z "$stderr" ]
        done
        run --separate-stderr "$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda1 --format=cat
        [ "$output" = "sda1: write access to a read-only block device" ]
        [ -z "$stderr" ]
        # --format=kmsg stays readable: reading it back gives the records.
        "$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda --with-children --device-text --format=kmsg > "$BATS_TEST_TMPDIR/sel.kmsg" 2>/dev/null
        # 8 of the disk and its partitions, 4 "sd 0:0:0:0: [sda]" of the SCSI device above it.
        [ "$(grep -c '^[0-9]' "$BATS_TEST_TMPDIR/sel.kmsg")" -eq 12 ]
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/sel.kmsg" --format=kmsg
        [ "$output" = "$(cat "$BATS_TEST_TMPDIR/sel.kmsg")" ]
        # (Read back, the records between them count as lost: skip those lines.)
        run bash -c '"$KDMESG" -K "$BATS_TEST_TMPDIR/sel.kmsg" --format=cat 2>/dev/null | grep -v "^-- .* lost"'
        [ "$output" = "$("$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda --with-children --device-text --format=cat 2>/dev/null)" ]
}

@test "--devices with --device-text counts text matches under the device they name, in INFERRED" {
        kd --devices --device sda --with-children --device-text
        [ "$status" -eq 0 ]
        golden devices/report-text.txt
        kd --devices --device sda --with-children --device-text --json
        [ "$status" -eq 0 ]
        golden devices/report-text.json
        # The report covers exactly the records the listing shows.
        local listed inferred
        listed=$("$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda --with-children --device-text -J | wc -l)
        inferred=$("$KDMESG" -K "$DUMP" --sysroot "$ROOT" --device sda --with-children --device-text -J | jq -s 'map(select(.match == "text")) | length')
        [ "$(jq -s 'map(.count) | add' <<<"$output")" -eq "$listed" ]
        [ "$(jq -s 'map(.inferred) | add' <<<"$output")" -eq "$inferred" ]
        # Without --device-text: no INFERRED column, no "inferred" key.
        kd --devices --device sda --with-children
        [[ "${lines[0]}" != *INFERRED* ]]
        kd --devices --device sda --with-children --json
        [ "$(jq -s 'map(has("inferred")) | any' <<<"$output")" = false ]
}

@test "--devices with --device-text for a raw value outside sysfs: the row is that value" {
        run "$KDMESG" -K "$DUMP" --devices --device +usb-serial:ttyUSB0 --device-text --json
        [ "$status" -eq 0 ]
        [ "$(jq -c '[.device, .subsystem, .count, .inferred]' <<<"$output")" = '["+usb-serial:ttyUSB0","usb-serial",3,1]' ]
}

@test "exact selection on a generated dump: --devices COUNT per device equals an awk count" {
        local dev c
        run "$KDMESG" -K "$BIG" --devices --json
        [ "$status" -eq 0 ]
        # Every DEVICE value in one row; a row of several (one device) counts the records of each.
        [ "$(jq -s 'map((.devices // [.device]) | length) | add' <<<"$output")" -eq "$(grep '^ DEVICE=' "$BIG" | sort -u | wc -l)" ]
        for dev in $(jq -r .device <<<"$output"); do
                c=0
                for d in $(jq -r --arg d "$dev" 'select(.device == $d) | (.devices // [.device]) | .[]' <<<"$output"); do
                        c=$((c + $(count_dict "DEVICE=$d")))
                done
                [ "$(jq -r --arg d "$dev" 'select(.device == $d) | .count' <<<"$output")" -eq "$c" ] || { echo "$dev != $c"; false; }
        done
        # With --device-text, sda1's row counts its DEVICE records and the text ones (awk above).
        c=$(awk '
                function done() { if (rec && (dev == "b8:1" || (dev == "" && \
                        (msg ~ /^EXT4-fs( [a-z]+)? \((device )?sda1\):/ || msg ~ /(^| )dev sda1,/)))) c++ }
                /^[0-9]/ { done(); rec = 1; dev = ""; msg = $0; sub(/^[^;]*;/, "", msg); next }
                /^ DEVICE=/ { dev = substr($0, 9) }
                END { done(); print c + 0 }' "$BIG")
        run "$KDMESG" -K "$BIG" --sysroot "$ROOT" --devices --json --device sda1 --device-text
        [ "$(jq -r .device <<<"$output")" = b8:1 ]
        [ "$(jq -r .count <<<"$output")" -eq "$c" ]
        [ "$(jq -r .inferred <<<"$output")" -eq $(( c - $(count_dict DEVICE=b8:1) )) ]
}

@test "--devices: the last message is escaped once (no \\x5c before an escape), bidi controls too" {
        local f="$BATS_TEST_TMPDIR/d.kmsg"
        printf '3,0,100,-;esc\\x1b[31m \\xe2\\x80\\xae x\\x5cy\n SUBSYSTEM=block\n DEVICE=b8:0\n' > "$f"
        run --separate-stderr "$KDMESG" -K "$f" --devices
        [ "$status" -eq 0 ]
        [[ "${lines[1]}" == *' esc\x1b[31m \xe2\x80\xae x\y' ]]
}
