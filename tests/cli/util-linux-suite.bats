#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kdmesg in dmesg's place on inputs of the kinds util-linux 2.43's own dmesg
# tests use (tests/data/uls/): the syslog form "<prio>[  time] msg" for -F
# (one record per priority and facility; multi-line messages whose further
# lines carry no indent, blank lines inside a record, a caller id), and
# records separated by NUL bytes for -K (sequence numbers that repeat while
# the time rises, dictionaries, caller ids, an empty line before a NUL),
# run under the name dmesg with the options those tests use.
# tests/expected/uls/INPUT.out holds the peer's output over every view
# (test_dmesg, DMESG_TEST_BOOTIME=1700000000.000000, TZ=GMT), checked
# always; with the peer present the same is made live and compared too.
# Then the read-back: every view kdmesg prints and each of the peer's,
# read back with -F, gives the same messages and caller ids.

bats_require_minimum_version 1.5.0
load helpers

U="$DATA/uls"
BOOT=1700000000

# The views compared, one a line.  -r is only for input without multi-line
# messages: kdmesg writes a newline inside a message as \x0a there (one line
# a record, see kdmesg(1)), util-linux as it is.
VIEWS_COMMON=(
        "" -x -d -e -T -t -J "--time-format=iso" "--time-format=ctime" "--time-format=reltime"
        "--time-format=delta" "--time-format=notime" "-x -d" "-x -T" "-J -x" "-l err" "-l warn+"
        "-f kern" "-f daemon,user" "-L=always" "-k" "-u" "--noescape" "-d -t"
)

setup() {
        ln -s "$KDMESG" "$BATS_TEST_TMPDIR/dmesg"
}

# every_view PROGRAM INPUT-OPTION FILE EXTRA-VIEW...: the program's stdout
# for each view, each after a line "== VIEW"; stderr must stay empty.
every_view() {
        local prog=$1 opt=$2 file=$3 v err="$BATS_TEST_TMPDIR/err"
        shift 3
        for v in "${VIEWS_COMMON[@]}" "$@"; do
                echo "== $v"
                # shellcheck disable=SC2086
                TZ=GMT DMESG_TEST_BOOTIME="$BOOT.000000" "$prog" "$opt" "$file" $v 2>"$err"
                if [ -s "$err" ]; then
                        echo "stderr of $prog $opt $file $v:" >&2
                        cat "$err" >&2
                        return 1
                fi
        done
}

# same_as_util_linux INPUT-OPTION NAME EXTRA-VIEW...
same_as_util_linux() {
        local opt=$1 name=$2
        shift 2
        run every_view "$BATS_TEST_TMPDIR/dmesg" "$opt" "$U/$name" "$@"
        [ "$status" -eq 0 ]
        golden "uls/$name.out"
        if [ -x "$PEER/test_dmesg" ]; then
                every_view "$PEER/test_dmesg" "$opt" "$U/$name" "$@" >"$BATS_TEST_TMPDIR/theirs"
                diff -u --label "test_dmesg $opt $name" --label "kdmesg as dmesg" \
                        "$BATS_TEST_TMPDIR/theirs" <(printf '%s\n' "$output")
        fi
}

@test "util-linux's -F input: one record per priority and facility, every view as the peer's" {
        same_as_util_linux -F input.syslog -r
}

@test "util-linux's -F input: lines that start no record continue the one before, blank lines too, as the peer reads them" {
        same_as_util_linux -F newlines.syslog
        # What the views stand for.
        run --separate-stderr "$BATS_TEST_TMPDIR/dmesg" -F "$U/newlines.syslog" --json=dmesg
        [ "$(jq -c '[.dmesg[0].msg, .dmesg[1].msg, .dmesg[2].caller, .dmesg[3].msg]' <<<"$output")" = \
          '["line one\nline two\nline three","message that ends in a newline\n","T42","blank line inside\n\nafter the blank line"]' ]
        [ "$(jq -r '.dmesg[5].msg' <<<"$output")" = 'path C:\temp\x41 stays as typed' ]
}

