#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT and SIGTERM in every mode (issue 12): reading ends, everything
# read before is written out, the cursor is saved, and the exit status is
# 128 + the signal (130, 143); with --follow, whose normal end is a
# signal, 0.

bats_require_minimum_version 1.5.0
load helpers
load emu

CHECK="$TESTS/cli/check-seqs"

# signal_status SIG: what kdmesg exits with after SIG ends its reading.
signal_status() {
        case $1 in
        INT) echo 130 ;;
        TERM) echo 143 ;;
        esac
}

# sleeping PID: the process waits (in read() or poll()), twice in a row, 50 ms apart.
wait_sleeping() {
        local i n=0
        for ((i = 0; i < 1000; i++)); do
                if [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = S ]; then
                        n=$((n + 1))
                        [ "$n" -ge 2 ] && return 0
                else
                        n=0
                fi
                sleep 0.05
        done
        echo "process $1 never waited" >&2
        return 1
}

# gen_dump N: a dump of N records as kmsg-emu writes them: seq K says "record K", at (K + 1) ms.
gen_dump() {
        awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "6,%d,%d,-;record %d\n", i, (i + 1) * 1000, i }'
}

@test "signals: a dump: what was read before the signal is written, whole records, exit 128 + signal" {
        local sig n total=100000
        gen_dump "$total" > "$BATS_TEST_TMPDIR/dump.kmsg"
        for sig in TERM INT; do
                # A reader that takes its time: kdmesg waits in write(2) with most of the dump unread.
                rm -f "$BATS_TEST_TMPDIR/pid" "$BATS_TEST_TMPDIR/status"
                bash -c '"$KDMESG" -K "$1/dump.kmsg" 2>"$1/err" & echo $! > "$1/pid"; wait $!; echo $? > "$1/status"' \
                        _ "$BATS_TEST_TMPDIR" | { sleep 1; cat > "$BATS_TEST_TMPDIR/out"; } 3>&- &
                local job=$!
                for ((i = 0; i < 100; i++)); do
                        [ -s "$BATS_TEST_TMPDIR/pid" ] && break
                        sleep 0.05
                done
                wait_sleeping "$(cat "$BATS_TEST_TMPDIR/pid")"
                kill -"$sig" "$(cat "$BATS_TEST_TMPDIR/pid")"
                wait "$job"
                STATUS=$(cat "$BATS_TEST_TMPDIR/status")
                [ "$STATUS" -eq "$(signal_status "$sig")" ]
                n=$(wc -l < "$BATS_TEST_TMPDIR/out")
                [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]
                # Every record from the first to the last written, none cut, none twice.
                run "$CHECK" 0 "$((n - 1))" "$BATS_TEST_TMPDIR/out"
                [ "$status" -eq 0 ]
                [ "$(tail -c 1 "$BATS_TEST_TMPDIR/out" | od -An -c | tr -d ' ')" = '\n' ]
                # Where reading stopped inside a record, the place is named.
                if [ -s "$BATS_TEST_TMPDIR/err" ]; then
                        [ "$(wc -l < "$BATS_TEST_TMPDIR/err")" -eq 1 ]
                        grep -Eq "^kdmesg: .*dump.kmsg:$((n + 1)): reading interrupted: [0-9]+ bytes of an unfinished record left unread$" \
                                "$BATS_TEST_TMPDIR/err"
                fi
        done
}

@test "signals: a pipe: every record already sent is written, exit 128 + signal" {
        local sig
        # Less than a pipe holds: cat is done before kdmesg waits for more.
        gen_dump 1000 > "$BATS_TEST_TMPDIR/dump.kmsg"
        [ "$(wc -c < "$BATS_TEST_TMPDIR/dump.kmsg")" -lt 65536 ]
        for sig in TERM INT; do
                rm -f "$BATS_TEST_TMPDIR/sent"
                { cat "$BATS_TEST_TMPDIR/dump.kmsg"; : > "$BATS_TEST_TMPDIR/sent"; sleep 5; } 3>&- |
                        "$KDMESG" -K - > "$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
                PID=$!
                for ((i = 0; i < 200; i++)); do
                        [ -e "$BATS_TEST_TMPDIR/sent" ] && break
                        sleep 0.05
                done
                wait_sleeping "$PID"
                stop_bg "$sig"
                [ "$STATUS" -eq "$(signal_status "$sig")" ]
                [ ! -s "$BATS_TEST_TMPDIR/err" ]
                # All 1000: the last one too, whose end only the next record's start would show.
                run "$CHECK" 0 999 "$BATS_TEST_TMPDIR/out"
                [ "$status" -eq 0 ]
                [ "$output" = "printed=1000 lost=0 possibly=0" ]
        done
}

