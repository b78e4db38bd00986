#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kdmesg v0: the classic view, safe text, input errors, exit status.
# The hand-made dumps come from tests/data/gen-basic.py; live-capture.kmsg
# is "timeout 1 cat /dev/kmsg" from one of our machines.

load helpers
bats_require_minimum_version 1.5.0

# Standard error goes to $stderr and $stderr_lines, not $output.
run_split() {
        run --separate-stderr "$@"
}

@test "--help goes to stdout and exits 0" {
        run "$KDMESG" --help
        [ "$status" -eq 0 ]
        [[ "$output" == *"Usage:"* ]]
}

@test "the committed hand-made dumps are what gen-basic.py writes" {
        python3 "$DATA/gen-basic.py" "$BATS_TEST_TMPDIR"
        for f in basic.kmsg malformed.kmsg basic.syslog basic.export; do
                cmp "$DATA/$f" "$BATS_TEST_TMPDIR/$f"
        done
}

@test "classic view of a live capture from a real machine" {
        run_split "$KDMESG" -K "$DATA/live-capture.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden classic/basic-live-capture.txt
}

@test "classic view of a hand-made dump: dictionaries, escapes, odd headers" {
        run_split "$KDMESG" -K "$DATA/basic.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden kmsg/basic-kmsg.txt
}

@test "classic view of a syslog-form dump" {
        run_split "$KDMESG" -K "$DATA/basic.syslog"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden syslog/basic-syslog.txt
}

@test "classic view of an export-form dump with binary fields" {
        run_split "$KDMESG" -K "$DATA/basic.export"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden export/basic-export.txt
}

@test "control characters and invalid UTF-8 are escaped on text output" {
        local out="$BATS_TEST_TMPDIR/out"
        "$KDMESG" -K "$DATA/basic.kmsg" > "$out"
        "$KDMESG" -K "$DATA/basic.export" >> "$out"
        # No byte below 0x20 but tab and newline, no DEL, no invalid UTF-8.
        tr -d '\000-\010\013-\037\177' < "$out" | cmp - "$out"
        iconv -f UTF-8 -t UTF-8 "$out" > /dev/null
        grep -qF 'ESC\x1b[31mred\x1b[0m, BEL\x07, DEL\x7f' "$out"
        grep -qF 'CR\x0d,' "$out"
        grep -qF 'NUL\x00inside' "$out"
        # A newline in a message is a continuation line, indented under the text.
        grep -qxF '               second line' "$out"
        grep -qF 'invalid: \xff\xfe \xc3( \xed\xa0\x80; C1: \xc2\x85' "$out"
        # Valid UTF-8 is printed as it is.
        grep -qF 'UTF-8: °C €;' "$out"
}

@test "--noescape passes the decoded bytes raw, lines after the first indented as without it" {
        local out="$BATS_TEST_TMPDIR/out"
        "$KDMESG" --noescape -K "$DATA/basic.kmsg" > "$out"
        "$KDMESG" --noescape -K "$DATA/basic.export" >> "$out"
        python3 - "$out" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
for want in (b"ESC\x1b[31mred\x1b[0m, BEL\x07, DEL\x7f", b"CR\r,", b"NUL\x00inside the text",
             b"two lines\n" + b" " * 15 + b"second line", b"invalid: \xff\xfe \xc3( \xed\xa0\x80; C1: \xc2\x85",
             b"binary field: NUL\x00 newline\n" + b" " * 15 + b" ESC\x1b end"):
    assert want in d, want
PY
}

@test "a malformed record: FILE:LINE: bad header, parsing goes on, exit 1" {
        cd "$DATA"
        run_split "$KDMESG" -K malformed.kmsg
        [ "$status" -eq 1 ]
        [ "${#stderr_lines[@]}" -eq 4 ]
        [ "${stderr_lines[0]}" = "kdmesg: malformed.kmsg:2: bad header: no ';' before the end of the line" ]
        [ "${stderr_lines[1]}" = "kdmesg: malformed.kmsg:4: bad header: sequence number is not a number" ]
        [ "${stderr_lines[2]}" = "kdmesg: malformed.kmsg:7: bad header: no ';' before the end of the line" ]
        # The record at line 4 is missing from the sequence: a loss, summed up at exit.
        [ "${stderr_lines[3]}" = "kdmesg: 1 message lost (gap)" ]
        [[ "$output" == *"good one"*"good two"*"good three"*"good four"* ]]
}

@test "errors on standard input name <stdin>" {
        run_split sh -c '"$1" -K - < "$2"' sh "$KDMESG" "$DATA/malformed.kmsg"
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: <stdin>:2: bad header: no ';' before the end of the line" ]
}

@test "a missing file: one clear line, exit 1" {
        run_split "$KDMESG" -K /nonexistent/dump.kmsg
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot open /nonexistent/dump.kmsg: No such file or directory" ]
}

@test "an unreadable input (a directory): one clear line, exit 1" {
        run_split "$KDMESG" -K "$BATS_TEST_TMPDIR"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        [[ "$stderr" == "kdmesg: $BATS_TEST_TMPDIR"*": Is a directory" ]]
}

