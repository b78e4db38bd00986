#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --problems, --problem KIND and --fail-on-problem with the shipped rules
# (data/problems.rules) on tests/data/problems.kmsg, made from
# tests/data/problems-cases.txt: problem messages in the formats of several
# kernel versions, each line saying which kind it must be, near-misses '-'.

bats_require_minimum_version 1.5.0
load helpers

setup() {
        export KDMESG_PROBLEMS_RULES="$TESTS/../data/problems.rules"
        export KDMESG_PROBLEMS_DIR="$BATS_TEST_TMPDIR/problems.d"
        DUMP="$DATA/problems.kmsg"
        CASES="$DATA/problems-cases.txt"
}

KINDS="panic oops hard-lockup soft-lockup rcu-stall hung-task mce oom-kill fs-error io-error thermal segfault
warning link-down"

# The sequence numbers of the case lines of kind $1 (the dump numbers its records from 0).
expected_seqs() {
        grep -vE '^(#|$)' "$CASES" | awk -v k="$1" '$2 == k { print NR - 1 }'
}

# The sequence numbers of the records kdmesg shows for "$@".
shown_seqs() {
        "$KDMESG" -K "$DUMP" --format=kmsg "$@" | grep -v '^ ' | cut -d, -f2
}

user_rules() {
        mkdir -p "$KDMESG_PROBLEMS_DIR"
        cat >"$KDMESG_PROBLEMS_DIR/$1"
}

@test "the committed dump is what the generator makes of the cases" {
        run python3 "$DATA/gen-problems.py"
        [ "$status" -eq 0 ]
        diff -u "$DUMP" <(printf '%s\n' "$output")
}

@test "--problem KIND selects exactly the records of that kind, in every kernel version's format" {
        local k bad=
        for k in $KINDS; do
                # At least two cases of each kind, in more than one format.
                [ "$(expected_seqs "$k" | wc -l)" -ge 2 ] || bad+=" $k(few cases)"
                diff -u <(expected_seqs "$k") <(shown_seqs --problem "$k") >&2 || bad+=" $k"
        done
        echo "wrong:$bad"
        [ -z "$bad" ]
}

@test "near-misses of every kind are no problem" {
        local all
        # Twenty and more lines that look like problems and are not.
        [ "$(expected_seqs - | wc -l)" -ge 20 ]
        all=$(for k in $KINDS; do printf -- '--problem %s ' "$k"; done)
        # shellcheck disable=SC2086
        diff -u <(grep -vE '^(#|$)' "$CASES" | awk '$2 != "-" { print NR - 1 }') <(shown_seqs $all)
}

@test "every kind of the rules file is one of the documented names" {
        local k bad=
        for k in $(grep -oE '^[a-z-]+' "$KDMESG_PROBLEMS_RULES" | sort -u); do
                case " $(echo $KINDS) any ignore " in *" $k "*) ;; *) bad+=" $k" ;; esac
        done
        [ -z "$bad" ]
        # And every documented kind has a rule.
        for k in $KINDS; do
                grep -qE "^$k " "$KDMESG_PROBLEMS_RULES" || bad+=" $k"
        done
        [ -z "$bad" ]
}

@test "--problems: one row per kind and subject, worst kind first, multi-line reports counted once" {
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        golden problems/table.txt
}

@test "--problems honours -T and --time-format iso in FIRST and LAST" {
        KDMESG_BOOT_TIME=@1700000000 run "$KDMESG" -K "$DUMP" --problems -T --problem panic --problem warning
        [ "$status" -eq 0 ]
        golden problems/table-ctime.txt
        KDMESG_BOOT_TIME=@1700000000 run "$KDMESG" -K "$DUMP" --problems --time-format iso --problem segfault
        [ "$status" -eq 0 ]
        golden problems/table-iso.txt
}

@test "--problems --json: one object per group" {
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems --json
        [ "$status" -eq 0 ]
        golden problems/report.json
        # The 4.19 oops (16 records with its call trace), the 5.15 and the arm64 one are three problems.
        grep -F '"subject":"NULL pointer dereference"' <<<"$output" | grep -qF '"count":3,"first_seq":'
}

@test "the records of a report go with it: --problem oops shows the call trace and Modules linked in" {
        run "$KDMESG" -K "$DUMP" --problem oops -t --format=cat
        [ "$status" -eq 0 ]
        [[ "$output" == *$'Call Trace:\n do_one_initcall+0x46/0x1c3'* ]]
        [[ "$output" == *"Modules linked in: crash(O+) nf_tables"* ]]
        # The line after "---[ end trace" is not.
        [[ "$output" != *"new high-speed USB device"* ]]
}

