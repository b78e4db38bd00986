# SPDX-License-Identifier: GPL-2.0-or-later
# The emulated /dev/kmsg for bats tests: a ring driven by kmsg-emu, read by
# the real kdmesg through the preloaded shim (tests/kmsg-emu/).
: "${KMSG_EMU:?KMSG_EMU must point at kmsg-emu}"
: "${KMSG_EMU_SHIM:?KMSG_EMU_SHIM must point at kmsg-emu-shim.so}"

# emu_init CAPACITY: a new ring for this test.
emu_init() {
        RING="$BATS_TEST_TMPDIR/ring"
        export KMSG_EMU_RING="$RING"
        "$KMSG_EMU" init "$RING" "$1"
}

# emu COMMAND ARGS...: kmsg-emu on this test's ring.
emu() {
        "$KMSG_EMU" "$1" "$RING" "${@:2}"
}

# kdmesg reading the emulated device.
kdmesg_emu() {
        LD_PRELOAD="$KMSG_EMU_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                "$KDMESG" "$@"
}

# kdmesg_bg ARGS...: start kdmesg on the emulated device in the background;
# stdout in $OUT, stderr in $ERR, pid in $PID.
kdmesg_bg() {
        OUT="$BATS_TEST_TMPDIR/out"
        ERR="$BATS_TEST_TMPDIR/err"
        # Emptied here, not by the job's redirection: a wait for output must
        # not find the previous run's before the job got to open the file.
        : >"$OUT"
        : >"$ERR"
        LD_PRELOAD="$KMSG_EMU_SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
                "$KDMESG" "$@" >"$OUT" 2>"$ERR" 3>&- &
        PID=$!
}

# wait_lines N [SECONDS]: until $OUT has at least N lines.
wait_lines() {
        local i
        for ((i = 0; i < ${2:-10} * 100; i++)); do
                [ "$(cat "$OUT" 2>/dev/null | wc -l)" -ge "$1" ] && return 0
                sleep 0.01
        done
        echo "timed out waiting for $1 lines; got:" >&2
        cat "$OUT" >&2
        return 1
}

# stop_bg [SIGNAL]: end the background kdmesg; its exit status in $STATUS.
stop_bg() {
        kill -"${1:-TERM}" "$PID"
        STATUS=0
        wait "$PID" || STATUS=$?
}

# A test that failed while kdmesg ran in the background does not leave it running.
# Only this shell's own jobs that were not waited for yet.
teardown() {
        local j
        for j in $(jobs -p); do
                kill -KILL "$j" 2>/dev/null || true
        done
}

# after_kill_said SPOOL STDERR: what a run may say after kdmesg was killed with SIGKILL while it wrote
# to its spool SPOOL: nothing, or that the spool's last unit was cut short.  The kernel ends a write()
# to a file between two pages once SIGKILL is pending, so a frame can be left half written (seen here:
# a spool of 3,702,784 bytes, 904 pages, its last frame ending at 3,703,038); the next run leaves it
# out and says so.  Anything else fails.
after_kill_said() {
        [ -z "$2" ] ||
                [[ "$2" =~ ^"kdmesg: $1/units: a unit cut short or damaged at byte "[0-9]+" (a crash while it was written?): the "[0-9]+" bytes from there to the end are left out"$ ]]
}
