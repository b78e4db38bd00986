#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Output byte for byte with util-linux 2.43 dmesg (the peer in
# shared/peers/).  The golden files in tests/expected/parity/ were recorded
# from the peer's test_dmesg on tests/data/parity.kmsg (caller ids,
# dictionaries, multi-line messages, every facility) with
# DMESG_TEST_BOOTIME=1700000000.000000 and TZ=GMT; they are checked always.
# When the peer is present, kdmesg is also diffed against it live over a
# matrix of options.

bats_require_minimum_version 1.5.0
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

# --- caller ids ----------------------------------------------------------------

@test "caller ids: the peer's classic view, -x, -T, -e, -t, iso and --force-prefix, continuation lines past them" {
        local v
        for v in short: decode:-x ctime:-T reltime:-e notime:-t "iso:--time-format iso" \
                force-prefix:--force-prefix "decode-ctime:-x -T"; do
                # shellcheck disable=SC2086
                run --separate-stderr ours ${v#*:}
                [ "$status" -eq 0 ]
                golden "parity/${v%%:*}.out"
        done
        run ours
        [[ "$output" == *$'\n[    0.003500] [    T7] two lines\n                        second line\n'* ]]
        [[ "$output" == *$'\n[    0.005500] [T4194304] wide pid\n'* ]]
}

@test "caller ids: the same as the peer over the views" {
        need_peer
        local o
        for o in "" -x -T -e -t -d "--time-format iso" --force-prefix "-x -T" "-x -t" "-x -e" --noescape; do
                # shellcheck disable=SC2086
                same_as_peer $o
        done
}

@test "caller ids: -r writes them after the time stamp, and -F reads them back into the caller field" {
        run --separate-stderr ours -r
        [ "$status" -eq 0 ]
        [[ "$output" == *$'\n<6>[    0.003500] [    T7] two lines\\x0asecond line\n'* ]]
        [[ "$output" == *$'\n<6>[    0.004500] multi-line without a caller\\x0acontinued\n'* ]]
        printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/r.syslog"
        # The classic view of the read-back records is the dump's.
        diff <(ours) <(TZ=GMT "$KDMESG" -F "$BATS_TEST_TMPDIR/r.syslog" --boot-time "@$BOOT")
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/r.syslog" -J
        [ "$(jq -r 'select(.msg == "wide pid") | .caller' <<<"$output")" = T4194304 ]
        [ "$(jq -r 'select(.msg == "last") | .caller' <<<"$output")" = C0 ]
        [ "$(jq -r 'select(.msg == "multi-line without a caller\ncontinued") | .caller' <<<"$output")" = null ]
        # The kmsg form gets the header field back.
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/r.syslog" --format=kmsg
        [[ "$output" == *$'\n6,0,3500,-,caller=T7;two lines\\x0asecond line\n'* ]]
}

@test "caller ids: -F reads the peer's -r and classic view, continuation lines indented past the id" {
        need_peer
        local o
        for o in -r "" -x; do
                # shellcheck disable=SC2086
                theirs $o > "$BATS_TEST_TMPDIR/theirs.txt"
                # The peer writes "\x5cx2d" as "\x2d", which reads back as "-": leave that record out.
                diff <(ours | grep -v ACPI) \
                        <(TZ=GMT "$KDMESG" -F "$BATS_TEST_TMPDIR/theirs.txt" --boot-time "@$BOOT" | grep -v ACPI)
        done
}

@test "caller ids: made safe for the terminal; an odd one kept as text, an empty one not shown" {
        printf '%s\n' '{"seq":0,"time":0.000001,"pri":6,"caller":"T\u001b1","msg":"esc"}' \
                '{"seq":1,"time":0.000002,"pri":6,"caller":"","msg":"empty"}' \
                '{"seq":2,"time":0.000003,"pri":6,"caller":"abc","msg":"vendor"}' > "$BATS_TEST_TMPDIR/c.json"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/c.json" -t
        [ "$status" -eq 0 ]
        [ "$output" = $'[T\\x1b1] esc\nempty\n[   abc] vendor' ]
}

@test "caller ids: padded to the width of pid_max for the live log, the default for dumps" {
        load emu
        emu_init 16
        emu write 2
        local w
        w=$(( $(tr -dc 0-9 < /proc/sys/kernel/pid_max | wc -c) + 1 ))
        KMSG_EMU_CALLER=1 run --separate-stderr kdmesg_emu -t
        [ "$status" -eq 0 ]
        [ "$output" = "$(printf '[%*s] record 0\n[%*s] record 1' "$w" T0 "$w" T1)" ]
        # Another pid_max, in a mount namespace of our own (the sysctl is not changed).
        command -v unshare >/dev/null || skip "no unshare"
        echo 4194304 > "$BATS_TEST_TMPDIR/pid_max"
        unshare -m true 2>/dev/null || skip "no mount namespaces here"
        run --separate-stderr unshare -m sh -c 'mount --bind "$1" /proc/sys/kernel/pid_max && shift && "$@"' _ \
                "$BATS_TEST_TMPDIR/pid_max" env KMSG_EMU_CALLER=1 LD_PRELOAD="$KMSG_EMU_SHIM" \
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$KDMESG" -t
        [ "$status" -eq 0 ]
        [ "$output" = $'[      T0] record 0\n[      T1] record 1' ]
        # A dump is padded to the default whatever pid_max says.
        printf '6,0,0,-,caller=T0;dump\n' > "$BATS_TEST_TMPDIR/d.kmsg"
        run --separate-stderr unshare -m sh -c 'mount --bind "$1" /proc/sys/kernel/pid_max && "$2" -t -K "$3"' _ \
                "$BATS_TEST_TMPDIR/pid_max" "$KDMESG" "$BATS_TEST_TMPDIR/d.kmsg"
        [ "$output" = '[    T0] dump' ]
}

# --- combined time formats -----------------------------------------------------

# The parity dump without its multi-line records (numbered again): with
# several time formats util-linux indents continuation lines by its last
# stamp only, kdmesg under the message (see DIFFERENCES FROM UTIL-LINUX).
one_line_dump() {
        grep -v 'x0a' "$DATA/parity.kmsg" | awk -F, 'BEGIN { OFS = "," } /^ / { print; next } { $2 = n++; print }' \
                > "$BATS_TEST_TMPDIR/one.kmsg"
        D="$BATS_TEST_TMPDIR/one.kmsg"
        rm -f "$BATS_TEST_TMPDIR/parity.nul"
}

@test "time formats combine as in util-linux 2.43: ctime + raw, -e -d, -T -e, iso + delta, -d -t, delta alone" {
        one_line_dump
        local v
        for v in "time-ctime-raw:--time-format ctime --time-format raw" "time-reltime-delta:-e -d" \
                "time-ctime-reltime:-T -e" "time-iso-delta:--time-format iso --time-format delta" \
                "time-delta-notime:-d -t" "time-delta-word:--time-format delta" "time-decode-ctime-delta:-x -T -d"; do
                # shellcheck disable=SC2086
                run --separate-stderr ours ${v#*:}
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
                golden "parity/${v%%:*}.out"
        done
}

@test "time formats: every pair of -T, -e, -t, -d and the --time-format words, and the triples, the same as the peer" {
        need_peer
        one_line_dump
        local words=(-T -e -t -d --time-format=raw --time-format=ctime --time-format=iso --time-format=delta
                --time-format=notime --time-format=reltime) a b c n=0
        for a in "${words[@]}"; do
                for b in "${words[@]}"; do
                        same_as_peer "$a" "$b"
                        n=$((n + 1))
                done
        done
        # Triples: each of the words between two others (all 1000 take minutes under ASan).
        for a in -T -d --time-format=delta; do
                for b in "${words[@]}"; do
                        for c in -e -d --time-format=raw --time-format=ctime --time-format=iso; do
                                same_as_peer "$a" "$b" "$c"
                                same_as_peer "$c" "$b" "$a"
                                n=$((n + 2))
                        done
                done
        done
        [ "$n" -eq 400 ]
        # And with -x, the decode names first.
        same_as_peer -x -e -d
        same_as_peer -x --time-format iso -T
}

# --- text outside UTF-8 locales --------------------------------------------------

@test "the C locale: bytes from 0x80 escaped as util-linux does; UTF-8 kept in a UTF-8 locale; JSON always UTF-8" {
        LC_ALL=C run --separate-stderr ours -x
        [ "$status" -eq 0 ]
        golden parity/c-locale-decode.out
        [[ "$output" == *'UTF-8: \xc2\xb0C \xe2\x82\xac'* ]]
        LC_ALL=POSIX run --separate-stderr ours -r
        [[ "$output" == *'<6>[    0.005000] [T99999] UTF-8: \xc2\xb0C \xe2\x82\xac'* ]]
        # The table's cells too, and -F reads the escapes back into the same bytes.
        LC_ALL=C run --separate-stderr ours -o MESSAGE
        [[ "$output" == *'UTF-8: \xc2\xb0C \xe2\x82\xac'* ]]
        [ "$(LC_ALL=C ours -r | LC_ALL=C.UTF-8 "$KDMESG" -F - -t | grep 'UTF-8:')" = '[T99999] UTF-8: °C €' ]
        run --separate-stderr ours
        [[ "$output" == *'UTF-8: °C €'* ]]
        LC_ALL=C run --separate-stderr ours --json=dmesg
        [[ "$output" == *'"msg": "UTF-8: °C €"'* ]]
        LC_ALL=C run --separate-stderr ours -J
        [[ "$output" == *'"msg":"UTF-8: °C €"'* ]]
}

@test "the C locale: the same as the peer" {
        need_peer
        local o
        for o in "" -x -t -T "-x -d"; do
                # shellcheck disable=SC2086
                LC_ALL=C same_as_peer $o
        done
}

# --- times in loss lines and reports ---------------------------------------------

@test "loss lines, --lost and --devices give their times as -T, --time-format and --boot-time say" {
        printf '%s\n' '6,0,1000000,-;a' '6,5,2000000,-;b' ' SUBSYSTEM=block' ' DEVICE=b8:0' \
                '3,6,62000000,-;c' ' SUBSYSTEM=block' ' DEVICE=b8:0' > "$BATS_TEST_TMPDIR/gap.kmsg"
        local v out=""
        for v in "" -T "--time-format iso" -e "-T --time-format raw"; do
                # shellcheck disable=SC2086
                out+="== $v"$'\n'"$(TZ=GMT "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" --boot-time @1700000000 $v 2>&1)"$'\n'
                # shellcheck disable=SC2086
                out+="$(TZ=GMT "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" --boot-time @1700000000 $v --lost 2>&1)"$'\n'
                # shellcheck disable=SC2086
                out+="$(TZ=GMT "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" --boot-time @1700000000 $v --devices 2>&1)"$'\n'
        done
        output=${out%$'\n'}
        golden parity/loss-times.out
        [[ "$output" == *"-- 4 messages lost (seq 1-4, between Tue Nov 14 22:13:21 2023 and Tue Nov 14 22:13:22 2023, gap) --"* ]]
        # A dump's wall clock needs its boot time, here as for the records.
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" -T --lost
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"--boot-time"* ]]
        # The machine formats keep numbers.
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" --boot-time @1700000000 -T --lost --json
        [[ "$output" == *'"time_before":1.000000'* ]]
}