@test "the other filters apply first" {
        run "$KDMESG" -K "$DUMP" --problems --json --since 80 --until 85
        [ "$status" -eq 0 ]
        [ "$(grep -c . <<<"$output")" -eq 4 ]
        ! grep -vqF '"problem":"mce"' <<<"$output"
        run "$KDMESG" -K "$DUMP" --problems --json --device b8:16
        [ "$status" -eq 0 ]
        # The block layer's error and the SCSI failure with its sense lines: two problems of sdb.
        [ "${#lines[@]}" -eq 1 ]
        [[ "${lines[0]}" == '{"problem":"io-error","count":2,"first_seq":33,"last_seq":40,'*'"subject":"sdb","device":"b8:16"'* ]]
        run "$KDMESG" -K "$DUMP" --problems --json -l emerg
        [ "$status" -eq 0 ]
        ! grep -qE '"problem":"(oops|io-error|warning)"' <<<"$output"
        grep -qF '"problem":"panic"' <<<"$output"
}

@test "--fail-on-problem: exit 4 when a problem was found, 0 and one line when none" {
        run "$KDMESG" -K "$DUMP" --fail-on-problem
        [ "$status" -eq 4 ]
        run "$KDMESG" -K "$DUMP" --fail-on-problem --problem thermal -q
        [ "$status" -eq 4 ]
        [ "${#lines[@]}" -eq 4 ]
        run "$KDMESG" -K "$DATA/classic.kmsg" --fail-on-problem --problems -q
        [ "$status" -eq 0 ]
        [ "$output" = "No known problems found." ]
        run "$KDMESG" -K "$DATA/classic.kmsg" --problems --json -q
        [ "$status" -eq 0 ]
        [ -z "$output" ]
}

@test "memory is bounded: past 10000 groups, one (others) group per kind" {
        local f="$BATS_TEST_TMPDIR/many.kmsg"
        awk 'BEGIN { for (i = 0; i < 10005; i++) printf "6,%d,%d,-;p%d[1]: segfault at 0 ip 1 sp 2 error 4 in x[1+1]\n", i, i, i }' >"$f"
        run --separate-stderr "$KDMESG" -K "$f" --problems --json
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 10001 ]
        [ "$(grep -c '"others":true' <<<"$output")" -eq 1 ]
        grep -qF '{"problem":"segfault","count":5,"first_seq":10000,"last_seq":10004,"time_first":0.010000,"time_last":0.010004,"subject":"","others":true,"message":"p10000[1]: segfault' <<<"$output"
        run "$KDMESG" -K "$f" --problems
        [[ "$output" == *"segfault     5 "*"(others)"* ]]
}

