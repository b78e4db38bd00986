#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Output formats (--format, -J, -r), the column table (-o, --list-columns,
# --noheadings), round trips through kmsg, json and export, loss events in
# every format, and compatibility with util-linux dmesg --json.

load helpers
load emu
bats_require_minimum_version 1.5.0

SRC="$TESTS/.."
SCHEMA="$SRC/data/kdmesg-record.schema.json"
F="$DATA/formats.kmsg"        # escapes, binary bytes, dictionaries, odd keys, a gap
REAL="$DATA/formats-real.kmsg" # captured from /dev/kmsg of a test machine
EMPTY="$DATA/empty.kmsg"

# need TOOL...: the tools a test needs.  tools/install-deps installs them on
# the CI machine, so a missing one fails the test instead of skipping it.
need() {
        local t
        for t in "$@"; do
                command -v "$t" >/dev/null || [ -x "$t" ] || {
                        echo "$t is missing: run tools/install-deps" >&2
                        return 1
                }
        done
}

# --- every format, golden files ---------------------------------------------

@test "--format=short (the default): golden" {
        run --separate-stderr "$KDMESG" -K "$F" --format=short
        [ "$status" -eq 0 ]
        golden classic/formats-short.out
        [ "$("$KDMESG" -K "$F" 2>/dev/null)" = "$output" ]
}

@test "--format=json: golden" {
        run --separate-stderr "$KDMESG" -K "$F" --format=json
        [ "$status" -eq 0 ]
        golden json/formats-json.out
}

@test "-J and --json are --format=json" {
        a=$("$KDMESG" -K "$F" --format=json)
        [ "$("$KDMESG" -K "$F" -J)" = "$a" ]
        [ "$("$KDMESG" -K "$F" --json)" = "$a" ]
}

@test "--format=json-dmesg: golden" {
        run --separate-stderr "$KDMESG" -K "$F" --format=json-dmesg
        [ "$status" -eq 0 ]
        golden json/formats-json-dmesg.out
        [ "$("$KDMESG" -K "$F" --json=dmesg 2>/dev/null)" = "$output" ]
}

@test "--format=syslog: golden, and -r is the same" {
        run --separate-stderr "$KDMESG" -K "$F" --format=syslog
        [ "$status" -eq 0 ]
        golden syslog/formats-syslog.out
        [ "$("$KDMESG" -K "$F" -r)" = "$output" ]
        [ "$("$KDMESG" -K "$F" --raw)" = "$output" ]
}

@test "--format=cat: golden" {
        run --separate-stderr "$KDMESG" -K "$F" --format=cat
        [ "$status" -eq 0 ]
        golden cat/formats-cat.out
}

@test "--format=kmsg: golden (the input itself)" {
        run --separate-stderr "$KDMESG" -K "$F" --format=kmsg
        [ "$status" -eq 0 ]
        golden kmsg/formats-kmsg.out
}

@test "--format=export: golden (binary-safe, pinned boot time)" {
        KDMESG_BOOT_TIME=@1700000000 "$KDMESG" -K "$F" --format=export > "$BATS_TEST_TMPDIR/x" 2>/dev/null
        cmp "$BATS_TEST_TMPDIR/x" "$EXPECTED/export/formats-export.out"
}

@test "--format=table: golden" {
        run --separate-stderr "$KDMESG" -K "$F" --format=table
        [ "$status" -eq 0 ]
        golden table/formats-table.out
}

# --- bad values --------------------------------------------------------------

bad_usage() {
        run --separate-stderr "$KDMESG" "$@"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
}

@test "a bad --format value: one line, exit 1" {
        bad_usage -K "$F" --format=xml
        [ "${stderr_lines[0]}" = "kdmesg: unknown output format 'xml'" ]
}

@test "a bad --json variant: one line, exit 1" {
        bad_usage -K "$F" --json=yaml
        [ "${stderr_lines[0]}" = "kdmesg: unknown --json variant 'yaml' (only 'dmesg')" ]
}

@test "a bad -o name: one line, exit 1" {
        bad_usage -K "$F" -o SEQ,NOPE,MESSAGE
        [ "${stderr_lines[0]}" = "kdmesg: unknown column 'NOPE'" ]
        bad_usage -K "$F" -o SEQ,,MESSAGE
        [ "${stderr_lines[0]}" = "kdmesg: unknown column ''" ]
        bad_usage -K "$F" -o D:
        [ "${stderr_lines[0]}" = "kdmesg: unknown column 'D:'" ]
        bad_usage -K "$F" -o TIME,DEV.
        [ "${stderr_lines[0]}" = "kdmesg: unknown column 'DEV.'" ]
        bad_usage -K "$F" -o DEVX
        [ "${stderr_lines[0]}" = "kdmesg: unknown column 'DEVX'" ]
}

@test "two options that choose different formats: one line naming both, exit 1 (issue 30)" {
        bad_usage -K "$F" --json --format=table
        [ "${stderr_lines[0]}" = "kdmesg: --json and --format=table cannot be used together" ]
        bad_usage -K "$F" --format=table -J
        [ "${stderr_lines[0]}" = "kdmesg: --format=table and --json cannot be used together" ]
        bad_usage -K "$F" -r --json
        [ "${stderr_lines[0]}" = "kdmesg: --raw and --json cannot be used together" ]
        bad_usage -K "$F" --json=dmesg --raw
        [ "${stderr_lines[0]}" = "kdmesg: --json=dmesg and --raw cannot be used together" ]
        bad_usage -K "$F" --format=kmsg --format=export
        [ "${stderr_lines[0]}" = "kdmesg: --format=kmsg and --format=export cannot be used together" ]
        bad_usage -K "$F" --format=cat -r
        [ "${stderr_lines[0]}" = "kdmesg: --format=cat and --raw cannot be used together" ]
        bad_usage -K "$F" --format=json --format=json-dmesg
        [ "${stderr_lines[0]}" = "kdmesg: --format=json and --format=json-dmesg cannot be used together" ]
}

@test "one format named twice is that format; -J beside json or json-dmesg by name only says JSON, the last counts" {
        local json doc
        json=$("$KDMESG" -K "$F" --format=json)
        doc=$("$KDMESG" -K "$F" --format=json-dmesg)
        for a in "--json --format=json" "--format=json -J" "--json=dmesg --json" "-J -J"; do
                run --separate-stderr "$KDMESG" -K "$F" $a
                [ "$status" -eq 0 ]
                [ "$output" = "$json" ]
        done
        for a in "-J --format=json-dmesg" "--json --json=dmesg" "--format=json-dmesg --json=dmesg"; do
                run --separate-stderr "$KDMESG" -K "$F" $a
                [ "$status" -eq 0 ]
                [ "$output" = "$doc" ]
        done
        run --separate-stderr "$KDMESG" -K "$F" -r --format=syslog
        [ "$status" -eq 0 ]
        [ "$output" = "$("$KDMESG" -K "$F" -r)" ]
        run --separate-stderr "$KDMESG" -K "$F" --format=table --format=table
        [ "$status" -eq 0 ]
        [ "$output" = "$("$KDMESG" -K "$F" --format=table)" ]
}

@test "-o with another format than table: one line, exit 1" {
        bad_usage -K "$F" -J -o SEQ
        [ "${stderr_lines[0]}" = "kdmesg: -o chooses the columns of --format=table, not of --format=json" ]
        bad_usage -K "$F" -o SEQ --format=kmsg
        [ "${stderr_lines[0]}" = "kdmesg: -o chooses the columns of --format=table, not of --format=kmsg" ]
        # -o alone, or with --format=table in any order, is the table.
        [ "$("$KDMESG" -K "$F" -o SEQ 2>/dev/null)" = "$("$KDMESG" -K "$F" --format=table -o SEQ 2>/dev/null)" ]
        [ "$("$KDMESG" -K "$F" -o SEQ --format=table 2>/dev/null)" = "$("$KDMESG" -K "$F" --format=table -o SEQ 2>/dev/null)" ]
}

# --- columns -----------------------------------------------------------------

@test "--list-columns lists every column with its JSON type" {
        run --separate-stderr "$KDMESG" --list-columns
        [ "$status" -eq 0 ]
        golden table/formats-list-columns.out
}

@test "--help points at --list-columns for the columns, which lists every one" {
        run "$KDMESG" --help
        [[ "$output" == *"Columns: --list-columns."* ]]
        run "$KDMESG" --list-columns
        for c in SEQ TIME PRI FACILITY LEVEL FLAGS CALLER MESSAGE SUBSYSTEM DEVICE DEVNAME MATCH DICT DEV.KEY; do
                [[ "$output" == *"$c "* ]]
        done
}

@test "the bash and zsh completions offer exactly the columns of --list-columns" {
        want=$("$KDMESG" --list-columns | awk '{ print $1 }' | sed 's/^DEV\.KEY$/DEV./' | sort)
        bash_cols=$(grep -A1 -- '-o | --output)' "$SRC/completions/kdmesg.bash" | sed -n 's/.*_kdmesg_columns "\(.*\)"/\1/p' | tr ' ' '\n' | sort)
        [ "$bash_cols" = "$want" ]
        # zsh completes names only (a "DEV." there would get a space after it).
        zsh_cols=$(sed -n "s/.*--output=}'\[table columns\]:columns:_sequence compadd - \([^']*\)'.*/\1/p" "$SRC/completions/_kdmesg" | tr ' ' '\n' | sort)
        [ "$zsh_cols" = "$(grep -vx 'DEV.' <<<"$want")" ]
}

