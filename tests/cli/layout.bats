#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Reports and the table laid out for the terminal they are on (issue 30),
# as lsblk and findmnt lay theirs out: at 80, 120 and 200 columns every row
# is one line, the key columns whole; the free text (a message, a subject)
# takes what is left and ends in an ellipsis, or wraps at spaces with
# --wrap; empty columns of the default set are left out.  Piped, the lines
# stay whole, as the other tests' golden files show.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        export KDMESG_PROBLEMS_RULES="$TESTS/../data/problems.rules"
        export KDMESG_PROBLEMS_DIR=""
}

# The widest line of standard input, in columns on the screen.
widest() {
        # Colors (the table's LEVEL on a terminal) take no column.
        sed 's/\x1b\[[0-9;]*m//g' | wc -L
}

# What stands before the column that starts with heading $1 in each line of
# standard input (the heading's line first), runs of spaces made one: the
# key columns' text, whatever their padding.
keys_before() {
        sed 's/\x1b\[[0-9;]*m//g' |
                awk -v h="$1" 'NR == 1 { col = index($0, h) } { s = substr($0, 1, col - 1); gsub(/ +/, " ", s); print s }'
}

@test "--devices at 80, 120 and 200 columns: a line a row, the key columns whole, the message cut" {
        local w piped
        piped=$("$KDMESG" -K "$DATA/devices.kmsg" --devices)
        for w in 80 120 200; do
                run on_term $w -K "$DATA/devices.kmsg" --devices
                [ "$status" -eq 0 ]
                golden layout/devices-$w.txt
                [ "$(widest <<<"$output")" -le $w ]
                # As many lines as piped: no row wraps (at 80, one more says what gave way: below).
                [ "${#lines[@]}" -eq $(($(wc -l <<<"$piped") + (w == 80))) ]
                # The key columns as piped, whole (at 80, two of them give way: below).
                [ $w -eq 80 ] || [ "$(keys_before MESS <<<"$output")" = "$(keys_before MESS <<<"$piped")" ]
                [ $w -eq 80 ] || [[ "$output" != *"Not shown"* ]]
        done
        # At 80 the raw DEVICE values give way first (issue 43); NAME stays first and whole, as in lsblk.
        # The report says so once, under it, as the table does.
        run on_term 80 -K "$DATA/devices.kmsg" --devices
        [ "$(keys_before MESS <<<"$output" | head -1)" = "NAME SUBSYSTEM COUNT LEVEL FIRST LAST " ]
        [ "${lines[-1]}" = "-- Not shown at 80 columns: DEVICE (| less -S shows every column) --" ]
        [ "$(grep -c 'Not shown' <<<"$output")" -eq 1 ]
        [ "${lines[1]}" = "sda1         block          1 crit   1.433835 1.433835 sda1: write access to a …" ]
        [ "${lines[3]}" = "ttyUSB0      usb-serial     3 err    0.935385 1.904595 ftdi_sio ttyUSB0: FTDI U…" ]
        # Cut where it did not fit, whole where it did.
        run on_term 120 -K "$DATA/devices.kmsg" --devices
        [[ "${lines[1]}" == "sda1 "*" b8:1 "*" crit "*" sda1: write access to a read-only bl…" ]]
        run on_term 200 -K "$DATA/devices.kmsg" --devices
        [[ "${lines[1]}" == *" sda1: write access to a read-only block device" ]]
}

