#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What kdmesg says about its input is what really happened (issue 12):
# "syslog-form input has no sequence numbers" only for the syslog form, the
# record without a number named for JSON and export input; a kmsg dump read
# as the export form is called no export form, not a record over the limit.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        J="$BATS_TEST_TMPDIR/noseq.json"
        X="$BATS_TEST_TMPDIR/noseq.export"
        printf '{"seq":0,"time":1.0,"msg":"numbered"}\n{"time":2.0,"msg":"no number"}\n' > "$J"
        printf 'MESSAGE=no number\nPRIORITY=6\n\n' > "$X"
}

@test "wording: JSON and export records without a sequence number are named as such, with their line" {
        run --separate-stderr "$KDMESG" -K "$J" --lost
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: $J:2: a record without a sequence number: --lost cannot find lost messages next to such records" ]
        run --separate-stderr "$KDMESG" -K "$X" --fail-on-loss
        [ "$status" -eq 0 ]
        [ "$output" = "no number" ]
        [ "$stderr" = "kdmesg: $X:1: a record without a sequence number: --fail-on-loss cannot find lost messages next to such records" ]
        run --separate-stderr "$KDMESG" -K "$J" --seq 0
        [ "$status" -eq 0 ]
        [ "$output" = "[    1.000000] numbered" ]
        [ "$stderr" = "kdmesg: $J:2: a record without a sequence number: --seq matches no such record" ]
        run --separate-stderr "$KDMESG" -K "$X" --format=kmsg
        [ "$status" -eq 0 ]
        [ "$output" = "6,0,0,-;no number" ]
        [ "$stderr" = "kdmesg: $X:1: a record without a sequence number: --format=kmsg writes 0 for such records" ]
        # The syslog form has none at all, and says so as before.
        run --separate-stderr "$KDMESG" -F "$DATA/classic.syslog" --seq 1
        [ "$stderr" = "kdmesg: $DATA/classic.syslog: syslog-form input has no sequence numbers: --seq matches none of its records" ]
        # Records that all have their numbers: nothing said.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --lost --seq 1-3
        [ -z "$stderr" ]
}

@test "wording: a kmsg dump read with --input-format export is said to be no export form" {
        local big="$BATS_TEST_TMPDIR/big.kmsg"
        # Larger than the record limit, with no blank line: once one "record larger than 1048576 bytes".
        awk 'BEGIN { for (i = 0; i < 40000; i++) printf "6,%d,%d,-;message number %d of a dump\n", i, i * 1000, i }' > "$big"
        [ "$(wc -c < "$big")" -gt 1048576 ]
        run --separate-stderr "$KDMESG" --input-format export -K "$big"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: $big:1: line 1 is neither a KEY=VALUE field nor the name of a binary one: not the export form; $(wc -c < "$big") bytes skipped to the end of the input" ]
        # The test dump: each part between blank lines is named, with its first line.
        run --separate-stderr "$KDMESG" --input-format export -K "$DATA/basic.kmsg"
        [ "$status" -eq 1 ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [[ "${stderr_lines[0]}" == "kdmesg: $DATA/basic.kmsg:1: line 1 is neither a KEY=VALUE field nor the name of a binary one: not the export form; "*" bytes skipped to the next blank line" ]]
        [[ "${stderr_lines[1]}" == "kdmesg: $DATA/basic.kmsg:29: line 29 is neither a KEY=VALUE field nor the name of a binary one: not the export form; "*" bytes skipped to the end of the input" ]]
        # Detected, the same file reads as what it is.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg"
        [ "$status" -eq 0 ]
}
