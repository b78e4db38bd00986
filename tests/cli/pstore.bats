#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --pstore: a fake tree (--sysroot) with two crashes in /sys/fs/pstore, the
# newer one with a part missing; systemd-pstore's archive with a dmesg.txt;
# a compressed file, an unreadable one, and no pstore at all.

bats_require_minimum_version 1.5.0
load helpers

# part FILE TIME "Reason#N PartM" LINES...: one pstore file written at TIME.
part() {
        local f=$1 t=$2 h=$3
        shift 3
        mkdir -p "$(dirname "$f")"
        { printf '%s\n' "$h"; printf '%s\n' "$@"; } >"$f"
        touch -d "$t" "$f"
}

setup_file() {
        export ROOT="$BATS_FILE_TMPDIR/root"
        local p="$ROOT/sys/fs/pstore"
        # The older crash: a panic after an oops, in three parts (Part1 is the newest end).
        part "$p/dmesg-efi-169986240003001" "2023-11-13 08:00:00" "Panic#1 Part3" \
                "<6>[    1.000000] Linux version 6.1.0-18-amd64" \
                "<6>[    2.000000] EXT4-fs (sda1): mounted filesystem"
        part "$p/dmesg-efi-169986240002001" "2023-11-13 08:00:00" "Panic#1 Part2" \
                "<1>[  100.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008" \
                "<4>[  100.000100] Oops: 0000 [#1] PREEMPT SMP NOPTI" \
                "<4>[  100.000200] Call Trace:" \
                "<4>[  100.000300]  <TASK>"
        part "$p/dmesg-efi-169986240001001" "2023-11-13 08:00:01" "Panic#1 Part1" \
                "<4>[  100.000400]  </TASK>" \
                "<0>[  101.000000] Kernel panic - not syncing: Fatal exception"
        # The newer crash: an oops whose Part2 is gone.
        part "$p/dmesg-efi-170000004003001" "2023-11-14 22:14:00" "Oops#1 Part3" \
                "<6>[   10.000000] Linux version 6.6.0" \
                "<6>[   12.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd"
        part "$p/dmesg-efi-170000004001001" "2023-11-14 22:14:00" "Oops#1 Part1" \
                "<3>[   50.000000] INFO: task kworker/0:1:42 blocked for more than 120 seconds." \
                "<4>[   51.000000] kernel BUG at mm/slub.c:3904!"

        export ARCHIVE="$BATS_FILE_TMPDIR/archive"
        mkdir -p "$ARCHIVE/sys" "$ARCHIVE/var/lib/systemd/pstore/169986240001"
        {
                printf 'dmesg-erst-169986240002001:\n'
                printf 'Oops#2 Part2\n<6>[    5.000000] older half\n'
                printf 'dmesg-erst-169986240001001:\n'
                printf 'Oops#2 Part1\n<3>[    6.000000] stress[12]: segfault at 0 ip 1 sp 2 error 6 in stress[1+1]\n'
        } >"$ARCHIVE/var/lib/systemd/pstore/169986240001/dmesg.txt"
        # The parts systemd-pstore moved next to it are in dmesg.txt already.
        part "$ARCHIVE/var/lib/systemd/pstore/169986240001/dmesg-erst-169986240001001" "2023-11-12 10:00:00" \
                "Oops#2 Part1" "<3>[    6.000000] stress[12]: segfault at 0 ip 1 sp 2 error 6 in stress[1+1]"
        touch -d "2023-11-12 10:00:00" "$ARCHIVE/var/lib/systemd/pstore/169986240001/dmesg.txt"
}

setup() {
        export KDMESG_PROBLEMS_RULES="$TESTS/../data/problems.rules"
        export KDMESG_PROBLEMS_DIR=""
}

kd() {
        run --separate-stderr "$KDMESG" --sysroot "$ROOT" "$@"
}

@test "--pstore --list: the dumps, newest first, with their parts and what is missing" {
        kd --pstore --list
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden pstore/list.txt
}

@test "--pstore: the newest dump, a missing part marked as a loss where it was" {
        kd --pstore
        [ "$status" -eq 0 ]
        golden pstore/newest.txt
        [ "${stderr_lines[0]}" = "kdmesg: pstore: Oops#1, written 2023-11-14 22:14:00, parts 3,1 (/sys/fs/pstore/dmesg-efi-170000004001001)" ]
        [ "${stderr_lines[1]}" = "kdmesg: pstore: Oops#1: 1 part missing: the lost messages are marked where they were" ]
        [ "${stderr_lines[2]}" = "kdmesg: an unknown number of messages lost (parts of the pstore dump are missing)" ]
        kd --pstore --json
        [ "$status" -eq 0 ]
        [ "${lines[2]}" = '{"first_seq":0,"last_seq":null,"count":null,"cause":"gap","time_before":12.000000}' ]
        # --fail-on-loss sees the loss.
        kd --pstore --fail-on-loss -q
        [ "$status" -eq 3 ]
}