@test "--problems at 80, 120 and 200 columns: KIND to LAST whole (at 80 LAST gives way), SUBJECT and MESSAGE share the rest" {
        local w piped
        piped=$("$KDMESG" -K "$DATA/problems.kmsg" --problems)
        for w in 80 120 200; do
                run on_term $w -K "$DATA/problems.kmsg" --problems
                [ "$status" -eq 0 ]
                golden layout/problems-$w.txt
                [ "$(widest <<<"$output")" -le $w ]
                # At 80, one line more: what gave way (below).
                [ "${#lines[@]}" -eq $(($(wc -l <<<"$piped") + (w == 80))) ]
                if ((w == 80)); then
                        # #, KIND, COUNT and FIRST as piped; LAST gave way to the subject.
                        [ "$(keys_before SUBJECT <<<"$output" | head -n $(wc -l <<<"$piped") | awk '{ print $1, $2, $3, $4 }')" = \
                                "$(keys_before SUBJECT <<<"$piped" | awk '{ print $1, $2, $3, $4 }')" ]
                else
                        [ "$(keys_before SUBJECT <<<"$output" | head -n $(wc -l <<<"$piped"))" = "$(keys_before SUBJECT <<<"$piped")" ]
                fi
        done
        # At 80 a subject past 40 characters is cut, a short one is whole; the kind is never cut.
        run on_term 80 -K "$DATA/problems.kmsg" --problems
        # At 80 MESSAGE gives way to SUBJECT (and the empty DEVICE), and the report says so under it (issue 43).
        [[ "${lines[0]}" == *"# KIND "*" COUNT "*" SUBJECT" ]]
        [[ "${lines[-2]}" == *" panic "*" kernel panic: VFS: Unable to mount root fs o…" ]]
        [[ "${lines[-3]}" == *" panic "*" kernel panic: Fatal exception" ]]
        # The line under it fits the 80 columns: without its hint where that would not.
        [ "${lines[-1]}" = "-- Not shown at 80 columns: LAST, DEVICE, MESSAGE --" ]
        # No subject of up to 40 characters is cut (issue 38): a cut one keeps 40 columns and more.
        python3 -c '
import sys
lines = sys.stdin.read().split("\n")
col = lines[0].index("SUBJECT")
cut = [l[col:] for l in lines[1:] if l.endswith("\u2026")]
assert cut, "no subject is cut: the data no longer tests this"
bad = [c for c in cut if len(c) < 41]
assert not bad, bad
' <<<"$output"
}

@test "--lost at 80, 120 and 200 columns: one line a row, nothing cut" {
        local w f
        for f in formats two-boots-reset; do
                for w in 80 120 200; do
                        run on_term $w -K "$DATA/$f.kmsg" --lost
                        [ "$status" -eq 0 ]
                        golden layout/lost-$f-$w.txt
                        # The table's rows (the summary after them is prose).
                        [ "$(sed '/^Total:/,$d' <<<"$output" | widest)" -le $w ]
                done
        done
        # The rows are those piped, padded alike (nothing to cut or leave out).
        run on_term 80 -K "$DATA/formats.kmsg" --lost
        [ "$(head -3 <<<"$output")" = "$("$KDMESG" -K "$DATA/formats.kmsg" --lost | head -3)" ]
}

@test "the table at 80, 120 and 200 columns: a line a record, the message cut, not wrapped mid-word" {
        local w piped
        piped=$("$KDMESG" -K "$DATA/devices.kmsg" --format=table)
        for w in 80 120 200; do
                run on_term $w -K "$DATA/devices.kmsg" --format=table
                [ "$status" -eq 0 ]
                golden layout/table-$w.txt
                [ "$(widest <<<"$output")" -le $w ]
                # At 80, one line more: what was left out to fit (below).
                [ "${#lines[@]}" -eq $(($(wc -l <<<"$piped") + (w == 80))) ]
                [ $w -eq 80 ] || [ "$(keys_before MESS <<<"$output")" = "$(keys_before MESS <<<"$piped")" ]
        done
        # At 80 the default set's DEVICE gives way to MESSAGE (which would get 30 columns), SUBSYSTEM stays;
        # the table says so once, under it (issue 43): its columns do not change with the width without a word.
        run on_term 80 -K "$DATA/devices.kmsg" --format=table
        [ "${lines[0]}" = "    SEQ          TIME LEVEL  SUBSYSTEM  MESSAGE" ]
        [ "${lines[1]}" = "      0      0.012345 notice            Linux version 6.1.0-18-amd64 (debian-ke…" ]
        [ "${lines[-1]}" = "-- Not shown at 80 columns: DEVICE (-o names columns to keep) --" ]
        [ "$(grep -c 'Not shown' <<<"$output")" -eq 1 ]
        # With ISO times (32 columns) SUBSYSTEM gives way too.
        run on_term 80 -K "$DATA/devices.kmsg" --format=table --time-format=iso --boot-time=@1700000000
        [ "${lines[0]}" = "    SEQ                             TIME LEVEL  MESSAGE" ]
        [ "$(widest <<<"$output")" -le 80 ]
        [ "${lines[-1]}" = "-- Not shown at 80 columns: SUBSYSTEM, DEVICE (-o names columns to keep) --" ]
        # In German too, where the translations are built.
        if [ -f "$BUILDDIR/po/de/LC_MESSAGES/kdmesg.mo" ]; then
                LANGUAGE=de KDMESG_LOCALEDIR="$BUILDDIR/po" run on_term 80 -K "$DATA/devices.kmsg" --format=table
                [ "${lines[-1]}" = "-- Bei 80 Spalten nicht gezeigt: DEVICE (-o nennt, was bleibt) --" ]
        fi
        # Columns that -o names never give way, however little is left: nothing to say.
        run on_term 80 -K "$DATA/devices.kmsg" -o SEQ,TIME,LEVEL,SUBSYSTEM,DEVICE,MESSAGE --time-format=iso --boot-time=@1700000000
        [[ "${lines[0]}" == "    SEQ "*" TIME LEVEL  SUBSYSTEM  DEVICE "*" M"* ]]
        [[ "$output" != *"Not shown"* ]]
        # Nor does anything at 120, nor piped.
        run on_term 120 -K "$DATA/devices.kmsg" --format=table
        [[ "${lines[0]}" == *" SUBSYSTEM  DEVICE "*" MESSAGE" ]]
        [[ "$output" != *"Not shown"* ]]
        [[ "$(head -1 <<<"$piped")" == *" SUBSYSTEM  DEVICE "*" MESSAGE" ]]
        [[ "$piped" != *"Not shown"* ]]
        # Columns left out while empty hide nothing: no line for them.
        run on_term 80 -K "$DATA/early-boot.kmsg" --format=table
        [[ "$output" != *"Not shown"* ]]
}

