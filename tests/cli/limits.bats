#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The record size limit (1 MiB) counts a record's decoded bytes: kdmesg's
# own JSON and export of any record it read, however much their escaping
# adds, read back (issue 13, item 12).

bats_require_minimum_version 1.5.0
load helpers

export KDMESG_BOOT_TIME=1700000000

# roundtrip FILE: FILE through --json and through --format=export, each read
# back, gives the same kmsg output as FILE itself.
roundtrip() {
        local f=$1 j="$BATS_TEST_TMPDIR/rt.json" x="$BATS_TEST_TMPDIR/rt.export"
        "$KDMESG" -K "$f" --format=kmsg > "$BATS_TEST_TMPDIR/want"
        [ -s "$BATS_TEST_TMPDIR/want" ]
        "$KDMESG" -K "$f" --json > "$j"
        "$KDMESG" -K "$f" --format=export > "$x"
        # Over the limit as written: that is the point.
        echo "kmsg $(wc -c < "$f") bytes, JSON $(wc -c < "$j"), export $(wc -c < "$x")"
        run --separate-stderr "$KDMESG" -K "$j" --format=kmsg
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        cmp "$BATS_TEST_TMPDIR/want" <(printf '%s\n' "$output")
        run --separate-stderr "$KDMESG" -K "$x" --format=kmsg
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        cmp "$BATS_TEST_TMPDIR/want" <(printf '%s\n' "$output")
}

@test "limits: a record of 900 KB of quotes: its JSON (1.8 MB) reads back" {
        local f="$BATS_TEST_TMPDIR/quotes.kmsg"
        awk 'BEGIN { printf "6,0,1000,-;"; for (i = 0; i < 900000; i++) printf "\""; printf "\n6,1,2000,-;after\n" }' > "$f"
        roundtrip "$f"
        [ "$(wc -c < "$BATS_TEST_TMPDIR/rt.json")" -gt 1048576 ]
}

@test "limits: a record of 250,000 escaped control bytes (1 MB as kmsg): its JSON (1.5 MB) reads back" {
        local f="$BATS_TEST_TMPDIR/ctl.kmsg"
        awk 'BEGIN { printf "6,0,1000,-;"; for (i = 0; i < 250000; i++) printf "\\x01"; printf "\n6,1,2000,-;after\n" }' > "$f"
        [ "$(head -n 1 "$f" | wc -c)" -le 1048576 ]
        roundtrip "$f"
        [ "$(wc -c < "$BATS_TEST_TMPDIR/rt.json")" -gt 1048576 ]
}

@test "limits: a record with 90,000 dictionary lines (900 KB as kmsg): its export (1.6 MB) reads back" {
        local f="$BATS_TEST_TMPDIR/dict.kmsg"
        awk 'BEGIN { printf "6,0,1000,-;many keys\n"; for (i = 0; i < 90000; i++) printf " k%x=\n", i + 65536; printf "6,1,2000,-;after\n" }' > "$f"
        [ "$(wc -c < "$f")" -le 1048576 ]
        roundtrip "$f"
        [ "$(wc -c < "$BATS_TEST_TMPDIR/rt.export")" -gt 1048576 ]
}

@test "limits: JSON and export input still refuse a record that decodes to more than 1 MiB, as a loss of cause toobig" {
        local j="$BATS_TEST_TMPDIR/big.json" x="$BATS_TEST_TMPDIR/big.export"
        awk 'BEGIN { printf "{\"seq\":0,\"msg\":\"before\"}\n{\"seq\":1,\"msg\":\""; for (i = 0; i < 1100000; i++) printf "m";
                     printf "\"}\n{\"seq\":2,\"msg\":\"after\"}\n" }' > "$j"
        run --separate-stderr "$KDMESG" -K "$j" -q
        [ "$status" -eq 1 ]
        [ "$output" = "before
-- 1 message lost (seq 1, between 0.000000 and 0.000000, toobig) --
after" ]
        [ "$stderr" = "kdmesg: $j:2: record larger than 1048576 bytes skipped" ]
        awk 'BEGIN { printf "MESSAGE=before\nSEQNUM=0\n\nMESSAGE="; for (i = 0; i < 1100000; i++) printf "m";
                     printf "\nSEQNUM=1\n\nMESSAGE=after\nSEQNUM=2\n\n" }' > "$x"
        run --separate-stderr "$KDMESG" -K "$x" -q
        [ "$status" -eq 1 ]
        [ "${lines[2]}" = "after" ]
        [[ "${lines[1]}" = "-- 1 message lost (seq 1, "*"toobig) --" ]]
        [ "$stderr" = "kdmesg: $x:4: record larger than 1048576 bytes skipped" ]
        # A JSON line beyond what any record can take is passed over without being kept.
        awk 'BEGIN { printf "{\"seq\":0,\"msg\":\"before\"}\n{\"seq\":1,\"msg\":\""; for (i = 0; i < 8500000; i++) printf "m";
                     printf "\"}\n{\"seq\":2,\"msg\":\"after\"}\n" }' > "$j"
        run --separate-stderr "$KDMESG" -K "$j" -q
        [ "$status" -eq 1 ]
        [ "${lines[2]}" = "after" ]
        [ "$stderr" = "kdmesg: $j:2: line longer than 8388608 bytes skipped" ]
}

@test "limits: a record whose kmsg or syslog form is over what those forms read back is said so when written" {
        local j="$BATS_TEST_TMPDIR/ctl.json"
        # 400,000 control bytes: 2.4 MB of JSON, read; 1.6 MB as kmsg or -r, which read back 1 MiB.
        python3 -c '
import sys
sys.stdout.write("{\"seq\":0,\"msg\":\"" + "\\u0001" * 400000 + "\"}\n{\"seq\":1,\"msg\":\"small\"}\n")' > "$j"
        run --separate-stderr "$KDMESG" -K "$j" --format=kmsg
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        [ "${lines[1]}" = "6,1,0;small" ]
        [ "$stderr" = "kdmesg: seq 0: written in 1600007 bytes, more than the 1048576 bytes of a record that kdmesg reads back in this form; --json and --format=export keep it" ]
        run --separate-stderr "$KDMESG" -K "$j" -r
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: seq 0: written in 1600001 bytes, more than the 1048576 bytes of a record that kdmesg reads back in this form; --json and --format=export keep it" ]
        # The JSON and export forms of it read back.
        "$KDMESG" -K "$j" --format=export > "$BATS_TEST_TMPDIR/ctl.export"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/ctl.export" --json
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 2 ]
        # A record within the limit in every form: nothing said.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --format=kmsg
        [ -z "$stderr" ]
}