@test "user rules in problems.d come first: a new pattern, and ignore" {
        user_rules 10-local.rules <<'RULES'
# our NIC driver's own words
link-down subject=\1 /^myeth ([a-z0-9]+): carrier gone$/
ignore /^traps: qemu-img\[/
RULES
        printf '6,0,1000,-;myeth eth9: carrier gone\n4,1,2000,-;traps: qemu-img[1] trap invalid opcode ip:1 sp:2 error:0 in qemu-img[1+1]\n' >"$BATS_TEST_TMPDIR/d.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/d.kmsg" --problems --json
        [ "$status" -eq 0 ]
        [ "$output" = '{"problem":"link-down","count":1,"first_seq":0,"last_seq":0,"time_first":0.001000,"time_last":0.001000,"subject":"eth9","message":"myeth eth9: carrier gone"}' ]
        # Files not named *.rules are not read.
        echo 'nonsense' >"$KDMESG_PROBLEMS_DIR/README"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/d.kmsg" --problems --json
        [ "$status" -eq 0 ]
}

@test "a bad rules file: one line naming the file and the line, exit 1, nothing read" {
        local d=$KDMESG_PROBLEMS_DIR
        check_bad() {
                user_rules bad.rules
                run --separate-stderr "$KDMESG" -K "$DUMP" --problems
                echo "$stderr"
                [ "$status" -eq 1 ]
                [ -z "$output" ]
                [ "${#stderr_lines[@]}" -eq 1 ]
                [ "${stderr_lines[0]}" = "kdmesg: $d/bad.rules:$1" ]
        }
        printf '# ok\nsegfault /x/\noom /y/\n' | check_bad "3: unknown kind 'oom' (expected panic, oops, hard-lockup, soft-lockup, rcu-stall, hung-task, mce, oom-kill, fs-error, io-error, thermal, segfault, warning, link-down, any or ignore)"
        printf 'oops\n' | check_bad "1: no /regex/"
        printf 'oops /a(/\n' | check_bad "1: bad regex: Unmatched ( or \\("
        printf 'oops /abc\n' | check_bad "1: the regex has no closing '/'"
        printf 'oops /abc/ x\n' | check_bad "1: ' x' after the regex"
        printf 'oops colour=red /abc/\n' | check_bad "1: unknown word 'colour=red'"
        printf 'oops level=bad /abc/\n' | check_bad "1: unknown level 'bad'"
        printf 'oops subject=\\2 /(a)/\n' | check_bad "1: subject=: \\2, but the regex has 1 groups"
        printf 'oops subject="a b /x/\n' | check_bad "1: a quoted value has no closing '\"'"
        printf 'any /x/\n' | check_bad "1: 'any' is only for 'part' rules"
        printf 'oops part subject=x /x/\n' | check_bad "1: a 'part' rule takes no conditions and no subject"
        printf 'oops //\n' | check_bad "1: an empty regex"
}

@test "no shipped rules file: one line, exit 1" {
        KDMESG_PROBLEMS_RULES=/nonexistent/problems.rules run --separate-stderr "$KDMESG" -K "$DUMP" --problems
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot read the problem rules /nonexistent/problems.rules: No such file or directory" ]
}

@test "bad combinations and kinds are refused before reading" {
        run --separate-stderr "$KDMESG" -K "$DUMP" --problem oom
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: unknown problem kind 'oom' (expected one of: panic oops hard-lockup soft-lockup rcu-stall hung-task mce oom-kill fs-error io-error thermal segfault warning link-down)" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems --lost
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problems and --lost cannot be used together" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems -r
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problems prints a table, or JSON with --json; not --format=syslog" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems -o SEQ,MESSAGE
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problems has columns of its own; -o chooses those of --format=table" ]
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems --format=table --problem panic
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "KIND "* ]]
        run --separate-stderr "$KDMESG" -K "$DUMP" --problems --follow
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problems --follow writes JSON Lines as problems come: add --json" ]
}

# Completions bash offers for the command line "$@" (the last word is completed).
bash_complete() {
        [ -f /usr/share/bash-completion/bash_completion ] || skip "bash-completion is not installed"
        bash -c '
                source /usr/share/bash-completion/bash_completion
                source "$1"; shift
                COMP_WORDS=(kdmesg "$@"); COMP_CWORD=$#
                COMP_LINE="kdmesg $*"; COMP_POINT=${#COMP_LINE}
                _kdmesg kdmesg "${@: -1}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf "%s\n" "${COMPREPLY[@]}"' _ "$TESTS/../completions/kdmesg.bash" "$@"
}

@test "bash completes the kinds of --problem and the options" {
        run bash_complete --problem o
        [ "$output" = "$(printf 'oops\noom-kill')" ]
        run bash_complete --problem hu
        [ "$output" = "hung-task" ]
        run bash_complete --proble
        [ "$output" = "$(printf -- '--problems\n--problem')" ]
        run bash_complete --fail-on-p
        [ "$output" = "--fail-on-problem" ]
}

@test "--problems --json --follow writes a group when it appears and when it changes" {
        local f="$BATS_TEST_TMPDIR/grow.kmsg" out="$BATS_TEST_TMPDIR/out" i
        printf '6,0,1000,-;usb 1-1: new device\n' >"$f"
        "$KDMESG" -K "$f" --follow --problems --json >"$out" 2>&1 3>&- &
        local pid=$!
        waitn() {
                for ((i = 0; i < 1000; i++)); do
                        [ "$(wc -l <"$out")" -ge "$1" ] && return 0
                        sleep 0.01
                done
                cat "$out" >&2
                return 1
        }
        printf '3,1,2000,-;stress[12]: segfault at 0 ip 1 sp 2 error 6 in stress[1+1]\n' >>"$f"
        waitn 1
        printf '6,2,3000,-;CPU: 0 PID: 1 Comm: x\n3,3,4000,-;stress[13]: segfault at 0 ip 1 sp 2 error 6 in stress[1+1]\n' >>"$f"
        waitn 2
        kill -TERM "$pid"
        wait "$pid" || true
        [ "$(wc -l <"$out")" -eq 2 ]
        [[ "$(sed -n 1p "$out")" == '{"problem":"segfault","count":1,"first_seq":1,"last_seq":1,'* ]]
        [[ "$(sed -n 2p "$out")" == '{"problem":"segfault","count":2,"first_seq":1,"last_seq":3,'* ]]
}