@test "--timeline at 80, 120 and 200 columns: a line a row, block characters on a UTF-8 terminal" {
        local w
        for w in 80 120 200; do
                run on_term $w -K "$DATA/problems.kmsg" --timeline
                [ "$status" -eq 0 ]
                golden layout/timeline-$w.txt
                [ "$(widest <<<"$output")" -le $w ]
                [ "$(widest <<<"$output")" -ge $((w - 8)) ]
                run on_term $w -K "$DATA/problems.kmsg" --timeline --problems
                [ "$status" -eq 0 ]
                golden layout/timeline-problems-$w.txt
                [ "$(widest <<<"$output")" -le $w ]
        done
}

@test "--wrap: the free text goes on in lines of its own, broken at spaces; the key columns stay on the first" {
        run on_term 80 -K "$DATA/problems.kmsg" --problems --wrap
        [ "$status" -eq 0 ]
        golden layout/problems-80-wrap.txt
        [ "$(widest <<<"$output")" -le 80 ]
        run on_term 80 -K "$DATA/formats-real.kmsg" -o SEQ,LEVEL,MESSAGE --wrap
        [ "$status" -eq 0 ]
        golden layout/table-80-wrap.txt
        [ "$(widest <<<"$output")" -le 80 ]
        # The pieces of a message make the message again: nothing cut, no word broken.
        local joined whole
        joined=$(awk 'NR == 2 { printf "%s", substr($0, 16); next } NR > 2 && /^      1 / { exit } NR > 2 { printf " %s", substr($0, 16) }' <<<"$output")
        whole=$("$KDMESG" -K "$DATA/formats-real.kmsg" -o MESSAGE --noheadings | head -1)
        [ "$joined" = "$whole" ]
        [ "${lines[1]}" = "      0 notice Linux version 6.18.44-fc-v1098 (builder@sandboxing) (gcc (GCC)" ]
        [ "${lines[2]}" = "               15.3.0, GNU ld (GNU Binutils) 2.46) #1 SMP PREEMPT_DYNAMIC @0" ]
        # --devices: the key columns on the first line only.
        run on_term 120 -K "$DATA/devices.kmsg" --devices --wrap
        [ "${lines[3]}" = "0:0:0:0      +scsi:0:0:0:0               scsi           5 err    0.126760 1.273800 sd 0:0:0:0: [sda] tag#16 FAILED" ]
        [ "${lines[4]}" = "                                                                                   Result: hostbyte=DID_OK" ]
        [ "${lines[5]}" = "                                                                                   driverbyte=DRIVER_OK cmd_age=0s" ]
        # Piped, --wrap changes nothing.
        [ "$("$KDMESG" -K "$DATA/devices.kmsg" --devices --wrap)" = "$("$KDMESG" -K "$DATA/devices.kmsg" --devices)" ]
}

