# SPDX-License-Identifier: GPL-2.0-or-later
# Shared set-up for the CLI tests: a pinned environment and golden files.
export TZ=UTC
export LC_ALL=C.UTF-8
unset NO_COLOR PAGER LANGUAGE KDMESG_LOCALEDIR KDMESG_COLORS KDMESG_BOOT_TIME DMESG_TEST_BOOTIME
# No terminal-colors.d of the machine or of the user running the tests.
export KDMESG_SYSTEM_COLORS_DIR=/nonexistent/terminal-colors.d XDG_CONFIG_HOME=/nonexistent/xdg
: "${KDMESG:?KDMESG must point at the kdmesg binary}"
: "${TESTS:?TESTS must point at the tests directory}"
export DATA="$TESTS/data"
export EXPECTED="$TESTS/expected"

# Compare stdout of the last `run` with the golden file $1 (AREA/NAME under
# tests/expected/); KDMESG_UPDATE_GOLDEN=1 rewrites it.
golden() {
        local f="$EXPECTED/$1"
        if [ -n "${KDMESG_UPDATE_GOLDEN:-}" ]; then
                printf '%s\n' "$output" > "$f"
        fi
        diff -u "$f" <(printf '%s\n' "$output")
}

# Lines of standard input longer than $1 characters (default 80).
long_lines() {
        local l
        while IFS= read -r l; do
                (( ${#l} > ${1:-80} )) && printf '%s\n' "$l"
        done
        return 0
}

# util-linux dmesg 2.43, the reference peer: shared/peers/ beside the
# repository (KDMESG_PEER overrides).  Tests that run it skip without it;
# the golden files recorded from it are checked either way.
PEER="${KDMESG_PEER:-$TESTS/../../shared/peers/util-linux-dmesg}"
need_peer() {
        [ -x "$PEER/dmesg" ] && [ -x "$PEER/test_dmesg" ] || skip "no util-linux 2.43 peer in $PEER"
}
# peer_dump IN OUT: the kmsg dump IN with its records separated by NUL
# bytes, the form the peer's -K reads (a record's dictionary lines stay with it).
peer_dump() {
        python3 -c '
import sys
recs = []
for line in open(sys.argv[1], "rb").read().split(b"\n"):
    if line.startswith(b" ") and recs:
        recs[-1] += b"\n" + line
    elif line:
        recs.append(line)
open(sys.argv[2], "wb").write(b"".join(r + b"\n\0" for r in recs))' "$1" "$2"
}

# on_term WIDTH ARG...: kdmesg ARG... with its standard output on a
# terminal (a pseudo-terminal of script(1), which has no size of its own)
# and COLUMNS=WIDTH, as a report or table on a WIDTH-column terminal; its
# stderr goes to $BATS_TEST_TMPDIR/stderr.  TERM_COLS=N gives the terminal
# N columns (then COLUMNS only falls back).
on_term() {
        command -v script > /dev/null || skip "script(1) is not installed"
        local w=$1 q stty=
        shift
        printf -v q '%q ' "$KDMESG" "$@"
        [ -n "${TERM_COLS:-}" ] && stty="stty cols $TERM_COLS rows 50; "
        COLUMNS=$w SHELL=/bin/bash script -qec "$stty$q 2>'$BATS_TEST_TMPDIR/stderr'" /dev/null < /dev/null |
                tr -d '\r'
}