@test "util-linux's -K input: sequence numbers that repeat while the time rises are no boot, an empty line before a NUL is a newline" {
        same_as_util_linux -K kmsg.nul -p
        run --separate-stderr "$BATS_TEST_TMPDIR/dmesg" -K "$U/kmsg.nul"
        [[ "$output" != *"boot"* ]]
        [[ "$output" != *"lost"* ]]
        [ -z "$stderr" ]
        # Under its own name kdmesg says where the numbers clash, and keeps both records.
        run --separate-stderr "$KDMESG" -K "$U/kmsg.nul" --fail-on-loss
        [ "$status" -eq 0 ]
        [ "$(grep -c 'again, with another message than before: both are kept' <<<"$stderr")" -eq 3 ]
        [ "${#lines[@]}" -eq 15 ]
        run --separate-stderr "$KDMESG" -K "$U/kmsg.nul" --json
        [ "$(jq -c 'select(.seq == 3) | .msg' <<<"$output" | head -n 1)" = '"the text, then an empty line\n"' ]
}

@test "util-linux's -K input whose last record ends in an empty line and no NUL: the newline is the message's" {
        # A last view that does not end in the empty line: bats' $output drops the newlines it ends with.
        same_as_util_linux -K kmsg-end.nul "-l warn"
        run --separate-stderr "$BATS_TEST_TMPDIR/dmesg" -K "$U/kmsg-end.nul" --json=dmesg
        [ "$(jq -r '.dmesg[2].msg' <<<"$output" | od -c | grep -c '\\n')" -ge 1 ]
        [ "$(jq -c '.dmesg[2].msg | endswith("priority\n")' <<<"$output")" = true ]
        [ -z "$stderr" ]
        # Without a NUL anywhere, an empty line at the end separates nothing: no newline is added.
        printf '6,0,1000,-;one\n6,1,2000,-;two\n\n' > "$BATS_TEST_TMPDIR/plain.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/plain.kmsg" --json
        [ "$(jq -c '.msg' <<<"$output" | tail -n 1)" = '"two"' ]
}

@test "DMESG_TEST_BOOTIME gives the boot time, as util-linux's test_dmesg takes it; KDMESG_BOOT_TIME wins" {
        run --separate-stderr env DMESG_TEST_BOOTIME=1700000000.500000 TZ=GMT "$KDMESG" -F "$U/input.syslog" -T
        [ "$status" -eq 0 ]
        [ "${lines[1]}" = "[Tue Nov 14 22:13:21 2023] example[1]" ]
        run --separate-stderr env DMESG_TEST_BOOTIME=1700000000.5 KDMESG_BOOT_TIME=@1600000000 TZ=GMT \
                "$KDMESG" -F "$U/input.syslog" -T
        [ "${lines[1]}" = "[Sun Sep 13 12:26:41 2020] example[1]" ]
        run --separate-stderr env DMESG_TEST_BOOTIME=yesterday-ish "$KDMESG" -F "$U/input.syslog" -T
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: bad time '@yesterday-ish' in DMESG_TEST_BOOTIME" ]
}

# --- read-back ---------------------------------------------------------------

# The messages and caller ids of kdmesg's JSON, one [msg, caller] a line.
msgs() {
        jq -c 'select(has("msg")) | [.msg, .caller]'
}

@test "read-back: every view kdmesg prints, read back with -F, gives the same messages and caller ids" {
        local v
        "$KDMESG" -K "$U/readback.kmsg" --json | msgs >"$BATS_TEST_TMPDIR/want"
        for v in "" -x -T -r --noescape "-x -T" "-T --noescape" "-x --noescape"; do
                # shellcheck disable=SC2086
                TZ=GMT "$KDMESG" -K "$U/readback.kmsg" --boot-time "@$BOOT" $v >"$BATS_TEST_TMPDIR/view"
                run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/view" --json
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
                diff -u --label "the dump" --label "kdmesg $v, read back" "$BATS_TEST_TMPDIR/want" <(msgs <<<"$output")
        done
        # -K detects the form of each view but --noescape's (raw bytes) and reads it the same.
        for v in "" -x -T -r; do
                # shellcheck disable=SC2086
                TZ=GMT "$KDMESG" -K "$U/readback.kmsg" --boot-time "@$BOOT" $v >"$BATS_TEST_TMPDIR/view"
                diff "$BATS_TEST_TMPDIR/want" <("$KDMESG" -K "$BATS_TEST_TMPDIR/view" --json | msgs)
        done
}