@test "every column with a JSON key is in the JSON Schema with the same type" {
        while read -r name type _; do
                [ "$name" = DEV.KEY ] && continue
                key=$(tr 'A-Z' 'a-z' <<<"$name")
                [ "$key" = message ] && key=msg
                # The JSON types the schema allows for the key ("integer" is a number,
                # an enum of strings a string, "bytes" a string or a byte array).
                run jq -r --arg k "$key" '
                        .definitions as $d
                        | def types: if has("$ref") then $d[.["$ref"] | sub("^#/definitions/"; "")] | types
                                     elif has("oneOf") then .oneOf[] | types
                                     elif has("enum") then .enum[] | type
                                     elif .type == "integer" then "number"
                                     else .type end;
                        [.definitions.record.properties[$k] // empty | types] | unique | join(",")' "$SCHEMA"
                echo "$name $key $type: $output"
                case $type in
                string) [ "$output" = string ] || [ "$output" = array,string ] ;;
                *) [ "$output" = "$type" ] ;;
                esac
        done < <("$KDMESG" --list-columns)
}

@test "every column with a JSON key is in --json output, with its type" {
        # A record that has every key: caller, fields, subsystem, device.
        line=$("$KDMESG" -K "$F" -J 2>/dev/null | grep -m1 '^{"seq"')
        while read -r name type _; do
                case $name in
                DEV.KEY) continue ;; # no JSON key
                MATCH) continue ;; # only on records --device-text selected (cli-devices.bats)
                esac
                key=$(tr 'A-Z' 'a-z' <<<"$name")
                [ "$key" = message ] && key=msg
                t=$(jq -r --arg k "$key" '.[$k] | type' <<<"$line")
                [ "$key" = msg ] && t=string # this one is not UTF-8: bytes
                echo "$name $key $type $t"
                [ "$t" = "$type" ]
        done < <("$KDMESG" --list-columns)
}

@test "kdmesg-formats(5)'s column table has the columns of --list-columns, with their JSON keys and types" {
        man="$SRC/man/kdmesg-formats.5.scd"
        # Rows of the scdoc table: "|  NAME", then ":  key", ":  type", ":  contents".
        theirs=$(awk '/^\[\[ \*Column\*/ { t = 1; next } t && /^$/ { exit }
                t && /^\|/ { printf "%s%s", (n++ ? "\n" : ""), $2; f = 0; next }
                t && /^:  / && f < 2 { printf " %s", $2; f++ }' "$man" | sed 's/^DEV\._KEY_/DEV.KEY/')
        ours=$("$KDMESG" --list-columns | while read -r name type _; do
                key=$(tr 'A-Z' 'a-z' <<<"$name")
                case $name in MESSAGE) key=msg ;; DEV.KEY) key=- ;; esac
                echo "$name $key $type"
        done)
        echo "$theirs" >&2
        [ "$(wc -l <<<"$ours")" -ge 14 ]
        [ "$theirs" = "$ours" ]
}

@test "kdmesg-formats(5)'s JSON loss object is what --json writes" {
        want=$(grep -o '{"first_seq":4,[^}]*}' "$SRC/man/kdmesg-formats.5.scd")
        [ -n "$want" ]
        printf '6,3,2000001,-;a\n6,10,3500000,-;b\n' > "$BATS_TEST_TMPDIR/g.kmsg"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/g.kmsg" -J 2>/dev/null | grep -qxF "$want"
}

@test "-o selects columns in order, names in any case, DEV.KEY (or D:KEY) for dictionary keys" {
        run --separate-stderr "$KDMESG" -K "$F" -o seq,DEV.DRIVER,facility,pri,flags,caller,DEVNAME,d:lower,MESSAGE
        [ "$status" -eq 0 ]
        golden table/formats-table-columns.out
        # The example of the man page and the short form give the same table.
        [ "$("$KDMESG" -K "$F" -o seq,D:DRIVER,facility,pri,flags,caller,DEVNAME,dev.lower,MESSAGE 2>/dev/null)" = "$output" ]
}

@test "-o DEV.KEY: a key with dots, dashes and digits; keys are case-sensitive" {
        run --separate-stderr "$KDMESG" -K "$F" -o SEQ,DEV.my.odd-key_1,DEV.DRIVER,dev.driver,DEV.MESSAGE
        [ "$status" -eq 0 ]
        golden table/formats-table-dictkeys.out
        # The value of the odd key is in its column (the NUL shows as \x00, as in the classic view).
        [[ "$(grep -E '^ +5 ' <<<"$output")" == *'v\x00al'*"e1000e"*"not the message"* ]]
        [[ "${lines[0]}" == *"my.odd-key_1"*"DRIVER"*"driver"*"MESSAGE"* ]]
}

@test "-o +LIST adds to the default columns" {
        run --separate-stderr "$KDMESG" -K "$F" -o +CALLER,DICT
        [ "$status" -eq 0 ]
        golden table/formats-table-plus.out
        # Before MESSAGE, the free text, which stays last (issue 43).
        [ "${lines[0]}" = "$(echo "${lines[0]}" | grep -E '^ +SEQ +TIME LEVEL +SUBSYSTEM DEVICE +CALLER +DICT +MESSAGE$')" ]
}

@test "-o given twice: the last list counts, as with lsblk" {
        [ "$("$KDMESG" -K "$F" -o SEQ,CALLER -o LEVEL 2>/dev/null)" = "$("$KDMESG" -K "$F" -o LEVEL 2>/dev/null)" ]
        [ "$("$KDMESG" -K "$F" -o SEQ -o +CALLER 2>/dev/null)" = "$("$KDMESG" -K "$F" -o +CALLER 2>/dev/null)" ]
        [ "$("$KDMESG" -K "$F" -o +CALLER -o SEQ 2>/dev/null | head -1)" = "SEQ" ]
}

@test "--noheadings drops the heading line only" {
        a=$("$KDMESG" -K "$F" -o SEQ,LEVEL,MESSAGE 2>/dev/null | tail -n +2)
        b=$("$KDMESG" -K "$F" -o SEQ,LEVEL,MESSAGE --noheadings 2>/dev/null)
        [ "$a" = "$b" ]
}

@test "table: the message wraps at COLUMNS and the other columns keep their place" {
        run --separate-stderr env COLUMNS=40 "$KDMESG" -K "$F" -o SEQ,LEVEL,MESSAGE
        [ "$status" -eq 0 ]
        golden table/formats-table-wrap.out
        # No table line is wider than the terminal (the loss line is not a table row).
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -le 40 ]
}

@test "table: on a narrow terminal the text columns are cut before a line gets too wide" {
        # 80 columns: everything fits, DEVICE whole, the message wraps.
        run --separate-stderr env COLUMNS=80 "$KDMESG" -K "$F" --format=table
        [ "$status" -eq 0 ]
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -le 80 ]
        [[ "${lines[1]}" == "      1      1.000000 info   pci       +pci:0000:00:1f.2 hello"* ]]
        # 60 columns: DEVICE is cut to fit, the rows keep their layout.
        run --separate-stderr env COLUMNS=60 "$KDMESG" -K "$F" --format=table
        [ "$status" -eq 0 ]
        golden table/formats-table-60.out
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -le 60 ]
        # In every batch (a loss line ends one) the message starts where its heading does.
        col=$(head -1 <<<"$output" | grep -bo MESSAGE | cut -d: -f1)
        [ -z "$(tail -n +2 <<<"$output" | grep -v '^-- ' | awk -v c="$col" 'substr($0, c, 1) != " "')" ]
        [ "$(grep -E '^ +[0-9]+ ' <<<"$output" | awk -v c="$col" 'substr($0, c + 1, 1) ~ /[a-z]/' | wc -l)" -eq 7 ]
}

@test "table: no line wider than COLUMNS once the columns fit, whatever column comes after MESSAGE" {
        # The narrowest width at which each set fits: the columns' usual widths, 7 for
        # MESSAGE and 1 between columns.  From there on, a cut column never pushes a line over.
        local c set floor
        for set in SEQ,CALLER,DEVICE,MESSAGE,LEVEL:40 SEQ,DICT,MESSAGE,FACILITY:35 DEVICE,MESSAGE,DEVNAME:26 \
                SEQ,TIME,LEVEL,SUBSYSTEM,DEVICE,MESSAGE:57 DEV.DRIVER,MESSAGE,SUBSYSTEM,DEVICE:35; do
                floor=${set#*:}
                for ((c = floor; c <= floor + 30; c++)); do
                        run --separate-stderr env COLUMNS=$c "$KDMESG" -K "$F" -o "${set%:*}"
                        [ "$status" -eq 0 ]
                        w=$(grep -v '^-- ' <<<"$output" | wc -L)
                        echo "$set COLUMNS=$c: $w"
                        [ "$w" -le "$c" ]
                done
        done
}

@test "table on a terminal: the message is cut at the terminal's width, or wrapped at spaces with --wrap, without COLUMNS" {
        need script
        run bash -c 'env -u COLUMNS script -qec "stty cols 40 rows 50; \"$1\" -P --color=never -K \"$2\" -o SEQ,LEVEL,MESSAGE 2>/dev/null" /dev/null < /dev/null | tr -d "\r"' _ "$KDMESG" "$F"
        [ "$status" -eq 0 ]
        # Cut with an ellipsis (layout.bats has the rest of the terminal's layout).
        golden table/formats-table-term-40.out
        run bash -c 'env -u COLUMNS script -qec "stty cols 40 rows 50; \"$1\" -P --color=never -K \"$2\" -o SEQ,LEVEL,MESSAGE --wrap 2>/dev/null" /dev/null < /dev/null | tr -d "\r"' _ "$KDMESG" "$F"
        [ "$status" -eq 0 ]
        golden table/formats-table-term-40-wrap.out
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -le 40 ]
        run bash -c 'env -u COLUMNS script -qec "stty cols 60 rows 50; \"$1\" -P --color=never -K \"$2\" -o SEQ,LEVEL,MESSAGE 2>/dev/null" /dev/null < /dev/null | tr -d "\r"' _ "$KDMESG" "$F"
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -le 60 ]
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -gt 40 ]
}

