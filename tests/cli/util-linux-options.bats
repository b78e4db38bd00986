#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Options util-linux dmesg 2.43 accepts: -s/--buffer-size, -L=WHEN, its
# time grammar for --since/--until, and -x -r refused as it refuses them.
# Where the 2.43 peer is there (../shared/peers), kdmesg is checked against it.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        export KDMESG_SHIM_LOG="$BATS_TEST_TMPDIR/calls"
        export KDMESG_SHIM_BUFFER="$BATS_TEST_TMPDIR/ring"
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
}

# The NUL-separated copy of a dump that util-linux's -K reads.
nul_copy() {
        python3 -c 'import sys; d=open(sys.argv[1],"rb").read().decode("latin-1").split("\n"); r=[]
for l in d:
    if not l: continue
    if l.startswith(" ") and r: r[-1]+="\n"+l
    else: r.append(l)
open(sys.argv[2],"wb").write("".join(x+"\n\0" for x in r).encode("latin-1"))' "$1" "$2"
}

@test "-s, --buffer-size: the size -S reads, without asking the kernel" {
        : "${KLOGCTL_SHIM:?KLOGCTL_SHIM must point at the klogctl test double}"
        printf '<6>[    0.500000] shim ring marker\n' > "$KDMESG_SHIM_BUFFER"
        : > "$KDMESG_SHIM_LOG"
        LD_PRELOAD="$KLOGCTL_SHIM" run --separate-stderr "$KDMESG" -S -s 100
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.500000] shim ring marker" ]
        [ "$(grep -v '^loaded$' "$KDMESG_SHIM_LOG")" = "3 100" ]
        : > "$KDMESG_SHIM_LOG"
        LD_PRELOAD="$KLOGCTL_SHIM" run --separate-stderr "$KDMESG" --syslog --buffer-size=65536
        [ "$(grep -v '^loaded$' "$KDMESG_SHIM_LOG")" = "3 65536" ]
        # 0: the kernel's size, as without the option.
        : > "$KDMESG_SHIM_LOG"
        LD_PRELOAD="$KLOGCTL_SHIM" run --separate-stderr "$KDMESG" -S -s 0
        [ "$(grep -v '^loaded$' "$KDMESG_SHIM_LOG")" = "$(printf '10 0\n3 4096')" ]
}

@test "-s: no effect on /dev/kmsg or dumps; a bad size is one line, exit 1" {
        run --separate-stderr "$KDMESG" -s 16 -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        diff <(printf '%s\n' "$output") <("$KDMESG" -K "$DATA/classic.kmsg" 2>/dev/null)
        for bad in abc 1M -5 4294967296; do
                run --separate-stderr "$KDMESG" -s "$bad" -K "$DATA/classic.kmsg"
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "$stderr" = "kdmesg: invalid buffer size '$bad' (expected a number of bytes)" ]
        done
}

@test "-L=always and -L=never, as util-linux strips the '='" {
        run bash -c '"$KDMESG" -L=always -t -K "$DATA/classic.kmsg" --seq 2 | cat -v'
        [ "$output" = '^[[33mrandom: ^[[0mcrng init done' ]
        run bash -c '"$KDMESG" -L=never -t -K "$DATA/classic.kmsg" --seq 2 | cat -v'
        [ "$output" = 'random: crng init done' ]
        run --separate-stderr "$KDMESG" -L=sometimes -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: unknown color mode 'sometimes' (expected auto, always or never)" ]
}

@test "-x -r is refused, as util-linux refuses it" {
        local a
        for a in "-x -r" "-r -x" "--decode --raw" "-x --format=syslog"; do
                # shellcheck disable=SC2086
                run --separate-stderr "$KDMESG" $a -K "$DATA/classic.kmsg"
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "${stderr_lines[0]}" = "kdmesg: --raw and --decode cannot be combined" ]
        done
        if [ -x "$PEER/test_dmesg" ]; then
                nul_copy "$DATA/classic.kmsg" "$BATS_TEST_TMPDIR/classic.nul"
                run "$PEER/test_dmesg" -x -r -K "$BATS_TEST_TMPDIR/classic.nul"
                [ "$status" -eq 1 ]
        fi
}

# classic.kmsg's records are 0 to 61 s after a boot pinned at 2023-11-14
# 22:13:20 UTC; none of these times is a record's own (util-linux leaves out
# a record stamped exactly at --since or --until, kdmesg keeps it).
SINCE_FORMS=("2023-11-14 22:13:22.05" "2023-11-14 22:13:21.6" "2023-11-14 22:13:22,05"
        "2023-11-14T22:13:24.2" "23-11-14 22:14" "Tue 2023-11-14 22:13:23.5" "tuesday 2023-11-14 22:13:21.000001"
        "2023-11-14" "2023-11-14 22:13" "@1700000002.5" " 2023-11-14 22:13:25.3" "2023-11-14 22:13:60")