@test "the filters and the decode view with caller ids: the same as the peer" {
        need_peer
        local o
        for o in "-l err+" "-l +warn" "-l warn,err" "-f kern" "-f user,daemon,local7" -k -u "-x -k -l info" \
                "-x -u -T" "-t -f auth,authpriv" "-T -l debug" "--force-prefix -x" "-x --time-format iso"; do
                # shellcheck disable=SC2086
                same_as_peer $o
        done
}

@test "-r with -T, -e, -t, -d or -H is refused as util-linux refuses it, the options named in the order given" {
        local a
        for a in "-r -T:--raw and --ctime" "-T -r:--ctime and --raw" "-r -d:--raw and --show-delta" \
                "-t --raw:--notime and --raw" "-r -e -T:--raw and --reltime" "-H -r:--human and --raw"; do
                # shellcheck disable=SC2086
                run --separate-stderr "$KDMESG" ${a%%:*} -K "$D"
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "${stderr_lines[0]}" = "kdmesg: ${a#*:} cannot be combined" ]
        done
        # --time-format is ignored by -r, as util-linux ignores it; --format=syslog takes the time options.
        run --separate-stderr ours -r --time-format iso
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "<5>[    0.000000] [    T0] Linux version 6.12.0 (parity dump for the kdmesg tests)" ]
        run --separate-stderr ours --format=syslog -T
        [ "$status" -eq 0 ]
}

