#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --json records place themselves (issue 39): "boot_id" and the wall clock
# ("realtime", ISO 8601 in UTC, and "realtime_usec", journalctl's
# __REALTIME_TIMESTAMP) wherever they are known: the live log, export and
# JSON input that carry them, a dump given --boot-time.  Never the running
# boot's for a record of another boot.  -T and --time-format are refused.

bats_require_minimum_version 1.5.0
load helpers
load emu

SCHEMA="$TESTS/../data/kdmesg-record.schema.json"

# The value of KEY in JSON line LINE, as jq prints it raw.
key() {
        jq -r --arg k "$1" '.[$k] // "absent"' <<<"$2"
}

@test "live --json: boot_id is /proc/sys/kernel/random/boot_id, realtime the clock's" {
        [ -r /dev/kmsg ] || skip "/dev/kmsg cannot be read"
        local before after last id boot up uptime_us
        before=$(date +%s%6N)
        run --separate-stderr "$KDMESG" --json
        after=$(date +%s%6N)
        [ "$status" -eq 0 ]
        last=$(grep '"msg"' <<<"$output" | tail -1)
        id=$(tr -d - </proc/sys/kernel/random/boot_id)
        [ "$(key boot_id "$last")" = "$id" ]
        # Every record: the same boot id, and a wall-clock time.
        [ "$(grep -c '"msg"' <<<"$output")" = "$(grep -c "\"boot_id\":\"$id\",\"realtime\":\"" <<<"$output")" ]
        rt=$(key realtime_usec "$last")
        [ "$rt" -le "$after" ]
        # The boot time it implies is the clock's: now - uptime (within 2 s; no suspend on a test machine).
        up=$(cut -d' ' -f1 /proc/uptime)
        uptime_us=$(python3 -c "print(int(float('$up') * 1e6))")
        boot=$((rt - $(python3 -c "print(round($(key time "$last") * 1e6))")))
        [ $((boot - (before - uptime_us))) -lt 2000000 ]
        [ $(((before - uptime_us) - boot)) -lt 2000000 ]
        # realtime says the same time as realtime_usec, readable.
        [ "$(key realtime "$last")" = "$(date -u -d "@$((rt / 1000000))" +%Y-%m-%dT%H:%M:%S).$(printf %06d $((rt % 1000000)))Z" ]
        run "$TESTS/cli/validate-json" "$SCHEMA" <<<"$output"
        [ "$status" -eq 0 ]
}

@test "live --json on the emulated ring: its boot id and the pinned clocks, as -T says; a dump of that boot the same" {
        export KDMESG_TEST_CLOCKS="1700000100 50 100"
        emu_init 64
        emu write 3
        run --separate-stderr kdmesg_emu --json
        [ "$status" -eq 0 ]
        local id live
        id=$(emu get boot_id)
        [ "${lines[0]}" = "{\"seq\":0,\"time\":0.001000,\"pri\":6,\"facility\":\"kern\",\"level\":\"info\",\"flags\":\"-\",\"msg\":\"record 0\",\"dict\":{},\"boot_id\":\"${id//-/}\",\"realtime\":\"2023-11-14T22:14:10.001000Z\",\"realtime_usec\":1700000050001000}" ]
        [ "$(kdmesg_emu -T | head -1)" = "[Tue Nov 14 22:14:10 2023] record 0" ]
        live=$output
        kdmesg_emu --format=kmsg >"$BATS_TEST_TMPDIR/this.kmsg"
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/this.kmsg" --json
        [ "$status" -eq 0 ]
        [ "$output" = "$live" ]
        # json-c's writer gives the same bytes.
        run --separate-stderr env KDMESG_JSON_SLOW=1 LD_PRELOAD="$KMSG_EMU_SHIM" \
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$KDMESG" --json
        [ "$output" = "$live" ]
}

@test "a dump where an earlier boot comes before this boot's records: no record gets this boot's id or time" {
        export KDMESG_TEST_CLOCKS="1700000100 50 100"
        emu_init 8
        emu write 20
        # Seq 12-19 are in the ring; before them, records of an earlier boot (100 s in), rotated out of it.
        printf '6,0,100000000,-;earlier boot 0\n6,1,100100000,-;earlier boot 1\n' >"$BATS_TEST_TMPDIR/two.kmsg"
        kdmesg_emu --format=kmsg >>"$BATS_TEST_TMPDIR/two.kmsg"
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/two.kmsg" --json
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 11 ]
        [[ "$output" != *'"boot_id"'* ]]
        [[ "$output" != *'"realtime'* ]]
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/two.kmsg" -T
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/two.kmsg:1: --ctime needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
        # This boot's records alone are this boot's.
        tail -n 8 "$BATS_TEST_TMPDIR/two.kmsg" >"$BATS_TEST_TMPDIR/one.kmsg"
        run --separate-stderr kdmesg_emu -K "$BATS_TEST_TMPDIR/one.kmsg" --json
        [ "$status" -eq 0 ]
        [ "$(grep -c '"realtime":' <<<"$output")" -eq 8 ]
}

