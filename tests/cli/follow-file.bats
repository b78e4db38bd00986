#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --follow with -K: a growing file (like tail -F), truncation, rotation, pipes.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        F="$BATS_TEST_TMPDIR/dump.kmsg"
        OUT="$BATS_TEST_TMPDIR/out"
        ERR="$BATS_TEST_TMPDIR/err"
}

# append FILE FORMAT ARGS...: one write(2), as a writer of records does
# (bash's printf may write a multi-line text in pieces).
append() {
        local f=$1
        shift
        # shellcheck disable=SC2059
        printf "$@" | dd of="$f" oflag=append conv=notrunc bs=64k iflag=fullblock status=none
}

start() {
        "$KDMESG" "$@" >"$OUT" 2>"$ERR" 3>&- &
        PID=$!
}

wait_lines() {
        local i
        for ((i = 0; i < 1000; i++)); do
                [ "$(cat "$OUT" 2>/dev/null | wc -l)" -ge "$1" ] && return 0
                sleep 0.01
        done
        echo "timed out waiting for $1 lines; got:" >&2
        cat "$OUT" "$ERR" >&2
        return 1
}

stop() {
        kill -TERM "$PID"
        STATUS=0
        wait "$PID" || STATUS=$?
        # Shown when a test fails.
        echo "kdmesg exited with $STATUS; stderr:" >&2
        cat "$ERR" >&2
}

@test "-K FILE --follow prints records appended to the file" {
        printf '6,0,1000,-;one\n' >"$F"
        start -K "$F" --follow
        wait_lines 1
        append "$F" '6,1,2000,-;two\n SUBSYSTEM=pci\n'
        wait_lines 2
        # A record written in two pieces is printed once it is complete.
        append "$F" '6,2,30'
        sleep 0.2
        append "$F" '00,-;three\n'
        wait_lines 3
        stop
        [ "$STATUS" -eq 0 ]
        run cat "$OUT"
        [ "$output" = "[    0.001000] one
[    0.002000] two
[    0.003000] three" ]
        [ ! -s "$ERR" ]
}

@test "-K FILE --follow reports a gap in a growing file" {
        printf '6,0,1000,-;one\n' >"$F"
        start -K "$F" -w
        wait_lines 1
        append "$F" '6,4,5000,-;five\n'
        wait_lines 3
        stop
        [ "$STATUS" -eq 0 ]
        run sed -n 2p "$OUT"
        [ "$output" = "-- 3 messages lost (seq 1-3, between 0.001000 and 0.005000, gap) --" ]
}

@test "-K FILE --follow survives truncation and reports it" {
        printf '6,0,1000,-;one\n6,1,2000,-;two\n' >"$F"
        start -K "$F" -w
        wait_lines 2
        : >"$F"
        sleep 0.2
        printf '6,2,3000,-;three\n' >>"$F"
        wait_lines 3
        stop
        [ "$STATUS" -eq 0 ]
        run tail -n1 "$OUT"
        [ "$output" = "[    0.003000] three" ]
        grep -q "dump.kmsg: file truncated, reading it from the start" "$ERR"
}

@test "-K FILE --follow follows a rotated file (renamed, then created again)" {
        printf '6,0,1000,-;one\n' >"$F"
        start -K "$F" -w
        wait_lines 1
        printf '6,1,2000,-;two, last in the old file' >>"$F"
        mv "$F" "$F.1"
        printf '6,2,3000,-;three, in the new file\n' >"$F"
        wait_lines 3
        stop
        [ "$STATUS" -eq 0 ]
        run cat "$OUT"
        [ "$output" = "[    0.001000] one
[    0.002000] two, last in the old file
[    0.003000] three, in the new file" ]
        grep -q "dump.kmsg: file replaced, following the new file" "$ERR"
}

@test "-K - --follow reads a pipe until its writer closes it" {
        run bash -c '{ printf "6,0,1000,-;one\n"; sleep 0.2; printf "6,1,2000,-;two\n"; } | "$KDMESG" -K - --follow'
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.001000] one
[    0.002000] two" ]
}

@test "-K - --follow with standard input from a file reads it to its end" {
        printf '6,0,1000,-;one\n6,1,2000,-;two\n' >"$F"
        run --separate-stderr timeout 10 "$KDMESG" -K - --follow <"$F"
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.001000] one
[    0.002000] two" ]
        [ -z "$stderr" ]
}

@test "-K FIFO --follow reads the FIFO until its writer closes it" {
        mkfifo "$BATS_TEST_TMPDIR/fifo"
        { printf '6,0,1000,-;one\n'; sleep 0.2; printf '6,1,2000,-;two\n'; } >"$BATS_TEST_TMPDIR/fifo" &
        run --separate-stderr timeout 10 "$KDMESG" -K "$BATS_TEST_TMPDIR/fifo" -w
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.001000] one
[    0.002000] two" ]
        [ -z "$stderr" ]
}

@test "-K FILE --follow waits for a rotated file that is created later, and for a deleted one" {
        printf '6,0,1000,-;one\n' >"$F"
        start -K "$F" -w
        wait_lines 1
        mv "$F" "$F.1"
        sleep 0.3
        printf '6,1,2000,-;two\n' >"$F"
        wait_lines 2
        rm "$F"
        sleep 0.3
        printf '6,2,3000,-;three\n' >"$F"
        wait_lines 3
        stop
        [ "$STATUS" -eq 0 ]
        run cat "$OUT"
        [ "$output" = "[    0.001000] one
[    0.002000] two
[    0.003000] three" ]
        [ "$(grep -c "dump.kmsg: file replaced, following the new file" "$ERR")" -eq 2 ]
}