@test "a file without read permission: one clear line, exit 1" {
        local as_user=()
        if [ "$(id -u)" -eq 0 ]; then
                # Root reads any file: run without the capabilities that allow it.
                command -v setpriv >/dev/null || skip "root reads any file, and setpriv is missing"
                as_user=(setpriv --bounding-set=-dac_override,-dac_read_search)
        fi
        cp "$DATA/basic.kmsg" "$BATS_TEST_TMPDIR/secret.kmsg"
        chmod 000 "$BATS_TEST_TMPDIR/secret.kmsg"
        run_split "${as_user[@]}" "$KDMESG" -K "$BATS_TEST_TMPDIR/secret.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot open $BATS_TEST_TMPDIR/secret.kmsg: Permission denied" ]
}

@test "a missing file among others: the rest is printed, exit 1" {
        run_split "$KDMESG" -K "$DATA/basic.syslog" -K /nonexistent/dump.kmsg
        [ "$status" -eq 1 ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        golden syslog/basic-syslog.txt
}

@test "-K - reads standard input, from a file and from a pipe" {
        run_split sh -c '"$1" -K - < "$2"' sh "$KDMESG" "$DATA/basic.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden kmsg/basic-kmsg.txt
        run_split sh -c 'cat "$2" | "$1" -K -' sh "$KDMESG" "$DATA/basic.export"
        [ "$status" -eq 0 ]
        golden export/basic-export.txt
}

@test "-K - on a non-blocking pipe waits for a slow writer and loses nothing" {
        # stdin inherited with O_NONBLOCK: read() says EAGAIN while the
        # writer pauses, which is not the end of the input.
        run_split bash -c '{ head -c 100 "$2"; sleep 0.3; tail -c +101 "$2"; } |
                python3 -c "import fcntl, os, sys
fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execv(sys.argv[1], sys.argv[1:])" "$1" -K -' sh "$KDMESG" "$DATA/basic.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden kmsg/basic-kmsg.txt
}

@test "an empty dump prints nothing and exits 0" {
        run_split "$KDMESG" -K /dev/null
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ -z "$stderr" ]
}

@test "the same dump twice: duplicates skipped and counted" {
        run_split "$KDMESG" -K "$DATA/basic.kmsg" -K "$DATA/basic.kmsg"
        [ "$status" -eq 0 ]
        golden kmsg/basic-kmsg.txt
        [ "$stderr" = "kdmesg: 21 duplicate records skipped (overlapping input)" ]
}

@test "two boots of the same kernel in one dump: the second boot's early records are kept" {
        # Both boots begin with five identical records stamped 0; only the
        # sixth tells them apart (and the clock went back 35 s: a boot).
        # None of them is a duplicate.
        run_split "$KDMESG" -K "$DATA/two-boots-same-kernel.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 17 ]
        [ "${lines[8]}" = "-- boot 2 --" ]
        [ "${lines[9]}" = "[    0.000000] msg 0" ]
        [ "${lines[14]}" = "[    0.005002] boot2 5" ]
}

@test "a dump that starts with records stamped 0, read twice: duplicates once the overlap is proven" {
        run_split "$KDMESG" -K "$DATA/early-boot.kmsg" -K "$DATA/early-boot.kmsg"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 8 ]
        [ "${lines[7]}" = "[    0.007001] msg 7" ]
        [ "$stderr" = "kdmesg: 8 duplicate records skipped (overlapping input)" ]
}

@test "without -K it reads /dev/kmsg: every record in the classic view, exit 0" {
        if ! dd if=/dev/kmsg of=/dev/null count=1 iflag=nonblock 2>/dev/null; then
                skip "/dev/kmsg is not readable here"
        fi
        run_split "$KDMESG"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -gt 0 ]
        # Each line is a record, the continuation of a message with a newline (indented
        # under its text), or a report of lost messages; never a raw control byte.
        local odd
        odd=$(printf '%s\n' "${lines[@]}" |
              grep -Evc '^\[ *[0-9]+\.[0-9]{6}\] |^ {15}|^-- [0-9]+ messages? lost ' || true)
        [ "$odd" -eq 0 ]
        printf '%s\n' "$output" | tr -d '\000-\010\013-\037\177' | cmp - <(printf '%s\n' "$output")
}

@test "a record over the 1 MiB limit: FILE:LINE, skipped, the rest printed, exit 1" {
        cd "$BATS_TEST_TMPDIR"
        python3 -c '
import sys
sys.stdout.write("6,0,0,-;before\n6,1,1,-;" + "x" * (1 << 20) + "\n SUBSYSTEM=big\n6,2,2,-;after\n")
' > big.kmsg
        run_split "$KDMESG" -K big.kmsg
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: big.kmsg:2: record larger than 1048576 bytes skipped
kdmesg: 1 message lost (toobig)" ]
        # The skipped record's sequence number is missing, and said so: it was too big.
        [ "${#lines[@]}" -eq 3 ]
        [ "${lines[0]}" = "[    0.000000] before" ]
        [[ "${lines[1]}" == "-- 1 message lost (seq 1, "*", toobig) --" ]]
        [ "${lines[2]}" = "[    0.000002] after" ]
}
