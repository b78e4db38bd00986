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

KINDS="panic oops hard-lockup soft-lockup rcu-stall hung-task mce oom-kill fs-error io-error thermal lockdep
memory-leak segfault warning link-down"

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
        # The 4.19 and the 3.13 oops (16 and 20 records with their call traces) and the arm and arm64
        # ones are five problems in one function, titled as developers title it; the 5.15 one,
        # without its RIP line or a trace, another: cut short, "in corrupted".
        grep -F '"subject":"BUG: unable to handle kernel NULL pointer dereference in crash_init"' <<<"$output" | grep -qF '"count":5,"first_seq":'
        grep -F '"subject":"BUG: unable to handle kernel NULL pointer dereference in corrupted"' <<<"$output" | grep -qF '"count":1,"first_seq":'
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
        run "$KDMESG" -K "$DUMP" --problems --json --since 354 --until 379
        [ "$status" -eq 0 ]
        [ "$(grep -c . <<<"$output")" -eq 5 ]
        ! grep -vqF '"problem":"mce"' <<<"$output" || false
        run "$KDMESG" -K "$DUMP" --problems --json --device b8:16
        [ "$status" -eq 0 ]
        # The block layer's error and the SCSI failure with its sense lines: two problems of sdb.
        [ "${#lines[@]}" -eq 1 ]
        [[ "${lines[0]}" == '{"problem":"io-error","count":2,"first_seq":38,"last_seq":45,'*'"subject":"sdb","first":true,"device":"b8:16"'* ]]
        run "$KDMESG" -K "$DUMP" --problems --json -l emerg
        [ "$status" -eq 0 ]
        ! grep -qE '"problem":"(io-error|fs-error)"' <<<"$output" || false
        # Of the oops rows only the two emerg ones (a double fault, an SError: pr_emerg); the bad mode (pr_emerg too)
        # is arm64's panic.
        [ "$(grep -c '"problem":"oops"' <<<"$output")" -eq 2 ]
        [ "$(grep '"problem":"oops"' <<<"$output" | grep -oE '"first_seq":[0-9]+' | tr '\n' ' ')" = '"first_seq":281 "first_seq":282 ' ]
        grep -qF '"first_seq":283,"last_seq":283,"time_first":731.500000,"time_last":731.500000,"subject":"kernel panic: bad mode"' <<<"$output"
        grep -qF '"problem":"panic"' <<<"$output"
        # unregister_netdevice's line is at emerg (pr_emerg), the WARN lines are not.
        ! grep -qF '"subject":"WARNING' <<<"$output" || false
}

@test "--fail-on-problem: exit 4 when a problem was found, 0 and one line when none" {
        run "$KDMESG" -K "$DUMP" --fail-on-problem
        [ "$status" -eq 4 ]
        run "$KDMESG" -K "$DUMP" --fail-on-problem --problem thermal -q
        [ "$status" -eq 4 ]
        [ "${#lines[@]}" -eq 4 ]
        run "$KDMESG" -K "$DATA/classic.kmsg" --fail-on-problem --problems -q
        [ "$status" -eq 0 ]
        [ "$output" = "-- No known problems found --" ]
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
        [ "$output" = '{"problem":"link-down","count":1,"first_seq":0,"last_seq":0,"time_first":0.001000,"time_last":0.001000,"subject":"eth9","first":true,"message":"myeth eth9: carrier gone"}' ]
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
        printf '# ok\nsegfault /x/\noom /y/\n' | check_bad "3: unknown kind 'oom' (expected panic, oops, hard-lockup, soft-lockup, rcu-stall, hung-task, mce, oom-kill, fs-error, io-error, thermal, lockdep, memory-leak, segfault, warning, link-down, any or ignore)"
        printf 'oops\n' | check_bad "1: no /regex/"
        printf 'oops /a(/\n' | check_bad "1: bad regex: Unmatched ( or \\("
        printf 'oops /abc\n' | check_bad "1: the regex has no closing '/'"
        printf 'oops /abc/ x\n' | check_bad "1: ' x' after the regex"
        printf 'oops colour=red /abc/\n' | check_bad "1: unknown word 'colour=red'"
        printf 'oops level=bad /abc/\n' | check_bad "1: unknown level 'bad'"
        printf 'oops subject=\\2 /(a)/\n' | check_bad "1: subject=: \\2, but the regex has 1 groups"
        printf 'oops subject="a b /x/\n' | check_bad "1: a quoted value has no closing '\"'"
        printf 'any /x/\n' | check_bad "1: 'any' is only for 'part', 'stop', 'frame', 'skip' and 'anchor' rules"
        printf 'oops part level=err /x/\n' | check_bad "1: a 'part' rule takes no conditions and no devname"
        printf 'oops /^(a*)*\\1X$/\n' | check_bad "1: regex too costly: a back-reference (\\1 to \\9): its matching time has no bound"
        printf 'oops //\n' | check_bad "1: an empty regex"
}

