#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --follow-new and --cursor-file on the real /dev/kmsg (root in CI).  Writes
# one marker line through one open of /dev/kmsg for writing.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        [ -r /dev/kmsg ] || skip "/dev/kmsg is not readable here"
        [ -w /dev/kmsg ] || skip "/dev/kmsg is not writable here (needs root)"
        "$KDMESG" -q >/dev/null 2>&1 || skip "kdmesg cannot read /dev/kmsg here"
}

# wait_until SECONDS COMMAND...: poll every 10 ms.
wait_until() {
        local n=$(($1 * 100))
        shift
        while ! "$@"; do
                n=$((n - 1))
                [ "$n" -gt 0 ] || return 1
                sleep 0.01
        done
}

# Whether process $1 sleeps in poll(2)/ppoll(2) (syscalls 7 and 271 on
# x86_64); elsewhere, it is enough that it sleeps.
in_poll() {
        local nr
        nr=$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null) || return 1
        case $(uname -m) in
        x86_64) [ "$nr" = 7 ] || [ "$nr" = 271 ] ;;
        *) [ "$(cut -d' ' -f3 "/proc/$1/stat")" = S ] ;;
        esac
}

@test "live: --follow-new sees a marker (facility user); a cursor's second run prints exactly what came after" {
        local tag="kdmesg-test-$RANDOM$RANDOM" c="$BATS_TEST_TMPDIR/cursor" pid n
        "$KDMESG" -q --cursor-file "$c" >"$BATS_TEST_TMPDIR/run1"
        "$KDMESG" -W -x >"$BATS_TEST_TMPDIR/new" 2>"$BATS_TEST_TMPDIR/new.err" 3>&- &
        pid=$!
        wait_until 10 in_poll "$pid"
        # The only write: one open, one line.
        echo "<14>$tag" >/dev/kmsg
        wait_until 10 grep -q "$tag" "$BATS_TEST_TMPDIR/new"
        kill -TERM "$pid"
        wait "$pid"
        run grep "$tag" "$BATS_TEST_TMPDIR/new"
        # <14> is user.info: facility 1, level 6.
        [[ "$output" == "user  :info  : ["*"] $tag" ]]
        [ ! -s "$BATS_TEST_TMPDIR/new.err" ]

        # The second run with the cursor: exactly what came after the first.
        "$KDMESG" -q --cursor-file "$c" >"$BATS_TEST_TMPDIR/run2"
        grep -q "$tag" "$BATS_TEST_TMPDIR/run2"
        # Together the two runs are the log as it is now, each record once.
        "$KDMESG" -q >"$BATS_TEST_TMPDIR/all"
        n=$(cat "$BATS_TEST_TMPDIR/run1" "$BATS_TEST_TMPDIR/run2" | wc -l)
        [ "$n" -gt 1 ]
        cmp <(cat "$BATS_TEST_TMPDIR/run1" "$BATS_TEST_TMPDIR/run2") <(head -n "$n" "$BATS_TEST_TMPDIR/all")
}
