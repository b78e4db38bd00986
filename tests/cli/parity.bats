#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Output byte for byte with util-linux 2.43 dmesg (the peer in
# shared/peers/).  The golden files in tests/expected/parity/ were recorded
# from the peer's test_dmesg on tests/data/parity.kmsg (caller ids,
# dictionaries, multi-line messages, every facility) with
# DMESG_TEST_BOOTIME=1700000000.000000 and TZ=GMT; they are checked always.
# When the peer is present, kdmesg is also diffed against it live over a
# matrix of options.

load helpers

D="$DATA/parity.kmsg"
BOOT=1700000000

# kdmesg on the parity dump, the boot time pinned.
ours() {
        TZ=GMT "$KDMESG" -K "$D" --boot-time "@$BOOT" "$@"
}

# The peer on the same records, the boot time pinned the same way.
theirs() {
        [ -f "$BATS_TEST_TMPDIR/parity.nul" ] || peer_dump "$D" "$BATS_TEST_TMPDIR/parity.nul"
        TZ=GMT DMESG_TEST_BOOTIME="$BOOT.000000" "$PEER/test_dmesg" -K "$BATS_TEST_TMPDIR/parity.nul" "$@"
}

# same_as_peer ARGS...: kdmesg with ARGS prints what the peer prints with
# them; --json stands for the peer's document, kdmesg's --json=dmesg.
same_as_peer() {
        local a mine=()
        for a in "$@"; do
                [ "$a" = --json ] && a=--json=dmesg
                mine+=("$a")
        done
        theirs "$@" > "$BATS_TEST_TMPDIR/theirs"
        ours "${mine[@]}" > "$BATS_TEST_TMPDIR/ours"
        [ -s "$BATS_TEST_TMPDIR/theirs" ]
        diff -u --label "dmesg $*" --label "kdmesg $*" "$BATS_TEST_TMPDIR/theirs" "$BATS_TEST_TMPDIR/ours"
}

@test "json-dmesg: the peer's dmesg --json, \"pri\" facility * 8 + level, \"caller\", -x names" {
        run --separate-stderr ours --json=dmesg
        [ "$status" -eq 0 ]
        golden parity/json-dmesg.out
        [[ "$output" == *'"pri": 190,'* ]]
        run --separate-stderr ours --json=dmesg -x
        [ "$status" -eq 0 ]
        golden parity/json-dmesg-x.out
        [[ "$output" == *'"fac": "local7",'* ]]
}

@test "json-dmesg: the same as the peer's --json with every time and decode option" {
        need_peer
        local o
        for o in "" -x -T -t -d -e "-x -d" "--time-format iso" "--time-format ctime --time-format raw"; do
                # shellcheck disable=SC2086
                same_as_peer --json $o
        done
}
