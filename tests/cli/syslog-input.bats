#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Syslog-form input (-F, and -K when it detects that form): multi-line
# messages as util-linux dmesg 2.43 and kdmesg print them, round trips of
# -r output, and the kmsg form made from syslog-form input.

load helpers
bats_require_minimum_version 1.5.0

OOPS="$DATA/oops.kmsg" # oops-style multi-line messages: tabs, backslashes, UTF-8, indented lines

# The message texts of a dump, one record per line, escaped as in the kmsg form.
messages() {
        "$KDMESG" "$@" --format=kmsg 2>/dev/null | grep -v '^ ' | cut -d';' -f2-
}

@test "util-linux 'dmesg -r' capture of multi-line messages reads back to the same texts" {
        # Made with ../shared/peers/util-linux-dmesg/dmesg -r from oops.kmsg (NUL-separated).
        run --separate-stderr "$KDMESG" -F "$DATA/oops-util-linux-r.syslog" --format=kmsg
        [ "$status" -eq 0 ]
        golden syslog/oops-read-back.kmsg
        diff <(messages -K "$OOPS") <(messages -F "$DATA/oops-util-linux-r.syslog")
}

@test "util-linux plain 'dmesg' capture reads back to the same texts" {
        diff <(messages -K "$OOPS") <(messages -F "$DATA/oops-util-linux.syslog")
        run "$KDMESG" -F "$DATA/oops-util-linux.syslog"
        [ "$status" -eq 0 ]
}

@test "util-linux 'dmesg -x' capture reads back to the same texts and levels" {
        diff <(messages -K "$OOPS") <(messages -F "$DATA/oops-util-linux-x.syslog")
        diff <("$KDMESG" -K "$OOPS" --format=kmsg | grep -v '^ ' | cut -d, -f1) \
                <("$KDMESG" -F "$DATA/oops-util-linux-x.syslog" --format=kmsg 2>/dev/null | cut -d, -f1)
}

@test "-K detects the syslog form of a multi-line capture" {
        diff <(messages -K "$OOPS") <(messages -K "$DATA/oops-util-linux-r.syslog")
}

@test "kdmesg's own -r capture reads back to the same texts" {
        # Made with kdmesg -K oops.kmsg -r; still what -r writes.
        run "$KDMESG" -K "$OOPS" -r
        [ "$status" -eq 0 ]
        diff "$DATA/oops-kdmesg-r.syslog" <(printf '%s\n' "$output")
        diff <(messages -K "$OOPS") <(messages -F "$DATA/oops-kdmesg-r.syslog")
}

@test "-r | -F gives back the same text: a backslash before xNN is written as \\x5c" {
        printf '6,0,1000,-;C:\\x5ctemp\\x5cx41 \\x5c\\x5cx4F \\x5c\\x1b \\x5c\n' > "$BATS_TEST_TMPDIR/bs.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/bs.kmsg" -r
        [ "$status" -eq 0 ]
        [ "$output" = '<6>[    0.001000] C:\temp\x5cx41 \\x5cx4F \\x1b \' ]
        diff <(messages -K "$BATS_TEST_TMPDIR/bs.kmsg") <("$KDMESG" -K "$BATS_TEST_TMPDIR/bs.kmsg" -r | messages -F -)
}

@test "-r writes loss lines to standard error: kdmesg -F reads its -r output back whole" {
        run --separate-stderr "$KDMESG" -K "$DATA/formats.kmsg" -r
        [ "$status" -eq 0 ]
        [[ "$output" != *lost* ]]
        [ "$stderr" = "kdmesg: -- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --
kdmesg: 1 message lost (gap)" ]
        "$KDMESG" -K "$DATA/formats.kmsg" -r 2>/dev/null > "$BATS_TEST_TMPDIR/f.syslog"
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/f.syslog"
        [ "$status" -eq 0 ]
        diff <(messages -K "$DATA/formats.kmsg") <(messages -F "$BATS_TEST_TMPDIR/f.syslog")
}

@test "kmsg output made from syslog-form input keeps the FLAGS field" {
        run --separate-stderr "$KDMESG" -F - --format=kmsg <<<'<6>[    1.000000] a'
        [ "$status" -eq 0 ]
        [ "$output" = "6,0,1000000,-;a" ]
        run --separate-stderr "$KDMESG" -F - --format=kmsg <<<'[    2.500000] b; c'
        [ "$output" = "6,0,2500000,-;b; c" ]
        # The 3.5-rc header of kmsg input stays without one.
        run "$KDMESG" -K - --format=kmsg <<<'6,0,1000;old'
        [ "$output" = "6,0,1000;old" ]
}

@test "detection: a dump cut with tail (on dictionary lines or not) reads every complete record after the cut" {
        local n k want got
        n=$(wc -l < "$DATA/devices.kmsg")
        for ((k = 1; k <= n; k++)); do
                tail -n "$k" "$DATA/devices.kmsg" > "$BATS_TEST_TMPDIR/cut"
                want=$(grep -c '^[0-9]' "$BATS_TEST_TMPDIR/cut" || true)
                run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/cut" --format=kmsg
                got=$(grep -c '^[0-9]' <<<"$output" || true)
                [ "$got" -eq "$want" ] || { echo "tail -n $k: $got of $want records"; return 1; }
                if [ "$(head -c1 "$BATS_TEST_TMPDIR/cut")" = " " ]; then
                        [ "$status" -eq 1 ]
                        [ "$(grep -c 'bad header' <<<"$stderr")" -eq 1 ]
                fi
        done
}

@test "detection picks the -x syslog form; a leading line that starts no record is a message of its own, as util-linux reads it" {
        diff <(messages -K "$OOPS") <(messages -K - < "$DATA/oops-util-linux-x.syslog")
        { echo '$ dmesg -r'; cat "$DATA/oops-util-linux-r.syslog"; } > "$BATS_TEST_TMPDIR/junk"
        diff <({ echo '$ dmesg -r'; messages -K "$OOPS"; }) <(messages -K "$BATS_TEST_TMPDIR/junk")
        # util-linux 2.43 (dmesg -F junk -r) prints the same line first.
        [ "$("$KDMESG" -K "$BATS_TEST_TMPDIR/junk" -r | head -1)" = '$ dmesg -r' ]
}
