#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --cursor-file: each record exactly once over many runs, on the emulated /dev/kmsg.

bats_require_minimum_version 1.5.0
load helpers
load emu

setup() {
        C="$BATS_TEST_TMPDIR/cursor"
}

@test "cursor: the first run prints the ring and remembers the boot and the last record" {
        emu_init 16
        emu write 5
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 5 ]
        [ -z "$stderr" ]
        grep -qx "boot_id=$(emu get boot_id | tr -d -)" "$C"
        grep -qx "seq=4" "$C"
        grep -qx "usec=5000" "$C"
        ! grep -q pending "$C" || false
        [ ! -e "$C.tmp" ]
}

@test "cursor: an empty file holds no state: a first run" {
        emu_init 16
        emu write 2
        : >"$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        [ -z "$stderr" ]
        grep -qx "seq=1" "$C"
}

@test "cursor: the next run prints only what came after, and nothing when nothing came" {
        emu_init 16
        emu write 5
        kdmesg_emu --cursor-file "$C" >/dev/null
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ -z "$stderr" ]
        emu write 3
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.006000] record 5
[    0.007000] record 6
[    0.008000] record 7" ]
        grep -qx "seq=7" "$C"
}

@test "cursor: on a terminal, a run with nothing new says so in one line; piped it stays silent (issue 43)" {
        command -v script > /dev/null || skip "script(1) is not installed"
        emu_init 16
        emu write 3
        kdmesg_emu --cursor-file "$C" >/dev/null
        run script -qec "stty cols 80; LD_PRELOAD='$KMSG_EMU_SHIM' ASAN_OPTIONS='${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0' '$KDMESG' --cursor-file '$C'; echo status \$?" /dev/null < /dev/null
        [ "$(tr -d '\r' <<<"$output")" = "-- No new messages since the last run (cursor file $C) --
status 0" ]
        # With a new record, the record and no such line; -q: no line either.
        emu write 1
        run script -qec "LD_PRELOAD='$KMSG_EMU_SHIM' ASAN_OPTIONS='${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0' '$KDMESG' --color=never --cursor-file '$C'" /dev/null < /dev/null
        [ "$(tr -d '\r' <<<"$output")" = "[    0.004000] record 3" ]
        run script -qec "LD_PRELOAD='$KMSG_EMU_SHIM' ASAN_OPTIONS='${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0' '$KDMESG' -q --cursor-file '$C'" /dev/null < /dev/null
        [ -z "$output" ]
        # Piped: nothing (cron mails no empty run).
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ -z "$output" ]
        [ -z "$stderr" ]
}

@test "cursor: the file is replaced (a new file renamed over it), never rewritten in place" {
        local ino
        emu_init 16
        emu write 2
        kdmesg_emu --cursor-file "$C" >/dev/null
        ino=$(stat -c %i "$C")
        # A reader holding the old file keeps reading the old state whole.
        exec 4<"$C"
        emu write 2
        kdmesg_emu --cursor-file "$C" >/dev/null
        [ "$(stat -c %i "$C")" != "$ino" ]
        grep -qx "seq=3" "$C"
        run cat <&4
        exec 4<&-
        [[ "$output" == *$'\nseq=1\nusec=2000' ]]
        [ ! -e "$C.tmp" ]
}

@test "cursor: what the ring overwrote since the last run is reported exactly" {
        emu_init 10
        emu write 10
        kdmesg_emu --cursor-file "$C" >/dev/null
        emu write 25       # seq 10-34; the ring keeps 25-34
        run --separate-stderr kdmesg_emu --cursor-file "$C" --fail-on-loss
        [ "$status" -eq 3 ]
        [ "${lines[0]}" = "-- 15 messages lost (seq 10-24, between 0.010000 and 0.026000, rotated) --" ]
        [ "${lines[1]}" = "[    0.026000] record 25" ]
        [ "${#lines[@]}" -eq 11 ]
        [ "$stderr" = "kdmesg: 15 messages lost (rotated)" ]
}

