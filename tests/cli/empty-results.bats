#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One voice for empty results (issue 30): every text report with nothing
# to report prints one line "-- No ... --", its JSON no object; a filter
# that lets nothing through says so on stderr when stdout is a terminal;
# --lost reports nothing on input it could not open.

bats_require_minimum_version 1.5.0
load helpers
load emu

setup() {
        export KDMESG_PROBLEMS_RULES="$TESTS/../data/problems.rules"
        export KDMESG_PROBLEMS_DIR="$BATS_TEST_TMPDIR/problems.d"
}

# on_tty COMMAND: run it with stdout on a terminal (script(1)); stderr to stdout.
on_tty() {
        command -v script > /dev/null || skip "script(1) is not installed"
        script -qec "$1" /dev/null < /dev/null | tr -d '\r'
}

@test "empty input: each report says it in one line, and its JSON is empty" {
        local opt
        for opt in --devices --problems --timeline --lost; do
                run --separate-stderr "$KDMESG" -K "$DATA/empty.kmsg" $opt
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
                [ "${#lines[@]}" -eq 1 ]
                [[ "$output" == "-- No "*" --" ]]
        done
        for opt in --devices --problems --timeline; do
                run --separate-stderr "$KDMESG" -K "$DATA/empty.kmsg" $opt --json
                [ "$status" -eq 0 ]
                [ -z "$output" ]
        done
        run "$KDMESG" -K "$DATA/empty.kmsg" --devices
        [ "$output" = "-- No messages of a device --" ]
        run "$KDMESG" -K "$DATA/empty.kmsg" --problems
        [ "$output" = "-- No known problems found --" ]
        run "$KDMESG" -K "$DATA/empty.kmsg" --timeline
        [ "$output" = "-- No messages --" ]
        run "$KDMESG" -K "$DATA/empty.kmsg" --lost
        [ "$output" = "-- No messages --" ]
}

@test "--devices after a filter that leaves no device: the line, not a header alone" {
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg" --devices --subsystem nosuch
        [ "$status" -eq 0 ]
        [ "$output" = "-- No messages of a device --" ]
}

@test "--lost reports nothing on input it could not open" {
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/nosuch" --lost
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: cannot open $BATS_TEST_TMPDIR/nosuch: No such file or directory" ]
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/nosuch" --lost --json
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        # Beside a dump it could read: the gaps of that one, no total for both.
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg" -K "$BATS_TEST_TMPDIR/nosuch" --lost
        [ "$status" -eq 1 ]
        [[ "$output" != *Total* ]]
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg" --lost
        [ "$status" -eq 0 ]
        [[ "$output" == *"Total: "* ]]
}

@test "a filter that selects nothing says so on stderr on a terminal, in one line; exit 0 as util-linux" {
        run on_tty "'$KDMESG' -K '$DATA/basic.kmsg' --level emerg; echo status=\$?"
        [ "${lines[0]}" = "-- No messages selected: none of the 21 read passed the filters --" ]
        [ "${lines[1]}" = "status=0" ]
        [ "${#lines[@]}" -eq 2 ]
        # Piped: nothing, on either stream.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --level emerg
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ -z "$stderr" ]
        # -q, or records selected, or nothing read at all: no line.
        run on_tty "'$KDMESG' -q -K '$DATA/basic.kmsg' --level emerg"
        [ -z "$output" ]
        run on_tty "'$KDMESG' -K '$DATA/empty.kmsg' --level emerg"
        [ -z "$output" ]
        run on_tty "'$KDMESG' -K '$DATA/basic.kmsg' --level err -o SEQ 2>&1 >/dev/null"
        [ -z "$output" ]
}

# No report gives a verdict on input it did not read (issue 37): the error on
# stderr, exit 1, and on stdout one line that says there is none (JSON
# Lines: a last object {"unread_inputs":N}), never "-- No ... --".
@test "reports over a file that cannot be opened: no verdict, in one line" {
        local opt nosuch="$BATS_TEST_TMPDIR/nosuch"
        for opt in --problems --devices --timeline "--timeline --problems"; do
                run --separate-stderr "$KDMESG" -K "$nosuch" $opt
                [ "$status" -eq 1 ]
                [ "$stderr" = "kdmesg: cannot open $nosuch: No such file or directory" ]
                [ "$output" = "-- No verdict on $nosuch: it could not be read --" ]
                run --separate-stderr "$KDMESG" -K "$nosuch" $opt --json
                [ "$status" -eq 1 ]
                [ "$output" = '{"unread_inputs":1}' ] || [ "$output" = '{"unread":0,"unread_inputs":1}' ]
        done
        run --separate-stderr "$KDMESG" -K "$nosuch" -K "$nosuch.2" --devices
        [ "$status" -eq 1 ]
        [ "$output" = "-- No verdict on 2 inputs: they could not be read --" ]
        # A name with a control byte is escaped, as all text is.
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/a$(printf '\033')b" --problems
        [ "$output" = "-- No verdict on $BATS_TEST_TMPDIR/a\\x1bb: it could not be read --" ]
}