@test "no shipped rules file: one line, exit 1" {
        KDMESG_PROBLEMS_RULES=/nonexistent/problems.rules run --separate-stderr "$KDMESG" -K "$DUMP" --problems
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot read the problem rules /nonexistent/problems.rules: No such file or directory" ]
}

@test "bad combinations and kinds are refused before reading" {
        run --separate-stderr "$KDMESG" -K "$DUMP" --problem bogus
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: unknown problem kind 'bogus' (expected one of: panic oops hard-lockup soft-lockup rcu-stall hung-task mce oom-kill fs-error io-error thermal lockdep memory-leak segfault warning link-down)" ]
        # A prefix that only one kind has is that kind (issue 43); one that several have is not.
        run --separate-stderr "$KDMESG" -K "$DUMP" --problem oom --problems
        [ "$status" -eq 0 ]
        [[ "${lines[1]}" == "1* oom-kill "* ]]
        run --separate-stderr "$KDMESG" -K "$DUMP" --problem s
        [ "$status" -eq 1 ]
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
        [[ "${lines[0]}" == " # KIND "* ]]
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
        [ "$output" = "$(printf -- '--problems\n--problem\n--problem-rules')" ]
        run bash_complete --problem l
        [ "$output" = "$(printf 'lockdep\nlink-down')" ]
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

@test "the rules are built in: kdmesg works from its build tree, with the rules of data/problems.rules" {
        # Set and empty: the built-in rules, whatever is installed.
        KDMESG_PROBLEMS_RULES= run --separate-stderr "$KDMESG" -K "$DUMP" --problems --json
        [ "$status" -eq 0 ]
        diff -u <("$KDMESG" -K "$DUMP" --problems --json) <(printf '%s\n' "$output")
        KDMESG_PROBLEMS_RULES= run "$KDMESG" --list-problem-rules
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == "<built-in>:"*": any part end /"* ]]
        [ "${#lines[@]}" -eq "$(grep -cvE '^[[:space:]]*(#|$)' "$KDMESG_PROBLEMS_RULES")" ]
        # Unset, as a user runs it: the built-in rules unless the data directory has the file.
        local f
        for f in /usr/local/share/kdmesg/problems.rules /usr/share/kdmesg/problems.rules; do
                [ ! -e "$f" ] || skip "$f is installed"
        done
        unset KDMESG_PROBLEMS_RULES
        run --separate-stderr "$KDMESG" -K "$DUMP" --problem panic -q
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${#lines[@]}" -eq 5 ]
}

