#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The export stream names problems (issue 39): every record of a problem
# carries KDMESG_PROBLEM=<kind> and KDMESG_PROBLEM_SUBJECT, its first record
# KDMESG_PROBLEM_START=1, on by default for --format=export (and so
# --upload, see upload.bats and upload-relp.bats); --json records carry
# "problem", "problem_subject" and "problem_start" when records are
# classified.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        # The built-in rules only.
        export KDMESG_PROBLEMS_DIR= KDMESG_PROBLEMS_RULES=
}

# fields SEQ: the KDMESG_PROBLEM* fields of the export entry of record SEQ, one per line.
fields() {
        python3 - "$BATS_TEST_TMPDIR/x" "$1" <<'PY'
import sys
d = open(sys.argv[1], "rb").read(); i = 0; e = []
while i < len(d):
    nl = d.index(b"\n", i); line = d[i:nl]
    if not line:
        if b"SEQNUM=" + sys.argv[2].encode() in e:
            print("\n".join(l.decode() for l in e if l.startswith(b"KDMESG_PROBLEM")))
        e = []; i = nl + 1; continue
    if b"=" in line:
        e.append(line); i = nl + 1
    else:
        n = int.from_bytes(d[nl + 1:nl + 9], "little"); e.append(line + b"=" + d[nl + 9:nl + 9 + n]); i = nl + 10 + n
PY
}

@test "export: the records of a problem carry KDMESG_PROBLEM, KDMESG_PROBLEM_SUBJECT and, on the first, KDMESG_PROBLEM_START" {
        "$KDMESG" -K "$DATA/oops.kmsg" --format=export --boot-time @1700000000 > "$BATS_TEST_TMPDIR/x"
        [ "$(fields 4)" = "KDMESG_PROBLEM=oops
KDMESG_PROBLEM_SUBJECT=BUG: unable to handle kernel paging request in corrupted
KDMESG_PROBLEM_START=1" ]
        [ "$(fields 7)" = "KDMESG_PROBLEM=oops
KDMESG_PROBLEM_SUBJECT=BUG: unable to handle kernel paging request in corrupted" ]
        [ "$(fields 2)" = "KDMESG_PROBLEM=warning
KDMESG_PROBLEM_SUBJECT=WARNING in intel_modeset
KDMESG_PROBLEM_START=1" ]
        [ -z "$(fields 8)" ]
        [ -z "$(fields 0)" ]
        # Read back and exported again: the fields once each, not carried and made twice.
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x" --format=export --boot-time @1700000000 > "$BATS_TEST_TMPDIR/y"
        cmp "$BATS_TEST_TMPDIR/x" "$BATS_TEST_TMPDIR/y"
}

@test "export and json name the same problems record by record: kinds, subjects, starts; as many starts as --problems counts" {
        # problems.kmsg: every problem with its kind, the subject the report ends with on its last record.
        "$KDMESG" -K "$DATA/problems.kmsg" --format=export --boot-time @0 > "$BATS_TEST_TMPDIR/x"
        run --separate-stderr "$KDMESG" -K "$DATA/problems.kmsg" --json --fail-on-problem
        [ "$status" -eq 4 ]
        local json=$output
        # The same kinds, subjects and starts in both streams, record by record.
        [ "$(jq -r 'select(.problem) | "\(.seq) \(.problem) \(.problem_subject // "") \(.problem_start // false)"' <<<"$json")" = \
          "$(python3 - "$BATS_TEST_TMPDIR/x" <<'PY'
import sys
d = open(sys.argv[1], "rb").read(); i = 0; e = {}
while i < len(d):
    nl = d.index(b"\n", i); line = d[i:nl]
    if not line:
        if "KDMESG_PROBLEM" in e and "SEQNUM" in e:
            print(e["SEQNUM"], e["KDMESG_PROBLEM"], e.get("KDMESG_PROBLEM_SUBJECT", ""), "true" if "KDMESG_PROBLEM_START" in e else "false")
        e = {}; i = nl + 1; continue
    if b"=" in line:
        k, v = line.split(b"=", 1); i = nl + 1
    else:
        n = int.from_bytes(d[nl + 1:nl + 9], "little"); k, v = line, d[nl + 9:nl + 9 + n]; i = nl + 10 + n
    e[k.decode()] = v.decode("utf-8", "replace")
PY
)" ]
        # As many starts as --problems counts problems.
        [ "$(jq -r 'select(.problem_start)' <<<"$json" | grep -c '^{')" -eq "$("$KDMESG" -K "$DATA/problems.kmsg" --problems --json | jq -s 'map(.count // 0) | add')" ]
}

@test "json: problem keys only when records are classified; fast and json-c writers agree" {
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --json
        [[ "$output" != *'"problem'* ]]
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --json --problem oops
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 4 ]
        [[ "${lines[0]}" == *',"dict":{},"problem":"oops","problem_subject":"BUG: unable to handle kernel paging request in corrupted","problem_start":true}' ]]
        [[ "${lines[1]}" == *',"dict":{},"problem":"oops","problem_subject":"BUG: unable to handle kernel paging request in corrupted"}' ]]
        local fast=$output
        run --separate-stderr env KDMESG_JSON_SLOW=1 "$KDMESG" -K "$DATA/oops.kmsg" --json --problem oops
        [ "$output" = "$fast" ]
        # A subject that is not UTF-8 is an array of its bytes, as msg.
        printf '6,0,1000,-;BUG: unable to handle kernel NULL pointer dereference\n6,1,2000,-;RIP: 0010:f\xffo+0x1/0x2\n' > "$BATS_TEST_TMPDIR/b.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/b.kmsg" --json --fail-on-problem
        fast=$output
        run --separate-stderr env KDMESG_JSON_SLOW=1 "$KDMESG" -K "$BATS_TEST_TMPDIR/b.kmsg" --json --fail-on-problem
        [ "$output" = "$fast" ]
        run "$TESTS/cli/validate-json" "$TESTS/../data/kdmesg-record.schema.json" <<<"$fast"
        [ "$status" -eq 0 ]
        # Read back, the keys are skipped (the classification is made again).
        run --separate-stderr "$KDMESG" -K - --json <<<"$fast"
        [ "$status" -eq 0 ]
        [[ "$output" != *'"problem'* ]]
}

@test "export: rules that cannot be read leave the records unnamed with a warning; --problem-rules given is an error" {
        mkdir -p "$BATS_TEST_TMPDIR/d"
        echo 'bad rule' > "$BATS_TEST_TMPDIR/d/x.rules"
        run --separate-stderr env KDMESG_PROBLEMS_DIR="$BATS_TEST_TMPDIR/d" "$KDMESG" -K "$DATA/oops.kmsg" --format=export --boot-time @0
        [ "$status" -eq 0 ]
        [[ "$output" == *"SEQNUM=10"* ]]
        [[ "$output" != *KDMESG_PROBLEM* ]]
        [ "${stderr##*$'\n'}" = "kdmesg: the records go without KDMESG_PROBLEM: the problem rules could not be read" ]
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --format=export --boot-time @0 --problem-rules "$BATS_TEST_TMPDIR/d/x.rules"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
}
