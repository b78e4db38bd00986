#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --timeline: the picture at fixed widths in block characters and ASCII,
# per level group and per problem kind, losses on their own row, the axis
# in the time formats, the JSON columns, and the constant-memory buckets
# (every record is counted once, whatever order its time stamps come in).

bats_require_minimum_version 1.5.0
load helpers

setup() {
        export KDMESG_PROBLEMS_RULES="$TESTS/../data/problems.rules"
        export KDMESG_PROBLEMS_DIR=""
        DUMP="$DATA/problems.kmsg"
}

@test "level groups at 60 columns in block characters, at 100 in ASCII" {
        COLUMNS=60 run --separate-stderr "$KDMESG" -K "$DUMP" --timeline=utf8
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden timeline/levels-60-utf8.txt
        COLUMNS=100 run "$KDMESG" -K "$DUMP" --timeline=ascii
        [ "$status" -eq 0 ]
        golden timeline/levels-100-ascii.txt
        # Every line fits the width.
        COLUMNS=60 run long_lines 60 < <(COLUMNS=60 "$KDMESG" -K "$DUMP" --timeline=utf8)
        [ -z "$output" ]
}

@test "one scale for every row, and a legend line that says what a full block is" {
        # 10 errors in one column, 1 notice in another: the notice is a low block, not a full one.
        local f="$BATS_TEST_TMPDIR/scale.kmsg" i
        for i in $(seq 0 9); do printf '3,%d,1000000,-;error %d\n' "$i" "$i"; done > "$f"
        printf '5,10,100000000,-;a notice\n' >> "$f"
        COLUMNS=40 run "$KDMESG" -K "$f" --timeline=ascii
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "err+    @"* ]]
        [[ "${lines[2]}" =~ ^\+notice\ +\.\ +1$ ]]
        [ "${lines[-1]}" = "        @ = 10 messages in a column, every row on this scale" ]
        COLUMNS=40 run "$KDMESG" -K "$f" --timeline=utf8
        [ "${lines[-1]}" = "        █ = 10 messages in a column, every row on this scale" ]
        # One message: the singular.
        head -1 "$f" > "$BATS_TEST_TMPDIR/one.kmsg"
        COLUMNS=40 run "$KDMESG" -K "$BATS_TEST_TMPDIR/one.kmsg" --timeline=ascii
        [ "${lines[-1]}" = "        @ = 1 message in a column, every row on this scale" ]
}

@test "with --problems: one row per kind found, worst first" {
        COLUMNS=80 run "$KDMESG" -K "$DUMP" --timeline=utf8 --problems
        [ "$status" -eq 0 ]
        golden timeline/problems-80-utf8.txt
        # --problem keeps its kinds only.
        COLUMNS=80 run "$KDMESG" -K "$DUMP" --timeline=ascii --problems --problem oops --problem panic
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 5 ]
        [[ "${lines[0]}" == "panic "* ]]
        [[ "${lines[1]}" == "oops  "* ]]
}

@test "a loss is marked on its own row, where it happened; the axis in -T" {
        COLUMNS=60 run "$KDMESG" -K "$DATA/classic.kmsg" --timeline=ascii -q
        [ "$status" -eq 0 ]
        golden timeline/loss-60-ascii.txt
        KDMESG_BOOT_TIME=@1700000000 COLUMNS=72 run "$KDMESG" -K "$DATA/classic.kmsg" --timeline=ascii -q -T
        [ "$status" -eq 0 ]
        golden timeline/loss-72-ctime.txt
}

@test "boots are marked on their own row; a later boot is drawn after the earlier" {
        COLUMNS=60 run "$KDMESG" -K "$DATA/two-boots-same-kernel.kmsg" --timeline=utf8 -q
        [ "$status" -eq 0 ]
        golden timeline/boots-60-utf8.txt
        [[ "${lines[3]}" == "boot "* ]]
        COLUMNS=30 run "$KDMESG" -K "$DATA/two-boots-same-kernel.kmsg" --timeline --json -q
        [ "$(grep -c '"boot":1' <<<"$output")" -eq 1 ]
}

@test "ASCII without a terminal and in the C locale, blocks on a UTF-8 terminal" {
        command -v script >/dev/null || skip "script(1) is not installed"
        local ascii utf8
        ascii=$(COLUMNS=60 "$KDMESG" -K "$DUMP" --timeline=ascii)
        utf8=$(COLUMNS=60 "$KDMESG" -K "$DUMP" --timeline=utf8)
        [ "$(COLUMNS=60 "$KDMESG" -K "$DUMP" --timeline)" = "$ascii" ]
        # On a terminal (script's pty, 60 columns wide), no pager.
        run script -qec "stty cols 60; LC_ALL=C.UTF-8 '$KDMESG' -P -K '$DUMP' --timeline" /dev/null
        [ "$status" -eq 0 ]
        [ "$(tr -d '\r' <<<"$output")" = "$utf8" ]
        run script -qec "stty cols 60; LC_ALL=C '$KDMESG' -P -K '$DUMP' --timeline" /dev/null
        [ "$status" -eq 0 ]
        [ "$(tr -d '\r' <<<"$output")" = "$ascii" ]
}

