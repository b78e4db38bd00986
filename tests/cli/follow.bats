#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --follow, --follow-new and the loss policy, on the emulated /dev/kmsg.

bats_require_minimum_version 1.5.0
load helpers
load emu

CHECK="$TESTS/cli/check-seqs"

@test "a wrapped ring, read once: what rotated out before the start is no loss; --lost lists it" {
        emu_init 10
        emu write 25
        run --separate-stderr kdmesg_emu
        [ "$status" -eq 0 ]
        golden follow/rotated.txt
        [ -z "$stderr" ]
        run --separate-stderr kdmesg_emu --fail-on-loss
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        # --lost says what the ring covers, and lists what rotated out before it.
        run --separate-stderr kdmesg_emu --lost
        [ "${lines[1]}" = "        0       14    15           -   0.016000 rotated" ]
        [ "${lines[-1]}" = "Ring: 10 of 25 records since boot (seq 15-24), 0.016000 to 0.025000" ]
        # A dump that starts at seq 1 is no "1 message lost" either.
        printf '6,1,1000,-;one\n6,2,2000,-;two\n' >"$BATS_TEST_TMPDIR/d.kmsg"
        run --separate-stderr "$KDMESG" --fail-on-loss -K "$BATS_TEST_TMPDIR/d.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "$output" = "[    0.001000] one
[    0.002000] two" ]
}

@test "rotation stays a loss where a reader should have seen it: a cursor behind the ring, a gap" {
        emu_init 10
        emu write 5
        run kdmesg_emu --cursor-file "$BATS_TEST_TMPDIR/c"
        [ "$status" -eq 0 ]
        emu write 20
        run --separate-stderr kdmesg_emu --cursor-file "$BATS_TEST_TMPDIR/c" --fail-on-loss
        [ "$status" -eq 3 ]
        [ "${lines[0]}" = "-- 10 messages lost (seq 5-14, between 0.005000 and 0.016000, rotated) --" ]
        [ "$stderr" = "kdmesg: 10 messages lost (rotated)" ]
}

@test "after dmesg -C, following starts where the view starts: the cleared records are not lost" {
        emu_init 1024
        emu write 347
        emu clear
        kdmesg_bg --follow --fail-on-loss
        emu wait blocks 1
        emu write 2
        wait_lines 2
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ "$(cat "$OUT")" = "[    0.348000] record 347
[    0.349000] record 348" ]
        [ ! -s "$ERR" ]
        # Read once after the clear: nothing, and nothing lost; with records after it, only those.
        run --separate-stderr kdmesg_emu --fail-on-loss
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 2 ]
        emu clear
        run --separate-stderr kdmesg_emu --fail-on-loss
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ -z "$stderr" ]
}

@test "--follow prints the ring, then new records as they come" {
        emu_init 64
        emu write 3
        kdmesg_bg --follow
        wait_lines 3
        emu wait blocks 1
        emu write 2
        wait_lines 5
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        run cat "$OUT"
        [ "${lines[0]}" = "[    0.001000] record 0" ]
        [ "${lines[4]}" = "[    0.005000] record 4" ]
        [ "${#lines[@]}" -eq 5 ]
        [ ! -s "$ERR" ]
}

