#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Colors (-L, --color, NO_COLOR, KDMESG_COLORS) and the pager (-P, PAGER).
# A terminal is made with script(1) where one is needed.

bats_require_minimum_version 1.5.0
load helpers

# Run a command line on a pseudo-terminal; its output, with \r removed.
on_tty() {
        command -v script > /dev/null || skip "script(1) is not installed"
        TERM=${TERM_ON_TTY:-xterm} script -qec "$1" /dev/null < /dev/null | tr -d '\r'
}

@test "--color=always: named slots for time, prefix, head and levels" {
        run bash -c '"$KDMESG" --color=always -x -K "$DATA/classic.kmsg" 2>/dev/null | cat -v'
        [ "$status" -eq 0 ]
        golden color/always.txt
        run bash -c '"$KDMESG" -Lalways -x -K "$DATA/classic.kmsg" 2>/dev/null | cat -v'
        golden color/always.txt
}

@test "--color=always with -e: the minute break has its own slot" {
        run bash -c '"$KDMESG" --color=always -e --boot-time 1700000000 -K "$DATA/classic.kmsg" --seq 16-18 | cat -v'
        [ "${lines[0]}" = '^[[1;32m[Nov14 22:13]^[[0m ^[[31mfacility 200, level 3^[[0m' ]
        [ "${lines[1]}" = '^[[1;32m[Nov14 22:14]^[[0m ^[[1;7;31memergency a minute later^[[0m' ]
        [ "${lines[2]}" = '^[[32m[  +0.500000]^[[0m ^[[33mUTF-8 text:^[[0m cafM-CM-) M-bM-^BM-,' ]
}

@test "no colors when standard output is not a terminal" {
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg"
        [[ "$output" != *$'\033'* ]]
        run --separate-stderr "$KDMESG" --color -K "$DATA/classic.kmsg"
        [[ "$output" != *$'\033'* ]]
        run --separate-stderr "$KDMESG" --color=auto -K "$DATA/classic.kmsg"
        [[ "$output" != *$'\033'* ]]
}

@test "colors on a terminal by default; never with --color=never or NO_COLOR" {
        run on_tty "'$KDMESG' -P -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = $'\033[32m[    1.500000]\033[0m \033[33musb 1-1:\033[0m\033[31m device descriptor read/64, error -71\033[0m' ]
        run on_tty "'$KDMESG' -P --color=never -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "[    1.500000] usb 1-1: device descriptor read/64, error -71" ]
        run on_tty "NO_COLOR=1 '$KDMESG' -P -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "[    1.500000] usb 1-1: device descriptor read/64, error -71" ]
        # An empty NO_COLOR does not count; --color=always beats NO_COLOR.
        run on_tty "NO_COLOR= '$KDMESG' -P -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == *$'\033[32m'* ]]
        run bash -c 'NO_COLOR=1 "$KDMESG" --color=always -K "$DATA/classic.kmsg" --seq 4'
        [[ "$output" == *$'\033[32m'* ]]
}

@test "KDMESG_COLORS changes and turns off slots" {
        KDMESG_COLORS='time=35:subsystem=:err=4' run bash -c '"$KDMESG" --color=always -K "$DATA/classic.kmsg" --seq 4 | cat -v'
        [ "$output" = '^[[35m[    1.500000]^[[0m usb 1-1:^[[4m device descriptor read/64, error -71^[[0m' ]
}

@test "KDMESG_COLORS: a bad entry is one line, exit 1" {
        KDMESG_COLORS='time=32:bogus=1' run --separate-stderr "$KDMESG" --color=always -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: bad KDMESG_COLORS entry 'bogus=1' (expected SLOT=SGR, e.g. time=32)" ]
}

@test "--color: an unknown mode is one line, exit 1" {
        run --separate-stderr "$KDMESG" --color=sometimes -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: unknown color mode 'sometimes' (expected auto, always or never)" ]
}

# -H pages; its times need a boot time.
H="-H --boot-time 1700000000"
L0="[Nov14 22:13] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC"
L1="[  +0.001000] Command line: BOOT_IMAGE=/vmlinuz root=/dev/sda1"

@test "the pager: \$PAGER on a terminal, with -H only" {
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0-1"
        [ "${lines[0]}" = "PAGED:$L0" ]
        [ "${lines[1]}" = "PAGED:$L1" ]
        # Without -H, util-linux pages nothing: neither does kdmesg, for any view.
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "[    0.000000] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' --format=table --color=never -K '$DATA/classic.kmsg' --seq 0"
        [[ "$output" != *PAGED:* ]]
        [[ "${lines[0]}" == *SEQ* ]]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' --lost --color=never -K '$DATA/classic.kmsg'"
        [[ "$output" != *PAGED:* ]]
}

@test "the pager: a PAGER with shell syntax runs through sh" {
        run on_tty "PAGER='sed s/^/PAGED:/ | sed s/^/TWICE:/' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "TWICE:PAGED:$L0" ]
}

@test "the pager: less -FRSX when PAGER is unset" {
        command -v less > /dev/null || skip "less is not installed"
        run on_tty "unset PAGER; LESS= '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [[ "$output" == *"$L0"* ]]
}

