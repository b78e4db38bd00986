#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Several boots in one input: where a new boot starts (numbers back to 0,
# numbers going on while the time drops by more than 30 s, another
# _BOOT_ID), how each output format marks it, and --lost per boot.

bats_require_minimum_version 1.5.0
load helpers

RESET="$DATA/two-boots-reset.kmsg"     # boot 2 starts at seq 0 again
FORWARD="$DATA/two-boots-forward.kmsg" # boot 2 starts at seq 300, 3601 s back in time
EXPORT="$DATA/two-boots.export"        # boot 2 is only told by its _BOOT_ID

FORMATS="short cat table json json-dmesg syslog kmsg export"

# Every format's stdout against boots/NAME.FORMAT, and what each wrote on
# stderr, in order, against boots/NAME.stderr.
every_format() {
        local name=$1 dump=$2 fmt err=""
        for fmt in $FORMATS; do
                run --separate-stderr env KDMESG_BOOT_TIME=1700000000 "$KDMESG" -K "$dump" --format="$fmt"
                echo "$fmt: $status"
                [ "$status" -eq 0 ]
                golden "boots/$name.$fmt"
                err+="== $fmt
$stderr
"
        done
        output=$err
        golden "boots/$name.stderr"
}

@test "two boots, the second from seq 0: every format marks the boot where it starts" {
        every_format reset "$RESET"
        run --separate-stderr "$KDMESG" -K "$RESET"
        [ "${lines[6]}" = "-- boot 2 --" ]
        [ "${lines[7]}" = "[    0.000000] Linux version 6.1.0-18-amd64 (second boot)" ]
        # Nothing lost before a boot that starts at 0.
        [ "$(grep -c -- ' lost ' <<<"$output")" -eq 1 ]
}

