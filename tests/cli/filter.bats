#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Filters: --level, --facility, --kernel, --userspace, --since, --until,
# --grep and --seq.

bats_require_minimum_version 1.5.0
load helpers

BOOT=1700000000

@test "-l, --level: one level by name or number" {
        run --separate-stderr "$KDMESG" -t --level err -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/level-err.txt
        run --separate-stderr "$KDMESG" -t -l 3 -K "$DATA/classic.kmsg"
        golden filter/level-err.txt
        run --separate-stderr "$KDMESG" -t -l ERROR -K "$DATA/classic.kmsg"
        golden filter/level-err.txt
}

@test "-l LEVEL+: that level and every more severe one" {
        run --separate-stderr "$KDMESG" -t -l crit+ -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/level-crit-up.txt
        run --separate-stderr "$KDMESG" -t -l emerg,alert,crit -K "$DATA/classic.kmsg"
        golden filter/level-crit-up.txt
        run --separate-stderr "$KDMESG" -t -l 2+ -K "$DATA/classic.kmsg"
        golden filter/level-crit-up.txt
}

@test "-l +LEVEL: that level and every less severe one" {
        run --separate-stderr "$KDMESG" -t -l +notice -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/level-notice-down.txt
        run --separate-stderr "$KDMESG" -t -l notice,info,debug -K "$DATA/classic.kmsg"
        golden filter/level-notice-down.txt
}

@test "-l: unknown names and numbers out of range are one line, exit 1" {
        run --separate-stderr "$KDMESG" -l err,bogus -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: unknown level 'bogus' (expected emerg, alert, crit, err, warn, notice, info, debug or 0-7; LEVEL+ or +LEVEL for a range)" ]
        run --separate-stderr "$KDMESG" -l 8 -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: unknown level '8' (expected emerg, alert, crit, err, warn, notice, info, debug or 0-7; LEVEL+ or +LEVEL for a range)" ]
        run --separate-stderr "$KDMESG" -l '' -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: empty level list" ]
}

@test "-f, --facility: names and numbers, up to 255" {
        run --separate-stderr "$KDMESG" -t --facility daemon,200 -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/facility.txt
        run --separate-stderr "$KDMESG" -t -f 3 -f 200 -K "$DATA/classic.kmsg"
        golden filter/facility.txt
}

@test "-f: an unknown facility is one line, exit 1" {
        run --separate-stderr "$KDMESG" -f kern,bogus -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: unknown facility 'bogus' (expected kern, user, mail, daemon, auth, syslog, lpr, news, uucp, cron, authpriv, ftp, local0-local7 or 0-255)" ]
        run --separate-stderr "$KDMESG" -f 256 -K "$DATA/classic.kmsg"
        [ "$stderr" = "kdmesg: unknown facility '256' (expected kern, user, mail, daemon, auth, syslog, lpr, news, uucp, cron, authpriv, ftp, local0-local7 or 0-255)" ]
}

@test "-k, --kernel: kernel messages only" {
        run --separate-stderr "$KDMESG" -t --kernel -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/kernel.txt
        run --separate-stderr "$KDMESG" -t -f kern -K "$DATA/classic.kmsg"
        golden filter/kernel.txt
}

@test "-u, --userspace: every facility but kern" {
        run --separate-stderr "$KDMESG" -t --userspace -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/userspace.txt
        run --separate-stderr "$KDMESG" -t -u -K "$DATA/classic.kmsg"
        golden filter/userspace.txt
}

@test "-l and -f together: both must hold" {
        run --separate-stderr "$KDMESG" -t -k -l err --until 4 -K "$DATA/classic.kmsg"
        [ "$output" = "usb 1-1: device descriptor read/64, error -71" ]
}

@test "level and facility filters drop lines without a priority" {
        run --separate-stderr "$KDMESG" -t -l +emerg -F "$DATA/classic.syslog"
        [[ "$output" != *"without a priority"* ]]
        [[ "$output" == *"without a time stamp"* ]]
}

@test "--since and --until: seconds since boot, inclusive" {
        run --separate-stderr "$KDMESG" --since 1.5 --until 2.1 -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/since-until.txt
}