@test "cursor: after a reboot, start at the beginning and report the previous boot's tail" {
        emu_init 16
        emu write 7
        kdmesg_emu --cursor-file "$C" >/dev/null
        emu write 2        # seq 7-8: never read in that boot
        emu reboot
        emu write 3
        run --separate-stderr kdmesg_emu --cursor-file "$C" --fail-on-loss
        [ "$status" -eq 3 ]
        [ "$output" = "-- records of the previous boot from seq 7 on, if it had any, were not read (reboot) --
[    0.001000] record 0
[    0.002000] record 1
[    0.003000] record 2" ]
        [ "$stderr" = "kdmesg: the previous boot's records after the last one read, if any, were not read" ]
        grep -qx "boot_id=$(emu get boot_id | tr -d -)" "$C"
        grep -qx "seq=2" "$C"
        # JSON: the count is not known.
        emu reboot
        run --separate-stderr kdmesg_emu --cursor-file "$C" --json -q
        [ "$status" -eq 0 ]
        [ "$output" = '{"first_seq":3,"last_seq":null,"count":null,"cause":"reboot","time_before":0.003000}' ]
}

@test "cursor: --lost after a reboot asserts no loss it cannot know: the previous boot's tail, if any, was not read" {
        emu_init 16
        emu write 7
        kdmesg_emu --cursor-file "$C" >/dev/null
        emu reboot
        emu write 3
        run --separate-stderr kdmesg_emu --cursor-file "$C" --lost
        [ "$status" -eq 0 ]
        echo "$output"
        [[ "$output" == *"Total: none known lost; the previous boot's records after the last one read, if any, were not read"* ]]
        [[ "$output" != *"messages lost"* && "$output" != *"message lost"* ]]
        # With a gap of known size in the same read: its count, and the tail said as not read, not lost.
        emu reboot
        emu write 20       # seq 0-19 in a ring of 16: 0-3 are gone before the read
        run --separate-stderr kdmesg_emu --cursor-file "$C" --lost
        echo "$output"
        [[ "$output" == *"Total: 4 messages lost in 2 gaps (4 rotated, the previous boot's records after the last one read, if any, not read)"* ]]
}

@test "cursor: records being written when kdmesg was killed are reported, never printed twice" {
        emu_init 16
        emu write 12
        # What a run killed in the middle of a write leaves: seq 5 written, 6-8 in flight.
        printf 'boot_id=%s\nseq=5\nusec=6000\npending_from=6\npending=8\n' "$(emu get boot_id | tr -d -)" >"$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "-- 3 messages possibly lost (seq 6-8, interrupted) --" ]
        [ "${lines[1]}" = "[    0.010000] record 9" ]
        [ "${#lines[@]}" -eq 4 ]
        [ "$stderr" = "kdmesg: 3 messages lost (interrupted)" ]
        grep -qx "seq=11" "$C"
        ! grep -q pending "$C" || false
}

@test "cursor: the report of a killed run's records in flight is written on its own, before any record" {
        emu_init 16
        emu write 12
        printf 'boot_id=%s\nseq=5\nusec=6000\npending_from=6\npending=8\n' "$(emu get boot_id | tr -d -)" >"$C"
        # 300 ms per read(): the report is out, and the file unchanged, before the first record is.
        KMSG_EMU_READ_DELAY_US=300000 kdmesg_bg -w --cursor-file "$C"
        wait_lines 1
        [ "$(cat "$OUT")" = "-- 3 messages possibly lost (seq 6-8, interrupted) --" ]
        # Killed now, the next run would report 6-8 again: the file still names them.
        grep -qx "pending_from=6" "$C"
        wait_lines 4
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        grep -qx "seq=11" "$C"
}

@test "cursor: an overrun found while following is written on its own, before the record after it" {
        emu_init 16
        emu write 4
        # 300 ms per read(): what is written before the next record shows.
        KMSG_EMU_READ_DELAY_US=300000 kdmesg_bg -w --cursor-file "$C"
        wait_lines 4
        emu wait blocks 1
        # 40 more into a ring of 16: records 4-27 are overwritten before kdmesg reads on.
        emu write 40
        wait_lines 5
        [ "$(wc -l <"$OUT")" -eq 5 ]
        [ "$(sed -n 5p "$OUT")" = "-- 24 messages lost (seq 4-27, between 0.004000 and 0.029000, overrun) --" ]
        wait_lines 6
        [ "$(sed -n 6p "$OUT")" = "[    0.029000] record 28" ]
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
}

@test "cursor: following 2000 records flushed one by one replaces the file a few times, not 2000" {
        emu_init 4096
        emu write 2000
        kdmesg_bg -w --cursor-file "$C"
        wait_lines 2000
        emu wait blocks 1
        # A save names the records ahead as pending: about log2(2000) saves.
        [ "$(emu get renames)" -le 20 ]
        grep -qx "seq=1999" "$C"
        ! grep -q pending "$C" || false
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ ! -s "$ERR" ]
}

