#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Time stamps: -t, -T, -d, -e, -H, --time-format, --boot-time and
# KDMESG_BOOT_TIME.  The dumps were "taken" on a machine that booted at
# 1700000000 (2023-11-14 22:13:20 UTC).

bats_require_minimum_version 1.5.0
load helpers

BOOT=1700000000

@test "-t, --notime: no time stamps" {
        run --separate-stderr "$KDMESG" --notime -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/notime.txt
        run --separate-stderr "$KDMESG" -t -K "$DATA/classic.kmsg"
        golden time/notime.txt
        run --separate-stderr "$KDMESG" --time-format notime -K "$DATA/classic.kmsg"
        golden time/notime.txt
}

@test "-T, --ctime: wall-clock stamps from --boot-time" {
        run --separate-stderr "$KDMESG" --ctime --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/ctime.txt
        run --separate-stderr "$KDMESG" -T --boot-time "@$BOOT" -K "$DATA/classic.kmsg"
        golden time/ctime.txt
        run --separate-stderr "$KDMESG" --time-format ctime --boot-time "2023-11-14 22:13:20" -K "$DATA/classic.kmsg"
        golden time/ctime.txt
}

@test "--boot-time follows TZ for dates and output" {
        TZ=Europe/Berlin run "$KDMESG" -T --boot-time "2023-11-14 23:13:20" -K "$DATA/classic.kmsg" --seq 0
        [ "$output" = "[Tue Nov 14 23:13:20 2023] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
}

@test "-d, --show-delta: time since the previous record shown" {
        run --separate-stderr "$KDMESG" --show-delta -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/delta.txt
        run --separate-stderr "$KDMESG" -d -K "$DATA/classic.kmsg"
        golden time/delta.txt
        run --separate-stderr "$KDMESG" --time-format raw --time-format delta -K "$DATA/classic.kmsg"
        golden time/delta.txt
        # --time-format delta alone is the delta alone, as util-linux 2.43 prints it.
        run --separate-stderr "$KDMESG" --time-format delta -K "$DATA/classic.kmsg"
        [ "$output" = "$("$KDMESG" -t -d -K "$DATA/classic.kmsg" 2>/dev/null)" ]
        [ "${lines[1]}" = "[<    0.000000>] Command line: BOOT_IMAGE=/vmlinuz root=/dev/sda1" ]
}

@test "-d counts from the previous record shown, after filters" {
        run --separate-stderr "$KDMESG" -d -l err -K "$DATA/classic.kmsg"
        [ "${lines[0]}" = "[    1.500000 <    0.000000>] usb 1-1: device descriptor read/64, error -71" ]
        [ "${lines[2]}" = "[    6.000000 <    4.500000>] facility 200, level 3" ]
}

@test "-T -d and --time-format ctime --time-format delta combine" {
        run --separate-stderr "$KDMESG" -T -d --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/ctime-delta.txt
        run --separate-stderr "$KDMESG" --time-format delta --time-format ctime --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        golden time/ctime-delta.txt
}

@test "-t -d shows only the delta" {
        run --separate-stderr "$KDMESG" -t -d -K "$DATA/classic.kmsg" --seq 0-2
        [ "${lines[0]}" = "[<    0.000000>] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        [ "${lines[2]}" = "[<    0.001500>] random: crng init done" ]
}

@test "-e, --reltime: the minute, then offsets from the previous record" {
        run --separate-stderr "$KDMESG" --reltime --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/reltime.txt
        run --separate-stderr "$KDMESG" -e --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        golden time/reltime.txt
        run --separate-stderr "$KDMESG" --time-format reltime --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        golden time/reltime.txt
}

@test "-H, --human: relative times" {
        run --separate-stderr "$KDMESG" --human --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/reltime.txt
        run --separate-stderr "$KDMESG" -H -P --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        golden time/reltime.txt
}

@test "--time-format iso: ISO 8601 with microseconds and the zone offset" {
        run --separate-stderr "$KDMESG" --time-format iso --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/iso.txt
        TZ=Asia/Kolkata run "$KDMESG" --time-format iso --boot-time "$BOOT" -K "$DATA/classic.kmsg" --seq 1
        [ "$output" = "2023-11-15T03:43:20,001000+05:30 Command line: BOOT_IMAGE=/vmlinuz root=/dev/sda1" ]
}

@test "--time-format iso with -d: the iso stamp, then the raw one with the delta, as util-linux 2.43" {
        run --separate-stderr "$KDMESG" --time-format iso -d --boot-time "$BOOT" -K "$DATA/classic.kmsg" --seq 0-1
        [ "$status" -eq 0 ]
        [ "$stderr" = "" ]
        [ "${lines[0]}" = "2023-11-14T22:13:20,000000+00:00 [    0.000000 <    0.000000>] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        [ "${lines[1]}" = "2023-11-14T22:13:20,001000+00:00 [    0.001000 <    0.000000>] Command line: BOOT_IMAGE=/vmlinuz root=/dev/sda1" ]
}

@test "-T then --time-format raw: both stamps, in that order, as util-linux 2.43" {
        run --separate-stderr "$KDMESG" -T --time-format raw --boot-time "$BOOT" -K "$DATA/classic.kmsg" --seq 0-1
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "[Tue Nov 14 22:13:20 2023] [    0.000000] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        run --separate-stderr "$KDMESG" --time-format raw -T --boot-time "$BOOT" -K "$DATA/classic.kmsg" --seq 0-1
        [ "${lines[0]}" = "[    0.000000] [Tue Nov 14 22:13:20 2023] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        # notime anywhere: none of them.
        run --separate-stderr "$KDMESG" -T --time-format raw -t --boot-time "$BOOT" -K "$DATA/classic.kmsg" --seq 0
        [ "$output" = "Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
}

@test "--time-format: an unknown format is one line, exit 1" {
        run --separate-stderr "$KDMESG" --time-format fancy -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: unknown time format 'fancy' (expected delta, reltime, ctime, notime, iso or raw)" ]
}

@test "wall-clock formats on a dump without --boot-time are refused" {
        local opt
        for opt in -T -e -H "--time-format=iso" "--time-format=ctime" "--time-format=reltime"; do
                run --separate-stderr "$KDMESG" "$opt" -K "$DATA/classic.kmsg"
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                # One short line at the first record that needs it, with an example (issue 37).
                [[ "$stderr" == "kdmesg: $DATA/classic.kmsg:1: "*" needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]]
                [ "${#stderr_lines[@]}" -eq 1 ]
        done
        run --separate-stderr "$KDMESG" -T -F "$DATA/classic.syslog"
        [ "$stderr" = "kdmesg: $DATA/classic.syslog:1: --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
}

@test "KDMESG_BOOT_TIME pins the boot time of dumps too; --boot-time wins over it" {
        KDMESG_BOOT_TIME=$BOOT run --separate-stderr "$KDMESG" -T -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden time/ctime.txt
        KDMESG_BOOT_TIME=@0 run --separate-stderr "$KDMESG" -T --boot-time "$BOOT" -K "$DATA/classic.kmsg"
        golden time/ctime.txt
}

@test "--boot-time: a bad time is one line, exit 1" {
        run --separate-stderr "$KDMESG" -T --boot-time "last tuesday" -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: bad time 'last tuesday' for --boot-time (expected YYYY-MM-DD [HH:MM[:SS]], HH:MM[:SS], @SECONDS or SECONDS since the epoch, now, today, yesterday, or -/+ a duration such as -2h)" ]
}

@test "KDMESG_BOOT_TIME pins the boot time of the live log" {
        [ -r /dev/kmsg ] && "$KDMESG" -t > /dev/null 2>&1 || skip "/dev/kmsg is not readable here"
        # With a boot at the epoch, every record of a machine up for less than
        # a year is stamped in 1970.
        KDMESG_BOOT_TIME=@0 run --separate-stderr "$KDMESG" -T -P
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "[Thu Jan  1 "*" 1970] "* ]]
        KDMESG_BOOT_TIME=@0 run "$KDMESG" --time-format iso
        [[ "${lines[0]}" == 1970-01-0* ]]
        KDMESG_BOOT_TIME=junk run --separate-stderr "$KDMESG" -T
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: bad time 'junk' in KDMESG_BOOT_TIME" ]
}

# A "dmesg -T" paste keeps the time it printed (issue 37): read in the local
# zone (TZ), which kdmesg takes for the paste's, it shows in every view.
@test "a dmesg -T paste: the classic view as printed, -T and --time-format from it" {
        local P="$DATA/dmesg-T.txt"
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "$output" = "$(cat "$P")" ]
        run --separate-stderr env TZ=Europe/Berlin "$KDMESG" -F "$P" -T
        [ "$output" = "$(cat "$P")" ]
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --time-format iso
        [ "${lines[0]}" = "2018-12-19T03:36:07,000000+00:00 INFO: task logrotate:17344 blocked for more than 120 seconds." ]
        # In another zone the same printed time is another instant: its offset says which.
        run --separate-stderr env TZ=Europe/Berlin "$KDMESG" -F "$P" --time-format iso
        [ "${lines[0]}" = "2018-12-19T03:36:07,000000+01:00 INFO: task logrotate:17344 blocked for more than 120 seconds." ]
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" -d
        [ "${lines[3]}" = "[Wed Dec 19 03:36:09 2018 <    2.000000>] usb 1-1: new high-speed USB device number 2 using xhci_hcd" ]
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --time-format reltime
        [ "${lines[0]}" = "[Dec19 03:36] INFO: task logrotate:17344 blocked for more than 120 seconds." ]
        [ "${lines[3]}" = "[  +2.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd" ]
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --format=table -o TIME,MESSAGE
        [ "${lines[1]}" = "Wed Dec 19 03:36:07 2018 INFO: task logrotate:17344 blocked for more than 120 seconds." ]
        # Read back, the classic view is the paste.
        env TZ=UTC "$KDMESG" -F "$P" | env TZ=UTC "$KDMESG" -F - | diff "$P" -
}

@test "a dmesg -T paste: --since and --until on its times, --problems FIRST and LAST" {
        local P="$DATA/dmesg-T.txt"
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --since "2018-12-19 03:36:08" --until "2018-12-19 03:39"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        [[ "${lines[0]}" == "[Wed Dec 19 03:36:09 2018] usb 1-1:"* ]]
        [[ "${lines[1]}" == "[Wed Dec 19 03:38:10 2018] EXT4-fs error"* ]]
        # Seconds since boot are not what it carries: said once.
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --since 10
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $P:1: a record with only the wall clock of a dmesg -T paste: seconds since boot match no such record" ]
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --problems
        [ "${lines[1]}" = "1* hung-task     2 Wed Dec 19 03:36:07 2018 Wed Dec 19 03:40:10 2018 INFO: task hung in corrupted        INFO: task logrotate:17344 blocked for more than 120 seconds." ]
        run --separate-stderr env TZ=UTC "$KDMESG" -F "$P" --problems --time-format iso
        [[ "${lines[1]}" == "1* hung-task     2 2018-12-19T03:36:07,000000+00:00 2018-12-19T03:40:10,000000+00:00 "* ]]
}

@test "a dump without its boot time: -T and --since are one short line at the first record, and no report verdict" {
        run --separate-stderr "$KDMESG" -T -K "$DATA/classic.kmsg" --problems
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $DATA/classic.kmsg:1: --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
        [ "$output" = "-- No verdict on $DATA/classic.kmsg: it could not be read --" ]
        # With the boot time it is read.
        run --separate-stderr "$KDMESG" -T -K "$DATA/classic.kmsg" --boot-time 1700000000 -q
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "[Tue Nov 14 22:13:20 2023] "* ]]
}