@test "--problem-rules FILE: only its rules; --list-problem-rules names each rule's file and line" {
        user_rules 10-local.rules <<'RULES'
# ours
segfault subject=mine /^mine$/
RULES
        printf 'thermal subject=\\1 /^(hot)$/\n' >"$BATS_TEST_TMPDIR/only.rules"
        run "$KDMESG" --list-problem-rules
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "$KDMESG_PROBLEMS_DIR/10-local.rules:2: segfault subject=mine /^mine\$/" ]
        [[ "${lines[1]}" == "$KDMESG_PROBLEMS_RULES:"*": any part end "* ]]
        run "$KDMESG" --problem-rules "$BATS_TEST_TMPDIR/only.rules" --list-problem-rules
        [ "$status" -eq 0 ]
        [ "$output" = "$BATS_TEST_TMPDIR/only.rules:1: thermal subject=\\1 /^(hot)\$/" ]
        printf '4,0,1000,-;hot\n4,1,2000,-;mine\n4,2,3000,-;Kernel panic - not syncing: x\n' >"$BATS_TEST_TMPDIR/d.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/d.kmsg" --problem-rules "$BATS_TEST_TMPDIR/only.rules" --problems --json
        [ "$status" -eq 0 ]
        [ "$output" = '{"problem":"thermal","count":1,"first_seq":0,"last_seq":0,"time_first":0.001000,"time_last":0.001000,"subject":"hot","first":true,"message":"hot"}' ]
        # Control bytes of a rules file are escaped in the list.
        printf 'thermal /\033x/\n' >"$BATS_TEST_TMPDIR/esc.rules"
        run "$KDMESG" --problem-rules "$BATS_TEST_TMPDIR/esc.rules" --list-problem-rules
        [ "$output" = "$BATS_TEST_TMPDIR/esc.rules:1: thermal /\\x1bx/" ]
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/d.kmsg" --problem-rules /nonexistent.rules --problems
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot read the problem rules /nonexistent.rules: No such file or directory" ]
}

@test "a FIFO among the rules files is refused at once, never waited on" {
        mkdir -p "$KDMESG_PROBLEMS_DIR"
        mkfifo "$KDMESG_PROBLEMS_DIR/50-fifo.rules"
        run --separate-stderr timeout 10 "$KDMESG" -K "$DUMP" --problems
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot read the problem rules $KDMESG_PROBLEMS_DIR/50-fifo.rules: not a regular file" ]
        rm "$KDMESG_PROBLEMS_DIR/50-fifo.rules"
        mkfifo "$BATS_TEST_TMPDIR/fifo"
        run --separate-stderr timeout 10 "$KDMESG" -K "$DUMP" --problems --problem-rules "$BATS_TEST_TMPDIR/fifo"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot read the problem rules $BATS_TEST_TMPDIR/fifo: not a regular file" ]
}

@test "no verdict on unread input: how many lines could not be read, never 'No known problems found.'" {
        # dmesg -T output: no line of it is a record kdmesg reads.
        printf '[Mon Nov 13 22:13:20 2023] a[1]: segfault at 0 ip 1 sp 2 error 4 in a[1+1]\n%.0s' 1 2 3 >"$BATS_TEST_TMPDIR/t.txt"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/t.txt" --input-format=kmsg --problems
        [ "$status" -eq 1 ]
        # Not a kernel log at all (issue 43): one line on stderr, no verdict on the file.
        [ "$stderr" = "kdmesg: $BATS_TEST_TMPDIR/t.txt: not a kernel log: none of its 3 lines is a record (line 1: bad header: no ';' before the end of the line)" ]
        [ "$output" = "$(printf 'Lines that could not be read: 3; no verdict on them.\n-- No verdict on %s: it could not be read --' "$BATS_TEST_TMPDIR/t.txt")" ]
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/t.txt" --input-format=kmsg --problems --json
        [ "$status" -eq 1 ]
        [ "$output" = '{"unread":3,"unread_inputs":1}' ]
        # Some read, some not: the verdict is on what was read only.
        printf '6,0,1000,-;usb 1-1: new device\nnonsense\n' >"$BATS_TEST_TMPDIR/m.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/m.kmsg" --problems
        [ "$status" -eq 1 ]
        [ "$output" = "$(printf -- '-- No known problems in the records that were read --\nLines that could not be read: 1; no verdict on them.')" ]
        printf '6,0,1000,-;a[1]: segfault at 0 ip 1 sp 2 error 4 in a[1+1]\nnonsense\n' >"$BATS_TEST_TMPDIR/m.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/m.kmsg" --problems
        [ "${lines[2]}" = "Lines that could not be read: 1; no verdict on them." ]
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/m.kmsg" --problems --json
        [ "${lines[1]}" = '{"unread":1}' ]
}