@test "cursor: a pending range past the newest record is cut there; later records are printed" {
        emu_init 16
        emu write 12
        # A run killed in a write named records 6-100 as pending; 6-11 exist.
        printf 'boot_id=%s\nseq=5\nusec=6000\npending_from=6\npending=100\n' "$(emu get boot_id | tr -d -)" >"$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "$output" = "-- 6 messages possibly lost (seq 6-11, interrupted) --" ]
        [ "$stderr" = "kdmesg: 6 messages lost (interrupted)" ]
        grep -qx "seq=11" "$C"
        emu write 2
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$output" = "[    0.013000] record 12
[    0.014000] record 13" ]
        [ -z "$stderr" ]
}

@test "cursor: filtered records move the cursor too" {
        emu_init 16
        emu write 4
        run --separate-stderr kdmesg_emu --cursor-file "$C" --level err
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        grep -qx "seq=3" "$C"
}

@test "cursor: --follow saves the cursor at SIGTERM and at SIGINT; the next run continues after it" {
        local sig
        for sig in TERM INT; do
                rm -f "$C"
                emu_init 64
                emu write 2
                kdmesg_bg --follow --cursor-file "$C"
                wait_lines 2
                emu wait blocks 1
                emu write 3
                wait_lines 5
                emu wait blocks 2
                stop_bg $sig
                [ "$STATUS" -eq 0 ]
                [ ! -s "$ERR" ]
                grep -qx "seq=4" "$C"
                grep -qx "usec=5000" "$C"
                ! grep -q pending "$C" || false
                [ ! -e "$C.tmp" ]
                emu write 1
                run --separate-stderr kdmesg_emu --cursor-file "$C"
                [ "$output" = "[    0.006000] record 5" ]
                [ -z "$stderr" ]
        done
}

@test "cursor: --follow-new starts with new records the first time, then continues after the cursor" {
        emu_init 16
        emu write 3
        kdmesg_bg -W --cursor-file "$C"
        emu wait blocks 1
        emu write 1
        wait_lines 1
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ "$(cat "$OUT")" = "[    0.004000] record 3" ]
        grep -qx "seq=3" "$C"
        # Written while no kdmesg ran: the next -W prints them, exactly once.
        emu write 2
        kdmesg_bg -W --cursor-file "$C"
        wait_lines 2
        emu wait blocks 1
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ "$(cat "$OUT")" = "[    0.005000] record 4
[    0.006000] record 5" ]
        [ ! -s "$ERR" ]
}

@test "cursor: --follow-new stopped before any new record: the skipped ring stays skipped" {
        emu_init 16
        emu write 3
        kdmesg_bg -W --cursor-file "$C"
        emu wait blocks 1
        # Saved before it went to sleep: the ring as it was is behind the cursor.
        grep -qx "seq=2" "$C"
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ ! -s "$OUT" ]
        emu write 1
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.004000] record 3" ]
        [ -z "$stderr" ]
}

@test "cursor: SIGTERM while catching up ends cleanly; the cursor names the last record written" {
        local n
        emu_init 20000
        emu write 20000
        # A slow reader: it is still reading the ring when the signal comes.
        KMSG_EMU_READ_DELAY_US=200 kdmesg_bg --cursor-file "$C"
        emu wait reads 500
        stop_bg TERM
        # Not --follow: the run was cut short, and its status says so (128 + SIGTERM).
        [ "$STATUS" -eq 143 ]
        [ ! -s "$ERR" ]
        ! grep -q pending "$C" || false
        n=$(wc -l <"$OUT")
        [ "$n" -gt 0 ] && [ "$n" -lt 20000 ]
        run "$TESTS/cli/check-seqs" 0 "$((n - 1))" "$OUT"
        [ "$status" -eq 0 ]
        grep -qx "seq=$((n - 1))" "$C"
        # The next run prints the rest, each record once.
        kdmesg_emu --cursor-file "$C" >"$BATS_TEST_TMPDIR/rest"
        run "$TESTS/cli/check-seqs" 0 19999 "$OUT" "$BATS_TEST_TMPDIR/rest"
        [ "$status" -eq 0 ]
        [ "$output" = "printed=20000 lost=0 possibly=0" ]
}

