#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 at random moments under a writer that never stops: with
# --cursor-file every record comes out exactly once over all the runs, or
# is reported lost.  On the emulated /dev/kmsg, bounded to a few seconds.

bats_require_minimum_version 1.5.0
load helpers
load emu

CHECK="$TESTS/cli/check-seqs"

# kill_restart RUNS CAPACITY COUNT RATE: a writer appends COUNT records at
# RATE a second to a ring of CAPACITY; meanwhile RUNS runs of kdmesg -w
# --cursor-file, each killed with SIGKILL after 0 to 190 ms (anywhere from
# start-up to well into following); then a last run catches up and ends.
# Sets LAST (the last seq written) and checks the union of the outputs.
kill_restart() {
        local i
        C="$BATS_TEST_TMPDIR/cursor"
        emu_init "$2"
        "$KMSG_EMU" write "$RING" "$3" "$4" 3>&- &
        WPID=$!
        for i in $(seq -w 1 "$1"); do
                LD_PRELOAD="$KMSG_EMU_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                        "$KDMESG" -w --cursor-file "$C" >"$BATS_TEST_TMPDIR/out.$i" 2>/dev/null 3>&- &
                PID=$!
                sleep "0.$((RANDOM % 2))$((RANDOM % 10))"
                kill -KILL "$PID"
                wait "$PID" || true
        done
        kill -TERM "$WPID" 2>/dev/null || true # it may have written all
        wait "$WPID"
        kdmesg_emu --cursor-file "$C" >"$BATS_TEST_TMPDIR/out.last" 2>/dev/null
        LAST=$(($(emu get next_seq) - 1))
        run "$CHECK" 0 "$LAST" "$BATS_TEST_TMPDIR"/out.*
        echo "$output"
        [ "$status" -eq 0 ]
}

@test "kill -9 and restart, 30 times: 0 duplicates, 0 missing (or reported lost)" {
        # 1000 records/s: between two runs the ring does not wrap, so every
        # restart resumes right after the cursor.  At most 8000 records, fewer
        # than the ring holds, however slowly a loaded machine runs the loop.
        kill_restart 30 8192 8000 1000
        [ "$LAST" -gt 1000 ]
        # Nothing rotated out between runs: what is not printed was in flight at a kill.
        [[ "$output" == *" lost=0 "* ]]
        [ ! -e "$C.tmp" ] || grep -q boot_id "$C"
}

@test "kill -9 and restart under 20,000 records/s: the pending ranges ahead of each write keep it exact" {
        # Busy spells of many records: the cursor names records ahead of each
        # write, and a killed run's range is cut at the newest record.  At
        # most 120,000 records: the ring never wraps, however long the loop
        # takes on a loaded machine.
        kill_restart 20 131072 120000 20000
        [ "$LAST" -gt 20000 ]
        [[ "$output" == *" lost=0 "* ]]
}

@test "no cursor, a writer flooding a 64-slot ring: each start prints or reports lost every seq from the oldest it saw" {
        # Records that rotate out between the probe of the oldest record and
        # the open are lost, not skipped.  bench/start-race does 100 starts;
        # here as many as run in 4 seconds.
        run "$TESTS/../bench/start-race" 100 4
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" =~ starts=([0-9]+)\ failed=0 ]]
        [ "${BASH_REMATCH[1]}" -ge 2 ]
}
