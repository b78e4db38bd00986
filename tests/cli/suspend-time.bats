#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Wall-clock times after suspends, with pinned clocks (KDMESG_TEST_CLOCKS
# "REALTIME MONOTONIC BOOTTIME") and the emulated /dev/kmsg: no real suspend.
# The kernel's stamps stop while the machine sleeps; each stretch of the log
# between resumes gets the time slept before it.

bats_require_minimum_version 1.5.0
load helpers
load emu

# Booted at 1699999900 (2023-11-14 22:11:40 UTC), slept 3600 s in all.
CLOCKS="1700003600 100 3700"

# Records 0-1, a suspend (2) and its resume (3), 4, the exit (5), 6-7:
# stamps (N + 1) ms.
one_suspend() {
        emu write 2
        KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
        KMSG_EMU_TEXT="ACPI: PM: Low-level resume complete" emu write 1
        emu write 1
        KMSG_EMU_TEXT="PM: suspend exit" emu write 1
        emu write 2
}

@test "one suspend: the records before it at boot + stamp, those after it an hour later (-T, iso)" {
        emu_init 64
        one_suspend
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "2023-11-14T22:11:40,001000+00:00 record 0" ]
        [ "${lines[2]}" = "2023-11-14T22:11:40,003000+00:00 PM: suspend entry (deep) 2" ]
        [ "${lines[3]}" = "2023-11-14T23:11:40,004000+00:00 ACPI: PM: Low-level resume complete 3" ]
        [ "${lines[7]}" = "2023-11-14T23:11:40,008000+00:00 record 7" ]
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu -T
        [ "${lines[1]}" = "[Tue Nov 14 22:11:40 2023] record 1" ]
        [ "${lines[4]}" = "[Tue Nov 14 23:11:40 2023] record 4" ]
        # -e starts a new minute at the resume.
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu -e
        [ "${lines[0]}" = "[Nov14 22:11] record 0" ]
        [ "${lines[3]}" = "[Nov14 23:11] ACPI: PM: Low-level resume complete 3" ]
}

@test "one suspend: --since and --until compare each record's own wall clock" {
        emu_init 64
        one_suspend
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu -t --since "2023-11-14 23:00"
        [ "${lines[0]}" = "ACPI: PM: Low-level resume complete 3" ]
        [ "${#lines[@]}" -eq 5 ]
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu -t --until "2023-11-14 23:00"
        [ "${lines[-1]}" = "PM: suspend entry (deep) 2" ]
        [ "${#lines[@]}" -eq 3 ]
}

@test "the export form's __REALTIME_TIMESTAMP gets the time slept too" {
        emu_init 64
        one_suspend
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --format=export
        [ "$status" -eq 0 ]
        [ "$(grep -a -m1 __REALTIME_TIMESTAMP <<<"$output")" = "__REALTIME_TIMESTAMP=1699999900001000" ]
        [ "$(grep -a __REALTIME_TIMESTAMP <<<"$output" | tail -1)" = "__REALTIME_TIMESTAMP=1700003500008000" ]
}

@test "no suspend in the log: every record after the time slept, as util-linux has it" {
        emu_init 64
        emu write 3
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso
        [ "${lines[0]}" = "2023-11-14T23:11:40,001000+00:00 record 0" ]
        # Never slept: boot + stamp.
        KDMESG_TEST_CLOCKS="1700003600 3700 3700" run --separate-stderr kdmesg_emu --time-format=iso
        [ "${lines[0]}" = "2023-11-14T22:11:40,001000+00:00 record 0" ]
}

@test "two suspends, one timed by the log: the other gets what the clocks leave" {
        emu_init 64
        emu write 1
        KMSG_EMU_TEXT="PM: suspend entry (s2idle)" emu write 1
        KMSG_EMU_TEXT="PM: resume from suspend-to-idle" emu write 1
        KMSG_EMU_TEXT="PM: Timekeeping suspended for 600.250 seconds" emu write 1
        emu write 1
        KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
        KMSG_EMU_TEXT="ACPI: PM: Low-level resume complete" emu write 1
        emu write 1
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso
        [ "${lines[0]}" = "2023-11-14T22:11:40,001000+00:00 record 0" ]
        [ "${lines[2]}" = "2023-11-14T22:21:40,253000+00:00 PM: resume from suspend-to-idle 2" ]
        [ "${lines[4]}" = "2023-11-14T22:21:40,255000+00:00 record 4" ]
        [ "${lines[6]}" = "2023-11-14T23:11:40,007000+00:00 ACPI: PM: Low-level resume complete 6" ]
        [ "${lines[7]}" = "2023-11-14T23:11:40,008000+00:00 record 7" ]
}

@test "two suspends the log does not time: the stretch between them gets the upper bound, never worse than util-linux" {
        emu_init 64
        emu write 1
        KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
        KMSG_EMU_TEXT="PM: suspend exit" emu write 1
        KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
        KMSG_EMU_TEXT="PM: suspend exit" emu write 1
        emu write 1
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso
        [ "${lines[0]}" = "2023-11-14T22:11:40,001000+00:00 record 0" ]
        [ "${lines[2]}" = "2023-11-14T23:11:40,003000+00:00 PM: suspend exit 2" ]
        [ "${lines[5]}" = "2023-11-14T23:11:40,006000+00:00 record 5" ]
}