@test "a report over one input read and one not: its result, then the line for the other" {
        local nosuch="$BATS_TEST_TMPDIR/nosuch"
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" -K "$nosuch" --devices
        [ "$status" -eq 1 ]
        [ "${lines[0]:0:4}" = "NAME" ]
        [ "${lines[-1]}" = "-- No verdict on $nosuch: it could not be read --" ]
        run --separate-stderr "$KDMESG" -K "$DATA/devices.kmsg" -K "$nosuch" --devices --json
        [ "${lines[-1]}" = '{"unread_inputs":1}' ]
        # --problems over a dump without problems and a missing one: what was read, and no verdict on the rest.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" -K "$nosuch" --problems
        [ "$status" -eq 1 ]
        [ "$output" = "$(printf -- '-- No known problems in the records that were read --\n-- No verdict on %s: it could not be read --' "$nosuch")" ]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" -K "$nosuch" --timeline
        [ "$status" -eq 1 ]
        [ "${lines[-1]}" = "-- No verdict on $nosuch: it could not be read --" ]
        [[ "$output" != *"-- No messages --"* ]]
}

# fifo_sigint REPORT...: kdmesg -K FIFO REPORT, sent SIGINT once it waits;
# with $FEED set, a writer holds the FIFO open and writes $FEED first.
fifo_sigint() {
        local fifo="$BATS_TEST_TMPDIR/fifo" out="$BATS_TEST_TMPDIR/out" err="$BATS_TEST_TMPDIR/err" pid i
        rm -f "$fifo"
        mkfifo "$fifo"
        "$KDMESG" -K "$fifo" "$@" > "$out" 2> "$err" &
        pid=$!
        if [ -n "${FEED:-}" ]; then
                exec 7> "$fifo"
                printf '%s' "$FEED" >&7
        fi
        # Until it waits (in open() or in poll()): its stack is in the kernel.
        for ((i = 0; i < 500; i++)); do
                grep -qE '^State:.*S \(sleeping\)' "/proc/$pid/status" 2>/dev/null && break
                sleep 0.01
        done
        sleep 0.2
        kill -INT "$pid"
        STATUS=0
        wait "$pid" || STATUS=$?
        [ -n "${FEED:-}" ] && exec 7>&-
        OUT=$(cat "$out")
        ERR=$(cat "$err")
}

@test "a FIFO interrupted by SIGINT: no verdict on it, opened or not" {
        local fifo="$BATS_TEST_TMPDIR/fifo" opt
        for opt in --problems --devices --timeline; do
                FEED= fifo_sigint $opt
                # 130, as for a signal while reading (issue 43: it was 1).
                [ "$STATUS" -eq 130 ]
                [ "$ERR" = "kdmesg: $fifo: not read: a signal came while it waited to be opened" ]
                [ "$OUT" = "-- No verdict on $fifo: it could not be read --" ]
        done
        # Opened, a record read, then SIGINT while it waits for more: what was read, and no verdict on the rest.
        FEED=$'6,1,1000,-;hello\n' fifo_sigint --problems
        [ "$STATUS" -eq 130 ]
        [ "$OUT" = "$(printf -- '-- No known problems in the records that were read --\n-- No verdict on the rest of %s: it could not be read --' "$fifo")" ]
        FEED=$'6,1,1000,-;hello\n' fifo_sigint --devices --json
        [ "$OUT" = '{"unread_inputs":1}' ]
}

@test "/dev/kmsg without the right to read it: no verdict (the emulated device's EPERM)" {
        emu_init 16
        emu write 3
        local opt
        for opt in --problems --devices --timeline "--timeline --problems"; do
                KMSG_EMU_OPEN_ERRNO=1 run --separate-stderr kdmesg_emu $opt
                [ "$status" -eq 1 ]
                [[ "$stderr" == "kdmesg: cannot open /dev/kmsg: Operation not permitted"* ]]
                [ "$output" = "-- No verdict on /dev/kmsg: it could not be read --" ]
        done
        KMSG_EMU_OPEN_ERRNO=13 run --separate-stderr kdmesg_emu --problems --json
        [ "$output" = '{"unread":0,"unread_inputs":1}' ]
}

@test "/dev/kmsg without the right to read it: no verdict (unprivileged, where kernel.dmesg_restrict=1)" {
        [ "$(id -u)" -eq 0 ] || skip "needs root to drop to an unprivileged user"
        [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 1 ] || skip "kernel.dmesg_restrict is not 1 here"
        command -v setpriv > /dev/null || skip "setpriv is not installed"
        [ -r /dev/kmsg ] || skip "no /dev/kmsg"
        # The user must reach the binary and its library: nobody reads the build tree where it lies.
        setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$KDMESG" || skip "the build tree is not readable by nobody"
        # The test's rule directory is root's, unreadable to nobody: none at all instead.
        KDMESG_PROBLEMS_DIR=/nonexistent run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
                --inh-caps=-all --bounding-set=-all "$KDMESG" --problems
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: cannot open /dev/kmsg: Operation not permitted"* ]]
        [ "$output" = "-- No verdict on /dev/kmsg: it could not be read --" ]
}

@test "a time window that selects nothing says so too, in under 80 columns" {
        run on_tty "'$KDMESG' -K '$DATA/basic.kmsg' --since 100000"
        [ "$output" = "-- No messages selected: none of the 21 read passed the filters --" ]
        [ "${#output}" -le 80 ]
}
