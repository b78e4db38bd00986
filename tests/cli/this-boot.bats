#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A dump of the running boot gets this boot's time without --boot-time
# (issue 30): its records are still in the ring with the same sequence
# numbers, time stamps and messages, or it carries this boot's id.  A dump
# of another boot still asks.  The ring is the emulated /dev/kmsg, the
# clocks pinned (KDMESG_TEST_CLOCKS: realtime, monotonic, boottime).

bats_require_minimum_version 1.5.0
load helpers
load emu

setup() {
        export KDMESG_TEST_CLOCKS="1700000100 50 100"
        emu_init 64
        emu write 10
        kdmesg_emu --format=kmsg > "$BATS_TEST_TMPDIR/this.kmsg"
        kdmesg_emu --format=export > "$BATS_TEST_TMPDIR/this.export"
}

@test "this boot's dump: -T, -e, -H and --format=export as for the live log, without --boot-time" {
        local live
        for opt in -T -e -H --format=export; do
                live=$(kdmesg_emu $opt)
                run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.kmsg" $opt
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
                [ -n "$output" ]
                [ "$output" = "$live" ]
        done
        # Its export carries this boot's id, as the live log's does.
        local id
        id=$(emu get boot_id)
        [[ "$output" == *"_BOOT_ID=${id//-/}"* ]]
}

@test "this boot's dump: its first records rotated out of the ring, a later one decides" {
        emu write 60
        # The ring holds 64: seq 0-5 are gone, 6-9 are still there.
        [ "$(emu get first_seq)" -eq 6 ]
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.kmsg" -T
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 10 ]
        emu write 10
        # Now none is: nothing tells.
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.kmsg" -T
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/this.kmsg:1: --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
}

@test "another boot's dump is refused, and --boot-time this takes this boot's time on request" {
        emu reboot
        KMSG_EMU_TEXT=other emu write 12
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.kmsg" -T
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/this.kmsg:1: --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
        # An export dump of another boot carries its records' wall clock (__REALTIME_TIMESTAMP): -T shows it.
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.export" -T
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "$(wc -l <<<"$output")" -ge 3 ]
        [[ "${lines[0]}" == "[Tue Nov 14 "*" 2023] record 0" ]]
        # The same seq and time stamp with another message is another boot too.
        emu reboot
        emu write 3
        KMSG_EMU_TEXT=other emu write 1
        sed -n '/^6,3,/,$p' "$BATS_TEST_TMPDIR/this.kmsg" > "$BATS_TEST_TMPDIR/tail.kmsg"
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/tail.kmsg" -T
        [ "$status" -eq 1 ]
        # --boot-time this: the user's word for it.
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.kmsg" --boot-time this -T
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "[Tue Nov 14 22:13:20 2023] record 0" ]
}

@test "a dump read from a pipe is not read twice: it still asks for --boot-time" {
        run --separate-stderr kdmesg_emu -K - -T < "$BATS_TEST_TMPDIR/this.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: <stdin>:1: --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
        run --separate-stderr kdmesg_emu -K - --boot-time this -T < "$BATS_TEST_TMPDIR/this.kmsg"
        [ "$status" -eq 0 ]
}