@test "cursor: a broken cursor file is one line, exit 1; it cannot be used with -K" {
        emu_init 4
        printf 'garbage\n' >"$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 1 ]
        # It says how to start over (issue 43): a cron job's mail tells what to do.
        [ "$stderr" = "kdmesg: $C: line 1: expected KEY=VALUE; remove the file to start over from the oldest record in the ring" ]
        printf 'boot_id=x\nseq=12\npending=3\n' >"$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $C: the pending range does not follow seq; remove the file to start over from the oldest record in the ring" ]
        # As it says: without the file, a first run.
        rm "$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        run --separate-stderr "$KDMESG" --cursor-file "$C" -K /dev/null
        [ "$status" -eq 1 ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
}

# kdmesg on the emulated device under a timeout: a hang fails the test.
kdmesg_emu_t() {
        timeout -s KILL 20 env LD_PRELOAD="$KMSG_EMU_SHIM" \
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$KDMESG" "$@"
}

@test "cursor: a symlink planted at the old temporary name is not followed; its target is unchanged" {
        local victim="$BATS_TEST_TMPDIR/victim"
        emu_init 16
        emu write 2
        echo precious >"$victim"
        ln -s "$victim" "$C.tmp"
        run --separate-stderr kdmesg_emu_t --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "$(cat "$victim")" = precious ]
        [ -f "$C" ] && [ ! -L "$C" ]
        grep -qx "seq=1" "$C"
        # Only the planted link and the lock file are left beside the cursor: no temporary file.
        [ "$(ls -A "$BATS_TEST_TMPDIR" | grep -c '^cursor')" -eq 3 ]
        [ -f "$C.lock" ]
}

@test "cursor: refused in a world-writable directory without the sticky bit, or when owned by another user" {
        local d="$BATS_TEST_TMPDIR/open"
        emu_init 16
        emu write 2
        mkdir "$d"
        chmod 0777 "$d"
        run --separate-stderr kdmesg_emu_t --cursor-file "$d/cursor"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $d/cursor: in a world-writable directory without the sticky bit" ]
        [ ! -e "$d/cursor" ]
        chmod 1777 "$d"
        run --separate-stderr kdmesg_emu_t --cursor-file "$d/cursor"
        [ "$status" -eq 0 ]
        grep -qx "seq=1" "$d/cursor"
        [ "$(id -u)" -eq 0 ] || skip "not root: cannot give a file to another user"
        chown 65534 "$d/cursor"
        run --separate-stderr kdmesg_emu_t --cursor-file "$d/cursor"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $d/cursor: owned by uid 65534, not by this user (uid 0)" ]
}

@test "cursor: a device, a directory, a big file or NUL bytes are refused at once with a clear message" {
        emu_init 16
        emu write 2
        run --separate-stderr kdmesg_emu_t --cursor-file /dev/zero
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: /dev/zero: not a regular file" ]
        mkdir "$C"
        run --separate-stderr kdmesg_emu_t --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $C: is a directory" ]
        rmdir "$C"
        { printf 'boot_id=x\n'; head -c 5000 /dev/zero | tr '\0' '#'; printf '\n'; } >"$C"
        run --separate-stderr kdmesg_emu_t --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $C: larger than 4096 bytes: not a cursor file; remove the file to start over from the oldest record in the ring" ]
        printf 'boot_id=x\n\0\0\nseq=1\n' >"$C"
        run --separate-stderr kdmesg_emu_t --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $C: contains a NUL byte: not a cursor file; remove the file to start over from the oldest record in the ring" ]
}

@test "cursor: seq 18446744073709551615 (2^64-1) is refused: nothing can follow it, and it must not wrap to 0" {
        emu_init 16
        emu write 3
        printf 'boot_id=%s\nseq=18446744073709551615\nusec=1\n' "$(emu get boot_id | tr -d -)" >"$C"
        run --separate-stderr kdmesg_emu_t --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $C: line 2: seq=18446744073709551615 is the last sequence number: no record can follow it; remove the file to start over from the oldest record in the ring" ]
        printf 'boot_id=%s\nseq=1\nusec=1\npending=18446744073709551615\n' "$(emu get boot_id | tr -d -)" >"$C"
        run --separate-stderr kdmesg_emu_t --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $C: line 4: pending=18446744073709551615 is the last sequence number: no record can follow it; remove the file to start over from the oldest record in the ring" ]
}