@test "a report runs to its end: the 3.x oops with its task line, KASAN and KFENCE to their line of '='" {
        run "$KDMESG" -K "$DUMP" --problem oops --format=cat
        [ "$status" -eq 0 ]
        [[ "$output" == *$'task: ffff880036a1c800 ti: ffff880036b2c000 task.ti: ffff880036b2c000\nRIP: 0010:'* ]]
        [[ "$output" == *$'Read of size 4 at addr ffff888012345678 by task swapper/1/0\n\nCPU: 1 PID: 0'* ]]
        [[ "$output" == *$'                   ^\n=================================================================='* ]]
        [[ "$output" == *$'Out-of-bounds read at 0xffffffffb672efff (1B left of kfence-#17):'* ]]
        [[ "$output" != *"Disabling lock debugging"* ]]
        run "$KDMESG" -K "$DUMP" --problem hung-task --format=cat
        [[ "$output" == *$'getty           D    0   612      1 0x00000000\n'* ]]
        run "$KDMESG" -K "$DUMP" --problem rcu-stall --format=cat
        [[ "$output" == *$'rcu_preempt     R  running task        0     9      2 0x00000000\nCall Trace:'* ]]
        [[ "$output" == *"All QSes seen, last rcu_preempt kthread activity"* ]]
}

@test "a hung task whose command name holds bytes of invalid UTF-8 is found, in a UTF-8 locale too" {
        local dump=$BATS_TEST_TMPDIR/garbled.kmsg
        printf '%s\n' '3,1,1000000,-;INFO: task syz\xff\xfeexec:123 blocked for more than 143 seconds.' \
                '4,2,1000001,-; __schedule+0x1/0x2' '4,3,1000002,-; rtnl_lock+0x1/0x2' >"$dump"
        for l in C.UTF-8 C; do
                run env LC_ALL=$l "$KDMESG" -K "$dump" --problems --json
                [ "$status" -eq 0 ]
                grep -qF '"problem":"hung-task","count":1,' <<<"$output"
                grep -qF '"subject":"INFO: task hung in rtnl_lock"' <<<"$output"
        done
}

@test "a report and its fallout: the rows in the order they came, the first marked in the table and in JSON" {
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problems
        [ "$status" -eq 0 ]
        golden problems/fallout.txt
        # The KASAN report came first: row 1, marked; the kernel BUG and the panic after it.
        [[ "${lines[1]}" == "1* oops "*" KASAN: slab-use-after-free Read in demo_rx "* ]]
        [[ "${lines[2]}" == "2  oops "*" kernel BUG in demo_free "* ]]
        [[ "${lines[3]}" == "3  panic "*" kernel panic: Fatal exception "* ]]
        [ "$(grep -c '\*' <<<"$output")" -eq 1 ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problems --json
        [ "$status" -eq 0 ]
        [ "$(grep -c '"first":true' <<<"$output")" -eq 1 ]
        grep '"first":true' <<<"$output" | grep -qF '"subject":"KASAN: slab-use-after-free Read in demo_rx"'
}

@test "--problem N: the records of row N, report after report, a line between two" {
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 1
        [ "$status" -eq 0 ]
        golden problems/fallout-row1.txt
        # Both KASAN reports, nothing of the fallout.
        [ "$(grep -c 'BUG: KASAN' <<<"$output")" -eq 2 ]
        [ "$(grep -cx -- '-- report 2 of 2 --' <<<"$output")" -eq 1 ]
        ! grep -qE 'kernel BUG at|Kernel panic' <<<"$output" || false
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 2
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == *"kernel BUG at drivers/net/demo.c:412!" ]]
        [[ "${lines[1]}" == *"Oops: invalid opcode: 0000 [#2]"* ]]
        ! grep -qF -- '-- report' <<<"$output" || false
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 4
        [ "$status" -eq 0 ]
        [ "$output" = "-- No row 4: --problems has 3 rows --" ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 0
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problem 0: a row of --problems is a number from 1" ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 1 --problem oops
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problem N is a row of --problems; not with --problem KIND" ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 1 --problems
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problem N cannot be used with --problems" ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problem 1 --json
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --problem N prints the records as the default view; not --format=json" ]
}