@test "-r with a time option: the peer refuses the same" {
        need_peer
        local a
        for a in "-r -T" "-T -r" "-r -d" "-t -r" "-r -e" "-H -r"; do
                # shellcheck disable=SC2086
                run theirs $a
                [ "$status" -ne 0 ]
                [[ "$output" == *"cannot be combined"* ]]
        done
}

@test "caller ids: -S reads the kernel's syslog(2) form, \"[    0.000000][    T1] \", into the caller field" {
        printf '%s\n' '<6>[    0.000000][    T1] Linux version' '<4>[    1.500000][    C3] two' \
                '                          lines' > "$BATS_TEST_TMPDIR/buf"
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
        KDMESG_SHIM_BUFFER="$BATS_TEST_TMPDIR/buf" LD_PRELOAD="$KLOGCTL_SHIM" run --separate-stderr "$KDMESG" -S -P
        [ "$status" -eq 0 ]
        [ "$output" = $'[    0.000000] [    T1] Linux version\n[    1.500000] [    C3] two\n                        lines' ]
        KDMESG_SHIM_BUFFER="$BATS_TEST_TMPDIR/buf" LD_PRELOAD="$KLOGCTL_SHIM" run --separate-stderr "$KDMESG" -S -J
        [ "$(jq -r .caller <<<"${lines[1]}")" = C3 ]
}