@test "--since and --until: absolute dates with --boot-time" {
        run --separate-stderr "$KDMESG" --boot-time "$BOOT" --since @1700000001.5 --until @1700000002.1 -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        golden filter/since-until.txt
        run --separate-stderr "$KDMESG" -t --boot-time "$BOOT" --since "2023-11-14 22:14" -K "$DATA/classic.kmsg"
        [ "${#lines[@]}" -eq 2 ]
        [ "${lines[0]}" = "emergency a minute later" ]
        run --separate-stderr "$KDMESG" -t --boot-time "$BOOT" --until "2023-11-14T22:13:20" -K "$DATA/classic.kmsg"
        [ "$output" = "Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
}

@test "--since and --until: now, relative times, yesterday" {
        local now
        now=$(date +%s)
        # A boot 1000 s ago: records at 0..61 s are 939 s old and more.
        run --separate-stderr "$KDMESG" -t --boot-time $((now - 1000)) --since -16min -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        [ "${lines[1]}" = "UTF-8 text: café €" ]
        run --separate-stderr "$KDMESG" -t --boot-time $((now - 1000)) --since "-16min 50s" -K "$DATA/classic.kmsg"
        golden time/notime.txt
        run --separate-stderr "$KDMESG" -t --boot-time $((now - 1000)) --since now -K "$DATA/classic.kmsg"
        [ -z "$output" ]
        run --separate-stderr "$KDMESG" -t --boot-time $((now - 1000)) --until -1h -K "$DATA/classic.kmsg"
        [ -z "$output" ]
        run --separate-stderr "$KDMESG" -t --boot-time $((now - 1000)) --since yesterday --until +1h -K "$DATA/classic.kmsg"
        golden time/notime.txt
        run --separate-stderr "$KDMESG" -t --boot-time $((now - 1000)) --since today --until tomorrow -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
}

@test "--since and --until: wall-clock times on a dump need --boot-time" {
        run --separate-stderr "$KDMESG" --since yesterday -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $DATA/classic.kmsg:1: --since needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
        run --separate-stderr "$KDMESG" --until -5min -K "$DATA/classic.kmsg"
        [ "$stderr" = "kdmesg: $DATA/classic.kmsg:1: --until needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
}

@test "--since after --until is one line, exit 1" {
        run --separate-stderr "$KDMESG" --since 5 --until 3 -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: --since 5 is after --until 3: no record can match" ]
        run --separate-stderr "$KDMESG" --boot-time "$BOOT" --since "2023-11-15" --until "2023-11-14" -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: --since 2023-11-15 is after --until 2023-11-14: no record can match" ]
}

@test "--since: a bad time is one line, exit 1" {
        run --separate-stderr "$KDMESG" --since "half past" -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: bad time 'half past' for --since (expected SECONDS since boot, "*", or -/+ a duration such as -10min or +1h)" ]]
        run --separate-stderr "$KDMESG" --until "-10 fortnights" -K "$DATA/classic.kmsg"
        [[ "$stderr" == "kdmesg: bad time '-10 fortnights' for --until (expected SECONDS since boot, "*")" ]]
}

@test "-g, --grep: POSIX extended regex on the decoded message" {
        run --separate-stderr "$KDMESG" -t --grep 'usb [0-9]-[0-9]: .*(error|new)' -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "usb 1-1: device descriptor read/64, error -71" ]
        [ "${lines[1]}" = "usb 1-1: new high-speed USB device number 2 using xhci_hcd" ]
        # \x5c in the dump is a backslash in the message.
        run --separate-stderr "$KDMESG" -t -g '^ACPI: \\_SB_' -K "$DATA/classic.kmsg"
        [ "${lines[0]}" = 'ACPI: \_SB_.PCI0: _PRT not found' ]
        [ "${#lines[@]}" -eq 2 ]
        # A newline inside the message is matched by the regex, not split.
        run --separate-stderr "$KDMESG" -t -g 'reached.Shutting' -K "$DATA/classic.kmsg"
        [ "${lines[0]}" = "thermal: CPU0 critical temperature reached" ]
        run --separate-stderr "$KDMESG" -t -g 'café' -K "$DATA/classic.kmsg"
        [ "${lines[-1]}" = "UTF-8 text: café €" ]
}

@test "-g: a bad regex is one line, exit 1" {
        run --separate-stderr "$KDMESG" -g 'a(b' -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [[ "$stderr" == "kdmesg: bad regular expression 'a(b': "* ]]
        [ "${#stderr_lines[@]}" -eq 1 ]
}

@test "-g: a regex the C library would take gigabytes to compile is refused in one line" {
        run --separate-stderr "$KDMESG" -g 'se+++++++++++++++++++++++++lf' -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: regular expression 'se+++++++++++++++++++++++++lf' too costly: a repetition of a repetition (undefined in POSIX)" ]
        run --separate-stderr "$KDMESG" -g '((a{200}){200})' -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: regular expression '((a{200}){200})' too costly: over 20000 pieces once its repetitions are expanded" ]
        run --separate-stderr "$KDMESG" -t -g 'usb [0-9]+-[0-9]{1,3}:' -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        [ -n "$output" ]
}

@test "--seq FROM-TO, FROM-, -TO, N" {
        run --separate-stderr "$KDMESG" -t --seq 2-4 -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 3 ]
        [ "${lines[0]}" = "random: crng init done" ]
        run --separate-stderr "$KDMESG" -t --seq 17- -K "$DATA/classic.kmsg"
        [ "${#lines[@]}" -eq 2 ]
        [ "${lines[0]}" = "emergency a minute later" ]
        run --separate-stderr "$KDMESG" -t --seq -1 -K "$DATA/classic.kmsg"
        [ "${#lines[@]}" -eq 2 ]
        run --separate-stderr "$KDMESG" -t --seq 5 -K "$DATA/classic.kmsg"
        [ "$output" = "usb 1-1: new high-speed USB device number 2 using xhci_hcd" ]
}