@test "several inputs: a FILE column, and a row is of one file; one input: none" {
        local two=$BATS_TEST_TMPDIR/two.kmsg
        printf '%s\n' '4,100,1000000,-;general protection fault, probably for non-canonical address 0xdffffc0000000003: 0000 [#1] SMP' \
                '4,101,1000001,-;RIP: 0010:demo_other+0x1/0x2' '0,102,1500000,-;Kernel panic - not syncing: Fatal exception' >"$two"
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" -K "$two" --problems
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == " # FILE "*" KIND "* ]]
        [ "$(grep -c "^[0-9]. *$DATA/fallout.kmsg " <<<"$output")" -eq 3 ]
        [ "$(grep -c "^[0-9]. *$two " <<<"$output")" -eq 2 ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" -K "$two" --problems --json
        [ "$(grep -c "\"file\":\"$two\"" <<<"$output")" -eq 2 ]
        run --separate-stderr "$KDMESG" -K "$DATA/fallout.kmsg" --problems
        [[ "${lines[0]}" == " # KIND "* ]]
        ! grep -qF '"file"' <<<"$("$KDMESG" -K "$DATA/fallout.kmsg" --problems --json)" || false
}

@test "a stall and a soft lockup are titled by where the looping code was entered: the call before the VFS, or the system call" {
        # kernel/rcu/tree_stall.h and kernel/watchdog.c's first lines, show_trace_log_lvl()'s frames (5.x).
        local dump=$BATS_TEST_TMPDIR/stall.kmsg
        printf '%s\n' '3,1,1000000,-;rcu: INFO: rcu_preempt self-detected stall on CPU' \
                '4,2,1000001,-;Call Trace:' '4,3,1000002,-; <IRQ>' \
                '4,4,1000003,-; rcu_sched_clock_irq.cold+0x1/0x2' '4,5,1000004,-; update_process_times+0x1/0x2' \
                '4,6,1000005,-; </IRQ>' '4,7,1000006,-;RIP: 0010:memcpy_erms+0x6/0x10' \
                '4,8,1000007,-; mulaw_decode+0x52f/0x770' '4,9,1000008,-; snd_pcm_oss_write2.isra.3+0x260/0x420' \
                '4,10,1000009,-; snd_pcm_oss_write+0x5fe/0x830' '4,11,1000010,-; vfs_write+0x189/0x510' \
                '4,12,1000011,-; ksys_write+0x1/0x2' '4,13,1000012,-; do_syscall_64+0x1/0x2' \
                '0,14,9000000,-;watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [syz-executor:123]' \
                '4,15,9000001,-;RIP: 0010:d_walk+0x1/0x2' '4,16,9000002,-; shrink_dcache_parent+0x1/0x2' \
                '4,17,9000003,-; vfs_rmdir+0x1/0x2' '4,18,9000004,-; do_rmdir+0x1/0x2' \
                '4,19,9000005,-; __x64_sys_rmdir+0x1/0x2' '4,20,9000006,-; do_syscall_64+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"INFO: rcu detected stall in snd_pcm_oss_write"' <<<"$output"
        grep -qF '"subject":"BUG: soft lockup in sys_rmdir"' <<<"$output"
}

@test "scheduling while atomic and a sleep in atomic context: titled by the caller of the scheduler, not where preemption was disabled" {
        # kernel/sched/core.c __schedule_bug() (5.x, panic_on_warn) and __might_resched()'s first lines.
        local dump=$BATS_TEST_TMPDIR/atomic.kmsg
        printf '%s\n' '3,1,1000000,-;BUG: scheduling while atomic: syz-executor.1/12771/0x00000002' \
                '3,2,1000001,-;Preemption disabled at:' '3,3,1000002,-;[<ffffffff812b2934>] kernel_fpu_begin_mask+0x64/0x260' \
                '0,4,1000003,-;Kernel panic - not syncing: scheduling while atomic' '4,5,1000004,-;Call Trace:' \
                '4,6,1000005,-; dump_stack_lvl+0x1/0x2' '4,7,1000006,-; panic+0x1/0x2' '4,8,1000007,-; __schedule_bug.cold+0x1/0x2' \
                '4,9,1000008,-; __schedule+0x1/0x2' '4,10,1000009,-; schedule+0x1/0x2' \
                '4,11,1000010,-; exit_to_user_mode_prepare+0x1/0x2' \
                '3,12,9000000,-;BUG: sleeping function called from invalid context at include/linux/sched/mm.h:201' \
                '3,13,9000001,-;Preemption disabled at:' '3,14,9000002,-;[<ffffffff8709e980>] __dev_queue_xmit+0x1f0/0x2e30' \
                '4,15,9000003,-;Call Trace:' '4,16,9000004,-; dump_stack+0x1/0x2' '4,17,9000005,-; ___might_sleep.cold+0x1/0x2' \
                '4,18,9000006,-; kmem_cache_alloc_node+0x1/0x2' '4,19,9000007,-; __alloc_skb+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"BUG: scheduling while atomic in exit_to_user_mode_prepare"' <<<"$output"
        grep -qF '"subject":"BUG: sleeping function called from invalid context in __alloc_skb"' <<<"$output"
        ! grep -qF '"problem":"panic"' <<<"$output" || false
}