@test "--lost on a terminal ends with the strip of the losses, and not elsewhere" {
        command -v script >/dev/null || skip "script(1) is not installed"
        run script -qec "stty cols 70; LC_ALL=C.UTF-8 '$KDMESG' -P -K '$DATA/classic.kmsg' --lost" /dev/null
        [ "$status" -eq 0 ]
        output=$(tr -d '\r' <<<"$output")
        golden timeline/lost-strip-70.txt
        run "$KDMESG" -K "$DATA/classic.kmsg" --lost
        [[ "$output" != *"one column"* ]]
        [[ "${lines[-1]}" == "Read: "* ]]
}

@test "--timeline --json: one object per column; every record counted once" {
        COLUMNS=20 run --separate-stderr "$KDMESG" -K "$DUMP" --timeline --json
        [ "$status" -eq 0 ]
        golden timeline/levels.json
        local n sum
        n=$(grep -c '^[0-9]' "$DUMP")
        sum=$(sed -E 's/.*"err\+":([0-9]+),"warn":([0-9]+),"\+notice":([0-9]+).*/\1+\2+\3/' <<<"$output" | paste -sd+ | bc)
        [ "$sum" -eq "$n" ]
}

@test "time stamps before the first and far after it: the buckets widen, nothing is lost" {
        # The syslog form (no sequence numbers): a time that goes back is no loss there.
        local f="$BATS_TEST_TMPDIR/odd.syslog" i sum
        {
                printf '<3>[   50.000000] first, at 50 s\n'
                printf '<4>[    0.001000] earlier, at 1 ms\n'
                for ((i = 2; i < 200; i++)); do printf '<6>[   50.%06d] r%d\n' $((i * 1000)) "$i"; done
                printf '<6>[900000.000000] at 900000 s\n'
                printf '<3>[    0.000000] at 0\n'
        } >"$f"
        COLUMNS=30 run "$KDMESG" -K "$f" --timeline --json
        [ "$status" -eq 0 ]
        sum=$(sed -E 's/.*"err\+":([0-9]+),"warn":([0-9]+),"\+notice":([0-9]+).*/\1+\2+\3/' <<<"$output" | paste -sd+ | bc)
        [ "$sum" -eq 202 ]
        [[ "${lines[0]}" == '{"time_start":0.000000,'* ]]
        [[ "${lines[0]}" == *'"err+":2,"warn":1,"+notice":198}}' ]]
        [[ "${lines[-1]}" == *'"err+":0,"warn":0,"+notice":1}}' ]]
        # At most as many columns as the width.
        [ "${#lines[@]}" -le 30 ]
        COLUMNS=30 run "$KDMESG" -K "$f" --timeline=ascii
        [ "$status" -eq 0 ]
        golden timeline/odd-30-ascii.txt
}

@test "time stamps at and above 2^63 us: no hang, every record counted, the axis to 2^64 - 1" {
        # Signed arithmetic on these looped for ever (issue 32).
        local f="$BATS_TEST_TMPDIR/big.kmsg" sum
        printf '6,0,0,-;at 0\n3,1,9223372036854775808,-;at 2^63\n6,2,18446744073709551615,-;at 2^64-1\n' >"$f"
        printf '6,4,18446744073709551615,-;after a gap\n' >>"$f"
        COLUMNS=30 run timeout -s KILL 600 "$KDMESG" -K "$f" --timeline --json -q
        [ "$status" -eq 0 ]
        sum=$(sed -E 's/.*"err\+":([0-9]+),"warn":([0-9]+),"\+notice":([0-9]+),"lost":([0-9]+).*/\1+\2+\3+\4/' \
                <<<"$output" | paste -sd+ | bc)
        [ "$sum" -eq 5 ]
        [[ "${lines[0]}" == '{"time_start":0.000000,'*'"+notice":1,"lost":0}}' ]]
        [[ "${lines[-1]}" == *'"time_end":18446744073709.551615,"counts":{"err+":0,"warn":0,"+notice":2,"lost":1}}' ]]
        [ "$(grep -c '"err+":1' <<<"$output")" -eq 1 ]
        # Going back from 2^64 - 1 to 0 (JSON without sequence numbers: no boot, no loss), in every time format.
        f="$BATS_TEST_TMPDIR/big.json"
        printf '{"time":18446744073709.551615,"pri":6,"msg":"a"}\n{"time":9223372036854.775809,"pri":6,"msg":"b"}\n' >"$f"
        printf '{"time":9223372036854.775808,"pri":6,"msg":"c"}\n{"time":0.000001,"pri":3,"msg":"d"}\n' >>"$f"
        for args in "--timeline=ascii" "--timeline=utf8 -T" "--timeline --time-format=iso" "--timeline --json"; do
                # shellcheck disable=SC2086
                KDMESG_BOOT_TIME=@1700000000 COLUMNS=40 run --separate-stderr timeout -s KILL 600 "$KDMESG" -K "$f" $args
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
        done
        COLUMNS=40 run timeout -s KILL 600 "$KDMESG" -K "$f" --timeline=ascii
        # One scale: err+'s 1 is half of +notice's 2.
        [ "${lines[0]}" = "err+    =                              1" ]
        [ "${lines[2]}" = "+notice              @            =    3" ]
        # The axis starts at the first record drawn, not at its column's start.
        [ "${lines[3]}" = "        0.000001" ]
        [ "${lines[4]}" = "        one column: 700000000000 s" ]
}

