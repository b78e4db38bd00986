#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input and bad output: each is one line naming the problem, exit 1;
# a reader that goes away ends kdmesg quietly.

bats_require_minimum_version 1.5.0
load helpers
load emu

# 20000 records, about 1 MB of output.
many() {
        awk 'BEGIN { for (i = 0; i < 20000; i++) printf "6,%d,%d,-;record number %d of a long dump\n", i, i * 1000, i }'
}

@test "a file that does not exist: one line, exit 1" {
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/missing"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: cannot open $BATS_TEST_TMPDIR/missing: No such file or directory" ]
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/missing"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot open $BATS_TEST_TMPDIR/missing: No such file or directory" ]
}

@test "a directory: one line, exit 1" {
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR: read failed: Is a directory" ]
}

@test "an unreadable file: the others are still read, exit 1" {
        run --separate-stderr "$KDMESG" -t -K "$BATS_TEST_TMPDIR/missing" -K "$DATA/classic.kmsg" --seq 0
        [ "$status" -eq 1 ]
        [ "$output" = "Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
}

@test "a write error on standard output is an error, exit 1" {
        [ -w /dev/full ] || skip "/dev/full is not available"
        run --separate-stderr bash -c '"$KDMESG" -K "$DATA/classic.kmsg" > /dev/full'
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: write error: No space left on device" ]
}

@test "after a write error kdmesg stops reading: an endless input ends too" {
        [ -w /dev/full ] || skip "/dev/full is not available"
        run --separate-stderr timeout 60 bash -c \
                'awk "BEGIN { for (i = 0; ; i++) printf \"6,%d,%d,-;endless %d\\n\", i, i, i }" |
                 "$KDMESG" -K - > /dev/full; echo "status ${PIPESTATUS[1]}"'
        [ "$status" -eq 0 ]
        [ "$output" = "status 1" ]
        [ "$stderr" = "kdmesg: write error: No space left on device" ]
}

@test "a reader that goes away (kdmesg | head) ends kdmesg quietly" {
        # Enough output to fill the pipe after head has gone.
        many > "$BATS_TEST_TMPDIR/many.kmsg"
        run --separate-stderr bash -c 'set -o pipefail; "$KDMESG" -K "$1" 2>"$2" | head -n 1; echo "status ${PIPESTATUS[0]}"' _ \
                "$BATS_TEST_TMPDIR/many.kmsg" "$BATS_TEST_TMPDIR/err"
        [ "${lines[0]}" = "[    0.000000] record number 0 of a long dump" ]
        # Killed by SIGPIPE (128 + 13), or done before head left: never an error message.
        [[ "${lines[1]}" == "status 141" || "${lines[1]}" == "status 0" ]]
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
}

@test "SIGPIPE ignored by the caller: EPIPE still ends kdmesg without a message" {
        many > "$BATS_TEST_TMPDIR/many.kmsg"
        run bash -c 'trap "" PIPE; "$KDMESG" -K "$1" 2>"$2" | head -n 1 >/dev/null; echo "status ${PIPESTATUS[0]}"' _ \
                "$BATS_TEST_TMPDIR/many.kmsg" "$BATS_TEST_TMPDIR/err"
        [[ "$output" == "status 141" || "$output" == "status 0" ]]
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
}

@test "malformed records are reported with file and line, the rest printed, exit 1" {
        printf '6,0,0,-;good\nnot a record\n6,1,1,-;also good\n' > "$BATS_TEST_TMPDIR/bad.kmsg"
        run --separate-stderr "$KDMESG" -t -K "$BATS_TEST_TMPDIR/bad.kmsg"
        [ "$status" -eq 1 ]
        [ "${lines[0]}" = "good" ]
        [ "${lines[1]}" = "also good" ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        [[ "$stderr" == "kdmesg: $BATS_TEST_TMPDIR/bad.kmsg:2: "* ]]
}

@test "every malformed record is counted: ten are shown, then the total; the good ones all printed" {
        awk 'BEGIN { for (i = 0; i < 15; i++) printf "6,%d,%d,-;good %d\nbad line %d\n", i, i, i, i }' \
                > "$BATS_TEST_TMPDIR/many-bad.kmsg"
        run --separate-stderr "$KDMESG" -q -t -K "$BATS_TEST_TMPDIR/many-bad.kmsg"
        [ "$status" -eq 1 ]
        [ "${#lines[@]}" -eq 15 ]
        [ "${lines[14]}" = "good 14" ]
        [ "${#stderr_lines[@]}" -eq 11 ]
        [ "${stderr_lines[0]}" = "kdmesg: $BATS_TEST_TMPDIR/many-bad.kmsg:2: bad header: no ';' before the end of the line" ]
        [ "${stderr_lines[9]}" = "kdmesg: $BATS_TEST_TMPDIR/many-bad.kmsg:20: bad header: no ';' before the end of the line" ]
        [ "${stderr_lines[10]}" = "kdmesg: $BATS_TEST_TMPDIR/many-bad.kmsg: 15 malformed or oversized records skipped in all" ]
}

@test "export form: the line named is the one sed -n and grep -n show, binary fields included" {
        f="$BATS_TEST_TMPDIR/bin.export"
        python3 -c 'import struct, sys
data = b"one\ntwo\nthree\n\n"
sys.stdout.buffer.write(b"SEQNUM=0\nMESSAGE\n" + struct.pack("<Q", len(data)) + data + b"\n\n"
                        + b"SEQNUM=1\nPRIORITY=99\nMESSAGE=bad\n\nSEQNUM=2\nMESSAGE=good\n\n")' > "$f"
        run --separate-stderr "$KDMESG" -q -t -K "$f"
        [ "$status" -eq 1 ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        n=$(grep -an '^SEQNUM=1$' "$f" | cut -d: -f1)
        [ "$n" -eq 9 ]
        [ "$stderr" = "kdmesg: $f:$n: PRIORITY is not a number from 0 to 7" ]
        [ "$(sed -n "${n}p" "$f")" = "SEQNUM=1" ]
}

@test "-K and -F cannot be combined with the kernel's own buffer options" {
        run --separate-stderr "$KDMESG" -S -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "${stderr_lines[0]}" = "kdmesg: --syslog works on the kernel's buffer, not on files given with -K or -F" ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
        run --separate-stderr "$KDMESG" -c -F "$DATA/classic.syslog"
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --read-clear works on the kernel's buffer, not on files given with -K or -F" ]
}

@test "/dev/kmsg not readable (dmesg_restrict): one line that names the cause, exit 1" {
        emu_init 16
        emu write 3
        for errno in 1 13; do
                KMSG_EMU_OPEN_ERRNO=$errno run --separate-stderr kdmesg_emu
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "${#stderr_lines[@]}" -eq 1 ]
                [[ "$stderr" == "kdmesg: cannot open /dev/kmsg: "*" (reading the kernel log needs CAP_SYSLOG when kernel.dmesg_restrict=1)" ]]
        done
        KMSG_EMU_OPEN_ERRNO=13 run --separate-stderr kdmesg_emu
        [[ "$stderr" == *": Permission denied ("* ]]
}

@test "/dev/kmsg that is another device (/dev/null bound over it): one line, exit 1" {
        emu_init 16
        emu write 3
        KMSG_EMU_RDEV=1:3 run --separate-stderr kdmesg_emu
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: /dev/kmsg is not a kmsg character device" ]
}

# No terminal control byte (ESC, BEL) reaches stderr: an argument or file name is
# escaped as text on standard output is (\x1b, \x07).
no_controls_in_stderr() {
        [ "$status" -eq 1 ]
        [[ "$stderr" != *[$'\e\a']* ]]
        [[ "$stderr" == *'\x1b]0;pwn\x07\x1b[2J'* ]]
}

@test "arguments and file names in error messages are escaped: no ESC or BEL on stderr" {
        local e=$'\e]0;pwn\a\e[2J' a
        for a in "--device=$e" "-l$e" "--since=$e" "-g$e(" "--seq=$e" "-o$e" "--match=$e" \
                "--sysroot=/nonexistent$e" "--$e" "-K/nonexistent$e"; do
                run --separate-stderr timeout 20 "$KDMESG" -K /dev/null "$a"
                no_controls_in_stderr
        done
        mkdir "$BATS_TEST_TMPDIR/d$e"
        run --separate-stderr timeout 20 "$KDMESG" --cursor-file "$BATS_TEST_TMPDIR/d$e"
        no_controls_in_stderr
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/d\\x1b]0;pwn\\x07\\x1b[2J: is a directory" ]
        # A cursor file that cannot be saved (its directory is missing): named escaped too.
        emu_init 16
        emu write 2
        run --separate-stderr kdmesg_emu --cursor-file "$BATS_TEST_TMPDIR/missing$e/cursor"
        no_controls_in_stderr
}

# Issue 13 #5: the reader comes back to kdmesg after a bounded run of junk,
# so that kdmesg sees SIGTERM and SIGINT.
@test "SIGTERM and SIGINT end kdmesg -w -K /dev/zero at once" {
        [ -r /dev/zero ] || skip "/dev/zero is not available"
        for sig in TERM INT; do
                run --separate-stderr bash -c '
                        "$KDMESG" -w -K /dev/zero > /dev/null 2>"$1" & pid=$!
                        # Until it is in the junk (a loaded machine takes longer than 0.5 s to get there).
                        for i in $(seq 100); do grep -q "bytes of junk skipped" "$1" && break; sleep 0.1; done
                        kill -'"$sig"' $pid
                        for i in $(seq 20); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
                        if kill -0 $pid 2>/dev/null; then echo "still running"; kill -KILL $pid; fi
                        wait $pid; echo "status $?"' _ "$BATS_TEST_TMPDIR/err"
                [ "$status" -eq 0 ]
                [ "$output" != "still running" ]
                [[ "$output" = "status "* ]]
                grep -q "bytes of junk skipped" "$BATS_TEST_TMPDIR/err"
        done
        # Without -w too: SIGTERM after a second ends it (SIGKILL is not needed).
        run timeout -s TERM -k 5 1 "$KDMESG" -K /dev/zero
        [ "$status" -ne 137 ]
}

@test "a file that is no kernel log is one line, not a bad record per line (issue 43)" {
        seq 1 40 | sed 's/^/processor : /' > "$BATS_TEST_TMPDIR/cpuinfo"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/cpuinfo"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/cpuinfo: not a kernel log: none of its first 10 lines is a record (line 1: bad header: no ';' before the end of the line)" ]
        # Junk before the records: each bad line is said, as before, once a record comes.
        printf 'junk\n6,0,0,-;a record\nmore junk\n' > "$BATS_TEST_TMPDIR/mixed.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/mixed.kmsg"
        [ "$status" -eq 1 ]
        [ "$output" = "[    0.000000] a record" ]
        [ "${stderr_lines[0]}" = "kdmesg: $BATS_TEST_TMPDIR/mixed.kmsg:1: bad header: no ';' before the end of the line" ]
        [ "${stderr_lines[1]}" = "kdmesg: $BATS_TEST_TMPDIR/mixed.kmsg:3: bad header: no ';' before the end of the line" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
}

@test "friction: -w --devices is refused; the wording of --match, --upload of a dump, --problem prefixes" {
        run --separate-stderr "$KDMESG" -w --devices
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --devices prints its table at the end of the input: not with --follow" ]
        run --separate-stderr "$KDMESG" --match FOO
        [ "${stderr_lines[0]}" = "kdmesg: invalid argument for --match: 'FOO' (expected KEY=GLOB, e.g. SUBSYSTEM=usb)" ]
        # The user typed --upload, not --format=export.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --upload http://127.0.0.1:9
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: $DATA/basic.kmsg:1: --upload needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'"* ]]
}