@test "--pstore=2: the older dump's parts in order, oldest first, with every view and --problems" {
        kd --pstore=2
        [ "$status" -eq 0 ]
        golden pstore/older.txt
        [ "${#stderr_lines[@]}" -eq 1 ]
        kd --pstore=2 --problems --json
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        # In the order they came (issue 38): the oops first, the panic it led to after it.
        [[ "${lines[0]}" == '{"problem":"oops","count":1,'*'"first":true'* ]]
        [[ "${lines[1]}" == '{"problem":"panic","count":1,'*'"subject":"kernel panic: Fatal exception"'* ]]
        kd --pstore=2 -l emerg -r
        [ "$output" = "<0>[  101.000000] Kernel panic - not syncing: Fatal exception" ]
        # A wall clock needs the crashed boot's boot time.
        kd --pstore=2 -T
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: "*": --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]]
        kd --pstore=2 -T --boot-time '2023-11-13 07:58:19' -l emerg
        [ "$output" = "[Mon Nov 13 08:00:00 2023] Kernel panic - not syncing: Fatal exception" ]
}

@test "systemd-pstore's archive: dmesg.txt is read, not the parts beside it" {
        run --separate-stderr "$KDMESG" --sysroot "$ARCHIVE" --pstore -r
        [ "$status" -eq 0 ]
        [ "$output" = "$(printf '%s\n' '<6>[    5.000000] older half' '<3>[    6.000000] stress[12]: segfault at 0 ip 1 sp 2 error 6 in stress[1+1]')" ]
        [ "${stderr_lines[0]}" = "kdmesg: pstore: Oops#2, written 2023-11-12 10:00:00, parts 2,1 (/var/lib/systemd/pstore/169986240001)" ]
        run "$KDMESG" --sysroot "$ARCHIVE" --pstore --list
        [ "${#lines[@]}" -eq 2 ]
}

@test "a compressed file and an unreadable one: one line each, exit 1, the rest is read" {
        local r="$BATS_TEST_TMPDIR/r"
        cp -a "$ROOT" "$r"
        printf 'x\x9c\x01\x02' >"$r/sys/fs/pstore/dmesg-efi-170000009001001.enc.z"
        mkdir "$r/sys/fs/pstore/dmesg-efi-170000009002001"
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore --list
        [ "$status" -eq 1 ]
        [ "${#lines[@]}" -eq 3 ]
        [ "${stderr_lines[0]}" = "kdmesg: $r/sys/fs/pstore/dmesg-efi-170000009001001.enc.z: compressed, and the kernel did not decompress it (its pstore compression is not built in): skipped" ]
        [ "${stderr_lines[1]}" = "kdmesg: cannot read $r/sys/fs/pstore/dmesg-efi-170000009002001: Is a directory" ]
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore
        [ "$status" -eq 1 ]
        [ -n "$output" ]
}

@test "no pstore at all, and a dump number beyond the list: one line, exit 1 (--list: none is no error)" {
        local r="$BATS_TEST_TMPDIR/empty"
        mkdir -p "$r/sys"
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: no pstore dumps in $r/sys/fs/pstore or $r/var/lib/systemd/pstore" ]
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore --list
        [ "$status" -eq 0 ]
        [ "$output" = "-- No pstore dumps in $r/sys/fs/pstore or $r/var/lib/systemd/pstore --" ]
        [ -z "$stderr" ]
        kd --pstore=3
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: --pstore=3: there are 2 dumps (see --pstore --list)" ]
}