@test "table: a batch that widens a column comes under a heading of its own" {
        # 600 records; from seq 550 on the time needs 14 characters (a machine up 11.6 days).
        for ((i = 0; i < 600; i++)); do
                printf '6,%d,%d,-;m%d\n' $i $((i < 550 ? i * 1000 : 1000000000000 + i)) $i
        done > "$BATS_TEST_TMPDIR/up.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/up.kmsg" --format=table
        [ "$status" -eq 0 ]
        # Two headings: the first, and one before the second batch (seq 512), wider.
        [ "$(grep -c '^ *SEQ  *TIME ' <<<"$output")" -eq 2 ]
        [ "${lines[513]}" = "    SEQ           TIME LEVEL  SUBSYSTEM DEVICE     MESSAGE" ]
        [ "${lines[514]}" = "    512       0.512000 info                        m512" ]
        [ "${lines[552]}" = "    550 1000000.000550 info                        m550" ]
        # Every line has its message where the heading above it has MESSAGE.
        run awk '/MESSAGE$/ { col = index($0, "MESSAGE"); next }
                substr($0, col - 1, 1) != " " || substr($0, col, 1) !~ /m/ { print "misplaced: " NR ": " $0 }' <<<"$output"
        [ -z "$output" ]
        # --noheadings: no heading at all.
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/up.kmsg" --format=table --noheadings
        [ "${#lines[@]}" -eq 600 ]
}

@test "table: the columns kdmesg pads itself are the lines libsmartcols prints" {
        # Not a terminal, no COLUMNS: kdmesg lays the table out; KDMESG_TABLE_SCOLS=1 has libsmartcols do it.
        {
                for ((i = 0; i < 1200; i++)); do
                        printf '6,%d,%d,-,caller=T%d;m\\xe4\\xb8\\xad%d \\x09 \\xff\n' $((i + 3)) \
                                $((i < 700 ? i * 1000 : 1000000000000 + i)) $((i * 37)) $i
                        if ((i % 3 == 0)); then printf ' SUBSYSTEM=block\n DEVICE=+block:%*s\n' $((i / 100)) x; fi
                done
        } > "$BATS_TEST_TMPDIR/wide.kmsg"
        for d in "$F" "$REAL" "$BATS_TEST_TMPDIR/wide.kmsg"; do
                for o in "" "-o SEQ,TIME,PRI,FACILITY,LEVEL,FLAGS,CALLER,SUBSYSTEM,DEVICE,DEVNAME,DICT,MESSAGE" \
                        "-o MESSAGE,SEQ,LEVEL" "-o MESSAGE" "-o SEQ,DEVICE" "-o DEV.DRIVER,MESSAGE,DEV.SUBSYSTEM" \
                        "-o CALLER,FLAGS" "-o SEQ,DICT"; do
                        for x in "" --noheadings -d --time-format=iso; do
                                echo "$d $o $x"
                                cmp <(KDMESG_TABLE_SCOLS=1 "$KDMESG" -K "$d" $o $x --format=table 2>&1) \
                                        <("$KDMESG" -K "$d" $o $x --format=table 2>&1)
                        done
                done
        done
        # A loss line comes between the rows it separates; an empty dump is the heading alone.
        # (What the ring rotated out before a dump's first record is no loss of this read: no line.)
        "$KDMESG" -K "$F" --format=table 2>/dev/null | sed -n 2p | grep -q '^      1 '
        "$KDMESG" -K "$F" --format=table 2>/dev/null | sed -n 5p | grep -q '^-- 1 message lost (seq 4,'
        : > "$BATS_TEST_TMPDIR/empty.kmsg"
        [ "$("$KDMESG" -K "$BATS_TEST_TMPDIR/empty.kmsg" -o SEQ,MESSAGE)" = "    SEQ MESSAGE" ]
}