@test "--lost on a terminal: the strip of losses at time stamps up to 2^64 - 1 ends" {
        command -v script >/dev/null || skip "script(1) is not installed"
        local f="$BATS_TEST_TMPDIR/big.kmsg"
        printf '6,0,9223372036854775808,-;a\n6,5,18446744073709551614,-;b\n6,9,18446744073709551615,-;c\n' >"$f"
        run timeout -s KILL 600 script -qec "stty cols 60; LC_ALL=C.UTF-8 '$KDMESG' -P -K '$f' --lost" /dev/null
        [ "$status" -eq 0 ]
        output=$(tr -d '\r' <<<"$output")
        [[ "$output" == *"Total: 7 messages lost in 2 gaps (7 gap)"* ]]
        # Messages lost, not loss events (issue 43): 7 in 2 gaps.
        [[ "$output" == *$'\nlost '*'!'*$' 7\n'* ]]
        [[ "$output" == *"one column: "* ]]
}

@test "no records: one line" {
        run "$KDMESG" -K "$DATA/empty.kmsg" --timeline
        [ "$status" -eq 0 ]
        [ "$output" = "-- No messages --" ]
        run "$KDMESG" -K "$DATA/empty.kmsg" --timeline --json
        [ -z "$output" ]
        run "$KDMESG" -K "$DATA/basic.kmsg" --timeline --problems -q
        [ "$output" = "-- No known problems found --" ]
}

@test "bad --timeline arguments and combinations are refused" {
        run --separate-stderr "$KDMESG" -K "$DUMP" --timeline=braille
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: unknown --timeline characters 'braille' (expected auto, utf8 or ascii)" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --timeline --follow
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --timeline and --follow cannot be used together" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --timeline --lost
        [ "${stderr_lines[0]}" = "kdmesg: --timeline and --lost cannot be used together" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --timeline -r
        [ "${stderr_lines[0]}" = "kdmesg: --timeline draws a picture, or JSON with --json; not --format=syslog" ]
}

@test "--timeline: records without a level are a row of their own, never counted as err+ 0" {
        printf '[    1.000000] one\n[    2.000000] two\n' > "$BATS_TEST_TMPDIR/plain.txt"
        COLUMNS=40 run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/plain.txt" --timeline=ascii
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "no-level @"*"@ "*" 2" ]]
        [[ "$output" != *"err+"* ]]
        [[ "$output" != *"warn"* ]]
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/plain.txt" --timeline --json
        [[ "${lines[0]}" == *'"counts":{"no-level":'* ]]
        [[ "$output" != *'"err+"'* ]]
        # Beside records with a level: all the rows, and the unknown counted apart.
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" --timeline=ascii
        [[ "$output" == *"err+ "*"0"* ]]
        [[ "$(grep '^no-level' <<< "$output")" == *" 1" ]]
}

@test "--timeline: records without a time stamp are counted, not denied" {
        printf 'one\ntwo\n' > "$BATS_TEST_TMPDIR/notime.txt"
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/notime.txt" --timeline
        [ "$status" -eq 0 ]
        [ "$output" = "Not drawn: 2 records without a time stamp." ]
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/notime.txt" --timeline --json
        [ "$output" = '{"untimed":2}' ]
        run --separate-stderr "$KDMESG" -F "$DATA/basic.syslog" --timeline
        [ "${lines[-1]}" = "Not drawn: 1 record without a time stamp." ]
}

@test "--timeline: the lost row counts messages, the axis ends at the last record, round widths have no zeros, the wall clock where it is known" {
        # 845 messages lost in one gap, between 1.5 s and 9.5 s.
        printf '6,0,1000000,-;a\n6,1,1500000,-;b\n6,847,9500000,-;c\n6,848,10000000,-;d\n' > "$BATS_TEST_TMPDIR/gap.kmsg"
        COLUMNS=60 run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" --timeline=ascii -q
        [ "$status" -eq 0 ]
        [[ "$(grep '^lost' <<<"$output")" == "lost "*"!"*" 845" ]]
        # The axis: the first record and the last, not the bounds of their columns.
        [[ "$(grep -E '^ +1\.000000 ' <<<"$output")" == *" 10.000000" ]]
        [[ "$output" == *"one column: 0.19 s"* ]]
        # With the boot time known, the wall clock.
        COLUMNS=80 run --separate-stderr env TZ=UTC "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg" --timeline=ascii -q --boot-time 1700000000
        [[ "$output" == *"Tue Nov 14 22:13:21 2023"*"Tue Nov 14 22:13:30 2023"* ]]
}