# The time stamps of the -r lines on standard input.
stamps() {
        sed -n 's/^<[-0-9]*>\[ *\([0-9.]*\)\].*/\1/p'
}

@test "--since/--until: util-linux's date forms select what 2.43 selects" {
        local s want
        # Fixed expectations, the peer's answers recorded.
        TZ=GMT run "$KDMESG" --boot-time 1700000000 --since "2023-11-14 22:13:22.5" -K "$DATA/classic.kmsg" -q -t
        [ "${lines[0]}" = "Memory: 16384K available (2048K kernel code)" ]
        TZ=GMT run "$KDMESG" --boot-time 1700000000 --until "Tue 2023-11-14 22:13:21,6" -K "$DATA/classic.kmsg" -q -t
        [ "${lines[-1]}" = "usb 1-1: new high-speed USB device number 2 using xhci_hcd" ]
        need_peer
        nul_copy "$DATA/classic.kmsg" "$BATS_TEST_TMPDIR/classic.nul"
        for s in "${SINCE_FORMS[@]}"; do
                for opt in --since --until; do
                        echo "$opt '$s'"
                        # The stamps of the records selected: -r keeps fragment records apart, as util-linux.
                        want=$(TZ=GMT DMESG_TEST_BOOTIME=1700000000.0 "$PEER/test_dmesg" -r "$opt" "$s" -K "$BATS_TEST_TMPDIR/classic.nul" | stamps)
                        [ "$(TZ=GMT "$KDMESG" --boot-time 1700000000 -q -r "$opt" "$s" -K "$DATA/classic.kmsg" 2>/dev/null | stamps)" = "$want" ]
                done
        done
}

@test "--since and --until keep a record stamped exactly at their time (util-linux leaves it out)" {
        run "$KDMESG" --boot-time 1700000000 --since "2023-11-14 22:13:21.5" --until "@1700000001.5" -K "$DATA/classic.kmsg" -q -t
        [ "$output" = "usb 1-1: device descriptor read/64, error -71" ]
}

@test "--since: relative forms ('1 hour ago', '5 min ago', '+5min', 'yesterday') against a boot 2 hours ago" {
        local boot=$(( $(date +%s) - 7200 )) s
        # Every record is within 62 s of the boot: an hour ago is after them all.
        for s in "1 hour ago" "5 min ago" "-1h" "+5min" "now" "1h 30min ago" "1.5h ago" "10s ago"; do
                run --separate-stderr "$KDMESG" --boot-time "$boot" --since "$s" -K "$DATA/classic.kmsg" -q
                [ "$status" -eq 0 ]
                [ -z "$output" ]
        done
        for s in "3 hours ago" "3 hour ago" "2 weeks ago" "1 month ago" "1y ago" "-3h" "yesterday"; do
                run --separate-stderr "$KDMESG" --boot-time "$boot" --since "$s" -K "$DATA/classic.kmsg" -q -t
                [ "$status" -eq 0 ]
                [ "${lines[0]}" = "Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        done
        run --separate-stderr "$KDMESG" --boot-time "$boot" --until "1 hour ago" -K "$DATA/classic.kmsg" -q -t
        [ "${#lines[@]}" -gt 10 ]
}

@test "--since: forms util-linux refuses are refused, one line, exit 1" {
        local s
        for s in "5min ago " "-5min ago" "ago" "2023-11-14 22:13:22.1234567" "2023-11-14 24:00" \
                "Wed 2023-11-14" "yesterday 03:00" "2023-11-14T22:13:20Z" "last monday" "12/04/2026"; do
                run --separate-stderr "$KDMESG" --boot-time 1700000000 --since "$s" -K "$DATA/classic.kmsg"
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [[ "$stderr" == "kdmesg: bad time '$s' for --since (expected "*")" ]]
                if [ -x "$PEER/test_dmesg" ]; then
                        run "$PEER/test_dmesg" --since "$s" -K /dev/null
                        [ "$status" -eq 1 ]
                fi
        done
}

@test "-J, --json: JSON Lines as kdmesg, util-linux's {\"dmesg\":[...]} document as dmesg" {
        mkdir -p "$BATS_TEST_TMPDIR/bin"
        ln -s "$KDMESG" "$BATS_TEST_TMPDIR/bin/dmesg"
        ln -s "$KDMESG" "$BATS_TEST_TMPDIR/bin/kdmesg"
        run --separate-stderr "$BATS_TEST_TMPDIR/bin/kdmesg" -J -K "$DATA/classic.kmsg"
        [[ "${lines[0]}" == '{"seq":0,'* ]]
        local doc
        doc=$("$KDMESG" --json=dmesg -K "$DATA/classic.kmsg" 2>/dev/null)
        [[ "$doc" == '{'*'"dmesg": ['* ]]
        for a in -J --json; do
                run --separate-stderr "$BATS_TEST_TMPDIR/bin/dmesg" "$a" -K "$DATA/classic.kmsg"
                [ "$status" -eq 0 ]
                [ "$output" = "$doc" ]
                # Through $PATH as a script would call it.
                run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$PATH" dmesg "$a" -K "$DATA/classic.kmsg"
                [ "$output" = "$doc" ]
        done
        # Named formats stay what they name; util-linux has no --lost or --devices, whose --json stays JSON Lines.
        run --separate-stderr "$BATS_TEST_TMPDIR/bin/dmesg" -J --format=json -K "$DATA/classic.kmsg"
        [[ "${lines[0]}" == '{"seq":0,'* ]]
        run --separate-stderr "$BATS_TEST_TMPDIR/bin/dmesg" --lost -J -K "$DATA/classic.kmsg"
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == '{"first_seq":14,'* ]]
        if [ -x "$PEER/test_dmesg" ]; then
                nul_copy "$DATA/colors.kmsg" "$BATS_TEST_TMPDIR/colors.nul"
                # The document's structure as 2.43 writes it, first key to last (parity checks the rest).
                [ "$("$PEER/test_dmesg" -J -K "$BATS_TEST_TMPDIR/colors.nul" | head -2)" = "$("$BATS_TEST_TMPDIR/bin/dmesg" -J -K "$DATA/colors.kmsg" | head -2)" ]
        fi
}