@test "titles from the kernel's own words: the unmount of a dentry still in use, the work function that leaked a lock, the caller of the run-queue lock" {
        # fs/dcache.c umount_check(), kernel/workqueue.c process_one_work(), kernel/locking/spinlock_debug.c
        # spin_bug() with its trace (4.x), lockdep's "already holding lock" when the lock taken is machinery.
        local dump=$BATS_TEST_TMPDIR/words.kmsg
        printf '%s\n' '3,1,1000000,-;BUG: Dentry ffff888119d8a000{i=0,n=.index}  still in use (1) [unmount of ramfs ramfs]' \
                '3,2,5000000,-;BUG: workqueue leaked lock or atomic: kworker/0:0/0x00000000/4' \
                '3,3,5000001,-;     last function: addrconf_dad_work' \
                '4,4,5000002,-; #0:  (rcu_read_lock_bh){......}, at: [<ffffffff8294ef60>] hashlimit_mt_common.isra.11+0x190/0x22a0' \
                '3,5,9000000,-;BUG: spinlock recursion on CPU#0, syz-executor7/5032' \
                '4,6,9000001,-; [<ffffffff834c3ae9>] dump_stack+0x2ee/0x3f5' '4,7,9000002,-; [<ffffffff81577284>] do_raw_spin_lock+0x3f4/0x5d0' \
                '4,8,9000003,-; [<ffffffff814b7615>] __task_rq_lock+0xf5/0x330' '4,9,9000004,-; [<ffffffff814c89b2>] wake_up_new_task+0x592/0x1000' \
                '4,10,13000000,-;WARNING: possible circular locking dependency detected' \
                '4,11,13000001,-;syz-executor.2/31457 is trying to acquire lock:' \
                '4,12,13000002,-;ffffffff8600aef8 ((console_sem).lock){-.-.}, at: down_trylock+0x13/0x70' \
                '4,13,13000003,-;but task is already holding lock:' \
                '4,14,13000004,-;ffff88006c849558 (&rq->lock){-.-.}, at: tick_handler+0x17e/0xb00' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"BUG: Dentry still in use in unmount"' <<<"$output"
        grep -qF '"subject":"BUG: workqueue leaked lock or atomic in addrconf_dad_work"' <<<"$output"
        grep -qF '"subject":"BUG: spinlock recursion in wake_up_new_task"' <<<"$output"
        grep -qF '"subject":"possible deadlock in tick_handler"' <<<"$output"
}

@test "panic_on_warn's dots, arm64's bad mode panic and a WARNING of a task whose PID went bad are found and titled" {
        # kernel/panic.c 4.x panic("panic_on_warn set ...\n"); arch/arm64/kernel/traps.c bad_mode() and its
        # panic("bad mode"); kernel/panic.c __warn() prints the PID with %d.
        local dump=$BATS_TEST_TMPDIR/panics.kmsg
        printf '%s\n' '0,1,1000000,-;Kernel panic - not syncing: panic_on_warn set ...' \
                '2,2,9000000,-;Bad mode in Synchronous Abort handler detected on CPU0, code 0x34000001 -- BTI' \
                '0,3,9000001,-;Kernel panic - not syncing: bad mode' \
                '4,4,19000000,-;WARNING: CPU: 5 PID: -534549613 at kernel/sched/core.c:2681 finish_task_switch+0x230/0x23c' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"problem":"panic","count":1,"first_seq":1,"last_seq":1,' <<<"$output"
        grep -qF '"subject":"kernel panic: panic_on_warn set"' <<<"$output"
        # The panic that bad_mode() ends in is a line of its report, no second problem.
        [ "${#lines[@]}" -eq 3 ]
        grep -qF '"problem":"panic","count":1,"first_seq":2,"last_seq":2,' <<<"$output"
        grep -qF '"subject":"kernel panic: bad mode"' <<<"$output"
        grep -qF '"subject":"WARNING in finish_task_switch"' <<<"$output"
}

