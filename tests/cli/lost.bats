#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --lost: the lost-message report, on the emulated /dev/kmsg and on dumps.

bats_require_minimum_version 1.5.0
load helpers
load emu

@test "--lost on the live ring: one row per gap, the totals and the ring's coverage" {
        emu_init 10
        emu write 25
        run --separate-stderr kdmesg_emu --lost
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden lost/ring.txt
        # What rotated out before the start is listed, but no loss of this read.
        run --separate-stderr kdmesg_emu --lost --fail-on-loss
        [ "$status" -eq 0 ]
}

@test "--lost --json: one object per gap, then the summary with lost_total" {
        emu_init 10
        emu write 25
        run --separate-stderr kdmesg_emu --lost --json
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = '{"first_seq":0,"last_seq":14,"count":15,"cause":"rotated","time_after":0.016000,"boot":1}' ]
        [ "${lines[1]}" = '{"lost_total":0,"lost_unknown":false,"rotated_before":15,"gaps":0,"lost_by_cause":{},"records":10,"boots":1,"first_seq":15,"last_seq":24,"next_seq":25,"time_first":0.016000,"time_last":0.025000}' ]
        [ "${#lines[@]}" -eq 2 ]
        # Every line is JSON.
        jq -e . <<<"$output" >/dev/null
}

@test "--lost on a dump: gaps and what came before its first record" {
        run --separate-stderr "$KDMESG" --lost -K "$DATA/formats.kmsg"
        [ "$status" -eq 0 ]
        [ "$output" = "FIRST_SEQ LAST_SEQ COUNT TIME_BEFORE   TIME_AFTER CAUSE
        0        0     1           -     1.000000 rotated
        4        4     1    2.000001 99000.000000 gap
Total: 1 message lost in 1 gap (1 gap)
Before the input: 1 older record rotated out (not lost by this read)
Read: 8 records (seq 1-9), 1.000000 to 99000.000004" ]
}

@test "--lost with nothing lost" {
        emu_init 16
        emu write 5
        run --separate-stderr kdmesg_emu --lost
        [ "$output" = "Total: no messages lost
Ring: 5 of 5 records since boot (seq 0-4), 0.001000 to 0.005000" ]
        run --separate-stderr kdmesg_emu --lost --json
        [ "$(jq -s '.[-1].lost_total' <<<"$output")" -eq 0 ]
}

@test "a record too large for the read buffer (EINVAL) is a loss with cause toobig, and reading goes on" {
        emu_init 16
        emu write 5
        KMSG_EMU_TOOBIG_SEQ=2 run --separate-stderr kdmesg_emu --lost --json
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = '{"first_seq":2,"last_seq":2,"count":1,"cause":"toobig","time_before":0.002000,"time_after":0.004000,"boot":1}' ]
        [ "$(jq -s -c '.[-1] | [.lost_total, .records, .lost_by_cause]' <<<"$output")" = '[1,4,{"toobig":1}]' ]
        KMSG_EMU_TOOBIG_SEQ=2 run --separate-stderr kdmesg_emu
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 5 ]
        [ "${lines[2]}" = "-- 1 message lost (seq 2, between 0.002000 and 0.004000, toobig) --" ]
        [[ "${lines[3]}" == *"] record 3" ]]
}