@test "signals: a pipe: a record cut by the signal is named, with its line" {
        { printf '6,0,1000,-;one\n6,1,2000,-;two\n6,2,3000,-;thr'; sleep 5; } 3>&- |
                "$KDMESG" -K - > "$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
        PID=$!
        wait_sleeping "$PID"
        stop_bg TERM
        [ "$STATUS" -eq 143 ]
        [ "$(cat "$BATS_TEST_TMPDIR/out")" = "[    0.001000] one
[    0.002000] two" ]
        [ "$(cat "$BATS_TEST_TMPDIR/err")" = "kdmesg: <stdin>:3: reading interrupted: 14 bytes of an unfinished record left unread" ]
}

@test "signals: the device (emulated): every record read is written, the cursor saved, exit 128 + signal" {
        local sig n C="$BATS_TEST_TMPDIR/cursor"
        for sig in TERM INT; do
                rm -f "$C"
                emu_init 20000
                emu write 20000
                # A slow reader: it is still reading the ring when the signal comes.
                KMSG_EMU_READ_DELAY_US=200 kdmesg_bg --cursor-file "$C"
                emu wait reads 300
                stop_bg "$sig"
                [ "$STATUS" -eq "$(signal_status "$sig")" ]
                [ ! -s "$ERR" ]
                n=$(wc -l < "$OUT")
                # Each record read before the signal (300 reads at least) is in the output.
                [ "$n" -ge 299 ] && [ "$n" -lt 20000 ]
                run "$CHECK" 0 "$((n - 1))" "$OUT"
                [ "$status" -eq 0 ]
                # The cursor names the last record written: the next run goes on after it.
                grep -qx "seq=$((n - 1))" "$C"
                run --separate-stderr kdmesg_emu --cursor-file "$C"
                [ "$status" -eq 0 ]
                [ "${lines[0]}" = "$(printf '[%12.6f] record %d' "$(((n + 1) * 1000))e-6" "$n")" ]
                [ "${#lines[@]}" -eq "$((20000 - n))" ]
        done
        # Without a cursor too.
        emu_init 20000
        emu write 20000
        KMSG_EMU_READ_DELAY_US=200 kdmesg_bg
        emu wait reads 300
        stop_bg TERM
        [ "$STATUS" -eq 143 ]
        n=$(wc -l < "$OUT")
        [ "$n" -ge 299 ]
        run "$CHECK" 0 "$((n - 1))" "$OUT"
        [ "$status" -eq 0 ]
}

@test "signals: -c does not clear the ring after a signal ended reading" {
        : "${KLOGCTL_SHIM:?KLOGCTL_SHIM must point at the klogctl test double}"
        export KDMESG_SHIM_LOG="$BATS_TEST_TMPDIR/calls"
        export KDMESG_SHIM_BUFFER="$BATS_TEST_TMPDIR/syslog-buffer"
        : > "$KDMESG_SHIM_BUFFER"
        emu_init 100
        emu write 100
        # Read in full, -c clears (SYSLOG_ACTION_CLEAR is 5).
        : > "$KDMESG_SHIM_LOG"
        LD_PRELOAD="$KMSG_EMU_SHIM $KLOGCTL_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                "$KDMESG" -c -P > /dev/null
        [ "$(grep -v '^loaded$' "$KDMESG_SHIM_LOG")" = "5 0" ]
        : > "$KDMESG_SHIM_LOG"
        # A new ring: its read counter starts at 0 again.
        emu_init 5000
        emu write 5000
        OUT="$BATS_TEST_TMPDIR/out"
        LD_PRELOAD="$KMSG_EMU_SHIM $KLOGCTL_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                KMSG_EMU_READ_DELAY_US=500 "$KDMESG" -c -P > "$OUT" &
        PID=$!
        emu wait reads 100
        stop_bg INT
        [ "$STATUS" -eq 130 ]
        [ -s "$OUT" ]
        # The double was there ("loaded"), and was never asked to clear.
        [ "$(cat "$KDMESG_SHIM_LOG")" = "loaded" ]
}

@test "signals: --follow ends at SIGTERM and SIGINT with status 0, everything written, the cursor saved" {
        local sig C="$BATS_TEST_TMPDIR/cursor"
        for sig in TERM INT; do
                rm -f "$C"
                emu_init 64
                emu write 3
                kdmesg_bg --follow --cursor-file "$C"
                wait_lines 3
                emu wait blocks 1
                emu write 2
                wait_lines 5
                stop_bg "$sig"
                [ "$STATUS" -eq 0 ]
                [ ! -s "$ERR" ]
                run "$CHECK" 0 4 "$OUT"
                [ "$output" = "printed=5 lost=0 possibly=0" ]
                grep -qx "seq=4" "$C"
        done
        # A followed pipe: its records, the last one too, then status 0.
        { printf '6,0,1000,-;one\n6,1,2000,-;two\n'; sleep 5; } 3>&- |
                "$KDMESG" -w -K - > "$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
        PID=$!
        wait_sleeping "$PID"
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ "$(cat "$BATS_TEST_TMPDIR/out")" = "[    0.001000] one
[    0.002000] two" ]
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
}

# wait_reading PID: until the process has read 1 MiB (10 s at most), so that
# a signal sent then finds it reading, however loaded the machine is.
wait_reading() {
        local i n
        for ((i = 0; i < 100; i++)); do
                n=$(awk '/^rchar:/ { print $2 }' "/proc/$1/io" 2>/dev/null)
                [ "${n:-0}" -ge 1048576 ] && return 0
                sleep 0.1
        done
}

@test "signals: kdmesg -w -K /dev/zero and kdmesg -K /dev/zero stop at SIGTERM" {
        [ -r /dev/zero ] || skip "/dev/zero is not available"
        local args
        for args in "-w -K /dev/zero" "-K /dev/zero"; do
                # shellcheck disable=SC2086
                "$KDMESG" $args > /dev/null 2>"$BATS_TEST_TMPDIR/err" 3>&- &
                PID=$!
                wait_reading "$PID"
                kill -TERM "$PID"
                for ((i = 0; i < 50; i++)); do
                        kill -0 "$PID" 2>/dev/null || break
                        sleep 0.1
                done
                if kill -0 "$PID" 2>/dev/null; then
                        kill -KILL "$PID"
                        echo "kdmesg $args ignored SIGTERM" >&2
                        return 1
                fi
                STATUS=0
                wait "$PID" || STATUS=$?
                # Junk was reported: that is an error, status 1.
                [ "$STATUS" -eq 1 ]
                grep -q "bytes of junk skipped" "$BATS_TEST_TMPDIR/err"
        done
        # The other forms pass NUL bytes over inside the reader: the signal stops it there.
        for args in "--input-format export" "--input-format json" "--input-format syslog"; do
                # shellcheck disable=SC2086
                "$KDMESG" $args -K /dev/zero > /dev/null 2>"$BATS_TEST_TMPDIR/err" 3>&- &
                PID=$!
                wait_reading "$PID"
                kill -TERM "$PID"
                for ((i = 0; i < 50; i++)); do
                        kill -0 "$PID" 2>/dev/null || break
                        sleep 0.1
                done
                if kill -0 "$PID" 2>/dev/null; then
                        kill -KILL "$PID"
                        echo "kdmesg $args -K /dev/zero ignored SIGTERM" >&2
                        return 1
                fi
                STATUS=0
                wait "$PID" || STATUS=$?
                [ "$STATUS" -eq 143 ]
        done
}