@test "cursor: a seq beyond the newest record is reported, and the ring is read as after a reboot" {
        emu_init 16
        emu write 5
        printf 'boot_id=%s\nseq=100\nusec=101000\n' "$(emu get boot_id | tr -d -)" >"$C"
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ "$output" = "-- records of the previous boot from seq 101 on, if it had any, were not read (reboot) --
[    0.001000] record 0
[    0.002000] record 1
[    0.003000] record 2
[    0.004000] record 3
[    0.005000] record 4" ]
        [ "${stderr_lines[0]}" = "kdmesg: $C: the cursor's seq 100 is ahead of the newest record (seq 4): the ring started again, probably after a reboot" ]
        grep -qx "seq=4" "$C"
        # The cursor is right again: later records are not skipped.
        emu write 2
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$output" = "[    0.006000] record 5
[    0.007000] record 6" ]
        [ -z "$stderr" ]
}

# without_room CMD...: CMD with RLIMIT_FSIZE 0, so that every write(2) to a
# file fails with EFBIG, as a full file system fails it with ENOSPC (SIGXFSZ
# ignored).  Pipes are not limited: bats' run reads CMD's output through one.
without_room() {
        (
                ulimit -f 0
                trap '' XFSZ
                "$@"
        )
}

@test "cursor: a cursor file that cannot be written (its file system full): nothing printed, exit 1, no duplicate after" {
        local CHECK="$TESTS/cli/check-seqs"
        emu_init 64
        emu write 50
        run without_room kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: cannot update the cursor file $C: File too large" ]
        [ ! -e "$C" ]
        [ -z "$(ls "$BATS_TEST_TMPDIR" | grep tmp)" ]
        # Room again: every record, once.
        kdmesg_emu --cursor-file "$C" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
        run "$CHECK" 0 49 "$BATS_TEST_TMPDIR/out"
        [ "$status" -eq 0 ]
        [ "$output" = "printed=50 lost=0 possibly=0" ]
        # Resuming: the same; the cursor stays as it was.
        emu write 50
        cp "$C" "$BATS_TEST_TMPDIR/before"
        run without_room kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ "$output" = "kdmesg: cannot update the cursor file $C: File too large" ]
        cmp "$C" "$BATS_TEST_TMPDIR/before"
        kdmesg_emu --cursor-file "$C" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
        run "$CHECK" 50 99 "$BATS_TEST_TMPDIR/out"
        [ "$output" = "printed=50 lost=0 possibly=0" ]
}

@test "cursor: the file system fills up mid-run: the output stops where the cursor could not follow; no record twice" {
        local CHECK="$TESTS/cli/check-seqs" n
        emu_init 8192
        emu write 5000
        # Each run's first N saves succeed, then rename(2) fails with ENOSPC (the shim).
        for n in 0 1 2 3; do
                rm -f "$C"
                KMSG_EMU_RENAME_FAIL_AFTER=$n kdmesg_emu --cursor-file "$C" >"$BATS_TEST_TMPDIR/out1" \
                        2>"$BATS_TEST_TMPDIR/err1" && return 1
                [ "$(cat "$BATS_TEST_TMPDIR/err1")" = "kdmesg: cannot update the cursor file $C: No space left on device" ]
                kdmesg_emu --cursor-file "$C" >"$BATS_TEST_TMPDIR/out2" 2>/dev/null
                run "$CHECK" 0 4999 "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/out2"
                echo "N=$n: $output"
                [ "$status" -eq 0 ]
        done
}

@test "cursor: one process at a time keeps a cursor file: a second is one line and exit 1, and runs once the first ended" {
        emu_init 64
        emu write 5
        kdmesg_bg -w --cursor-file "$C"
        wait_lines 5
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: the cursor file $C is in use by another kdmesg (pid $PID): one process at a time keeps a cursor file" ]
        # The first goes on, alone: what comes now is its.
        emu write 3
        wait_lines 8
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        grep -qx "seq=7" "$C"
        emu write 2
        run --separate-stderr kdmesg_emu --cursor-file "$C"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 2 ]
}