@test "--lost: an overrun while reading the ring is a row, and every record is read or counted" {
        emu_init 100
        emu write 100
        KMSG_EMU_READ_DELAY_US=2000 LD_PRELOAD="$KMSG_EMU_SHIM" \
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                "$KDMESG" --lost --json >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
        emu wait reads 10
        emu write 300
        wait $!
        run jq -s -c '.[-1] | [.lost_total, .records, .lost_total + .records, (.lost_by_cause | keys), .next_seq]' "$BATS_TEST_TMPDIR/out"
        echo "$output"
        [[ "$output" =~ ^\[[0-9]+,[0-9]+,400,\[\"overrun\"\],400\]$ ]]
        run jq -r 'select(.cause) | .cause' "$BATS_TEST_TMPDIR/out"
        [ "${lines[0]}" = overrun ]
        [ "$(emu get epipes)" -ge 1 ]
        [ ! -s "$BATS_TEST_TMPDIR/err" ]
}

@test "--lost --cursor-file: what was lost since the last run" {
        local c="$BATS_TEST_TMPDIR/cursor"
        emu_init 10
        emu write 10
        kdmesg_emu --cursor-file "$c" >/dev/null
        emu write 25      # seq 10-34, the ring keeps 25-34
        run --separate-stderr kdmesg_emu --lost --cursor-file "$c"
        [ "$status" -eq 0 ]
        [ "${lines[1]}" = "       10       24    15    0.010000   0.026000 rotated" ]
        [ "${lines[2]}" = "Total: 15 messages lost in 1 gap (15 rotated)" ]
        # The report moved the cursor: the next run has nothing new.
        grep -qx "seq=34" "$c"
        run --separate-stderr kdmesg_emu --lost --cursor-file "$c"
        [ "${lines[0]}" = "Total: no messages lost" ]
}

@test "--lost: the coverage is the whole ring, whatever the filters and the cursor skip" {
        local c="$BATS_TEST_TMPDIR/cursor"
        emu_init 10
        emu write 25
        kdmesg_emu --cursor-file "$c" >/dev/null 2>&1
        # Nothing new since the cursor: no loss, and the ring is as it is.
        run --separate-stderr kdmesg_emu --lost --cursor-file "$c"
        [ "$output" = "Total: no messages lost
Ring: 10 of 25 records since boot (seq 15-24), 0.016000 to 0.025000" ]
        emu write 2
        run --separate-stderr kdmesg_emu --lost --cursor-file "$c" --json
        [ "$(jq -c '[.records, .first_seq, .last_seq, .next_seq]' <<<"$output")" = "[10,17,26,27]" ]
        # A level no record has hides no record from the coverage.
        run --separate-stderr kdmesg_emu --lost --level err
        [ "${lines[-1]}" = "Ring: 10 of 27 records since boot (seq 17-26), 0.018000 to 0.027000" ]
}

@test "--lost is a report: not with --follow or another format" {
        run --separate-stderr "$KDMESG" --lost --follow
        [ "$status" -eq 1 ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
        run --separate-stderr "$KDMESG" --lost --format=kmsg -K /dev/null
        [ "$status" -eq 1 ]
}

@test "--lost: one message in one gap is singular" {
        printf '6,0,0,-;a\n6,2,2,-;c\n' > "$BATS_TEST_TMPDIR/one.kmsg"
        run --separate-stderr "$KDMESG" --lost -K "$BATS_TEST_TMPDIR/one.kmsg"
        [ "$status" -eq 0 ]
        [ "${lines[2]}" = "Total: 1 message lost in 1 gap (1 gap)" ]
}

@test "--lost and --fail-on-loss on syslog-form input say that it has no sequence numbers" {
        run --separate-stderr "$KDMESG" --lost -F "$DATA/classic.syslog"
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: $DATA/classic.syslog: syslog-form input has no sequence numbers: --lost cannot find lost messages in it" ]
        run --separate-stderr "$KDMESG" -q --fail-on-loss -K "$DATA/classic.syslog"
        [ "$status" -eq 0 ]
        [ -n "$output" ]
        [ "$stderr" = "kdmesg: $DATA/classic.syslog: syslog-form input has no sequence numbers: --fail-on-loss cannot find lost messages in it" ]
        # Said once, for the first such source; input with numbers says nothing.
        run --separate-stderr "$KDMESG" --lost -F "$DATA/classic.syslog" -F "$DATA/basic.syslog"
        [ "${#stderr_lines[@]}" -eq 1 ]
        run --separate-stderr "$KDMESG" --lost -K "$DATA/classic.kmsg"
        [ -z "$stderr" ]
}

@test "records out of order (seq 0,1,3,2,4) lose nothing: no loss line, --lost empty, --fail-on-loss 0" {
        local f="$BATS_TEST_TMPDIR/late.kmsg"
        printf '6,0,1000,-;zero\n6,1,2000,-;one\n6,3,4000,-;three\n6,2,3000,-;two\n6,4,5000,-;four\n' >"$f"
        run --separate-stderr "$KDMESG" -K "$f"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        # Released in sequence order, once the late record came.
        [ "$output" = "[    0.001000] zero
[    0.002000] one
[    0.003000] two
[    0.004000] three
[    0.005000] four" ]
        run --separate-stderr "$KDMESG" --lost -K "$f"
        [ "$output" = "Total: no messages lost
Read: 5 records (seq 0-4), 0.001000 to 0.005000" ]
        run --separate-stderr "$KDMESG" --lost --json -K "$f"
        [ "$(jq -c '[.lost_total, .gaps]' <<<"$output")" = "[0,0]" ]
        run --separate-stderr "$KDMESG" --fail-on-loss -K "$f"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        # The late record at the end of the input, too.
        printf '6,0,1000,-;zero\n6,2,3000,-;two\n6,1,2000,-;one\n' >"$f"
        run --separate-stderr "$KDMESG" --fail-on-loss --format=kmsg -K "$f"
        [ "$status" -eq 0 ]
        [ "$(cut -d, -f2 <<<"$output" | tr '\n' ' ')" = "0 1 2 " ]
}

@test "a gap that 32 later records did not fill is reported where it is, and a partly filled one in parts" {
        local f="$BATS_TEST_TMPDIR/gap.kmsg" i
        {
                printf '6,0,1000,-;zero\n'
                for i in $(seq 5 37); do printf '6,%d,%d000,-;r%d\n' "$i" "$i" "$i"; done
                # Too late: 32 records came after the gap.
                printf '6,2,2000,-;late two\n'
        } >"$f"
        run --separate-stderr "$KDMESG" --fail-on-loss -K "$f"
        [ "$status" -eq 3 ]
        [ "${lines[1]}" = "-- 4 messages lost (seq 1-4, between 0.001000 and 0.005000, gap) --" ]
        [ "${lines[2]}" = "[    0.005000] r5" ]
        [ "${lines[-1]}" = "[    0.002000] late two" ]
        [ "$stderr" = "kdmesg: 4 messages lost (gap)" ]
        # Filled in the middle in time: two losses, each where it belongs.
        printf '6,0,1000,-;zero\n6,5,5000,-;five\n6,2,2000,-;two\n' >"$f"
        run --separate-stderr "$KDMESG" --lost --json -K "$f"
        [ "$(jq -c 'select(.cause) | [.first_seq, .count, .time_before, .time_after]' <<<"$output" | tr '\n' ' ')" = \
          "[1,1,0.001,0.002] [3,2,0.002,0.005] " ]
}

@test "--lost: beyond 10000 gaps the table keeps the first and last 5000 and sums up those in between in one row" {
        # Records 0, 2, 4, ... 20022: 10011 gaps of one message each.
        python3 -c "
for i in range(10012):
    print('6,%d,%d,-;r%d' % (2 * i, i * 1000, i))
" > "$BATS_TEST_TMPDIR/gaps.kmsg"
        run --separate-stderr "$KDMESG" --lost -K "$BATS_TEST_TMPDIR/gaps.kmsg"
        [ "$status" -eq 0 ]
        # The header, 5000 rows, the row in between, 5000 rows, the totals and the coverage.
        [ "${#lines[@]}" -eq 10004 ]
        output=$(printf '%s\n' "${lines[@]:0:3}" ... "${lines[@]:4999:4}" ... "${lines[@]: -4}")
        golden lost/bounded.txt
        # --lost --json still has every gap.
        run --separate-stderr "$KDMESG" --lost --json -K "$BATS_TEST_TMPDIR/gaps.kmsg"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 10012 ]
        [ "$(jq -c 'select(.cause == "gap")' <<<"$output" | wc -l)" -eq 10011 ]
}

@test "--follow: a gap still open when the input goes idle is reported then; a record later than that is printed late" {
        local f="$BATS_TEST_TMPDIR/grow.kmsg" out="$BATS_TEST_TMPDIR/out" i
        printf '6,0,1000,-;zero\n6,1,2000,-;one\n6,3,4000,-;three\n' >"$f"
        "$KDMESG" -K "$f" -w >"$out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
        local pid=$!
        for ((i = 0; i < 1000; i++)); do
                [ "$(wc -l <"$out")" -ge 4 ] && break
                sleep 0.01
        done
        printf '6,2,3000,-;two\n' >>"$f"
        for ((i = 0; i < 1000; i++)); do
                [ "$(wc -l <"$out")" -ge 5 ] && break
                sleep 0.01
        done
        kill -TERM "$pid"
        wait "$pid"
        run cat "$out"
        [ "$output" = "[    0.001000] zero
[    0.002000] one
-- 1 message lost (seq 2, between 0.002000 and 0.004000, gap) --
[    0.004000] three
[    0.003000] two" ]
}