@test "-Ddmesg_symlink: off by default; on, meson installs bin/dmesg pointing at kdmesg" {
        command -v meson > /dev/null || skip "meson is not on PATH"
        local py v
        # The Python that runs meson can read its install plan.
        py=$(sed -n '1s/^#! *//p' "$(command -v meson)")
        for v in false true; do
                meson setup "$BATS_TEST_TMPDIR/b-$v" "$TESTS/.." -Ddmesg_symlink=$v -Dtests=false -Dman=false \
                        -Dnls=false > /dev/null
                run $py -c 'import pickle, sys
d = pickle.load(open(sys.argv[1] + "/meson-private/install.dat", "rb"))
for s in d.symlinks:
    if s.target == "kdmesg": print(s.name, s.target)' "$BATS_TEST_TMPDIR/b-$v"
                [ "$status" -eq 0 ]
                if [ $v = true ]; then [ "$output" = "bin/dmesg kdmesg" ]; else [ -z "$output" ]; fi
        done
}

@test "under the name dmesg, messages say dmesg: and Try 'dmesg --help'; the man page is still kdmesg(1)" {
        mkdir -p "$BATS_TEST_TMPDIR/bin"
        ln -s "$KDMESG" "$BATS_TEST_TMPDIR/bin/dmesg"
        run --separate-stderr "$BATS_TEST_TMPDIR/bin/dmesg" --bogus
        [ "$status" -eq 1 ]
        [ "$stderr" = "dmesg: unrecognized option '--bogus'
Try 'dmesg --help' for more information." ]
        run --separate-stderr "$BATS_TEST_TMPDIR/bin/dmesg" -K "$BATS_TEST_TMPDIR/nosuch"
        [ "$stderr" = "dmesg: cannot open $BATS_TEST_TMPDIR/nosuch: No such file or directory" ]
        # The loss summary too (classic.kmsg starts after seq 0).
        run --separate-stderr "$BATS_TEST_TMPDIR/bin/dmesg" -K "$DATA/classic.kmsg"
        [[ "$stderr" == "dmesg: "* ]]
        [[ "$stderr" != *kdmesg:* ]]
        run "$BATS_TEST_TMPDIR/bin/dmesg" --help
        [[ "$output" == *$'Usage:\n dmesg [options]\n'* ]]
        [[ "$output" == *"For more details see kdmesg(1), kdmesg-formats(5),"* ]]
        # Under its own name, kdmesg.
        run --separate-stderr "$KDMESG" --bogus
        [ "$stderr" = "kdmesg: unrecognized option '--bogus'
Try 'kdmesg --help' for more information." ]
}