@test "an audit record printed in the middle of a report does not end it" {
        # kauditd prints "audit: type=1400 ..." whenever it runs; __warn()'s panic_on_warn and its trace follow.
        local dump=$BATS_TEST_TMPDIR/audit.kmsg
        printf '%s\n' '4,1,1000000,-;WARNING: CPU: 1 PID: 15540 at mm/page_alloc.c:4977 __alloc_pages_nodemask+0x1/0x2' \
                '5,2,1000001,-;audit: type=1400 audit(1518457683.474:8): avc:  denied  { map_create } for  pid=4183' \
                '0,3,1000002,-;Kernel panic - not syncing: panic_on_warn set ...' '4,4,1000003,-;Call Trace:' \
                '4,5,1000004,-; __kmalloc+0x1/0x2' '4,6,1000005,-; rds_rdma_extra_size+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 1 ]
        grep -qF '"subject":"WARNING in rds_rdma_extra_size"' <<<"$output"
}

@test "a stall in a page fault is titled by the ->fault that __do_fault() called" {
        local dump=$BATS_TEST_TMPDIR/fault.kmsg
        printf '%s\n' '3,1,1000000,-;INFO: rcu_preempt detected stalls on CPUs/tasks:' \
                '4,2,1000001,-; oom_kill_process.cold.9+0x1/0x2' '4,3,1000002,-; out_of_memory+0x1/0x2' \
                '4,4,1000003,-; filemap_fault+0x1/0x2' '4,5,1000004,-; ext4_filemap_fault+0x1/0x2' \
                '4,6,1000005,-; __do_fault+0x1/0x2' '4,7,1000006,-; handle_mm_fault+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"INFO: rcu detected stall in ext4_filemap_fault"' <<<"$output"
}

@test "a KASAN report past the timer and driver-core helpers: the caller that deleted the timer or removed the file" {
        # mm/kasan/report.c's first lines and dump_stack_lvl()'s trace (6.x).
        local dump=$BATS_TEST_TMPDIR/helpers.kmsg
        printf '%s\n' '3,1,1000000,-;BUG: KASAN: slab-use-after-free in lock_timer_base+0x1d9/0x220' \
                '3,2,1000001,-;Read of size 4 at addr ffff88804c251150 by task kworker/0:4/5994' \
                '4,3,1000002,-; lock_timer_base+0x1d9/0x220' '4,4,1000003,-; __try_to_del_timer_sync+0x8d/0x170' \
                '4,5,1000004,-; __timer_delete_sync+0xf4/0x1b0' '4,6,1000005,-; sk_stop_timer_sync+0x1b/0x80' \
                '4,7,1000006,-; mptcp_pm_del_add_timer+0x1ae/0x320' \
                '3,8,9000000,-;BUG: KASAN: use-after-free in sysfs_remove_file_ns+0x1/0x2' \
                '3,9,9000001,-;Read of size 8 at addr ffff88804c251150 by task kworker/0:4/5994' \
                '4,10,9000002,-; device_remove_file+0x1/0x2' '4,11,9000003,-; usbvision_release+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"KASAN: slab-use-after-free Read in mptcp_pm_del_add_timer"' <<<"$output"
        grep -qF '"subject":"KASAN: use-after-free Read in usbvision_release"' <<<"$output"
}