@test "read-back: each view of util-linux 2.43, read back with -F, gives the same messages and caller ids" {
        need_peer
        local v
        # util-linux prints an empty message as a bare empty line (no time, no caller): that record is left out.
        grep -v ';$' "$U/readback.kmsg" >"$BATS_TEST_TMPDIR/src.kmsg"
        [ "$(wc -l <"$BATS_TEST_TMPDIR/src.kmsg")" -eq 13 ]
        peer_dump "$BATS_TEST_TMPDIR/src.kmsg" "$BATS_TEST_TMPDIR/src.nul"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/src.kmsg" --json | msgs >"$BATS_TEST_TMPDIR/want"
        for v in "" -x -T -r "-x -T"; do
                # shellcheck disable=SC2086
                TZ=GMT DMESG_TEST_BOOTIME="$BOOT.000000" "$PEER/test_dmesg" -K "$BATS_TEST_TMPDIR/src.nul" $v \
                        >"$BATS_TEST_TMPDIR/view"
                run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/view" --json
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
                diff -u --label "the dump" --label "util-linux $v, read back" "$BATS_TEST_TMPDIR/want" \
                        <(msgs <<<"$output")
        done
}

@test "captures people paste: no time stamps, dmesg -T, a caller id alone, a head whose space was cut" {
        printf '%s\n' 'Linux version 2.6.32-754.el6.x86_64 (mockbuild@x86-01)' \
                'Command line: ro root=/dev/sda1' '' 'ACPI: RSDP 00000000000f6a10 00024 (v02 BOCHS )' \
                >"$BATS_TEST_TMPDIR/rhel6.txt"
        # A dmesg of a kernel without time stamps: a record a line, every byte kept, no time made up.
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/rhel6.txt" --json
        [ "$status" -eq 0 ]
        [ "$(jq -c '[.msg, has("time"), has("pri")]' <<<"$output" | tr '\n' ' ')" = \
          '["Linux version 2.6.32-754.el6.x86_64 (mockbuild@x86-01)",false,false] ["Command line: ro root=/dev/sda1\n",false,false] ["ACPI: RSDP 00000000000f6a10 00024 (v02 BOCHS )",false,false] ' ]
        # Export says so too: no time stamp fields rather than 0.
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/rhel6.txt" --format=export --boot-time "@$BOOT"
        [ "$status" -eq 0 ]
        [[ "$output" != *TIMESTAMP* ]]
        [[ "$output" == *"MESSAGE=Linux version 2.6.32-754.el6.x86_64 (mockbuild@x86-01)"* ]]
        # dmesg -T lines: records with their text; the wall-clock stamp gives no monotonic time.
        printf '%s\n' '[Sat Dec  5 23:19:32 2026] usb 1-1: new high-speed USB device' \
                '[Sat Dec  5 23:19:33 2026] [  T512] with a caller' '                                    second line' \
                >"$BATS_TEST_TMPDIR/t.txt"
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/t.txt" --json
        [ "$status" -eq 0 ]
        [ "$(jq -c '[.msg, .caller, has("time")]' <<<"$output" | tr '\n' ' ')" = \
          '["usb 1-1: new high-speed USB device",null,false] ["with a caller\nsecond line","T512",false] ' ]
        # KASAN prints caller ids with no text; a paste cut the space after a head.
        printf '%s\n' '[  744.596650][ T3173]' '<4>[    1.253015]' '                  on the next line' \
                >"$BATS_TEST_TMPDIR/p.txt"
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/p.txt" --json
        [ "$(jq -c '[.msg, .caller, .time]' <<<"$output" | tr '\n' ' ')" = \
          '["","T3173",744.59665] ["\non the next line",null,1.253015] ' ]
}

@test "--lost on input without sequence numbers: the total is unknown, never 'no messages lost'" {
        run --separate-stderr "$KDMESG" --lost -F "$U/newlines.syslog"
        [ "$status" -eq 0 ]
        [ "$output" = "Total: unknown, the input has no sequence numbers" ]
        run --separate-stderr "$KDMESG" --lost --json -F "$U/newlines.syslog"
        [ "$(jq -c '[.lost_unknown, .lost_total]' <<<"$output")" = '[true,0]' ]
        # Export input without SEQNUM: the same.
        printf 'MESSAGE=no seqnum\nPRIORITY=6\n\n' >"$BATS_TEST_TMPDIR/x.export"
        run --separate-stderr "$KDMESG" --lost --json -K "$BATS_TEST_TMPDIR/x.export"
        [ "$(jq -c '.lost_unknown' <<<"$output")" = true ]
}