@test "empty columns of the default set are left out on a terminal, never those -o names" {
        # early-boot.kmsg has no SUBSYSTEM and no DEVICE.
        run on_term 80 -K "$DATA/early-boot.kmsg" --format=table
        [ "$status" -eq 0 ]
        golden layout/table-no-devices-80.txt
        [ "${lines[0]}" = "    SEQ          TIME LEVEL  MESSAGE" ]
        # -o +LIST: the defaults may go, the columns added stay, before MESSAGE (issue 43).
        run on_term 80 -K "$DATA/early-boot.kmsg" -o +DEVNAME
        [ "${lines[0]}" = "    SEQ          TIME LEVEL  DEVNAME    MESSAGE" ]
        run on_term 80 -K "$DATA/early-boot.kmsg" -o SEQ,DEVICE,MESSAGE
        [ "${lines[0]}" = "    SEQ DEVICE     MESSAGE" ]
        # Piped, every column stays.
        run "$KDMESG" -K "$DATA/early-boot.kmsg" --format=table
        [[ "${lines[0]}" == *" SUBSYSTEM DEVICE "* ]]
        # --devices of a dump without sysfs: the names its messages give, first.
        run on_term 120 -K "$DATA/devices.kmsg" --devices --device b8:1 --device n2
        [ "${lines[0]}" = "NAME DEVICE SUBSYSTEM COUNT LEVEL    FIRST     LAST MESSAGE" ]
        [ "${lines[1]}" = "sda1 b8:1   block         1 crit  1.433835 1.433835 sda1: write access to a read-only block device" ]
        run "$KDMESG" -K "$DATA/devices.kmsg" --devices --device b8:1 --device n2
        [[ "${lines[0]}" == "NAME"*" DEVICE "* ]]
        # An empty table shows every heading.
        run on_term 80 -K "$DATA/empty.kmsg" --format=table
        [ "$output" = "    SEQ          TIME LEVEL  SUBSYSTEM DEVICE     MESSAGE" ]
}

@test "a column left out comes in under a heading of its own when a later batch has a value" {
        local i
        # 600 records; only seq 550, in the second batch of 512, has a DEVICE.
        for ((i = 0; i < 600; i++)); do
                printf '6,%d,%d,-;m%d\n' $i $((i * 1000)) $i
                [ $i -eq 550 ] && printf ' SUBSYSTEM=net\n DEVICE=n2\n'
        done > "$BATS_TEST_TMPDIR/late.kmsg"
        run on_term 80 -K "$BATS_TEST_TMPDIR/late.kmsg" --format=table
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "    SEQ          TIME LEVEL  MESSAGE" ]
        [ "${lines[1]}" = "      0      0.000000 info   m0" ]
        [ "${lines[513]}" = "    SEQ          TIME LEVEL  SUBSYSTEM DEVICE     MESSAGE" ]
        [ "${lines[514]}" = "    512      0.512000 info                        m512" ]
        [ "${lines[552]}" = "    550      0.550000 info   net       n2         m550" ]
        [ "${#lines[@]}" -eq 602 ]
}

@test "without a UTF-8 locale the ellipsis is three dots" {
        LC_ALL=C run on_term 120 -K "$DATA/devices.kmsg" --devices
        [ "$status" -eq 0 ]
        [[ "${lines[1]}" == "sda1 "*" sda1: write access to a read-only ..." ]]
        [ "$(widest <<<"$output")" -eq 120 ]
        [[ "$output" != *"…"* ]]
}

@test "the terminal's own width wins over COLUMNS, which counts where the terminal has none" {
        TERM_COLS=100 run on_term 200 -K "$DATA/devices.kmsg" --devices
        [ "$status" -eq 0 ]
        [ "$(widest <<<"$output")" -eq 100 ]
        run on_term 100 -K "$DATA/devices.kmsg" --devices
        [ "$(widest <<<"$output")" -eq 100 ]
}

@test "piped, the reports ignore COLUMNS and keep their whole lines" {
        local opt
        for opt in --devices --problems --lost; do
                [ "$(COLUMNS=40 "$KDMESG" -K "$DATA/problems.kmsg" $opt)" = "$("$KDMESG" -K "$DATA/problems.kmsg" $opt)" ]
        done
        COLUMNS=40 run "$KDMESG" -K "$DATA/devices.kmsg" --devices
        golden devices/report-dump.txt
}