@test "two boots, the second from seq 300 with the time reset: what rotated before each is no loss of the read" {
        every_format forward "$FORWARD"
        run --separate-stderr "$KDMESG" -K "$FORWARD"
        [ "${lines[3]}" = "-- boot 2 --" ]
        [ "${lines[4]}" = "[    1.200000] ahci 0000:00:1f.2: AHCI 0001.0300 32 slots 6 ports 6 Gbps" ]
        # Never "47 messages lost (gap)" between the boots, with time going backwards.
        [[ "$output" != *"seq 253-299"* ]]
        [ "$stderr" = "kdmesg: 1 message lost (gap) in 2 boots" ]
        # --lost lists what each boot had rotated out before the dump began, apart from the loss.
        run --separate-stderr "$KDMESG" --lost --fail-on-loss -K "$FORWARD"
        [ "$status" -eq 3 ]
        [[ "$output" == *"Total: 1 message lost in 1 gap (1 gap)
Before the input: 550 older records rotated out (not lost by this read)"* ]]
}

@test "--lost per boot: a BOOT column, a line per boot, and JSON with boot and boots" {
        local d
        for d in reset forward; do
                local f=$RESET
                [ $d = forward ] && f=$FORWARD
                run --separate-stderr "$KDMESG" --lost -K "$f"
                [ "$status" -eq 0 ]
                [ -z "$stderr" ]
                golden "boots/$d.lost"
                run --separate-stderr "$KDMESG" --lost --json -K "$f"
                [ "$status" -eq 0 ]
                # (check-schemas validates it against kdmesg-lost.schema.json.)
                golden "boots/$d.lost.json"
        done
        run --separate-stderr "$KDMESG" --lost --json -K "$FORWARD"
        [ "$(jq -c 'select(.cause) | [.boot, .first_seq, .count, .cause]' <<<"$output" | tr '\n' ' ')" = \
          '[1,0,250,"rotated"] [2,0,300,"rotated"] [2,302,1,"gap"] ' ]
        [ "$(jq -c 'select(.lost_total) | [.boots, [.by_boot[] | [.boot, .records, .first_seq, .last_seq]]]' <<<"$output")" = \
          '[2,[[1,3,250,252],[2,3,300,303]]]' ]
        # One boot: no BOOT column, no line per boot; "boots":1.
        run --separate-stderr "$KDMESG" --lost -K "$DATA/formats.kmsg"
        [[ "${lines[0]}" == "FIRST_SEQ "* ]]
        [[ "${lines[-1]}" == "Read: 8 records (seq 1-9)"* ]]
        run --separate-stderr "$KDMESG" --lost --json -K "$DATA/formats.kmsg"
        [ "$(jq -c 'select(.lost_total) | [.boots, has("by_boot")]' <<<"$output")" = '[1,false]' ]
}

@test "the bound between printk jitter and a new boot: 29 s back is the same boot, 31 s a new one" {
        local f="$BATS_TEST_TMPDIR/t.kmsg"
        # A gap where the time steps 29 s back: the same boot, and the gap is reported as one.
        printf '6,0,40000000,-;a\n6,1,41000000,-;b\n6,3,12000000,-;c, 29 s back\n' >"$f"
        run --separate-stderr "$KDMESG" --fail-on-loss -K "$f"
        [ "$status" -eq 3 ]
        [ "${lines[2]}" = "-- 1 message lost (seq 2, between 41.000000 and 12.000000, gap) --" ]
        [[ "$output" != *"-- boot"* ]]
        [ "$stderr" = "kdmesg: 1 message lost (gap)" ]
        run --separate-stderr "$KDMESG" --lost --json -K "$f"
        [ "$(jq -c 'select(.lost_total) | .boots' <<<"$output")" = 1 ]
        # 31 s back: a new boot; the records before its first were never in the dump, no loss of the read.
        printf '6,0,40000000,-;a\n6,1,41000000,-;b\n6,3,10000000,-;c, 31 s back\n' >"$f"
        run --separate-stderr "$KDMESG" --fail-on-loss -K "$f"
        [ "$status" -eq 0 ]
        [ "${lines[2]}" = "-- boot 2 --" ]
        [ "${lines[3]}" = "[   10.000000] c, 31 s back" ]
        [ -z "$stderr" ]
        run --separate-stderr "$KDMESG" --lost --json -K "$f"
        [ "$(jq -c 'select(.boots) | [.boots, .lost_by_cause, .rotated_before]' <<<"$output")" = '[2,{},3]' ]
}

@test "export input: a new _BOOT_ID starts a boot; export output keeps each record's boot id" {
        run --separate-stderr "$KDMESG" -K "$EXPORT"
        [ "$status" -eq 0 ]
        golden boots/export.short
        run --separate-stderr "$KDMESG" -K "$EXPORT" -J
        golden boots/export.json
        [ "$(jq -c 'select(.boot)' <<<"$output")" = '{"boot":2,"first_seq":13,"boot_id":"c0ffee0123456789abcdef0123456789"}' ]
        # Export out, export in: the same boots.
        KDMESG_BOOT_TIME=0 "$KDMESG" -K "$EXPORT" --format=export >"$BATS_TEST_TMPDIR/x"
        # Each boot's records, and boot 2's entry (what rotated before a dump began is no loss entry).
        [ "$(grep -c '^_BOOT_ID=4b1d5a0c9e8f47d2a6b3c1e0f9d8a7b6$' "$BATS_TEST_TMPDIR/x")" -eq 3 ]
        [ "$(grep -c '^_BOOT_ID=c0ffee0123456789abcdef0123456789$' "$BATS_TEST_TMPDIR/x")" -eq 3 ]
        # The new boot is an entry of the stream, with the first record's boot id and time.
        [ "$(awk -v RS= '/\nKDMESG_BOOT=2\n/' "$BATS_TEST_TMPDIR/x" | grep -E '^(_BOOT_ID|MESSAGE_ID|MESSAGE|KDMESG_BOOT_FIRST_SEQ)=')" = \
"_BOOT_ID=c0ffee0123456789abcdef0123456789
MESSAGE_ID=fab5b5ca374041ef9ca064a2b02def0a
MESSAGE=-- boot 2 --
KDMESG_BOOT_FIRST_SEQ=13" ]
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/x"
        golden boots/export.short
        # JSON out, JSON in: each record keeps its boot id, so the same boots too.
        [ "$(jq -r 'select(.msg) | .boot_id' <<<"$("$KDMESG" -K "$EXPORT" -J)" | uniq -c | tr -s ' ' | tr '\n' ' ')" = \
          " 3 4b1d5a0c9e8f47d2a6b3c1e0f9d8a7b6  2 c0ffee0123456789abcdef0123456789 " ]
        run --separate-stderr bash -c '"$KDMESG" -K "$1" -J | "$KDMESG" -K -' _ "$EXPORT"
        golden boots/export.short
        cmp <(KDMESG_JSON_SLOW=1 "$KDMESG" -K "$EXPORT" -J) <("$KDMESG" -K "$EXPORT" -J)
        # An empty _BOOT_ID is a malformed entry, named with its line; the rest is read.
        printf '_BOOT_ID=\nSEQNUM=0\nMESSAGE=a\n\nSEQNUM=1\nMESSAGE=b\n\n' >"$BATS_TEST_TMPDIR/bad.export"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/bad.export" --input-format export
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: $BATS_TEST_TMPDIR/bad.export:1: _BOOT_ID is empty or holds a NUL byte" ]
        [ "${lines[-1]}" = "b" ]
}

@test "boot marks read back: JSON skips them, -r sends them to stderr, a merged kmsg stream shows the boots again" {
        # kdmesg -J | kdmesg -K -: the same records, the same boot.
        diff <("$KDMESG" -K "$FORWARD" 2>&1) <("$KDMESG" -K "$FORWARD" -J 2>/dev/null | "$KDMESG" -K - 2>&1)
        # -r: no mark in stdout, so kdmesg -F reads it back whole.
        run --separate-stderr "$KDMESG" -K "$RESET" -r
        [[ "$output" != *"-- boot"* ]]
        [[ "$stderr" == *"kdmesg: -- boot 2 --"* ]]
        "$KDMESG" -K "$RESET" -r 2>/dev/null | "$KDMESG" -F - >/dev/null
        # Two dumps, one per boot, merged: the boot shows where the second begins.
        head -n 7 "$RESET" >"$BATS_TEST_TMPDIR/a.kmsg"
        tail -n 4 "$RESET" >"$BATS_TEST_TMPDIR/b.kmsg"
        diff <("$KDMESG" -K "$RESET" 2>&1) <("$KDMESG" -K "$BATS_TEST_TMPDIR/a.kmsg" -K "$BATS_TEST_TMPDIR/b.kmsg" 2>&1)
}

@test "export: on a collector, journalctl MESSAGE_ID=... lists each new boot, and -K skips the entry" {
        local remote=/lib/systemd/systemd-journal-remote
        [ -x "$remote" ] || skip "no systemd-journal-remote"
        KDMESG_BOOT_TIME=1700000000 "$KDMESG" -K "$FORWARD" --format=export \
                --boot-id 0123456789abcdef0123456789abcdef >"$BATS_TEST_TMPDIR/x" 2>/dev/null
        "$remote" -o "$BATS_TEST_TMPDIR/x.journal" - <"$BATS_TEST_TMPDIR/x"
        run journalctl --file "$BATS_TEST_TMPDIR/x.journal" MESSAGE_ID=fab5b5ca374041ef9ca064a2b02def0a -o cat
        [ "$output" = "-- boot 2 --" ]
        # Read back, the entry is no record: the boot is found again from the numbers.
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/x"
        [ "$(grep -c -- '^-- boot 2 --$' <<<"$output")" -eq 1 ]
        [[ "$output" != *"kdmesg: -- boot"* ]]
}

# --- issue 32: losses and boots only where the input proves them -------------

@test "one record with a wild time stamp makes no boot and no loss" {
        local f="$BATS_TEST_TMPDIR/wild.kmsg"
        awk 'BEGIN { for (i = 0; i < 1000; i++)
                printf "6,%d,%s,-;record %d\n", i, i == 500 ? "9223372036854775807" : i == 700 ? "0" : 100000000 + i * 1000, i }' >"$f"
        run --separate-stderr "$KDMESG" -K "$f" --fail-on-loss
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 1000 ]
        [[ "$output" != *"-- boot"* ]]
        run --separate-stderr "$KDMESG" -K "$f" --lost --json
        [ "$(jq -c 'select(.boots) | [.boots, .lost_total, .rotated_before]' <<<"$output")" = '[1,0,0]' ]
}

@test "the time jumping back every other record: no boot, nothing lost" {
        local f="$BATS_TEST_TMPDIR/zigzag.kmsg"
        awk 'BEGIN { for (i = 0; i < 2000; i++) printf "6,%d,%d,-;r%d\n", i, i % 2 ? 1000 + i : 4000000000 + i, i }' >"$f"
        run --separate-stderr "$KDMESG" -K "$f" --lost --json --fail-on-loss
        [ "$status" -eq 0 ]
        [ "$(jq -c 'select(.boots) | [.boots, .lost_total, .rotated_before, .records]' <<<"$output")" = '[1,0,0,2000]' ]
}

@test "an alternating _BOOT_ID: two boots, no loss, and a boot seen before is not rotated again" {
        local f="$BATS_TEST_TMPDIR/alt.export" i
        for ((i = 0; i < 200; i++)); do
                printf '_BOOT_ID=%s\nSEQNUM=%d\n__MONOTONIC_TIMESTAMP=%d\nMESSAGE=m%d\n\n' \
                        "$([ $((i % 2)) -eq 0 ] && echo 0f2c3e1d5a6b47c89d0e1f2a3b4c5d6e || echo 9e8d7c6b5a4f43e2a1b0c9d8e7f6a5b4)" \
                        "$i" "$((1000 + i))" "$i"
        done >"$f"
        run --separate-stderr "$KDMESG" -K "$f" --lost --json --fail-on-loss
        [ "$status" -eq 0 ]
        [ "$(jq -c 'select(.boots) | [.boots, .lost_total, .rotated_before, .records]' <<<"$output")" = '[2,0,1,200]' ]
}

@test "a key twice in one JSON object or a field twice in one export entry is a refused record, not a silent winner" {
        printf '%s\n' '{"seq":1,"time":1.0,"msg":"one"}' '{"seq":2,"seq":9,"time":2.0,"msg":"two keys"}' \
                '{"seq":2,"time":3.0,"msg":"three","dict":{"K":"a"}}' >"$BATS_TEST_TMPDIR/d.json"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/d.json" --fail-on-loss
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/d.json:2: bad JSON record: a key appears twice in the object" ]
        [ "$output" = "[    1.000000] one
[    3.000000] three" ]
        printf 'SEQNUM=1\nMESSAGE=one\n\nSEQNUM=2\nSEQNUM=9\nMESSAGE=two\n\n_BOOT_ID=aa\n_BOOT_ID=bb\nSEQNUM=2\nMESSAGE=x\n\nSEQNUM=2\n_BOOT_ID=aa\n_BOOT_ID=aa\nMESSAGE=same id twice\n\n' \
                >"$BATS_TEST_TMPDIR/d.export"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/d.export" -t
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"d.export:4: SEQNUM twice in one entry, with two values"* ]]
        [[ "$stderr" == *"d.export:8: _BOOT_ID twice in one entry, with two values"* ]]
        [[ "$stderr" != *"boot"*"lost"* ]]
        [ "$output" = "one
same id twice" ]
}

@test "--boot: journalctl's numbering (1 the first, 0 or -0 the last, -1 the one before) on every multi-boot fixture" {
        local f first last
        for f in "$RESET" "$FORWARD" "$EXPORT" "$DATA/two-boots-same-kernel.kmsg"; do
                # Each boot alone is the part of the whole output between its boot lines.
                "$KDMESG" -K "$f" -t -q >"$BATS_TEST_TMPDIR/all"
                first=$(sed '/^-- boot 2 --$/,$d' "$BATS_TEST_TMPDIR/all")
                last=$(sed -n '/^-- boot 2 --$/,$p' "$BATS_TEST_TMPDIR/all")
                [ -n "$first" ] && [ -n "$last" ]
                [ "$("$KDMESG" -K "$f" -t -q --boot 1)" = "$first" ]
                [ "$("$KDMESG" -K "$f" -t -q --boot -1)" = "$first" ]
                [ "$("$KDMESG" -K "$f" -t -q --boot 2)" = "$last" ]
                [ "$("$KDMESG" -K "$f" -t -q --boot 0)" = "$last" ]
                [ "$("$KDMESG" -K "$f" -t -q --boot -0)" = "$last" ]
        done
        # Standard input: from the first, not from the last (it cannot be read twice).
        [ "$("$KDMESG" -K - -t -q --boot 2 <"$RESET")" = "$("$KDMESG" -K "$RESET" -t -q --boot 0)" ]
        run --separate-stderr "$KDMESG" -K - --boot 0 <"$RESET"
        [ "$status" -eq 1 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: --boot 0 counts from the last boot: the input is read twice, which standard input cannot be (give a file, or count from the first: --boot 1)" ]
        # Filters and formats work on the boot; its losses come with it, the other boot's do not.
        run --separate-stderr "$KDMESG" -K "$RESET" --boot 1 --json
        [ "$(grep -c '"cause":"gap"' <<<"$output")" -eq 1 ]
        run --separate-stderr "$KDMESG" -K "$RESET" --boot 2 --json
        [ "$(grep -c '"cause"' <<<"$output")" -eq 0 ]
        [ "${lines[0]}" = '{"boot":2,"first_seq":0}' ]
}

@test "--boot past the input's boots, or not a number: one line, exit 1" {
        local b
        for b in 3 -2; do
                run --separate-stderr "$KDMESG" -K "$RESET" --boot $b
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "$stderr" = "kdmesg: --boot $b: the input holds 2 boots" ]
        done
        for b in x 1.5 - ""; do
                run --separate-stderr "$KDMESG" -K "$RESET" --boot "$b"
                [ "$status" -eq 1 ]
                [ "$stderr" = "kdmesg: bad boot '$b' for --boot (1 the first boot of the input, 0 the last, -1 the one before it)" ]
        done
}

@test "--list-boots: each boot's number, index, id, records and first and last times" {
        run --separate-stderr "$KDMESG" -K "$EXPORT" --list-boots
        [ "$status" -eq 0 ]
        [ "$output" = "BOOT   IDX BOOT ID                          RECORDS        FIRST         LAST
   1    -1 4b1d5a0c9e8f47d2a6b3c1e0f9d8a7b6       3     5.000000     5.200000
   2     0 c0ffee0123456789abcdef0123456789       2     5.300000     5.400000" ]
        run --separate-stderr "$KDMESG" -K "$FORWARD" --list-boots --boot-time @1700000000
        [ "$status" -eq 0 ]
        [ "$output" = "BOOT   IDX BOOT ID                          RECORDS        FIRST         LAST FIRST REALTIME              LAST REALTIME
   1    -1 -                                      3  3600.000000  3601.000000 2023-11-14T23:13:20.000000Z 2023-11-14T23:13:21.000000Z
   2     0 -                                      3     1.200000     1.900000 2023-11-14T22:13:21.200000Z 2023-11-14T22:13:21.900000Z" ]
        # The record counts are those the boots show.
        local n
        for n in 1 2; do
                [ "$("$KDMESG" -K "$RESET" --boot $n --json | grep -c '"msg"')" -eq \
                  "$("$KDMESG" -K "$RESET" --list-boots | awk -v b=$n '$1 == b { print $4 }')" ]
        done
        # From standard input too; with --follow it is refused.
        [ "$("$KDMESG" -K - --list-boots <"$RESET")" = "$("$KDMESG" -K "$RESET" --list-boots)" ]
        run --separate-stderr "$KDMESG" -K "$RESET" --list-boots --follow
        [ "$status" -eq 1 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: --list-boots lists the boots of the input and ends; it cannot be combined with --follow" ]
}

@test "--list-boots --json: one object a boot, numbered as --boot and journalctl, what is not known absent" {
        run --separate-stderr "$KDMESG" -K "$EXPORT" --list-boots --json
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "$output" = '{"boot":1,"index":-1,"boot_id":"4b1d5a0c9e8f47d2a6b3c1e0f9d8a7b6","records":3,"first_seq":10,"last_seq":12,"first_time":5.000000,"last_time":5.200000}
{"boot":2,"index":0,"boot_id":"c0ffee0123456789abcdef0123456789","records":2,"first_seq":13,"last_seq":14,"first_time":5.300000,"last_time":5.400000}' ]
        # A dump without boot ids, its wall clock from --boot-time (boot 1 is an earlier boot, an hour before).
        run --separate-stderr "$KDMESG" -K "$FORWARD" --list-boots --json --boot-time @1700000000
        [ "$status" -eq 0 ]
        [ "$output" = '{"boot":1,"index":-1,"records":3,"first_seq":250,"last_seq":252,"first_time":3600.000000,"last_time":3601.000000,"first_realtime":"2023-11-14T23:13:20.000000Z","first_realtime_usec":1700003600000000,"last_realtime":"2023-11-14T23:13:21.000000Z","last_realtime_usec":1700003601000000}
{"boot":2,"index":0,"records":3,"first_seq":300,"last_seq":303,"first_time":1.200000,"last_time":1.900000,"first_realtime":"2023-11-14T22:13:21.200000Z","first_realtime_usec":1700000001200000,"last_realtime":"2023-11-14T22:13:21.900000Z","last_realtime_usec":1700000001900000}' ]
        # Each object's records and numbers are the table's, and --boot takes both numbers to the same records.
        local b i
        for b in 1 2; do
                i=$(jq -r "select(.boot == $b) | .index" <<<"$output")
                [ "$(jq -r "select(.boot == $b) | .records" <<<"$output")" -eq \
                  "$("$KDMESG" -K "$FORWARD" --list-boots | awk -v b=$b '$1 == b { print $4 }')" ]
                cmp <("$KDMESG" -K "$FORWARD" --boot "$b" --json) <("$KDMESG" -K "$FORWARD" --boot "$i" --json)
        done
        run --separate-stderr "$KDMESG" -K "$RESET" --list-boots --json
        [ "$(jq -r '[.boot, .index, .records, .first_seq, .last_seq, has("boot_id")] | @tsv' <<<"$output")" = \
          "$(printf '1\t-1\t5\t0\t5\tfalse\n2\t0\t4\t0\t3\tfalse')" ]
        # -J by the name dmesg is JSON Lines too (util-linux has no --list-boots); other formats are refused.
        ln -s "$KDMESG" "$BATS_TEST_TMPDIR/dmesg"
        cmp <("$BATS_TEST_TMPDIR/dmesg" -K "$EXPORT" --list-boots -J) <("$KDMESG" -K "$EXPORT" --list-boots --json)
        for f in --format=syslog --json=dmesg; do
                run --separate-stderr "$KDMESG" -K "$EXPORT" --list-boots $f
                [ "$status" -eq 1 ]
                [ "${stderr%%$'\n'*}" = "kdmesg: --list-boots prints a table, or JSON with --json; not --format=$(
                        case $f in --format=*) echo "${f#--format=}" ;; --json=dmesg) echo json-dmesg ;; esac)" ]
        done
        # -o names what the user typed, not the table format it implies.
        run --separate-stderr "$KDMESG" -K "$EXPORT" --list-boots -o seq
        [ "$status" -eq 1 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: --list-boots prints columns of its own; -o chooses those of the records' table" ]
}

@test "--list-boots --json of the live log: one boot, the running boot's id and wall clock" {
        [ -r /dev/kmsg ] || skip "/dev/kmsg cannot be read"
        run --separate-stderr "$KDMESG" --list-boots --json
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 1 ]
        [ "$(jq -r '[.boot, .index, .boot_id] | @tsv' <<<"$output")" = "$(printf '1\t0\t%s' "$(tr -d - </proc/sys/kernel/random/boot_id)")" ]
        # The last record's wall clock is not after now.
        [ "$(jq -r '.last_realtime_usec' <<<"$output")" -le "$(($(date +%s) * 1000000 + 1000000))" ]
}

@test "--list-boots of the live log: one boot, the running boot's id" {
        [ -r /dev/kmsg ] || skip "/dev/kmsg cannot be read"
        run --separate-stderr "$KDMESG" --list-boots
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 2 ]
        [ "$(awk 'NR == 2 { print $1, $2, $3 }' <<<"$output")" = "1 0 $(tr -d - </proc/sys/kernel/random/boot_id)" ]
}

@test "a boot that ended within seconds: seq 0 again with an earlier time stamp starts a boot, no clash" {
        # A VM that crashed 1 ms in, then booted again: its times drop by under a millisecond.
        run --separate-stderr "$KDMESG" -K "$DATA/two-boots-short.kmsg"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${lines[3]}" = "-- boot 2 --" ]
        [ "${#lines[@]}" -eq 6 ]
        run --separate-stderr "$KDMESG" -K "$DATA/two-boots-short.kmsg" --lost
        [ "$status" -eq 0 ]
        [[ "$output" == *"Boot 1: 3 records (seq 0-2), 0.000000 to 0.001000"* ]]
        [[ "$output" == *"Boot 2: 2 records (seq 0-1), 0.000000 to 0.000600"* ]]
        [[ "$output" != *"0.001000 to 0.000600"* ]]
        # The same records again, a dump read twice, are duplicates, not a boot.
        head -n 3 "$DATA/two-boots-short.kmsg" > "$BATS_TEST_TMPDIR/one.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/one.kmsg" -K "$BATS_TEST_TMPDIR/one.kmsg"
        [ "$stderr" = "kdmesg: 3 duplicate records skipped (overlapping input)" ]
        [[ "$output" != *"-- boot"* ]]
        [ "${#lines[@]}" -eq 3 ]
}
