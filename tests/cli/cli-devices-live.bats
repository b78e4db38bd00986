#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Devices against this machine's real /sys (and /dev, /dev/kmsg): argument
# resolution and names.  Each test skips, with the reason, where the device
# class it needs is absent.

load helpers

# A dump whose only record carries DEVICE=$1, to be named from the live /sys.
dump_with() {
        printf '6,0,1000000,-;live test record\n SUBSYSTEM=%s\n DEVICE=%s\n' "$2" "$1" > "$BATS_TEST_TMPDIR/live.kmsg"
}

first_entry() {
        ls "$1" 2>/dev/null | head -n 1
}

@test "live: a block device number is named from /sys/dev/block, only with --resolve" {
        local nr name
        nr=$(first_entry /sys/dev/block)
        [ -n "$nr" ] || skip "no block devices in /sys/dev/block"
        name=$(basename "$(readlink /sys/dev/block/$nr)")
        dump_with "b$nr" block
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --resolve --show-device
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] <$name> live test record" ]
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --show-device
        [ "$output" = "[    1.000000] <b$nr> live test record" ]
        # The name and the sysfs path select it.
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "$name"
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] live test record" ]
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "/sys/dev/block/$nr"
        [ "$output" = "[    1.000000] live test record" ]
}

@test "live: a block device node is stat()ed" {
        local nr name
        nr=$(first_entry /sys/dev/block)
        [ -n "$nr" ] || skip "no block devices in /sys/dev/block"
        name=$(basename "$(readlink /sys/dev/block/$nr)")
        [ -b "/dev/$name" ] || skip "no device node /dev/$name"
        dump_with "b$nr" block
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "/dev/$name"
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] live test record" ]
}

@test "live: a character device node is stat()ed (/dev/null is c1:3)" {
        [ -c /dev/null ] || skip "no /dev/null character device"
        dump_with c1:3 mem
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device /dev/null --resolve --show-device
        [ "$status" -eq 0 ]
        if [ -e /sys/dev/char/1:3 ]; then
                [ "$output" = "[    1.000000] <null> live test record" ]
        else
                [ "$output" = "[    1.000000] <c1:3> live test record" ]
        fi
        dump_with c1:5 mem
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device /dev/null
        [ "$status" -eq 0 ]
        [ -z "$output" ]
}

@test "live: a network interface is n<ifindex> and named back" {
        local ifname= d idx
        # Not bonding_masters, which is a file.
        for d in /sys/class/net/*; do
                [ -f "$d/ifindex" ] && { ifname=$(basename "$d"); break; }
        done
        [ -n "$ifname" ] || skip "no network interfaces in /sys/class/net"
        idx=$(cat "/sys/class/net/$ifname/ifindex")
        dump_with "n$idx" net
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "$ifname" --resolve --show-device
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] <$ifname> live test record" ]
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "/sys/class/net/$ifname"
        [ "$output" = "[    1.000000] live test record" ]
}

@test "live: a USB device is named from /sys/dev/char" {
        local d nr
        for d in /sys/bus/usb/devices/*; do
                [ -e "$d/dev" ] && break
                d=
        done
        [ -n "$d" ] || skip "no USB devices with a device number"
        nr=$(cat "$d/dev")
        dump_with "c$nr" usb
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --resolve --show-device --device "$(basename "$d")"
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] <$(basename "$d")> live test record" ]
}

@test "live: --with-children on a disk with partitions" {
        local d p
        for d in /sys/class/block/*; do
                p=$(ls -d "$d"/"$(basename "$d")"* 2>/dev/null | head -n 1)
                [ -n "$p" ] && break
        done
        [ -n "$p" ] || skip "no partitioned disk"
        dump_with "b$(cat "$p/dev")" block
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "$(basename "$d")"
        [ -z "$output" ]
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/live.kmsg" --device "$(basename "$d")" --with-children
        [ "$output" = "[    1.000000] live test record" ]
}

# The live device: /dev/kmsg, or the emulated one where KMSG_EMU_RING names
# a ring (kmsg-device.bats runs this file so, on a ring cleared as by
# dmesg -C, to show that these tests pass on any state of the ring).
live_kdmesg() {
        if [ -n "${KMSG_EMU_RING:-}" ]; then
                LD_PRELOAD="$KMSG_EMU_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                        timeout 10 "$KDMESG" "$@"
        else
                timeout 10 "$KDMESG" "$@"
        fi
}

@test "live: --devices over /dev/kmsg" {
        [ -n "${KMSG_EMU_RING:-}" ] || [ -r /dev/kmsg ] || skip "/dev/kmsg is not readable here"
        live_kdmesg --format=kmsg > "$BATS_TEST_TMPDIR/ring.kmsg" 2>/dev/null || skip "kdmesg cannot read /dev/kmsg here"
        # The precondition from the ring itself: a record with a DEVICE since
        # the last clear (dmesg -C).  Devices are only ever added, so one
        # that is there now is there for the --devices run after it.
        grep -q '^ DEVICE=' "$BATS_TEST_TMPDIR/ring.kmsg" ||
                skip "no record in the ring carries a DEVICE (none logged since the last dmesg -C)"
        run live_kdmesg --devices
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == NAME*DEVICE*SUBSYSTEM*COUNT*LEVEL*FIRST*LAST*MESSAGE ]]
        [ "${#lines[@]}" -ge 2 ]
}