@test "the pager: one that cannot start costs no output, with one warning" {
        run on_tty "PAGER=nosuchpager '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0-1; echo status \$?"
        [ "${#lines[@]}" -eq 4 ]
        [ "${lines[0]}" = "kdmesg: cannot run the pager 'nosuchpager': No such file or directory; writing to standard output" ]
        [ "${lines[1]}" = "$L0" ]
        [ "${lines[2]}" = "$L1" ]
        [ "${lines[3]}" = "status 0" ]
        # Not executable, with arguments; and no less on PATH.
        : > "$BATS_TEST_TMPDIR/notexec"
        run on_tty "PAGER='$BATS_TEST_TMPDIR/notexec -R' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0 2>/dev/null; echo status \$?"
        [ "${lines[0]}" = "$L0" ]
        [ "${lines[1]}" = "status 0" ]
        run on_tty "unset PAGER; PATH=/nonexistent '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0 2>'$BATS_TEST_TMPDIR/err'"
        [ "$output" = "$L0" ]
        [ "$(cat "$BATS_TEST_TMPDIR/err")" = "kdmesg: cannot run the pager 'less': No such file or directory; writing to standard output" ]
}

@test "the pager: not with TERM=dumb, -P, --nopager, an empty PAGER, or off a terminal" {
        run on_tty "TERM=dumb PAGER='sed s/^/PAGED:/' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H --nopager --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H -P --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        run on_tty "PAGER= '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        PAGER='sed s/^/PAGED:/' run "$KDMESG" $H -K "$DATA/classic.kmsg" --seq 0
        [ "$output" = "$L0" ]
}

@test "the pager: never when following, nor for -r, cat and the machine formats" {
        local f
        # Following standard input (a pipe): read to its end, then done.
        run on_tty "cat '$DATA/classic.kmsg' | PAGER='sed s/^/PAGED:/' timeout 60 '$KDMESG' $H -w --color=never -K - --seq 0"
        [ "$output" = "$L0" ]
        for f in json json-dmesg kmsg export syslog cat; do
                run on_tty "PAGER='sed s/^/PAGED:/' KDMESG_BOOT_TIME=0 '$KDMESG' $H --format=$f --color=never -K '$DATA/classic.kmsg' --seq 0"
                [ -n "$output" ]
                [[ "$output" != *PAGED:* ]]
        done
        # The table is for people: paged with -H.
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H --format=table --color=never -K '$DATA/classic.kmsg' --seq 0"
        [[ "${lines[0]}" == "PAGED:"*SEQ* ]]
}

@test "the pager: kdmesg waits for it and keeps the exit status" {
        run on_tty "PAGER='sleep 0.3; cat' '$KDMESG' $H --color=never -K '$BATS_TEST_TMPDIR/missing' -K '$DATA/classic.kmsg' --seq 0; echo status \$?"
        [[ "$output" == *"$L0"* ]]
        [ "${lines[-1]}" = "status 1" ]
}

@test "--color=always: the device slot colors the --show-device tag" {
        run bash -c '"$KDMESG" --color=always --show-device -K "$DATA/classic.kmsg" --seq 3-4 | cat -v'
        [ "${lines[0]}" = '^[[32m[    0.152000]^[[0m ^[[33mACPI:^[[0m^[[1m \_SB_.PCI0: _PRT not found^[[0m' ]
        [ "${lines[1]}" = '^[[32m[    1.500000]^[[0m ^[[36m<c189:1> ^[[0m^[[33musb 1-1:^[[0m^[[31m device descriptor read/64, error -71^[[0m' ]
}

@test "--color=always: the loss line is colored in the short, cat and table views, not in syslog, kmsg or json" {
        local want='^[[1;35m-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --^[[0m' f
        for f in short cat table; do
                run bash -c '"$KDMESG" --color=always --format="$1" -K "$DATA/formats.kmsg" 2>/dev/null | cat -v' _ "$f"
                [ "$status" -eq 0 ]
                grep -qxF -- "$want" <<<"$output"
        done
        # The syslog and cat views color nothing but the loss line.
        run bash -c '"$KDMESG" --color=always -r -K "$DATA/formats.kmsg" 2>/dev/null | grep -v lost'
        [[ "$output" != *$'\033'* ]]
        # The table's loss before its first record follows the heading, colored too.
        run bash -c '"$KDMESG" --color=always --format=table -K "$DATA/formats.kmsg" 2>/dev/null | cat -v'
        [ "${lines[1]}" = '^[[1;35m-- 1 message lost (seq 0, before 1.000000, rotated) --^[[0m' ]
        KDMESG_COLORS='loss=4' run bash -c '"$KDMESG" --color=always --format=cat -K "$DATA/formats.kmsg" 2>/dev/null | cat -v'
        [ "${lines[0]}" = '^[[4m-- 1 message lost (seq 0, before 1.000000, rotated) --^[[0m' ]
        for f in syslog kmsg json export; do
                KDMESG_BOOT_TIME=0 run --separate-stderr "$KDMESG" --color=always --format="$f" -K "$DATA/formats.kmsg"
                [[ "$output" != *$'\033'* ]]
                [[ "$stderr" != *$'\033'* ]]
        done
}