@test "an escape \\xNN is never cut or broken in two: it goes whole or not at all" {
        local w
        printf '6,1,100,-;%s\\x1b\\x1b\\x1bzz tail\n' zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz >"$BATS_TEST_TMPDIR/esc.kmsg"
        printf '6,2,200,-;\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\n' >>"$BATS_TEST_TMPDIR/esc.kmsg"
        for w in $(seq 40 80); do
                run on_term $w -K "$BATS_TEST_TMPDIR/esc.kmsg" --format=table
                [ "$status" -eq 0 ]
                ! grep -E '\\(x[0-9a-f]?)?…' <<<"$output" || false
                run on_term $w -K "$BATS_TEST_TMPDIR/esc.kmsg" --format=table --wrap
                [ "$status" -eq 0 ]
                ! grep -E '\\(x[0-9a-f]?)?$|^ *([0-9a-f]|x[0-9a-f]*)\\' <<<"$output" || false
                # Every escape there is whole, eleven of them.
                [ "$(grep -o '\\x1b' <<<"$output" | wc -l)" -eq 11 ]
        done
        run on_term 70 -K "$BATS_TEST_TMPDIR/esc.kmsg" --format=table
        [ "${lines[1]}" = "      1      0.000100 info   zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\\x1b…" ]
}

@test "--problems at 80 columns: a subject of up to 40 characters is whole; MESSAGE, then LAST where it equals FIRST, give way" {
        local f=$BATS_TEST_TMPDIR/one.kmsg
        run on_term 80 -K "$DATA/fallout.kmsg" --problems
        [ "$status" -eq 0 ]
        golden layout/problems-fallout-80.txt
        [ "$(widest <<<"$output")" -le 80 ]
        # "KASAN: slab-use-after-free Read in demo_rx" is 42 characters: cut only past 40.
        grep -qF 'KASAN: slab-use-after-free Read in demo_' <<<"$output"
        grep -qF 'kernel BUG in demo_free' <<<"$output"
        [[ "${lines[0]}" == " # KIND "*" LAST SUBJECT"* ]]
        # A problem each, LAST equal to FIRST everywhere: LAST gives way before SUBJECT is cut.
        sed '/,2[789][05]00000,\|,30000000,/d' "$DATA/fallout.kmsg" >"$f"
        run on_term 70 -K "$f" --problems
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" != *" LAST "* ]]
        grep -qF 'KASAN: slab-use-after-free Read in demo_rx' <<<"$output"
        # Piped, every column, whole.
        run "$KDMESG" -K "$DATA/fallout.kmsg" --problems
        [[ "${lines[0]}" == " # KIND "*" LAST SUBJECT "*" MESSAGE" ]]
}

@test "the table's MESSAGE: newlines at its start and end are no text, as in the classic view; inside, \\x0a (issue 43)" {
        printf '6,1,1000000,-;\\x0astarts with a newline\\x0aand a second\n6,2,2000000,-;ends in one\\x0a\n' > "$BATS_TEST_TMPDIR/nl.kmsg"
        printf '6,3,3000000,-;\\x0a\\x0a\n6,4,4000000,-;\\x0aESC\\x1b[31m BEL\\x07\\x0a\n' >> "$BATS_TEST_TMPDIR/nl.kmsg"
        run on_term 80 -K "$BATS_TEST_TMPDIR/nl.kmsg" -o TIME,MESSAGE --color=never
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "         TIME MESSAGE" ]
        [ "${lines[1]}" = '     1.000000 starts with a newline\x0aand a second' ]
        [ "${lines[2]}" = '     2.000000 ends in one' ]
        [ "${lines[3]}" = '     3.000000' ]
        # Every other control is still escaped.
        [ "${lines[4]}" = '     4.000000 ESC\x1b[31m BEL\x07' ]
        [ "${#lines[@]}" -eq 5 ]
        # The classic view shows the same text: the first line empty, the text under it.
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/nl.kmsg" --seq 1
        [ "${lines[0]}" = "[    1.000000] " ]
        [ "${lines[1]}" = "               starts with a newline" ]
        # Piped, and through libsmartcols (COLUMNS), the same cells.
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/nl.kmsg" -o TIME,MESSAGE
        [ "${lines[1]}" = '     1.000000 starts with a newline\x0aand a second' ]
        [ "${lines[4]}" = '     4.000000 ESC\x1b[31m BEL\x07' ]
        COLUMNS=200 run "$KDMESG" -K "$BATS_TEST_TMPDIR/nl.kmsg" -o TIME,MESSAGE
        [ "${lines[1]}" = '     1.000000 starts with a newline\x0aand a second' ]
        [ "${lines[2]}" = '     2.000000 ends in one' ]
}