@test "a ring that lost its start: the stretch before the first resume is worked out backwards" {
        emu_init 4
        emu write 3
        KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
        KMSG_EMU_TEXT="PM: Timekeeping suspended for 1800 seconds" emu write 1
        emu write 1
        # Seqs 2-5 are left: earlier sleeps may have rotated out with 0 and 1.
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso -q
        # (Rotated out before this one-shot read: no loss line, issue 30.)
        [ "${lines[0]}" = "2023-11-14T22:41:40,003000+00:00 record 2" ]
        [ "${lines[2]}" = "2023-11-14T23:11:40,005000+00:00 PM: Timekeeping suspended for 1800 seconds 4" ]
        # Not timed: the total, as util-linux has it.
        emu_init 4
        emu write 3
        KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
        KMSG_EMU_TEXT="PM: suspend exit" emu write 1
        emu write 1
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso -q
        [ "${lines[0]}" = "2023-11-14T23:11:40,003000+00:00 record 2" ]
}

@test "a dump: the durations the log gives are added from their resume on" {
        printf '%s\n' '6,0,1000,-;before' '6,1,2000,-;PM: suspend entry (deep)' \
                '6,2,3000,-;PM: Timekeeping suspended for 90.5 seconds' '6,3,4000,-;after' \
                '14,4,5000,-;PM: suspend entry (deep)' '14,5,6000,-;PM: Timekeeping suspended for 1000 seconds' \
                '6,6,7000,-;userspace cannot fake a suspend' > "$BATS_TEST_TMPDIR/d.kmsg"
        run --separate-stderr "$KDMESG" --boot-time 1700000000 --time-format=iso -K "$BATS_TEST_TMPDIR/d.kmsg"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "2023-11-14T22:13:20,001000+00:00 before" ]
        [ "${lines[1]}" = "2023-11-14T22:13:20,002000+00:00 PM: suspend entry (deep)" ]
        [ "${lines[2]}" = "2023-11-14T22:14:50,503000+00:00 PM: Timekeeping suspended for 90.5 seconds" ]
        [ "${lines[3]}" = "2023-11-14T22:14:50,504000+00:00 after" ]
        [ "${lines[6]}" = "2023-11-14T22:14:50,507000+00:00 userspace cannot fake a suspend" ]
        # The clocks of this machine are not the dump's: KDMESG_TEST_CLOCKS changes nothing.
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr "$KDMESG" --boot-time 1700000000 --time-format=iso -K "$BATS_TEST_TMPDIR/d.kmsg"
        [ "${lines[0]}" = "2023-11-14T22:13:20,001000+00:00 before" ]
}

@test "KDMESG_TEST_CLOCKS: a bad value is one line, exit 1" {
        emu_init 64
        emu write 1
        for bad in "1 2" "a b c" "1700000000 200 100" "1 2 3 4"; do
                KDMESG_TEST_CLOCKS="$bad" run --separate-stderr kdmesg_emu -T
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "$stderr" = "kdmesg: bad KDMESG_TEST_CLOCKS '$bad' (expected REALTIME MONOTONIC BOOTTIME, in seconds)" ]
        done
}

@test "a dump of two boots: the second starts with nothing slept" {
        printf '%s\n' '6,0,1000,-;before' '6,1,2000,-;PM: suspend entry (deep)' \
                '6,2,3000,-;PM: Timekeeping suspended for 100 seconds' '6,3,40000000,-;after' \
                '6,0,1000,-;second boot' > "$BATS_TEST_TMPDIR/b.kmsg"
        run --separate-stderr "$KDMESG" --boot-time 1700000000 --time-format=iso -K "$BATS_TEST_TMPDIR/b.kmsg"
        # (The clock 40 s back: a new boot.)
        [ "${lines[3]}" = "2023-11-14T22:15:40,000000+00:00 after" ]
        [ "${lines[4]}" = "-- boot 2 --" ]
        [ "${lines[5]}" = "2023-11-14T22:13:20,001000+00:00 second boot" ]
}

@test "sleeps whose logged durations add up past 2^63 us: the wall clock stops at its end, no overflow" {
        local i
        for ((i = 0; i < 20; i++)); do
                printf '6,%d,%d,-;PM: suspend entry (deep)\n' $((2 * i)) $((2 * i + 1))
                printf '6,%d,%d,-;PM: Timekeeping suspended for 922337203685.9 seconds\n' $((2 * i + 1)) $((2 * i + 2))
        done > "$BATS_TEST_TMPDIR/d.kmsg"
        run --separate-stderr "$KDMESG" --boot-time 1700000000 --time-format=iso -K "$BATS_TEST_TMPDIR/d.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 40 ]
        [ "${lines[-1]}" = "294247-01-10T04:00:54,775807+00:00 PM: Timekeeping suspended for 922337203685.9 seconds" ]
        # The live log's prescan sums them too.
        emu_init 64
        for ((i = 0; i < 20; i++)); do
                KMSG_EMU_TEXT="PM: suspend entry (deep)" emu write 1
                KMSG_EMU_TEXT="PM: Timekeeping suspended for 922337203685.9 seconds" emu write 1
        done
        KDMESG_TEST_CLOCKS="$CLOCKS" run --separate-stderr kdmesg_emu --time-format=iso
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 40 ]
}
