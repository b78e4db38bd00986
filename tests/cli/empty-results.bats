#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One voice for empty results (issue 30): every text report with nothing
# to report prints one line "-- No ... --", its JSON no object; a filter
# that lets nothing through says so on stderr when stdout is a terminal;
# --lost reports nothing on input it could not open.

bats_require_minimum_version 1.5.0
load helpers

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
        [ "${lines[0]}" = "-- No messages selected: the filters let none of the 21 messages read through --" ]
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
