#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# -K /dev/kmsg, or any path that is the kmsg character device (1:11), is
# read as the device: without blocking, to its end, or followed with -w
# (issue 12).  The live tests write one tagged marker line through one
# open of /dev/kmsg; the rest reads the emulated device.

bats_require_minimum_version 1.5.0
load helpers
load emu

CHECK="$TESTS/cli/check-seqs"

# The real device, readable and writable (root), with kdmesg able to read it.
need_live() {
        [ -r /dev/kmsg ] || skip "/dev/kmsg is not readable here"
        [ -w /dev/kmsg ] || skip "/dev/kmsg is not writable here (needs root)"
        "$KDMESG" -q >/dev/null 2>&1 || skip "kdmesg cannot read /dev/kmsg here"
}

# The path check looks at the real file system: /dev/kmsg must be the device there.
need_device_node() {
        [ "$(stat -c '%F %t:%T' /dev/kmsg 2>/dev/null)" = "character special file 1:b" ] ||
                skip "/dev/kmsg is not the kmsg character device here"
}

@test "kmsg device: -K /dev/kmsg (live) ends at the end of the ring, like kdmesg alone, marker included" {
        need_live
        local tag="kdmesg-test-$RANDOM$RANDOM"
        echo "<14>$tag" >/dev/kmsg
        run --separate-stderr timeout 30 "$KDMESG" -K /dev/kmsg --format=kmsg
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [[ "$output" == *";$tag"* ]]
        # The same records as the live log read without -K (new ones may follow).
        "$KDMESG" --format=kmsg > "$BATS_TEST_TMPDIR/live"
        [ "$(head -n 1 "$BATS_TEST_TMPDIR/live")" = "${lines[0]}" ]
        # Standard input that is the device: the same, not a read that blocks at the end.
        run --separate-stderr bash -c 'timeout 30 "$KDMESG" -K - --format=kmsg < /dev/kmsg'
        [ "$status" -eq 0 ]
        [[ "$output" == *";$tag"* ]]
}

@test "kmsg device: any node of the device is the device; /dev/null is not" {
        need_live
        local tag="kdmesg-test-$RANDOM$RANDOM" node="$BATS_TEST_TMPDIR/kmsg"
        mknod "$node" c 1 11 2>/dev/null || skip "cannot make a device node here"
        # A node the kernel refuses to open (nodev mount) says nothing about the path check.
        dd if="$node" of=/dev/null bs=16384 count=1 iflag=nonblock 2>/dev/null || skip "device nodes cannot be opened in $BATS_TEST_TMPDIR"
        echo "<14>$tag" >/dev/kmsg
        run --separate-stderr timeout 30 "$KDMESG" -K "$node" -x
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [[ "$output" == *"user  :info  : ["*"] $tag"* ]]
        # Followed: new records, then SIGTERM ends it with status 0.
        "$KDMESG" -w -K "$node" > "$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
        PID=$!
        OUT="$BATS_TEST_TMPDIR/out"
        for ((i = 0; i < 500; i++)); do
                grep -q "$tag" "$OUT" && break
                sleep 0.02
        done
        grep -q "$tag" "$OUT"
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
        # Other character devices are streams: /dev/null is empty.
        run --separate-stderr timeout 30 "$KDMESG" -K /dev/null
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ -z "$stderr" ]
}

@test "kmsg device (emulated): -K /dev/kmsg is the live log: its ring, the rotated records, --cursor-file" {
        need_device_node
        local C="$BATS_TEST_TMPDIR/cursor"
        emu_init 10
        emu write 12
        run --separate-stderr kdmesg_emu -K /dev/kmsg
        [ "$status" -eq 0 ]
        # Seq 0-1 rotated out before this one-shot read: no loss of it (issue 30); --lost lists them.
        [ "${lines[0]}" = "[    0.003000] record 2" ]
        [ -z "$stderr" ]
        run "$CHECK" 2 11 <(printf '%s\n' "${lines[@]}")
        [ "$output" = "printed=10 lost=0 possibly=0" ]
        run --separate-stderr kdmesg_emu -K /dev/kmsg --lost --json
        [ "$status" -eq 0 ]
        [[ "$output" == *'"first_seq":0,"last_seq":1,"count":2,"cause":"rotated"'* ]]
        # As the live log, it keeps a cursor: the second run prints only what is new.
        run --separate-stderr kdmesg_emu -q -K /dev/kmsg --cursor-file "$C"
        [ "$status" -eq 0 ]
        # (A new cursor file has no place behind the ring yet: the rotated records are no loss of it either.)
        [ "${#lines[@]}" -eq 10 ]
        [ "${lines[9]}" = "[    0.012000] record 11" ]
        emu write 1
        run --separate-stderr kdmesg_emu -K /dev/kmsg --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.013000] record 12" ]
        [ -z "$stderr" ]
}

@test "kmsg device (emulated): -w -K /dev/kmsg follows the device; beside a dump it is read to its end" {
        need_device_node
        emu_init 64
        emu write 3
        kdmesg_bg -w -K /dev/kmsg
        wait_lines 3
        emu wait blocks 1
        emu write 2
        wait_lines 5
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ ! -s "$ERR" ]
        run "$CHECK" 0 4 "$OUT"
        [ "$output" = "printed=5 lost=0 possibly=0" ]
        # With another source the device is one input among others: read from its oldest record to its end.
        printf '6,5,6000,-;record 5\n6,6,7000,-;record 6\n' > "$BATS_TEST_TMPDIR/more.kmsg"
        run --separate-stderr timeout 30 bash -c \
                'LD_PRELOAD="$KMSG_EMU_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$KDMESG" -K /dev/kmsg -K "$1"' \
                _ "$BATS_TEST_TMPDIR/more.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        run "$CHECK" 0 6 <(printf '%s\n' "${lines[@]}")
        [ "$output" = "printed=7 lost=0 possibly=0" ]
}

@test "kmsg device (emulated): cli-devices-live.bats passes on a ring cleared as by dmesg -C" {
        emu_init 64
        emu write 20
        emu clear
        # KMSG_EMU_RING (exported by emu_init) points its live test at this ring.
        run bats --tap "$TESTS/cli/cli-devices-live.bats"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *"ok "*" live: --devices over /dev/kmsg # skip no record in the ring carries a DEVICE"* ]]
}

@test "kmsg device: -F refuses the device, which is no syslog-form dump" {
        need_device_node
        emu_init 4
        emu write 2
        run --separate-stderr kdmesg_emu -F /dev/kmsg
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: /dev/kmsg: the kmsg device, not a syslog-form dump: read it with -K" ]
}
