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

@test "limits: the fields past KDMESG_JOURNAL_FIELDS_MAX go into KMSG_MERGED and read back as they were, in order" {
        local d="$BATS_TEST_TMPDIR"
        # 42 dictionary lines: _KERNEL_ keys, keys for KMSG_DICT (one with '='), values with a tab, a
        # control byte, a NUL, a CR, a byte that is no UTF-8 and one that is, newlines before text
        # that reads as a field, backslashes before text that reads as an escape.
        python3 - "$d/dict.kmsg" <<'PY'
import sys
out = ["6,0,1000,-;many keys\n"]
for i in range(40):
    if i % 3 == 0:
        out.append(" K%d=v%d\n" % (i, i))
    elif i % 3 == 1:
        out.append(" low.key-%d=tab\\x09ctl\\x01nul\\x00cr\\x0d hi\\xff \\xc2\\xb0\n" % i)
    else:
        out.append(" k\\x3d%d=a=b\n" % i)
# Values with newlines that look like fields, and backslashes (a field each, never more).
out.append(" nl=a\\x0aSEQNUM=99\\x0a_KERNEL_X=y\\x0a\n")
out.append(" bs=C:\\x5cx41 \\x5c\\x5c\\x0a\n")
out.append("6,1,2000,-;after\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:02.0\n")
open(sys.argv[1], "w").write("".join(out))
PY
        "$KDMESG" -K "$d/dict.kmsg" --format=kmsg > "$d/want"
        run --separate-stderr env KDMESG_JOURNAL_FIELDS_MAX=16 "$KDMESG" -K "$d/dict.kmsg" --format=export
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: seq 0: 38 fields past the collector's limit of fields per entry go into KMSG_MERGED" ]
        env KDMESG_JOURNAL_FIELDS_MAX=16 "$KDMESG" -K "$d/dict.kmsg" --format=export > "$d/x" 2>/dev/null
        [ "$(grep -ac '^KMSG_MERGED$' "$d/x")" -eq 1 ]
        run --separate-stderr "$KDMESG" -K "$d/x" --format=kmsg
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        cmp "$d/want" <(printf '%s\n' "$output")

        # Export input: device links and carried fields merged too; read back, the export without a
        # limit is the one of the input, field for field.
        python3 - "$d/in.export" <<'PY'
import sys
f = [("SEQNUM", "3"), ("_SOURCE_MONOTONIC_TIMESTAMP", "5000"), ("PRIORITY", "4"), ("MESSAGE", "carried")]
f += [("_KERNEL_K%d" % i, "v%d" % i) for i in range(8)] + [("KMSG_DICT", "low.%d=x" % i) for i in range(4)]
f += [("_UDEV_SYSNAME", "sda"), ("_UDEV_DEVNODE", "/dev/sda")]
f += [("_UDEV_DEVLINK", "/dev/disk/by-id/%d" % i) for i in range(5)] + [("X_%d" % i, "c%d" % i) for i in range(12)]
open(sys.argv[1], "w").write("".join("%s=%s\n" % kv for kv in f) + "\n")
PY
        "$KDMESG" -K "$d/in.export" --format=export > "$d/plain"
        env KDMESG_JOURNAL_FIELDS_MAX=16 "$KDMESG" -K "$d/in.export" --format=export > "$d/x1" 2>/dev/null
        [ "$(grep -ac '^KMSG_MERGED$' "$d/x1")" -eq 1 ]
        run --separate-stderr "$KDMESG" -K "$d/x1" --format=export
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        cmp "$d/plain" <(printf '%s\n\n' "$output")
}

@test "limits: KMSG_MERGED in the text form reads back; a line of it that is no field is an error naming it" {
        local f="$BATS_TEST_TMPDIR/t.export"
        printf 'SEQNUM=5\nMESSAGE=m\n_KERNEL_A=1\nKMSG_MERGED=_KERNEL_B=2\n_KERNEL_C=3\n\n%s\n\n%s\n\n' \
                'SEQNUM=6
MESSAGE=n
KMSG_MERGED=oops' 'SEQNUM=7
MESSAGE=o' > "$f"
        run --separate-stderr "$KDMESG" -K "$f" --format=kmsg
        [ "$status" -eq 1 ]
        [ "$output" = "6,5,0;m
 A=1
 B=2
 C=3
6,7,0;o" ]
        [ "${stderr%%$'\n'*}" = "kdmesg: $f:7: line 9 (line 1 of KMSG_MERGED): not NAME=VALUE" ]
}