@test "lost-message lines stay when level, facility or regex filters hide records" {
        run --separate-stderr "$KDMESG" -t -g 'usb [0-9]-[0-9]: .*(error|new)' -K "$DATA/classic.kmsg"
        [ "${#lines[@]}" -eq 3 ]
        [ "${lines[2]}" = "-- 1 message lost (seq 14, between 4.500000 and 5.000000, gap) --" ]
}

@test "--seq: a lost range inside the window is reported where it was" {
        run --separate-stderr "$KDMESG" --seq 13-15 -K "$DATA/classic.kmsg"
        [ "${lines[1]}" = "-- 1 message lost (seq 14, between 4.500000 and 5.000000, gap) --" ]
        run --separate-stderr "$KDMESG" --seq 16- -K "$DATA/classic.kmsg"
        [[ "$output" != *lost* ]]
}

@test "--seq: bad and empty ranges are one line, exit 1" {
        run --separate-stderr "$KDMESG" --seq 5-3 -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: empty sequence range '5-3': 5 is after 3" ]
        run --separate-stderr "$KDMESG" --seq x-3 -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: bad sequence range 'x-3' (expected FROM-TO, FROM-, -TO or N)" ]
        run --separate-stderr "$KDMESG" --seq - -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
}

# A filter on a field the input does not carry matches none of those
# records, and says so once on stderr, naming the field and the input
# (issue 37): an empty result must not read as "none of them".
@test "a filter on a field the input lacks says so once: level, facility, time" {
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" -l err
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: $DATA/basic.syslog:3: a record without a level: --level matches no such record" ]
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" -f kern
        [ "$stderr" = "kdmesg: $DATA/basic.syslog:3: a record without a level: --facility matches no such record" ]
        [[ "$output" != *"no priority"* ]]
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" --boot-time $BOOT --since @$BOOT
        [ "$stderr" = "kdmesg: $DATA/basic.syslog:4: a record without a time stamp: --since matches no such record" ]
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" --boot-time $BOOT --since @$BOOT --until @$((BOOT + 100))
        [ "$stderr" = "kdmesg: $DATA/basic.syslog:4: a record without a time stamp: --since and --until match no such record" ]
        # Input that carries them: nothing said.
        run --separate-stderr "$KDMESG" -q -K "$DATA/classic.kmsg" -l err -f kern --boot-time $BOOT --since @$BOOT
        [ -z "$stderr" ]
}

@test "a device filter over input without dictionaries says so once" {
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" --subsystem usb
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $DATA/basic.syslog: syslog-form input has no SUBSYSTEM or DEVICE: --subsystem matches none of its records" ]
        # A dump none of whose records has a dictionary: said at the end.
        printf '6,0,0,-;usb 1-1: new device\n6,1,10,-;b\n' > "$BATS_TEST_TMPDIR/nodict.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/nodict.kmsg" --match DEVICE=+usb:1-1
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: no record read carries SUBSYSTEM or DEVICE: --match matched none of them" ]
        # One record with a dictionary is enough to say nothing of dictionaries.
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" --subsystem usb
        [ -z "$stderr" ]
}

@test "--subsystem that matches nothing names the subsystems the input has (issue 43)" {
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" --subsystem nosuch
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: --subsystem nosuch: no record read has it (the input's: pci, scsi, block, net, usb, usb-serial, tty, pnp, ...)" ]
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" --subsystem usb
        [ -z "$stderr" ]
        # Seen but no record passes all filters: nothing to say of the subsystem.
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" --subsystem usb --level emerg
        [ -z "$stderr" ]
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" --subsystem usb --subsystem nosuch --level emerg
        [ "$stderr" = "kdmesg: --subsystem nosuch: no record read has it (the input's: pci, scsi, block, net, usb, usb-serial, tty, pnp, ...)" ]
}