@test "a dump of another boot: no boot_id, no realtime, unless --boot-time gives the time" {
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --json
        [ "$status" -eq 0 ]
        [[ "$output" != *'"boot_id"'* ]]
        [[ "$output" != *'"realtime'* ]]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --json --boot-time '2024-05-01 09:12:44'
        [ "$status" -eq 0 ]
        [[ "$output" != *'"boot_id"'* ]]
        local line n=0
        while IFS= read -r line; do
                [[ "$line" == *'"msg"'* ]] || continue
                # boot time + the stamp, to the microsecond.
                [ "$(key realtime_usec "$line")" = "$(jq -r '(.time * 1000000 | round) + 1714554764000000' <<<"$line")" ]
                n=$((n + 1))
        done <<<"$output"
        [ "$n" -gt 5 ]
        [ "$(key realtime "${lines[0]}")" = "2024-05-01T09:12:44.000000Z" ]
        [ "$(key realtime "${lines[1]}")" = "2024-05-01T09:12:44.001500Z" ]
        # In the first second of 1970 the microseconds alone: a JSON number has no leading zeros.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --json --boot-time @0
        [[ "${lines[1]}" == *',"realtime":"1970-01-01T00:00:00.001500Z","realtime_usec":1500}' ]]
        [[ "${lines[0]}" == *',"realtime":"1970-01-01T00:00:00.000000Z","realtime_usec":0}' ]]
        run "$TESTS/cli/validate-json" "$SCHEMA" <<<"$output"
        [ "$status" -eq 0 ]
}

@test "a two-boot export: each record keeps its own boot id and wall clock, also read back from JSON" {
        local a=0f2c1e3d4b5a69788796a5b4c3d2e1f0 b=c0ffee0123456789abcdef0123456789
        "$KDMESG" -K "$DATA/basic.kmsg" --format=export --boot-time @1600000000 --boot-id $a >"$BATS_TEST_TMPDIR/two.export"
        "$KDMESG" -K "$DATA/classic.kmsg" --format=export --boot-time @1700000000.5 --boot-id $b >>"$BATS_TEST_TMPDIR/two.export"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/two.export" --json
        [ "$status" -eq 0 ]
        local json=$output
        # Each record's realtime_usec is its entry's __REALTIME_TIMESTAMP, its boot_id its _BOOT_ID.
        [ "$(jq -r 'select(.msg) | "\(.boot_id) \(.realtime_usec)"' <<<"$json")" = \
          "$(awk -F= '/^__REALTIME_TIMESTAMP=/{t=$2} /^_BOOT_ID=/{b=$2} /^SEQNUM=/{m=1} /^$/{if(m)print b" "t; m=0}' "$BATS_TEST_TMPDIR/two.export")" ]
        [[ "$json" == *'{"boot":2,"first_seq":0,"boot_id":"'$b'"}'* ]]
        [ "$(jq -r 'select(.boot_id == "'$a'") | .realtime' <<<"$json" | head -1)" = "2020-09-13T12:26:40.000000Z" ]
        # A pinned boot time does not take the place of what the records carry.
        run --separate-stderr env KDMESG_BOOT_TIME=1000000000 "$KDMESG" -K "$BATS_TEST_TMPDIR/two.export" --json
        [ "$output" = "$json" ]
        # kdmesg's JSON read back keeps them.
        run --separate-stderr "$KDMESG" -K - --json <<<"$json"
        [ "$status" -eq 0 ]
        [ "$output" = "$json" ]
        run "$TESTS/cli/validate-json" "$SCHEMA" <<<"$json"
        [ "$status" -eq 0 ]
}

@test "JSON input: a realtime_usec that is no number of microseconds is a refused record" {
        run --separate-stderr "$KDMESG" -K - --json <<<'{"seq":1,"flags":"-","msg":"x","dict":{},"realtime_usec":"12"}'
        [ "$status" -eq 1 ]
        [[ "$stderr" == *"realtime_usec is not a number of microseconds"* ]]
        run --separate-stderr "$KDMESG" -K - --json <<<'{"seq":1,"flags":"-","msg":"x","dict":{},"realtime_usec":-5}'
        [ "$status" -eq 1 ]
}

@test "-T, -e, -H, -d, -t and --time-format are refused with --json, in one line" {
        local opt
        for opt in -T -e -H -d -t "--time-format iso" "--time-format raw"; do
                run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --json $opt
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [[ "${stderr%%$'\n'*}" == "kdmesg: --"*" does not apply to --json, which writes both times in fixed forms: \"time\" (seconds since boot) and, where known, \"realtime\" (ISO 8601, UTC) and \"realtime_usec\"" ]]
        done
        # util-linux's document (--json=dmesg) keeps its -T, and the reports' --json their seconds.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --json=dmesg -T --boot-time @1600000000
        [ "$status" -eq 0 ]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --lost --json -T --boot-time @1600000000
        [ "$status" -eq 0 ]
}

@test "a 'dmesg -T' paste: realtime is the time it printed, read in the local zone as every view reads it" {
        run --separate-stderr "$KDMESG" -F "$DATA/dmesg-T.txt" --json
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == '{"flags":"","msg":"INFO: task logrotate:17344 blocked for more than 120 seconds.","dict":{},"realtime":"2018-12-19T03:36:07.000000Z","realtime_usec":1545190567000000}' ]]
        [[ "$output" != *'"boot_id"'* ]]
        run --separate-stderr env TZ=Europe/Berlin "$KDMESG" -F "$DATA/dmesg-T.txt" --json
        [[ "${lines[0]}" == *'"realtime":"2018-12-19T02:36:07.000000Z","realtime_usec":1545186967000000}' ]]
        # The same instant as --time-format iso prints for it.
        [ "$(TZ=Europe/Berlin "$KDMESG" -F "$DATA/dmesg-T.txt" --time-format iso | head -1 | cut -d" " -f1)" = "2018-12-19T03:36:07,000000+01:00" ]
}