@test "table: hostile cells are laid out by kdmesg as libsmartcols lays them out" {
        # Every byte value at many places of the message, the caller and the
        # dictionary; wide, combining, bidirectional and broken UTF-8; long
        # and multi-line messages; columns that widen inside a batch.
        python3 - "$BATS_TEST_TMPDIR/hostile.kmsg" <<'PY'
import sys
def esc(b):
    return b"".join(bytes([c]) if 0x20 <= c < 0x7f and c != 0x5c else b"\\x%02x" % c for c in b)
u = ["中".encode(), "😀".encode(), "e\u0301".encode(), "\u202e".encode(), b"\xc2\x85", b"\xe2\x82", b"\xff"]
out, seq = [], 0
for c in range(256):
    pre = b"a" * (c % 23)
    out.append(b"%d,%d,%d,-,caller=T%s;%s\n" % (c % 8, seq, seq * 1000003, esc(bytes([c])),
                                               esc(pre + bytes([c]) + b"z" * (c % 17))))
    if c % 2:
        out.append(b" SUBSYSTEM=%s\n DEVICE=%s\n K%d=%s\n" % (esc(bytes([c]) * (c % 5 + 1)),
                                                            esc(pre[:c % 11] + bytes([c])), c, esc(bytes([c]))))
    seq += 1
for i in range(600):
    w = u[i % len(u)]
    out.append(b"6,%d,%d,-;%s\n SUBSYSTEM=%s\n DEVICE=%s\n" % (seq, 10 ** (6 + i // 60) + i,
               esc(b"x" * (i % 19) + w * (1 + i % 3)), esc(w), esc(b"d" * (i // 15) + w)))
    seq += 1
out.append(b"4,%d,%d,-;%s\n" % (seq, 2 ** 64 - 1, esc(b"L" * 5000 + "中".encode() * 300 + b"\x01\nline two\n")))
open(sys.argv[1], "wb").write(b"".join(out))
PY
        for l in C.UTF-8 C; do
                for o in "" "-o SEQ,TIME,PRI,FACILITY,LEVEL,FLAGS,CALLER,SUBSYSTEM,DEVICE,DEVNAME,DICT,MESSAGE" \
                        "-o CALLER,DEVICE,DICT,MESSAGE" "-o MESSAGE,SUBSYSTEM"; do
                        echo "$l $o"
                        LC_ALL=$l "$KDMESG" -K "$BATS_TEST_TMPDIR/hostile.kmsg" $o --format=table > "$BATS_TEST_TMPDIR/plain" 2>&1
                        LC_ALL=$l KDMESG_TABLE_SCOLS=1 "$KDMESG" -K "$BATS_TEST_TMPDIR/hostile.kmsg" $o --format=table \
                                > "$BATS_TEST_TMPDIR/scols" 2>&1
                        cmp "$BATS_TEST_TMPDIR/scols" "$BATS_TEST_TMPDIR/plain"
                        [ "$(wc -l < "$BATS_TEST_TMPDIR/plain")" -gt 850 ]
                done
        done
}

@test "table: a column keeps its width from batch to batch" {
        # 1500 records (three batches); the DEVICE column is only set in the first.
        {
                printf '6,0,0,-;first\n SUBSYSTEM=net\n DEVICE=+net:a-very-long-device-name\n'
                for i in $(seq 1 1499); do printf '6,%d,0,-;m\n' "$i"; done
        } > "$BATS_TEST_TMPDIR/many.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/many.kmsg" -o SEQ,DEVICE,MESSAGE
        [ "$status" -eq 0 ]
        # Every row puts MESSAGE in the same column as the heading.
        col=$(head -1 <<<"$output" | grep -bo MESSAGE | cut -d: -f1)
        [ -n "$col" ]
        [ -z "$(tail -n +2 <<<"$output" | awk -v c="$col" 'substr($0, c + 1, 1) == " " || substr($0, c, 1) != " "')" ]
}

@test "memory: peak RSS does not grow with the dump, in every format (the table too)" {
        need /usr/bin/time
        python3 "$SRC/bench/gen-dump.py" 5000 > "$BATS_TEST_TMPDIR/small.kmsg"
        python3 "$SRC/bench/gen-dump.py" 50000 > "$BATS_TEST_TMPDIR/big.kmsg"
        # RSS in KiB of one run; ASan's quarantine of freed memory would grow with the input.
        rss() {
                ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=0:detect_leaks=0" KDMESG_BOOT_TIME=0 \
                        /usr/bin/time -f '@@rss %M' "$KDMESG" -K "$1" --format="$2" 2>&1 >/dev/null |
                        sed -n 's/^@@rss //p'
        }
        for f in table json syslog kmsg export cat json-dmesg short; do
                a=$(rss "$BATS_TEST_TMPDIR/small.kmsg" $f)
                b=$(rss "$BATS_TEST_TMPDIR/big.kmsg" $f)
                echo "$f: $a KiB for 5,000 records, $b KiB for 50,000"
                # Ten times the records (4 MB more dump): less than 4 MiB more memory.
                # A table holding all its rows needs 50 MiB more here.
                [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt 4096 ]
        done
}

# --- JSON --------------------------------------------------------------------

@test "json: every line is valid against the shipped JSON Schema" {
        "$KDMESG" -K "$F" -J > "$BATS_TEST_TMPDIR/f.json" 2>/dev/null
        "$KDMESG" -K "$REAL" -J >> "$BATS_TEST_TMPDIR/f.json"
        run "$TESTS/cli/validate-json" "$SCHEMA" < "$BATS_TEST_TMPDIR/f.json"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *" 0 problems" ]]
}

@test "meson install ships the JSON Schema where kdmesg-formats(5) says" {
        need meson
        grep -qF '_/usr/share/kdmesg/kdmesg-record.schema.json_' "$SRC/man/kdmesg-formats.5.scd"
        run meson install -C "$BUILDDIR" --destdir "$BATS_TEST_TMPDIR/inst" --no-rebuild --quiet
        [ "$status" -eq 0 ]
        f=$(find "$BATS_TEST_TMPDIR/inst" -path '*/share/kdmesg/kdmesg-record.schema.json')
        [ -n "$f" ]
        cmp "$f" "$SCHEMA"
}

@test "json: the schema rejects what it should (so the validation can fail)" {
        run "$TESTS/cli/validate-json" "$SCHEMA" <<<'{"seq":1,"flags":"-","msg":"x","dict":{},"extra":1}'
        [ "$status" -eq 1 ]
        run "$TESTS/cli/validate-json" "$SCHEMA" <<<'{"seq":1,"flags":"-","msg":[256],"dict":{}}'
        [ "$status" -eq 1 ]
        run "$TESTS/cli/validate-json" "$SCHEMA" <<<'{"first_seq":1,"last_seq":1,"count":1,"cause":"x","time_after":1}'
        [ "$status" -eq 1 ]
}

@test "json: jq reads every line; keys, types and order" {
        run jq -c 'select(has("seq")) | keys_unsorted' < <("$KDMESG" -K "$F" -J 2>/dev/null)
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = '["seq","time","pri","facility","level","flags","caller","msg","subsystem","device","devname","dict"]' ]
        # 8 records and the gap at seq 4 (seq 0, rotated out before the dump began, is no loss of this read).
        [ "$(jq -s 'length' < <("$KDMESG" -K "$F" -J 2>/dev/null))" -eq 9 ]
        [ "$(jq -r 'select(.seq == 2) | .msg' < <("$KDMESG" -K "$F" -J 2>/dev/null))" = "user msg, with ; and = and , inside" ]
}

@test "json: time always has exactly six decimals" {
        "$KDMESG" -K "$F" -J 2>/dev/null | grep -o '"time":[^,]*' > "$BATS_TEST_TMPDIR/t"
        [ "$(wc -l < "$BATS_TEST_TMPDIR/t")" -eq 8 ]
        [ -z "$(grep -vE '^"time":[0-9]+\.[0-9]{6}$' "$BATS_TEST_TMPDIR/t")" ]
        grep -qx '"time":1.000000' "$BATS_TEST_TMPDIR/t"
        grep -qx '"time":99000.000004' "$BATS_TEST_TMPDIR/t"
}

@test "json: bytes that are not UTF-8 are an array of byte values, losslessly" {
        run jq -c 'select(.seq == 8) | .msg' < <("$KDMESG" -K "$F" -J 2>/dev/null)
        [ "$output" = "[98,105,110,97,114,121,32,0,1,2,128,254,255,32,97,110,100,32,97,32,78,85,76]" ]
        # A value with a NUL but valid UTF-8 stays a string.
        run jq -c 'select(.seq == 5) | .dict["my.odd-key_1"]' < <("$KDMESG" -K "$F" -J 2>/dev/null)
        [ "$output" = '"v\u0000al"' ]
}

@test "json: facility above 23 is its number as a string; pri stays raw" {
        run jq -c 'select(.seq == 6) | [.pri, .facility, .level, .fields]' < <("$KDMESG" -K "$F" -J 2>/dev/null)
        [ "$output" = '[1500,"187","warn","caller=T1,foo=bar"]' ]
}

@test "json: dictionary with odd keys and a repeated key keeps all pairs in order" {
        "$KDMESG" -K "$F" -J 2>/dev/null | grep '"seq":8,' > "$BATS_TEST_TMPDIR/l"
        grep -qF '"dict":{"DEVICE":"b8:0","SUBSYSTEM":"block","SUBSYSTEM":"dup"}' "$BATS_TEST_TMPDIR/l"
        run jq -c 'select(.seq == 5) | .dict | keys_unsorted' < <("$KDMESG" -K "$F" -J 2>/dev/null)
        [ "$output" = '["my.odd-key_1","DRIVER","MESSAGE","lower"]' ]
}

@test "json: a dictionary key that is not UTF-8 is a string with \\xNN (valid JSON)" {
        printf '6,1,1,-;m\n k\\xff=v\n' > "$BATS_TEST_TMPDIR/k.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/k.kmsg" -J
        [ "$status" -eq 0 ]
        [[ "${lines[0]}" == *'"dict":{"k\\xff":"v"}}' ]]
        run jq -r '.dict | keys[]' <<<"${lines[0]}"
        [ "$output" = 'k\xff' ]
}

@test "json: a loss is an object with first_seq, last_seq, count, cause and times" {
        run jq -c 'select(.cause == "gap")' < <("$KDMESG" -K "$F" -J 2>/dev/null)
        [ "$output" = '{"first_seq":4,"last_seq":4,"count":1,"cause":"gap","time_before":2.000001,"time_after":99000}' ]
        "$KDMESG" -K "$F" -J 2>/dev/null | grep -qxF '{"first_seq":4,"last_seq":4,"count":1,"cause":"gap","time_before":2.000001,"time_after":99000.000000}'
}

# --- empty input -------------------------------------------------------------

@test "an empty dump: json prints nothing (valid JSON Lines), table its heading" {
        run --separate-stderr "$KDMESG" -K "$EMPTY" -J
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        run --separate-stderr "$KDMESG" -K "$EMPTY" --format=table
        [ "$status" -eq 0 ]
        [ "$output" = "    SEQ          TIME LEVEL  SUBSYSTEM DEVICE     MESSAGE" ]
        run --separate-stderr "$KDMESG" -K "$EMPTY" --format=table --noheadings
        [ -z "$output" ]
        for f in short syslog kmsg cat json-dmesg export; do
                run --separate-stderr "$KDMESG" -K "$EMPTY" --format=$f --boot-time @0
                [ "$status" -eq 0 ]
                [ -z "$output" ]
                [ -z "$stderr" ]
        done
        # An empty -o table has the chosen headings.
        run --separate-stderr "$KDMESG" -K "$EMPTY" -o SEQ,DEV.DRIVER,MESSAGE
        [ "$output" = "    SEQ DRIVER     MESSAGE" ]
}

# --- loss events -------------------------------------------------------------

@test "loss: a marked line with 'lost' and the seq range in short, cat and table" {
        for f in short cat table; do
                run --separate-stderr "$KDMESG" -K "$F" --format=$f
                [[ "$output" == *"-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --"* ]]
                [ "$stderr" = "kdmesg: 1 message lost (gap)" ]
        done
        # What is numbered before a dump's first record was gone before the dump began: --lost lists it, no line says it was lost.
        printf '6,10,1000,-;a\n6,14,2000,-;b\n' > "$BATS_TEST_TMPDIR/gap.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/gap.kmsg"
        [ "${lines[0]}" = "[    0.001000] a" ]
        [ "${lines[1]}" = "-- 3 messages lost (seq 11-13, between 0.001000 and 0.002000, gap) --" ]
}

@test "loss: syslog, kmsg and json-dmesg keep stdout parseable and report on stderr; export has loss entries" {
        for f in syslog kmsg json-dmesg; do
                KDMESG_BOOT_TIME=0 run --separate-stderr "$KDMESG" -K "$F" --format=$f
                [ "$status" -eq 0 ]
                [[ "$output" != *lost* ]]
                [ "$stderr" = "kdmesg: -- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --
kdmesg: 1 message lost (gap)" ]
        done
        # The export stream carries each loss as an entry of its own; stderr has the summary only.
        KDMESG_BOOT_TIME=@1700000000 run --separate-stderr "$KDMESG" -K "$F" --format=export
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: 1 message lost (gap)" ]
        [ "$(grep -c '^MESSAGE_ID=9ac1b3703093449dace9a589386bdafe$' <<<"$output")" -eq 1 ]
        grep -qxF 'MESSAGE=-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --' <<<"$output"
        # Right before the record after the gap, stamped with its time.
        awk -v RS= '/KDMESG_LOST=/ { n++ } n == 1 { print; exit }' <<<"$output" > "$BATS_TEST_TMPDIR/loss"
        [ "$(cat "$BATS_TEST_TMPDIR/loss")" = "__REALTIME_TIMESTAMP=1700099000000000
__MONOTONIC_TIMESTAMP=99000000000
_TRANSPORT=kernel
PRIORITY=4
SYSLOG_IDENTIFIER=kdmesg
MESSAGE_ID=9ac1b3703093449dace9a589386bdafe
MESSAGE=-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --
KDMESG_LOST=1
KDMESG_LOST_FIRST_SEQ=4
KDMESG_LOST_CAUSE=gap" ]
        awk -v RS= '/KDMESG_LOST=/ { n++; next } n == 1 { print; exit }' <<<"$output" | grep -qx 'SEQNUM=5'
        # Read back, a loss entry is no record: the gap is found again, once.
        KDMESG_BOOT_TIME=@1700000000 "$KDMESG" -K "$F" --format=export 2>/dev/null |
                "$KDMESG" -K - --format=kmsg 2>/dev/null | cmp - "$F"
        KDMESG_BOOT_TIME=@1700000000 "$KDMESG" -K "$F" --format=export 2>/dev/null |
                KDMESG_BOOT_TIME=@1700000000 "$KDMESG" -K - --format=export 2>/dev/null | cmp - "$EXPECTED/export/formats-export.out"
}

# --- round trips -------------------------------------------------------------

@test "kmsg -> kdmesg --format=kmsg is byte-identical (real capture and escapes dump)" {
        "$KDMESG" -K "$REAL" --format=kmsg | cmp - "$REAL"
        "$KDMESG" -K "$F" --format=kmsg 2>/dev/null | cmp - "$F"
}

@test "kmsg: -K a -K b merges overlapping dumps losslessly" {
        # Records 1-200 and 150-end of the capture: 51 records in both.
        awk '/^[0-9]/ { n++ } n <= 200' "$REAL" > "$BATS_TEST_TMPDIR/a.kmsg"
        awk '/^[0-9]/ { n++ } n >= 150' "$REAL" > "$BATS_TEST_TMPDIR/b.kmsg"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/a.kmsg" -K "$BATS_TEST_TMPDIR/b.kmsg" --format=kmsg \
                > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err"
        cmp "$BATS_TEST_TMPDIR/out" "$REAL"
        grep -qF "51 duplicate records skipped" "$BATS_TEST_TMPDIR/err"
        # And filters: the records of level warn and worse, each with its dictionary lines, as they were.
        awk -F, '/^[0-9]/ { keep = $1 % 8 <= 4 } keep' "$REAL" > "$BATS_TEST_TMPDIR/want"
        [ "$(grep -c '^[0-9]' "$BATS_TEST_TMPDIR/want")" -ge 3 ]
        "$KDMESG" -K "$BATS_TEST_TMPDIR/a.kmsg" -K "$BATS_TEST_TMPDIR/b.kmsg" --format=kmsg -l warn+ 2>/dev/null |
                cmp - "$BATS_TEST_TMPDIR/want"
}

@test "kmsg: a dictionary key from JSON that is not [A-Za-z0-9._-] is escaped, never breaks the record" {
        # A key with a newline and a header in it must not become a record of its own.
        printf '%s\n' '{"seq":1,"time":1.000000,"pri":6,"flags":"-","msg":"a","dict":{"x\n6,99,0,-;injected":"v","a b=c":"d","é":"e","DRIVER":"f"}}' \
                > "$BATS_TEST_TMPDIR/k.json"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/k.json" --format=kmsg
        [ "$status" -eq 0 ]
        [ "$output" = '6,1,1000000,-;a
 x\x0a6\x2c99\x2c0\x2c-\x3binjected=v
 a\x20b\x3dc=d
 \xc3\xa9=e
 DRIVER=f' ]
        # Read back, the keys are the same (kmsg -> json -> kmsg -> json).
        a=$("$KDMESG" -K "$BATS_TEST_TMPDIR/k.json" -J 2>/dev/null)
        b=$("$KDMESG" -K "$BATS_TEST_TMPDIR/k.json" --format=kmsg 2>/dev/null | "$KDMESG" -K - -J 2>/dev/null)
        [ "$a" = "$b" ]
        [[ "$b" == *'"dict":{"x\n6,99,0,-;injected":"v","a b=c":"d","é":"e","DRIVER":"f"}}' ]]
        # The same through export, where such a key travels as KMSG_DICT=KEY=VALUE
        # with '=' and '\' in KEY escaped.
        c=$("$KDMESG" -K "$BATS_TEST_TMPDIR/k.json" --format=export --boot-time @0 2>/dev/null |
                "$KDMESG" -K - --format=kmsg 2>/dev/null | "$KDMESG" -K - -J 2>/dev/null)
        [ "$c" = "$a" ]
}

@test "kmsg -> export -> kmsg: dictionary keys with '=' and '\\' come back, also a key that is only '='" {
        printf '%s\n' '6,0,1000,-;m' ' K\x3dY=v' ' a\x5cb=c' ' \x3d=w' ' \x5cx3d=lit' ' DRIVER=d=e' > "$BATS_TEST_TMPDIR/k.kmsg"
        KDMESG_BOOT_TIME=0 "$KDMESG" -K "$BATS_TEST_TMPDIR/k.kmsg" --format=export > "$BATS_TEST_TMPDIR/x"
        grep -qax 'KMSG_DICT=K\\x3dY=v' "$BATS_TEST_TMPDIR/x"
        grep -qax 'KMSG_DICT=\\x5cx3d=lit' "$BATS_TEST_TMPDIR/x"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x" --format=kmsg | cmp - "$BATS_TEST_TMPDIR/k.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/x" -J
        [ "$output" = '{"seq":0,"time":0.001000,"pri":6,"facility":"kern","level":"info","flags":"-","msg":"m","dict":{"K=Y":"v","a\\b":"c","=":"w","\\x3d":"lit","DRIVER":"d=e"},"realtime":"1970-01-01T00:00:00.001000Z","realtime_usec":1000}' ]
}

@test "kmsg -> json -> kmsg and kmsg -> export -> kmsg: bytes that are not UTF-8 in dictionary values, caller and fields" {
        printf '%s\n' '6,0,1000,-,caller=T\xff1;m\xff\x5cx' ' BIN=\xff\xfe\x00z' ' SUBSYSTEM=\xc3\xa9t\xe9' ' DEVICE=c4:1' \
                '1500,1,2000,+,caller=C1,zz=\xff;x' ' lower=\x80' '6,2,18446744073709551615,-;max' > "$BATS_TEST_TMPDIR/b.kmsg"
        # Header fields are not escaped: raw bytes there.  (Stamped as seq 2, not back
        # in time: a time stamp that drops by more than 30 s starts a new boot.)
        printf '6,3,18446744073709551615,-,caller=T\3771;y\n6,4,18446744073709551615,-,caller=C1,zz=\377;z\n' >> "$BATS_TEST_TMPDIR/b.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/b.kmsg" -J
        [ "$(jq -c '.dict' <<<"${lines[0]}")" = '{"BIN":[255,254,0,122],"SUBSYSTEM":[195,169,116,233],"DEVICE":"c4:1"}' ]
        [ "$(jq -c '.subsystem' <<<"${lines[0]}")" = '[195,169,116,233]' ]
        [ "$(jq -c '.caller' <<<"${lines[3]}")" = '[84,255,49]' ]
        [ "$(jq -c '.fields' <<<"${lines[4]}")" = '[99,97,108,108,101,114,61,67,49,44,122,122,61,255]' ]
        "$KDMESG" -K "$BATS_TEST_TMPDIR/b.kmsg" -J | "$KDMESG" -K - --format=kmsg | cmp - "$BATS_TEST_TMPDIR/b.kmsg"
        KDMESG_BOOT_TIME=0 "$KDMESG" -K "$BATS_TEST_TMPDIR/b.kmsg" --format=export |
                "$KDMESG" -K - --format=kmsg | cmp - "$BATS_TEST_TMPDIR/b.kmsg"
}

@test "kmsg -> export -> kmsg is lossless" {
        for d in "$REAL" "$F"; do
                KDMESG_BOOT_TIME=@1700000000 "$KDMESG" -K "$d" --format=export 2>/dev/null |
                        "$KDMESG" -K - --format=kmsg 2>/dev/null | cmp - "$d"
        done
}

@test "export: refused for a dump without a boot time, one line" {
        run --separate-stderr env -u KDMESG_BOOT_TIME "$KDMESG" -K "$F" --format=export
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        # At the first record that needs it (issue 37): a dump whose records carry their wall clock needs none.
        [ "$stderr" = "kdmesg: $F:1: --format=export needs the boot time of the machine the dump comes from, e.g. --boot-time '2024-05-01 08:00'" ]
        # --boot-time gives it.
        "$KDMESG" -K "$F" --format=export --boot-time @1700000000 2>/dev/null | cmp - "$EXPECTED/export/formats-export.out"
}

@test "export: keys that are not journal field names become KMSG_DICT=KEY=VALUE" {
        KDMESG_BOOT_TIME=0 "$KDMESG" -K "$F" --format=export 2>/dev/null > "$BATS_TEST_TMPDIR/x"
        grep -qax '_KERNEL_MESSAGE=not the message' "$BATS_TEST_TMPDIR/x"
        grep -qax 'KMSG_DICT=lower=case=with=equals' "$BATS_TEST_TMPDIR/x"
        grep -qax '_KERNEL_DRIVER=e1000e' "$BATS_TEST_TMPDIR/x"
        grep -qax '_KERNEL_DEVICE=b8:0' "$BATS_TEST_TMPDIR/x"
        grep -qax '__REALTIME_TIMESTAMP=99000000000' "$BATS_TEST_TMPDIR/x"
        # Every field name, text or binary, is a journal field name.
        run python3 -c '
import re, struct, sys
d = open(sys.argv[1], "rb").read()
i = 0
while i < len(d):
    nl = d.index(b"\n", i)
    line = d[i:nl]
    if not line:
        i = nl + 1
        continue
    name = line.split(b"=", 1)[0]
    if not re.fullmatch(rb"[A-Z_][A-Z0-9_]{0,63}", name):
        print("bad name", name)
    if b"=" in line:
        i = nl + 1
    else:
        n = struct.unpack("<Q", d[nl + 1:nl + 9])[0]
        i = nl + 9 + n + 1
print("ok")' "$BATS_TEST_TMPDIR/x"
        [ "$output" = ok ]
}

@test "export: systemd-journal-remote accepts it; journalctl gives back messages, priorities, devices, times" {
        # tools/install-deps installs it (Debian's systemd-journal-remote): missing is a failure, not a skip.
        remote=/lib/systemd/systemd-journal-remote
        need "$remote" journalctl
        for d in "$REAL" "$F"; do
                rm -f "$BATS_TEST_TMPDIR"/x*.journal
                KDMESG_BOOT_TIME=@1700000000 "$KDMESG" -K "$d" --format=export 2>/dev/null |
                        "$remote" -o "$BATS_TEST_TMPDIR/x.journal" - 2>/dev/null
                journalctl --file "$BATS_TEST_TMPDIR/x.journal" -o json |
                        jq -c 'select(.KDMESG_LOST == null) |
                                [.MESSAGE, (.PRIORITY | tonumber), (._KERNEL_DEVICE // null), (.SYSLOG_FACILITY // "0" | tonumber),
                                # A repeated field is an array of its values: the first is ours.
                                (._KERNEL_SUBSYSTEM // null | if type == "array" and (.[0] | type) != "number" then .[0] else . end),
                                (.__MONOTONIC_TIMESTAMP | tonumber),
                                (.__REALTIME_TIMESTAMP | tonumber), (._KERNEL_DRIVER // null)]' \
                        > "$BATS_TEST_TMPDIR/journal"
                "$KDMESG" -K "$d" -J 2>/dev/null | jq -c 'select(.msg) | (.time * 1000000 | round) as $us
                        | [.msg, (.pri % 8), (.device // null), ((.pri / 8) | floor), (.subsystem // null),
                           $us, (1700000000000000 + $us), (.dict.DRIVER // null)]' \
                        > "$BATS_TEST_TMPDIR/ours"
                [ "$(wc -l < "$BATS_TEST_TMPDIR/ours")" -gt 5 ]
                diff "$BATS_TEST_TMPDIR/ours" "$BATS_TEST_TMPDIR/journal"
        done
}

# --- util-linux compatibility -------------------------------------------------

@test "json-dmesg is byte-identical to util-linux 2.43 dmesg --json on the same records" {
        need_peer
        need cc
        # The peer reads /dev/kmsg: a shim gives it our dump, one record per read().
        cc -shared -fPIC -o "$BATS_TEST_TMPDIR/kp.so" "$TESTS/compat/kmsg-preload.c" -ldl
        # Caller fields, and "pri" as facility * 8 + level.  No bytes that
        # are not UTF-8 and no NUL: util-linux writes invalid JSON for those.
        printf '%s\n' '6,1,1000000,-,caller=T1;a\x08b\x0cc\x0dd\x1be\x1ff "x" \x5c \x7f \xc2\xb0C tab\x09end' \
                '14,2,12345678,-,caller=C3;user.info is "pri": 14' ' SUBSYSTEM=x' \
                '30,3,99000000000,-;daemon' '3,4,123456789012345,-,caller=T4194304;big time' \
                '191,5,99000000001,-;local7 is "pri": 191' '6,6,99000000002,-;' ' DEVICE=b8:0' \
                '1500,7,99000000003,-;facility 187' '1118,8,99000000004,-;facility 139' \
                '6,9,99000000005,c;' '4,10,99000000006,+;' '6,11,99000000007,-;two\x0alines' > "$BATS_TEST_TMPDIR/esc.kmsg"
        # Every facility, at two levels.
        for ((f = 0; f < 256; f++)); do
                printf '%d,%d,%d,-;f%d\n' $((f * 8)) $((f * 2)) $((f * 2000)) $f $((f * 8 + 6)) $((f * 2 + 1)) $((f * 2000 + 1)) $f
        done > "$BATS_TEST_TMPDIR/fac.kmsg"
        local o
        for d in "$REAL" "$BATS_TEST_TMPDIR/esc.kmsg" "$BATS_TEST_TMPDIR/fac.kmsg"; do
                # -x writes "fac" and "pri" as names; the time options change nothing.
                for o in "" -x -T -t "-x -d"; do
                        # shellcheck disable=SC2086
                        KMSG_PRELOAD_FILE="$d" LD_PRELOAD="$BATS_TEST_TMPDIR/kp.so" "$PEER/dmesg" --json $o > "$BATS_TEST_TMPDIR/theirs"
                        # shellcheck disable=SC2086
                        "$KDMESG" -K "$d" --json=dmesg --boot-time @0 $o > "$BATS_TEST_TMPDIR/ours"
                        [ -s "$BATS_TEST_TMPDIR/theirs" ]
                        echo "$d $o"
                        cmp "$BATS_TEST_TMPDIR/ours" "$BATS_TEST_TMPDIR/theirs"
                done
        done
        # An empty log: util-linux prints nothing at all, and so do we.
        KMSG_PRELOAD_FILE="$EMPTY" LD_PRELOAD="$BATS_TEST_TMPDIR/kp.so" "$PEER/dmesg" --json > "$BATS_TEST_TMPDIR/theirs"
        "$KDMESG" -K "$EMPTY" --json=dmesg > "$BATS_TEST_TMPDIR/ours"
        [ ! -s "$BATS_TEST_TMPDIR/theirs" ]
        cmp "$BATS_TEST_TMPDIR/ours" "$BATS_TEST_TMPDIR/theirs"
}

@test "the classic view, -t, -x and -x -t print what util-linux dmesg prints, line for line" {
        command -v dmesg >/dev/null || skip "util-linux dmesg is not installed"
        command -v cc >/dev/null || skip "no C compiler for the /dev/kmsg preload shim"
        cc -shared -fPIC -o "$BATS_TEST_TMPDIR/kp.so" "$TESTS/compat/kmsg-preload.c" -ldl
        # A real capture: no losses, no fragments, no facilities above 23.
        local o
        for o in "" -t -x "-x -t" --decode; do
                # shellcheck disable=SC2086
                KMSG_PRELOAD_FILE="$REAL" LD_PRELOAD="$BATS_TEST_TMPDIR/kp.so" dmesg $o > "$BATS_TEST_TMPDIR/theirs"
                # shellcheck disable=SC2086
                "$KDMESG" -K "$REAL" $o > "$BATS_TEST_TMPDIR/ours"
                [ "$(wc -l < "$BATS_TEST_TMPDIR/theirs")" -gt 100 ]
                diff -u "$BATS_TEST_TMPDIR/theirs" "$BATS_TEST_TMPDIR/ours"
        done
        # -x puts the names first, as util-linux does.
        run "$KDMESG" -x -K "$REAL" --seq 0
        [[ "$output" == "kern  :notice: [    0.000000] Linux version "* ]]
}

@test "-e: the minute line reads as util-linux dmesg -e writes it" {
        command -v dmesg >/dev/null || skip "util-linux dmesg is not installed"
        command -v cc >/dev/null || skip "no C compiler for the /dev/kmsg preload shim"
        cc -shared -fPIC -o "$BATS_TEST_TMPDIR/kp.so" "$TESTS/compat/kmsg-preload.c" -ldl
        # util-linux stamps a dump with this machine's boot time: give kdmesg the same.
        local boot
        boot=$(awk '/^btime /{ print $2 }' /proc/stat)
        [ -n "$boot" ]
        run bash -c 'KMSG_PRELOAD_FILE="$1" LD_PRELOAD="$2" dmesg -e | head -n 1' _ "$REAL" "$BATS_TEST_TMPDIR/kp.so"
        local theirs=$output
        [[ "$theirs" == "["[A-Z][a-z][a-z]*" Linux version "* ]]
        run bash -c '"$KDMESG" -e --boot-time "@$1" -K "$2" | head -n 1' _ "$boot" "$REAL"
        [ "$output" = "$theirs" ]
}

@test "json-dmesg: valid JSON where util-linux is not (invalid UTF-8, NUL), caller kept" {
        run jq -c '.dmesg[] | select(.msg | startswith("binary")) | .msg' < <("$KDMESG" -K "$F" --json=dmesg 2>/dev/null)
        [ "$status" -eq 0 ]
        [ "$output" = '"binary \u0000\u0001\u0002\\x80\\xfe\\xff and a NUL"' ]
        run jq -c '.dmesg[0] | keys_unsorted' < <("$KDMESG" -K "$F" --json=dmesg 2>/dev/null)
        [ "$output" = '["pri","time","caller","msg"]' ]
}

@test "json-dmesg: no \"pri\" for a record without a priority, none made up" {
        printf '<4>[    1.000000] with\n[    2.000000] without\n' > "$BATS_TEST_TMPDIR/s.syslog"
        run --separate-stderr "$KDMESG" -F "$BATS_TEST_TMPDIR/s.syslog" --json=dmesg
        [ "$status" -eq 0 ]
        [ "$(jq -c '[.dmesg[] | [.pri, .time, .msg]]' <<<"$output")" = '[[4,1,"with"],[null,2,"without"]]' ]
}

@test "json: the fast writer and json-c's serializer give the same bytes" {
        # KDMESG_JSON_SLOW=1 builds every record as a json-c object tree.
        for d in "$F" "$REAL"; do
                cmp <("$KDMESG" -K "$d" -J 2>/dev/null) <(KDMESG_JSON_SLOW=1 "$KDMESG" -K "$d" -J 2>/dev/null)
        done
        # A caller that is not UTF-8 takes the json-c path by itself.
        printf '6,0,0,-,caller=T\377;m\n' > "$BATS_TEST_TMPDIR/c.kmsg"
        run "$KDMESG" -K "$BATS_TEST_TMPDIR/c.kmsg" -J
        [ "$output" = '{"seq":0,"time":0.000000,"pri":6,"facility":"kern","level":"info","flags":"-","caller":[84,255],"msg":"m","dict":{}}' ]
}

@test "the ENVIRONMENT of kdmesg(1) and its reference pages names every variable kdmesg reads" {
        names=$(grep -rhoE '(secure_)?getenv\("[A-Z_]+"\)' "$SRC/src" "$SRC/lib" | sed 's/.*("\(.*\)")/\1/' | sort -u)
        [ "$(wc -l <<<"$names")" -ge 7 ]
        # kdmesg(1) has most; those of the upload and of the problem rules are in their pages.
        env_section=$(for p in "$SRC"/man/kdmesg*.scd; do sed -n '/^# ENVIRONMENT/,/^# [A-Z]/p' "$p"; done |
                sed 's/\\_/_/g')
        for n in $names; do
                echo "$n"
                grep -qx "\*$n\*" <<<"$env_section"
        done
}

@test "json: time stamps past 2^53 µs stay exact, in records and loss objects, on both paths" {
        # Time goes forward: a drop of more than 30 s would start a new boot.
        printf '6,1,9007199254740993,-;past 2^53\n6,3,18446744073709551615,-;max\n' > "$BATS_TEST_TMPDIR/big.kmsg"
        want='{"seq":1,"time":9007199254.740993,"pri":6,"facility":"kern","level":"info","flags":"-","msg":"past 2^53","dict":{}}
{"first_seq":2,"last_seq":2,"count":1,"cause":"gap","time_before":9007199254.740993,"time_after":18446744073709.551615}
{"seq":3,"time":18446744073709.551615,"pri":6,"facility":"kern","level":"info","flags":"-","msg":"max","dict":{}}'
        for slow in 0 1; do
                run --separate-stderr env KDMESG_JSON_SLOW=$slow "$KDMESG" -K "$BATS_TEST_TMPDIR/big.kmsg" -J
                [ "$output" = "$want" ]
        done
        "$KDMESG" -K "$BATS_TEST_TMPDIR/big.kmsg" -J 2>/dev/null | "$KDMESG" -K - --format=kmsg 2>/dev/null |
                cmp - "$BATS_TEST_TMPDIR/big.kmsg"
}

@test "kmsg -> json -> kmsg is lossless; -K detects JSON Lines" {
        for d in "$REAL" "$F"; do
                "$KDMESG" -K "$d" -J 2>/dev/null | "$KDMESG" -K - --format=kmsg 2>/dev/null | cmp - "$d"
        done
        # The loss object in the JSON is no record; the gap shows again.
        run --separate-stderr bash -c '"$1" -K "$2" -J 2>/dev/null | "$1" -K - --format=kmsg >/dev/null' _ "$KDMESG" "$F"
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: -- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --
kdmesg: 1 message lost (gap)" ]
}

@test "json read back after jq: kdmesg -J | jq | kdmesg -K - gives the same records" {
        # jq writes 2e-06 for 0.000002 and 99000 for 99000.000000; it keeps one of two equal keys.
        "$KDMESG" -K "$REAL" -J | jq -c . > "$BATS_TEST_TMPDIR/jq.json"
        grep -q '"time":[0-9]e-0' "$BATS_TEST_TMPDIR/jq.json"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/jq.json" --format=kmsg | cmp - "$REAL"
        # A selection, read back: only its gaps are new.
        run --separate-stderr bash -c '"$1" -K "$2" -J | jq -c "select(.level == \"warn\")" | "$1" -K - --format=kmsg' _ "$KDMESG" "$REAL"
        [ "$output" = "$(awk -F, '/^[0-9]/ { keep = $1 % 8 == 4 } keep' "$REAL")" ]
}

@test "json read back: a bad line is reported with its line number, exit 1" {
        printf '{"seq":0,"msg":"a","dict":{}}\n{"seq":1,"msg":\n{"seq":2,"msg":"c","dict":{}}\n' > "$BATS_TEST_TMPDIR/b.json"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/b.json" --format=cat
        [ "$status" -eq 1 ]
        [ "${lines[0]}" = a ]
        [ "${lines[2]}" = c ]
        [ "${stderr_lines[0]}" = "kdmesg: $BATS_TEST_TMPDIR/b.json:2: bad JSON record: incomplete JSON object" ]
}

@test "table: TIME follows the time format (-T, iso, -d, -t)" {
        run --separate-stderr "$KDMESG" -K "$F" -o SEQ,TIME --boot-time @1700000000 --time-format iso
        [ "${lines[1]}" = "      1 2023-11-14T22:13:21,000000+00:00" ]
        run --separate-stderr "$KDMESG" -K "$F" -o SEQ,TIME --boot-time @1700000000 -T
        [ "${lines[1]}" = "      1 Tue Nov 14 22:13:21 2023" ]
        run --separate-stderr "$KDMESG" -K "$F" -o SEQ,TIME -d
        [ "${lines[2]}" = "      2 12.345678 <   11.345678>" ]
        run --separate-stderr "$KDMESG" -K "$F" -o SEQ,TIME,LEVEL -t
        [ "${lines[1]}" = "      1               info" ]
}

@test "table: MESSAGE wraps also when it is not the last column" {
        run --separate-stderr env COLUMNS=50 "$KDMESG" -K "$F" -o SEQ,MESSAGE,CALLER,LEVEL
        [ "$status" -eq 0 ]
        [ "$(grep -v '^-- ' <<<"$output" | wc -L)" -le 50 ]
        # The caller and level of record 1 are on its first line.
        [[ "${lines[1]}" == "      1 "*" T12 info"* ]]
}

# --- following and the live log --------------------------------------------------

# wait_grep PATTERN FILE: until FILE has a line matching PATTERN (10 s).
wait_grep() {
        local i
        for ((i = 0; i < 1000; i++)); do
                grep -qa -- "$1" "$2" 2>/dev/null && return 0
                sleep 0.01
        done
        echo "timed out waiting for '$1' in $2:" >&2
        cat "$2" >&2
        return 1
}

@test "following: every format writes each record as it comes, not at exit" {
        for f in json table syslog kmsg export cat short; do
                emu_init 64
                emu write 2
                kdmesg_bg --follow --format=$f
                wait_grep 'record 1' "$OUT"
                emu wait blocks 1
                emu write 1
                wait_grep 'record 2' "$OUT"
                stop_bg TERM
                [ "$STATUS" -eq 0 ]
        done
        # One whole JSON line per record.
        emu_init 64
        emu write 2
        kdmesg_bg --follow -J
        wait_grep '"record 1"' "$OUT"
        emu wait blocks 1
        emu write 1
        wait_grep '"record 2"' "$OUT"
        stop_bg TERM
        run jq -c '[.seq, .msg]' "$OUT"
        [ "$output" = '[0,"record 0"]
[1,"record 1"]
[2,"record 2"]' ]
        # json-dmesg: the records as they come, and SIGTERM closes the document.
        emu_init 64
        emu write 2
        kdmesg_bg --follow --json=dmesg
        wait_grep '"record 1"' "$OUT"
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        run jq -c '[.dmesg[].msg]' "$OUT"
        [ "$output" = '["record 0","record 1"]' ]
}

@test "export of the live log: the boot id and the wall clock of this boot" {
        emu_init 16
        emu write 2
        KDMESG_BOOT_TIME=@1700000000 run --separate-stderr kdmesg_emu --format=export
        [ "$status" -eq 0 ]
        grep -qx "_BOOT_ID=$(emu get boot_id | tr -d -)" <<<"$output"
        [ "$(grep -c '^_BOOT_ID=' <<<"$output")" -eq 2 ]
        grep -qx '__REALTIME_TIMESTAMP=1700000000002000' <<<"$output"
        grep -qx '__MONOTONIC_TIMESTAMP=2000' <<<"$output"
        grep -qx 'MESSAGE=record 1' <<<"$output"
        # Without a pinned boot time it is this machine's, so no --boot-time is needed.
        run --separate-stderr kdmesg_emu --format=export
        [ "$status" -eq 0 ]
        [ "$(grep -c '^__REALTIME_TIMESTAMP=' <<<"$output")" -eq 2 ]
}

@test "table: escapes made once, as in the classic view: a backslash stays, tab, ESC, NUL and bidi controls are \\xNN" {
        local f="$BATS_TEST_TMPDIR/t.kmsg" want
        printf '6,0,100,-;a\\x5cb\\x09c\\x1bd\\x00e \\xe2\\x80\\xaertl\\xe2\\x81\\xa6 \\xc2\\xb0C\n K=v\\x09\\x1b\\xe2\\x80\\xae\\x00w\n' > "$f"
        want='a\b\x09c\x1bd\x00e \xe2\x80\xaertl\xe2\x81\xa6 °C'
        run --separate-stderr "$KDMESG" -K "$f" -o MESSAGE,DICT --noheadings
        [ "$status" -eq 0 ]
        [ "$output" = "$want K=v\x09\x1b\xe2\x80\xae\x00w" ]
        run --separate-stderr "$KDMESG" -K "$f" -o DEV.K --noheadings
        [ "$output" = 'v\x09\x1b\xe2\x80\xae\x00w' ]
        # The classic view escapes the same characters (a tab stays a tab there).
        run --separate-stderr "$KDMESG" -K "$f" -t
        [ "$output" = "${want/\\x09/$'\t'}" ]
}

@test "kmsg output: binary KMSG_FLAGS and KMSG_FIELDS from export input forge no record" {
        # Flags and fields holding a newline, ';' and a header, ESC and BEL.
        python3 - "$BATS_TEST_TMPDIR/x.export" <<'PY'
import struct, sys
def binary(k, v):
    return k + b"\n" + struct.pack("<Q", len(v)) + v + b"\n"
def entry(seq, flags=b"-", fields=None):
    e = b"MESSAGE=record %d\nPRIORITY=6\nSYSLOG_FACILITY=0\nSEQNUM=%d\nTIMESTAMP=%d\n" % (seq, seq, (seq + 1) * 1000)
    e += binary(b"KMSG_FLAGS", flags)
    if fields is not None:
        e += binary(b"KMSG_FIELDS", fields)
    return e + b"\n"
open(sys.argv[1], "wb").write(entry(0) + entry(1, b"-;forged\n0,99,0,-") + entry(2, b"-", b"caller=T1;x\n0,99,0,-")
                              + entry(3, b"\x1b[31m,c", b"caller=T\x1b]0;t\x07,a=b") + entry(4))
PY
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/x.export" --format=kmsg
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/y.kmsg"
        # One line a record, no control byte but the newlines.
        [ "${#lines[@]}" -eq 5 ]
        ! LC_ALL=C grep -q '[[:cntrl:]]' "$BATS_TEST_TMPDIR/y.kmsg" || false
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/y.kmsg" -J --fail-on-loss
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "$(jq -c '[.seq, .pri, .msg]' <<<"$output" | tr -d '\n')" = '[0,6,"record 0"][1,6,"record 1"][2,6,"record 2"][3,6,"record 3"][4,6,"record 4"]' ]
}

# read_back_as_json: y.kmsg, what --format=kmsg wrote of x.json (both in
# $BATS_TEST_TMPDIR), read back with --json into $output: no word on stderr,
# and the same records as x.json read directly.
read_back_as_json() {
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/y.kmsg" --json -q
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x.json" --json -q | cmp - <(printf '%s\n' "$output")
}

@test "kmsg output: a long message whose byte 2048 of the line would start the next header forges no cut record" {
        # 6.3+ kernels cut a line at 2048 bytes and the next header follows:
        # readers split such a line.  Text from JSON input placed there
        # (seq 10 then "6,11,..."; one after an escape; one whose cut falls
        # after an escape's last digit) is written with the byte at the cut escaped.
        python3 - "$BATS_TEST_TMPDIR/x.json" <<'PY'
import json, sys
recs = [(10, 3600.002, "a" * (2048 - 18) + "6,11,7200002000,-;one hour later"),
        (20, 1.0, "b" * 2029 + "\x01" + "16,21,1000000,-;y"),
        (30, 1.0, "c" * 2033 + "31,31,1000000;z")]
with open(sys.argv[1], "w") as f:
    for seq, t, m in recs:
        f.write(json.dumps({"seq": seq, "time": t, "pri": 6, "flags": "-", "msg": m}) + "\n")
PY
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x.json" --format=kmsg -q > "$BATS_TEST_TMPDIR/y.kmsg"
        [ "$(wc -l < "$BATS_TEST_TMPDIR/y.kmsg")" -eq 3 ]
        # The byte at the cut is part of an escape.
        [ "$(cut -c2049 "$BATS_TEST_TMPDIR/y.kmsg" | tr -d '\n')" = '\\\' ]
        read_back_as_json
        [ "$(jq -c 'select(.msg) | [.seq, (.msg | length)]' <<<"$output" | tr -d '\n')" = '[10,2062][20,2047][30,2048]' ]
}

@test "kmsg output: header fields that run past byte 2048 read back as one record, not a forged next one" {
        # JSON input's "fields" go into the header as they are; placed so that
        # byte 2048 of the line reads "6,11,1000001,-" (the next record's header).
        python3 - "$BATS_TEST_TMPDIR/x.json" <<'PY'
import json, sys
fields = "x" * (2048 - len("6,10,1000000,-,")) + "6,11,1000001,-"
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"seq": 10, "time": 1.0, "pri": 6, "flags": "-", "fields": fields, "msg": "hello"}) + "\n")
    f.write(json.dumps({"seq": 11, "time": 2.0, "pri": 6, "flags": "-", "msg": "next"}) + "\n")
PY
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x.json" --format=kmsg -q > "$BATS_TEST_TMPDIR/y.kmsg"
        [ "$(cut -c2049-2062 "$BATS_TEST_TMPDIR/y.kmsg" | head -1)" = "6,11,1000001,-" ]
        read_back_as_json
        [ "$(jq -c 'select(.msg) | [.seq, .msg]' <<<"$output" | tr -d '\n')" = '[10,"hello"][11,"next"]' ]
}

@test "kmsg output: raw ESC in the flags or the caller of kmsg input is escaped" {
        printf '6,0,1000,-\033[2J;a\n6,1,2000,-,caller=T\033[1m\007;b\n' > "$BATS_TEST_TMPDIR/e.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/e.kmsg" --format=kmsg
        [ "$status" -eq 0 ]
        [ "$output" = '6,0,1000,-\x1b[2J;a
6,1,2000,-,caller=T\x1b[1m\x07;b' ]
}

@test "kmsg output: C1 controls (0x9b, U+009B) and bidi controls in the flags or the caller are escaped, other bytes kept" {
        printf '6,0,1000,-,caller=T\2331;a\n6,1,2000,-,caller=T\302\23331m;b\n' > "$BATS_TEST_TMPDIR/c.kmsg"
        printf '6,2,3000,-\302\233,x=\342\200\256;c\n6,3,4000,-,caller=T\304\233\377\303;d\n' >> "$BATS_TEST_TMPDIR/c.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/c.kmsg" --format=kmsg
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = '6,0,1000,-,caller=T\x9b1;a' ]
        [ "${lines[1]}" = '6,1,2000,-,caller=T\xc2\x9b31m;b' ]
        [ "${lines[2]}" = '6,2,3000,-\xc2\x9b,x=\xe2\x80\xae;c' ]
        # Valid UTF-8 and stray lead bytes stay: readers take the header as written.
        [ "${lines[3]}" = "$(printf '6,3,4000,-,caller=T\304\233\377\303;d')" ]
        # The long-line path (a record whose line reaches byte 2048) escapes the same.
        printf '6,4,5000,-,caller=T\2331;%02048d\n' 0 > "$BATS_TEST_TMPDIR/l.kmsg"
        run --separate-stderr "$KDMESG" -K "$BATS_TEST_TMPDIR/l.kmsg" --format=kmsg
        [[ "$output" == '6,4,5000,-,caller=T\x9b1;0'* ]]
}

@test "json: a PRI of 2^31 and more is the same number on the fast and the slow path" {
        printf '2147483648,0,0,-;a\n4294967295,1,0,-;b\n' > "$BATS_TEST_TMPDIR/p.kmsg"
        for slow in 0 1; do
                run --separate-stderr env KDMESG_JSON_SLOW=$slow "$KDMESG" -K "$BATS_TEST_TMPDIR/p.kmsg" -J
                [ "$(jq -c .pri <<<"$output" | tr '\n' ' ')" = "2147483648 4294967295 " ]
        done
}

@test "json: seq written by stepping the last one's digits is the number, across carries and jumps" {
        # 8 9 10 (a digit more), 98 99 100, 199 200, 999 1000, a jump back, 2^64 - 2 and 2^64 - 1, then 0
        # and 1 (2^64 - 1 + 1 wraps to 0: not a step, fuzz-output's find).
        : > "$BATS_TEST_TMPDIR/s.kmsg"
        for s in 8 9 10 98 99 100 199 200 999 1000 5 6 18446744073709551614 18446744073709551615 0 1; do
                printf '6,%s,0,-;m\n' "$s" >> "$BATS_TEST_TMPDIR/s.kmsg"
        done
        for slow in 0 1; do
                run --separate-stderr env KDMESG_JSON_SLOW=$slow "$KDMESG" -K "$BATS_TEST_TMPDIR/s.kmsg" -J
                # Not jq: it reads 2^64 - 1 as a double.
                [ "$(sed -n 's/^{"seq":\([0-9]*\),.*/\1/p' <<<"$output" | tr '\n' ' ')" = \
                  "8 9 10 98 99 100 199 200 999 1000 5 6 18446744073709551614 18446744073709551615 0 1 " ]
        done
}