@test "a stack that overflowed in the scheduler is titled where the deep code was entered: the work function, the system call" {
        # kernel/sched/core.c schedule_debug(): panic("corrupted stack end detected inside scheduler\n").
        local dump=$BATS_TEST_TMPDIR/stackend.kmsg
        printf '%s\n' '0,1,1000000,-;Kernel panic - not syncing: corrupted stack end detected inside scheduler' \
                '4,2,1000001,-; __schedule+0x1/0x2' '4,3,1000002,-; pagecache_get_page+0x1/0x2' \
                '4,4,1000003,-; ext4_writepages+0x1/0x2' '4,5,1000004,-; wb_workfn+0x1/0x2' \
                '4,6,1000005,-; process_one_work+0x1/0x2' \
                '0,7,9000000,-;Kernel panic - not syncing: corrupted stack end detected inside scheduler' \
                '4,8,9000001,-; selinux_inode_alloc_security+0x1/0x2' '4,9,9000002,-; sock_alloc+0x1/0x2' \
                '4,10,9000003,-; __sys_socket+0x1/0x2' '4,11,9000004,-; __arm64_sys_socket+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"kernel panic: corrupted stack end in wb_workfn"' <<<"$output"
        grep -qF '"subject":"kernel panic: corrupted stack end in sys_socket"' <<<"$output"
}

@test "a stack guard page hit by a recursion is titled by the function that calls itself" {
        # arch/x86/kernel/traps.c handle_stack_overflow() (5.x+).
        local dump=$BATS_TEST_TMPDIR/guard.kmsg
        printf '%s\n' '0,1,1000000,-;BUG: TASK stack guard page was hit at ffffc900054afff8 (stack is ffffc900054b0000..ffffc900054b8000)' \
                '4,2,1000001,-;RIP: 0010:__sanitizer_cov_trace_const_cmp4+0x1/0x2' '4,3,1000002,-;Call Trace:' \
                '4,4,1000003,-; do_tls_setsockopt+0x1/0x2' '4,5,1000004,-; tls_setsockopt+0x1/0x2' \
                '4,6,1000005,-; tls_setsockopt+0x1/0x2' '4,7,1000006,-; tls_setsockopt+0x1/0x2' \
                '0,8,9000000,-;BUG: TASK stack guard page was hit at ffffc900054afff8 (stack is ffffc900054b0000..ffffc900054b8000)' \
                '4,9,9000001,-; netdev_next_lower_dev_rcu+0x1/0x2' '4,10,9000002,-; __netdev_update_features+0x1/0x2' \
                '4,11,9000003,-; rtnl_newlink+0x1/0x2' '4,12,9000004,-; rtnetlink_rcv_msg+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"BUG: stack guard page was hit in tls_setsockopt"' <<<"$output"
        grep -qF '"subject":"BUG: stack guard page was hit in rtnl_newlink"' <<<"$output"
}

@test "a bad page state past the page cache and page pool allocators, a WARNING past mark_buffer_dirty()" {
        # mm/page_alloc.c bad_page() with page_owner's allocation stack (6.x), fs/buffer.c's WARN_ON_ONCE() (6.19 form).
        local dump=$BATS_TEST_TMPDIR/pages.kmsg
        printf '%s\n' '1,1,1000000,-;BUG: Bad page state in process syz-executor209  pfn:7deea' \
                '4,2,1000001,-; post_alloc_hook+0x1/0x2' '4,3,1000002,-; __alloc_pages_noprof+0x1/0x2' \
                '4,4,1000003,-; filemap_alloc_folio_noprof+0x1/0x2' '4,5,1000004,-; __filemap_get_folio+0x1/0x2' \
                '4,6,1000005,-; pagecache_get_page+0x1/0x2' '4,7,1000006,-; __get_metapage+0x1/0x2' \
                '4,8,9000000,-;WARNING: fs/buffer.c:1183 at mark_buffer_dirty+0x1/0x2, CPU#1: syz/123' \
                '4,9,9000001,-;RIP: 0010:mark_buffer_dirty+0x1/0x2' '4,10,9000002,-; bfs_get_block+0x1/0x2' >"$dump"
        run "$KDMESG" -K "$dump" --problems --json
        [ "$status" -eq 0 ]
        grep -qF '"subject":"BUG: Bad page state in __get_metapage"' <<<"$output"
        grep -qF '"subject":"WARNING in bfs_get_block"' <<<"$output"
}