@test "--follow-new starts at the end (SEEK_END): old records are neither printed nor lost" {
        emu_init 8
        emu write 20
        kdmesg_bg --follow-new
        emu wait blocks 1
        emu write 2
        wait_lines 2
        stop_bg INT
        [ "$STATUS" -eq 0 ]
        run cat "$OUT"
        [ "$output" = "[    0.021000] record 20
[    0.022000] record 21" ]
        [ ! -s "$ERR" ]
}

@test "an overrun (EPIPE) while following is reported with its exact range" {
        emu_init 10
        emu write 8
        kdmesg_bg -w
        wait_lines 8
        emu wait blocks 1
        kill -STOP "$PID"
        emu write 30          # seq 8-37; the ring keeps 28-37
        kill -CONT "$PID"
        wait_lines 19
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        run sed -n 9p "$OUT"
        [ "$output" = "-- 20 messages lost (seq 8-27, between 0.008000 and 0.029000, overrun) --" ]
        run "$CHECK" 0 37 "$OUT"
        [ "$status" -eq 0 ]
        [ "$output" = "printed=18 lost=20 possibly=0" ]
        [ "$(emu get epipes)" -eq 1 ]
        [ "$(cat "$ERR")" = "kdmesg: 20 messages lost (overrun)" ]
}

@test "--follow --fail-on-loss: SIGTERM after an overrun exits 3, after none 0; -q keeps the status" {
        local sig
        for sig in TERM INT; do
                emu_init 10
                emu write 2
                kdmesg_bg -w --fail-on-loss
                wait_lines 2
                emu wait blocks 1
                stop_bg $sig
                [ "$STATUS" -eq 0 ]
                [ ! -s "$ERR" ]
                emu_init 10
                emu write 2
                kdmesg_bg -w --fail-on-loss -q
                wait_lines 2
                emu wait blocks 1
                kill -STOP "$PID"
                emu write 30
                kill -CONT "$PID"
                wait_lines 13
                stop_bg $sig
                [ "$STATUS" -eq 3 ]
                [ ! -s "$ERR" ]
        done
}

@test "--follow --json: valid JSON Lines, each record flushed as it comes, a loss object at an overrun" {
        emu_init 10
        emu write 8
        kdmesg_bg -w --json
        wait_lines 8
        emu wait blocks 1
        # Flushed per record: one new record is a new line in the file at once.
        emu write 1
        wait_lines 9
        kill -STOP "$PID"
        emu write 30          # seq 9-38; the ring keeps 29-38
        kill -CONT "$PID"
        wait_lines 20
        stop_bg INT
        [ "$STATUS" -eq 0 ]
        run "$TESTS/cli/validate-json" "$TESTS/../data/kdmesg-record.schema.json" <"$OUT"
        [ "$status" -eq 0 ]
        run sed -n 10p "$OUT"
        [ "$output" = '{"first_seq":9,"last_seq":28,"count":20,"cause":"overrun","time_before":0.009000,"time_after":0.030000}' ]
        run jq -r 'select(.msg) | .seq' "$OUT"
        [ "$output" = "$(seq 0 8; seq 29 38)" ]
        [ "$(cat "$ERR")" = "kdmesg: 20 messages lost (overrun)" ]
}

@test "following, a record waits in the output for no later one: with slow reads it is out at the next" {
        local f h max
        for f in short json table kmsg; do
                h=0
                [ $f = table ] && h=1 # the header line
                emu_init 16
                emu write 4
                # 300 ms per read(): the 4 records take 1.2 s, the fifth read
                # (nothing more: wait) 0.3 s more.
                KMSG_EMU_READ_DELAY_US=300000 kdmesg_bg -w --format=$f
                wait_lines $((h + 1))
                # The first line is out while the later records are still
                # being read: at the latest once the second is formatted, it
                # having waited more than a millisecond (two reads before it
                # are the start's probes).
                # json first reads the ring once (5 reads) for the time slept before each record (realtime), as -T does.
                max=4
                [ $f = json ] && max=9
                [ "$(emu get reads)" -le $max ]
                wait_lines $((h + 4))
                stop_bg TERM
                [ "$STATUS" -eq 0 ]
        done
}

@test "following, a burst of records goes out in a few writes, not one each, and all before kdmesg waits" {
        local f
        for f in short json; do
                emu_init 4096
                kdmesg_bg -W --format=$f
                emu wait blocks 1
                kill -STOP "$PID"
                emu write 2000
                kill -CONT "$PID"
                wait_lines 2000
                # Idle again, with every record written.
                emu wait blocks 2
                [ "$(wc -l <"$OUT")" -eq 2000 ]
                # One write(2) per record would be 2,000; a millisecond's worth
                # of records, or a buffer's, goes in one.
                [ "$(emu get out_writes)" -le 200 ]
                stop_bg TERM
                [ "$STATUS" -eq 0 ]
        done
}

@test "following in the kmsg format: stdout keeps only records, the loss goes to stderr; export: an entry" {
        local f
        for f in kmsg export; do
                emu_init 10
                emu write 2
                kdmesg_bg -w --format=$f --boot-time @1700000000 -q
                emu wait blocks 1
                kill -STOP "$PID"
                emu write 30          # seq 2-31; the ring keeps 22-31
                kill -CONT "$PID"
                if [ $f = kmsg ]; then wait_lines 12; else wait_lines 141; fi
                stop_bg TERM
                [ "$STATUS" -eq 0 ]
                if [ $f = kmsg ]; then
                        [[ "$(cat "$OUT")" != *lost* ]]
                        [ "$(cat "$ERR")" = "kdmesg: -- 20 messages lost (seq 2-21, between 0.002000 and 0.023000, overrun) --" ]
                else
                        [ -z "$(cat "$ERR")" ]
                        grep -qxF 'MESSAGE=-- 20 messages lost (seq 2-21, between 0.002000 and 0.023000, overrun) --' "$OUT"
                        grep -qx 'KDMESG_LOST_CAUSE=overrun' "$OUT"
                fi
                run --separate-stderr "$KDMESG" -K "$OUT" --format=kmsg -q
                [ "${lines[2]}" = "6,22,23000,-;record 22" ]
                [ "${#lines[@]}" -eq 12 ]
        done
}

@test "following in the table view the loss is a marked line in the stream; in the syslog view on stderr" {
        emu_init 10
        emu write 2
        kdmesg_bg -w -r
        wait_lines 2
        emu wait blocks 1
        kill -STOP "$PID"
        emu write 30
        kill -CONT "$PID"
        wait_lines 12
        stop_bg TERM
        run sed -n 3p "$OUT"
        [ "$output" = "<6>[    0.023000] record 22" ]
        grep -qxF "kdmesg: -- 20 messages lost (seq 2-21, between 0.002000 and 0.023000, overrun) --" "$ERR"
        emu_init 10
        emu write 2
        kdmesg_bg -w --format=table -o SEQ,MESSAGE
        wait_lines 3
        emu wait blocks 1
        kill -STOP "$PID"
        emu write 30
        kill -CONT "$PID"
        wait_lines 14
        stop_bg TERM
        run cat "$OUT"
        [ "${lines[3]}" = "-- 20 messages lost (seq 2-21, between 0.002000 and 0.023000, overrun) --" ]
        [[ "${lines[4]}" =~ ^\ +22\ record\ 22$ ]]
}

@test "poll() wakes kdmesg for each new record, and an idle kdmesg makes no calls" {
        emu_init 16
        kdmesg_bg -W
        emu wait blocks 1
        for i in 1 2 3; do
                emu write 1
                wait_lines "$i"
                emu wait blocks $((i + 1))
        done
        polls=$(emu get polls)
        reads=$(emu get reads)
        sleep 0.5
        # No timed wake-up: not one poll() or read() while nothing was written,
        # and no poll() of the device ever had a time-out, however long.
        [ "$(emu get polls)" -eq "$polls" ]
        [ "$(emu get reads)" -eq "$reads" ]
        [ "$(emu get timed)" -eq 0 ]
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        [ "$(wc -l <"$OUT")" -eq 3 ]
}

@test "a reader slower than the writer: every record is printed once or counted lost" {
        emu_init 32
        KMSG_EMU_READ_DELAY_US=300 kdmesg_bg -W
        emu wait blocks 1
        emu write 3000
        # The newest records stay in the ring: the reader ends with the last one.
        for ((i = 0; i < 1000; i++)); do
                tail -n1 "$OUT" | grep -q 'record 2999$' && break
                sleep 0.01
        done
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        run "$CHECK" 0 2999 "$OUT"
        echo "$output"
        [ "$status" -eq 0 ]
        lost=$(grep -o 'lost=[0-9]*' <<<"$output" | cut -d= -f2)
        [ "$lost" -gt 0 ]
        [ "$(cat "$ERR")" = "kdmesg: $lost messages lost (overrun)" ]
}

@test "--follow-new cannot read a file" {
        run "$KDMESG" -W -K /dev/null
        [ "$status" -eq 1 ]
        [ "${lines[1]}" = "Try 'kdmesg --help' for more information." ]
}

@test "KMSG_EMU_STAMP: the emulator ends each record with its CLOCK_MONOTONIC write time (bench/latency)" {
        local before after t
        emu_init 8
        before=$(python3 -c 'import time; print(time.monotonic_ns())')
        KMSG_EMU_STAMP=1 emu write 2
        after=$(python3 -c 'import time; print(time.monotonic_ns())')
        run kdmesg_emu
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        [[ "${lines[1]}" =~ ^\[\ +0\.002000\]\ record\ 1\ t=([0-9]+)$ ]]
        t=${BASH_REMATCH[1]}
        [ "$t" -ge "$before" ]
        [ "$t" -le "$after" ]
}