@test "an empty /sys/fs/pstore that is no pstore file system: pstore is not mounted, and how to mount it" {
        local r="$BATS_TEST_TMPDIR/unmounted"
        mkdir -p "$r/sys/fs/pstore"
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore --list
        [ "$status" -eq 0 ]
        [ "$output" = "-- No pstore dumps in $r/sys/fs/pstore or $r/var/lib/systemd/pstore --" ]
        [ "$stderr" = "kdmesg: $r/sys/fs/pstore is empty and no pstore file system: pstore is not mounted; mount it with: mount -t pstore pstore /sys/fs/pstore" ]
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore
        [ "$status" -eq 1 ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [[ "${stderr_lines[1]}" == *"pstore is not mounted; mount it with: mount -t pstore pstore /sys/fs/pstore" ]]
        # With the dumps of systemd-pstore's archive beside it: no hint, the dumps are there.
        run --separate-stderr "$KDMESG" --sysroot "$ARCHIVE" --pstore --list
        [[ "$stderr" != *"not mounted"* ]]
}

@test "bad --pstore arguments and combinations are refused" {
        kd --pstore=0
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: invalid argument for --pstore: '0' (expected a dump's number, 1 the newest)" ]
        kd --pstore -K "$DATA/classic.kmsg"
        [ "${stderr_lines[0]}" = "kdmesg: --pstore reads a saved crash dump; it cannot be combined with --kmsg-file" ]
        kd --pstore --follow
        [ "${stderr_lines[0]}" = "kdmesg: --pstore reads a saved crash dump; it cannot be combined with --follow" ]
        kd --list
        [ "${stderr_lines[0]}" = "kdmesg: --list lists the dumps of --pstore: add --pstore" ]
}

@test "a dmesg.txt of many parts: each part's own lines, errors named by the file's lines, time linear" {
        local d="$BATS_TEST_TMPDIR/r/var/lib/systemd/pstore/1700000000" k
        mkdir -p "$BATS_TEST_TMPDIR/r/sys" "$d"
        # 1000 parts (each gave every part a copy of the whole file: quadratic memory).
        for ((k = 1000; k > 0; k--)); do
                printf 'dmesg-efi-1700000000%04d:\nOops#1 Part%d\n<6>[%5d.000000] part %d\n' "$k" "$k" "$k" "$k"
        done >"$d/dmesg.txt"
        run --separate-stderr timeout -s KILL 600 "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore -r
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 1000 ]
        [ "${lines[0]}" = "<6>[ 1000.000000] part 1000" ]
        [ "${lines[999]}" = "<6>[    1.000000] part 1" ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        # A bad line in a part is named with its line in dmesg.txt.
        printf 'dmesg-efi-x:\nOops#2 Part2\n<6>[    1.000000] a\n\x00bad\ndmesg-efi-y:\nOops#2 Part1\n<6>[    2.000000] b\n' \
                >"$d/dmesg.txt"
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore -r
        [ "$status" -eq 1 ]
        [ "$output" = "$(printf '%s\n' '<6>[    1.000000] a' '<6>[    2.000000] b')" ]
        [ "${stderr_lines[1]}" = "kdmesg: $d/dmesg.txt:4: binary data (NUL byte) in a syslog-form line" ]
}

@test "a dmesg.txt of more than 1024 parts: the first 1024 are read, the rest named, nothing claimed missing" {
        local d="$BATS_TEST_TMPDIR/r/var/lib/systemd/pstore/1700000000" k
        mkdir -p "$BATS_TEST_TMPDIR/r/sys" "$d"
        for ((k = 1500; k > 0; k--)); do
                printf 'Oops#1 Part%d\n<6>[%5d.000000] part %d\n' "$k" "$k" "$k"
        done >"$d/dmesg.txt"
        run --separate-stderr timeout -s KILL 600 "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore --list
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: $d/dmesg.txt:2049: more than 1024 parts: the 476 parts from this line on are not read" ]
        [[ "${lines[1]}" == *" Oops#1     1500-477       0 "* ]]
        run --separate-stderr timeout -s KILL 600 "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore -r
        [ "$status" -eq 1 ]
        [ "${#lines[@]}" -eq 1024 ]
        [ "${lines[-1]}" = "<6>[  477.000000] part 477" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [[ "$stderr" != *missing* && "$stderr" != *lost* ]]
}

@test "two parts of one number: duplicates, both read, none missing" {
        local d="$BATS_TEST_TMPDIR/r/var/lib/systemd/pstore/1700000000"
        mkdir -p "$BATS_TEST_TMPDIR/r/sys" "$d"
        printf 'Oops#1 Part2\n<6>[    1.000000] a\nOops#1 Part2\n<6>[    2.000000] b\nOops#1 Part1\n<6>[    3.000000] c\n' \
                >"$d/dmesg.txt"
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore --list
        [ "$status" -eq 0 ]
        [[ "${lines[1]}" == *" Oops#1     2,2,1         0 "* ]]
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore -r
        [ "$status" -eq 0 ]
        [ "$output" = "$(printf '%s\n' '<6>[    1.000000] a' '<6>[    2.000000] b' '<6>[    3.000000] c')" ]
        [ "${stderr_lines[1]}" = "kdmesg: pstore: Oops#1: parts with the number of an earlier part: 1 (each is read, in the order of their files)" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
}

@test "a FIFO or a device among the pstore files is not opened: one line, exit 1, the rest read" {
        local r="$BATS_TEST_TMPDIR/r"
        mkdir -p "$r/sys/fs/pstore" "$r/var/lib/systemd/pstore/1700000000"
        printf 'Oops#1 Part1\n<6>[    1.000000] a\n' >"$r/sys/fs/pstore/dmesg-efi-1"
        mkfifo "$r/sys/fs/pstore/dmesg-efi-2" "$r/var/lib/systemd/pstore/1700000000/dmesg.txt"
        ln -s /dev/null "$r/sys/fs/pstore/dmesg-efi-3"
        run --separate-stderr timeout -s KILL 600 "$KDMESG" --sysroot "$r" --pstore -r
        [ "$status" -eq 1 ]
        [ "$output" = "<6>[    1.000000] a" ]
        [ "${stderr_lines[0]}" = "kdmesg: $r/sys/fs/pstore/dmesg-efi-2: not a regular file: skipped" ]
        [ "${stderr_lines[1]}" = "kdmesg: $r/sys/fs/pstore/dmesg-efi-3: not a regular file: skipped" ]
        [ "${stderr_lines[2]}" = "kdmesg: $r/var/lib/systemd/pstore/1700000000/dmesg.txt: not a regular file: skipped" ]
}

@test "sparse 16 MB pstore files: only the first line of each is read to list them, one at a time to show one" {
        local p="$BATS_TEST_TMPDIR/r/sys/fs/pstore" k
        mkdir -p "$p"
        for ((k = 1; k <= 5; k++)); do
                printf 'Oops#%d Part1\n<6>[    1.000000] dump %d\n' "$k" "$k" >"$p/dmesg-efi-$k"
                truncate -s 16777215 "$p/dmesg-efi-$k"
                touch -d "2023-11-1$k 10:00:00" "$p/dmesg-efi-$k"
        done
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore --list
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 6 ]
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore=2 -r
        [ "$status" -eq 1 ]
        [ "$output" = "<6>[    1.000000] dump 4" ]
        [ "${stderr_lines[1]}" = "kdmesg: $p/dmesg-efi-4:3: line longer than 1048576 bytes skipped" ]
}

@test "--pstore --list: a backend name with control bytes is escaped" {
        local p="$BATS_TEST_TMPDIR/r/sys/fs/pstore"
        mkdir -p "$p"
        printf 'Oops#1 Part1\n<6>[    1.000000] a\n' >"$p/dmesg-$(printf 'e\033[31m\302\233')-1"
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore --list
        [ "$status" -eq 0 ]
        [[ "${lines[1]}" == *' e\x1b[31m\xc2\x9b /sys/fs/pstore/dmesg-e\x1b[31m\xc2\x9b-1' ]]
        ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$output$stderr" || false
        run --separate-stderr "$KDMESG" --sysroot "$BATS_TEST_TMPDIR/r" --pstore
        [ "$status" -eq 0 ]
        [[ "$stderr" == *'(/sys/fs/pstore/dmesg-e\x1b[31m\xc2\x9b-1)' ]]
}

@test "pstore header numbers never wrap: past 32 bits or Part0 is said, a sign is no number" {
        local r="$BATS_TEST_TMPDIR/r" p
        p="$r/sys/fs/pstore"
        part "$p/dmesg-efi-1" "2023-11-15 10:00:00" "Oops#4294967296 Part1" "<4>[    1.000000] big count"
        part "$p/dmesg-efi-2" "2023-11-15 10:00:01" "Oops#1 Part4294967296" "<4>[    2.000000] big part"
        part "$p/dmesg-efi-3" "2023-11-15 10:00:02" "Oops#1 Part-1" "<4>[    3.000000] signed part"
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore --list
        echo "$output"
        echo "$stderr"
        [ "$status" -eq 0 ]
        [ "${stderr_lines[0]}" = "kdmesg: $p/dmesg-efi-1:1: a pstore header with a number the kernel does not write (past 32 bits, or Part0): the part is read as one of its own, without it" ]
        [ "${stderr_lines[1]}" = "kdmesg: $p/dmesg-efi-2:1: a pstore header with a number the kernel does not write (past 32 bits, or Part0): the part is read as one of its own, without it" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        # No Oops#0, no part 4294967295, no parts missing.
        ! grep -q 'Oops#0\|4294967295\|4294967294' <<< "$output" || false
        # The two out of range are parts of their own without their header line, not a record of it.
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore=2 -r
        echo "$output"
        [ "$output" = "<4>[    2.000000] big part" ]
        # "Part-1" is no header: the line is text, as the kernel never writes it.
        run --separate-stderr "$KDMESG" --sysroot "$r" --pstore=1 -r
        echo "$output"
        [ "${lines[0]}" = "Oops#1 Part-1" ]
}
