#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Colors (-L, --color, NO_COLOR, KDMESG_COLORS) and the pager (-P, PAGER).
# A terminal is made with script(1) where one is needed.

bats_require_minimum_version 1.5.0
load helpers

# Run a command line on a pseudo-terminal; its output, with \r removed.
on_tty() {
        command -v script > /dev/null || skip "script(1) is not installed"
        TERM=${TERM_ON_TTY:-xterm} script -qec "$1" /dev/null < /dev/null | tr -d '\r'
}

@test "--color=always: named slots for time, head and levels" {
        run bash -c '"$KDMESG" --color=always -x -K "$DATA/classic.kmsg" 2>/dev/null | cat -v'
        [ "$status" -eq 0 ]
        golden color/always.txt
        run bash -c '"$KDMESG" -Lalways -x -K "$DATA/classic.kmsg" 2>/dev/null | cat -v'
        golden color/always.txt
}

@test "--color=always with -e: the minute break has its own slot" {
        run bash -c '"$KDMESG" --color=always -e --boot-time 1700000000 -K "$DATA/classic.kmsg" --seq 16-18 | cat -v'
        [ "${lines[0]}" = '^[[32m^[[1m[Nov14 22:13] ^[[0m^[[31mfacility 200, level 3^[[0m' ]
        [ "${lines[1]}" = '^[[32m^[[1m[Nov14 22:14] ^[[0memergency a minute later' ]
        [ "${lines[2]}" = '^[[32m[  +0.500000] ^[[0m^[[33mUTF-8 text: ^[[0mcafM-CM-) M-bM-^BM-,' ]
}

@test "no colors when standard output is not a terminal" {
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg"
        [[ "$output" != *$'\033'* ]]
        run --separate-stderr "$KDMESG" --color -K "$DATA/classic.kmsg"
        [[ "$output" != *$'\033'* ]]
        run --separate-stderr "$KDMESG" --color=auto -K "$DATA/classic.kmsg"
        [[ "$output" != *$'\033'* ]]
}

@test "colors on a terminal by default; never with --color=never or NO_COLOR" {
        run on_tty "'$KDMESG' -P -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = $'\033[32m[    1.500000] \033[0m\033[33musb 1-1: \033[0m\033[31mdevice descriptor read/64, error -71\033[0m' ]
        run on_tty "'$KDMESG' -P --color=never -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "[    1.500000] usb 1-1: device descriptor read/64, error -71" ]
        run on_tty "NO_COLOR=1 '$KDMESG' -P -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "[    1.500000] usb 1-1: device descriptor read/64, error -71" ]
        # An empty NO_COLOR does not count; --color=always beats NO_COLOR.
        run on_tty "NO_COLOR= '$KDMESG' -P -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == *$'\033[32m'* ]]
        run bash -c 'NO_COLOR=1 "$KDMESG" --color=always -K "$DATA/classic.kmsg" --seq 4'
        [[ "$output" == *$'\033[32m'* ]]
}

@test "KDMESG_COLORS changes and turns off slots" {
        KDMESG_COLORS='time=35:subsystem=:err=4' run bash -c '"$KDMESG" --color=always -K "$DATA/classic.kmsg" --seq 4 | cat -v'
        [ "$output" = '^[[35m[    1.500000] ^[[0musb 1-1: ^[[4mdevice descriptor read/64, error -71^[[0m' ]
        # util-linux's name for the head's slot is taken too.
        KDMESG_COLORS='subsys=1;36' run bash -c '"$KDMESG" --color=always -t -K "$DATA/classic.kmsg" --seq 4 | cat -v'
        [ "$output" = '^[[1;36musb 1-1: ^[[0m^[[31mdevice descriptor read/64, error -71^[[0m' ]
}

@test "KDMESG_COLORS: a bad entry is one line, exit 1" {
        KDMESG_COLORS='time=32:bogus=1' run --separate-stderr "$KDMESG" --color=always -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: bad KDMESG_COLORS entry 'bogus=1' (expected SLOT=SGR, e.g. time=32)" ]
}

@test "--color: an unknown mode is one line, exit 1" {
        run --separate-stderr "$KDMESG" --color=sometimes -K "$DATA/classic.kmsg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: unknown color mode 'sometimes' (expected auto, always or never)" ]
}

# The default scheme is util-linux 2.43's, byte for byte: the golden files
# were written by the 2.43 peer (test_dmesg --color=always, TZ=GMT,
# DMESG_TEST_BOOTIME=1700000000) from a NUL-separated copy of colors.kmsg.
@test "--color=always: the default scheme is util-linux 2.43's (time, heads, levels, segfault at)" {
        local v
        for v in "default:" "decode:-x" "ctime:-T" "notime:-t" "force-prefix:-p -x"; do
                # shellcheck disable=SC2086
                run bash -c '"$KDMESG" --color=always $1 --boot-time 1700000000 -K "$DATA/colors.kmsg" | cat -v' _ "${v#*:}"
                [ "$status" -eq 0 ]
                golden "color/util-linux-${v%%:*}.txt"
        done
}

@test "the default scheme against the util-linux peer, when it is there" {
        local peer="$TESTS/../../shared/peers/util-linux-dmesg/test_dmesg" v
        [ -x "$peer" ] || skip "no util-linux peer in ../shared/peers"
        python3 -c 'import sys; d=open(sys.argv[1],"rb").read().decode("latin-1").split("\n"); r=[]
for l in d:
    if not l: continue
    if l.startswith(" ") and r: r[-1]+="\n"+l
    else: r.append(l)
open(sys.argv[2],"wb").write("".join(x+"\n\0" for x in r).encode("latin-1"))' "$DATA/colors.kmsg" "$BATS_TEST_TMPDIR/colors.nul"
        for v in "" "-x" "-T" "-t" "-p" "-x -T -p"; do
                # shellcheck disable=SC2086
                diff <(TZ=GMT DMESG_TEST_BOOTIME=1700000000.0 "$peer" --color=always $v -K "$BATS_TEST_TMPDIR/colors.nul") \
                        <("$KDMESG" --color=always $v --boot-time 1700000000 -K "$DATA/colors.kmsg")
        done
}

@test "-L=always, as util-linux takes it" {
        run bash -c '"$KDMESG" -L=always -t -K "$DATA/classic.kmsg" --seq 4 | cat -v'
        [ "$output" = '^[[33musb 1-1: ^[[0m^[[31mdevice descriptor read/64, error -71^[[0m' ]
        run bash -c '"$KDMESG" -L=never -t -K "$DATA/classic.kmsg" --seq 4 | cat -v'
        [ "$output" = 'usb 1-1: device descriptor read/64, error -71' ]
}

@test "TERM=dumb or no TERM: no colors on a terminal, unless --color=always" {
        local plain="[    1.500000] usb 1-1: device descriptor read/64, error -71"
        TERM_ON_TTY=dumb run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "$plain" ]
        TERM_ON_TTY=dumb run on_tty "'$KDMESG' --color=auto -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "$plain" ]
        run on_tty "unset TERM; '$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "$plain" ]
        TERM_ON_TTY=dumb run on_tty "'$KDMESG' --color=always -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033[32m'* ]]
}

# terminal-colors.d: the system directory (redirected for the test) and the user's.
colors_dirs() {
        export KDMESG_SYSTEM_COLORS_DIR="$BATS_TEST_TMPDIR/etc" XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/xdg"
        mkdir -p "$KDMESG_SYSTEM_COLORS_DIR" "$XDG_CONFIG_HOME/terminal-colors.d"
        USERDIR="$XDG_CONFIG_HOME/terminal-colors.d"
}

@test "terminal-colors.d: a dmesg.scheme of color names and SGR, on a terminal" {
        colors_dirs
        printf '# util-linux names and values\ntime brown\nsubsys lightblue\nerr 4;35\n\nsegfault reverse # a comment\n' > "$KDMESG_SYSTEM_COLORS_DIR/dmesg.scheme"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = $'\033[33m[    1.500000] \033[0m\033[1;34musb 1-1: \033[0m\033[4;35mdevice descriptor read/64, error -71\033[0m' ]
        run on_tty "'$KDMESG' -t -K '$DATA/colors.kmsg' --seq 11"
        [ "$output" = $'\033[7msegfault at the start, no head\033[0m' ]
        # The user's file wins over the system's; kdmesg.scheme over dmesg.scheme.
        printf 'time red\n' > "$USERDIR/dmesg.scheme"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = $'\033[31m[    1.500000] \033[0m\033[33musb 1-1: \033[0m\033[31mdevice descriptor read/64, error -71\033[0m' ]
        printf 'time blue\n' > "$KDMESG_SYSTEM_COLORS_DIR/kdmesg.scheme"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033[34m[    1.500000] \033[0m'* ]]
        # A scheme for this terminal beats one for any.
        printf 'time cyan\n' > "$KDMESG_SYSTEM_COLORS_DIR/kdmesg@xterm.scheme"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033[36m[    1.500000] \033[0m'* ]]
        # KDMESG_COLORS goes last.
        run on_tty "KDMESG_COLORS=time=1 '$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033[1m[    1.500000] \033[0m'* ]]
}

@test "terminal-colors.d: ~/.config when XDG_CONFIG_HOME is unset" {
        colors_dirs
        mkdir -p "$BATS_TEST_TMPDIR/home/.config/terminal-colors.d"
        printf 'time red\n' > "$BATS_TEST_TMPDIR/home/.config/terminal-colors.d/dmesg.scheme"
        run on_tty "unset XDG_CONFIG_HOME; HOME='$BATS_TEST_TMPDIR/home' '$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033[31m[    1.500000] \033[0m'* ]]
}

@test "terminal-colors.d: a bad scheme line is one warning naming file and line" {
        colors_dirs
        printf 'time red\nbogus red\nerr nosuchcolor\nwarn 1 2\n' > "$USERDIR/dmesg.scheme"
        run --separate-stderr "$KDMESG" --color=always -K "$DATA/classic.kmsg" --seq 4
        [ "$status" -eq 0 ]
        [ "${stderr_lines[0]}" = "kdmesg: $USERDIR/dmesg.scheme:2: unknown color slot 'bogus'" ]
        [ "${stderr_lines[1]}" = "kdmesg: $USERDIR/dmesg.scheme:3: bad color 'nosuchcolor' for err (expected a color name or SGR, e.g. 1;31)" ]
        [ "${stderr_lines[2]}" = "kdmesg: $USERDIR/dmesg.scheme:4: bad color '1' for warn (expected a color name or SGR, e.g. 1;31)" ]
        [ "${#stderr_lines[@]}" -eq 3 ]
        [ "$output" = $'\033[31m[    1.500000] \033[0m\033[33musb 1-1: \033[0m\033[31mdevice descriptor read/64, error -71\033[0m' ]
}

@test "terminal-colors.d: disable and enable files, by rank; --color overrides them" {
        local plain="[    1.500000] usb 1-1: device descriptor read/64, error -71"
        colors_dirs
        touch "$KDMESG_SYSTEM_COLORS_DIR/disable"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "$plain" ]
        run on_tty "'$KDMESG' --color=auto -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033'* ]]
        run on_tty "'$KDMESG' --color -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033'* ]]
        # A utility's name outranks a terminal, which outranks nothing.
        touch "$KDMESG_SYSTEM_COLORS_DIR/dmesg.enable"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033'* ]]
        touch "$USERDIR/dmesg@xterm.disable"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "$plain" ]
        TERM_ON_TTY=vt100 run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033'* ]]
        # The user's disable beats the system's enable of the same name.
        rm "$USERDIR/dmesg@xterm.disable"
        touch "$USERDIR/dmesg.disable"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [ "$output" = "$plain" ]
        touch "$KDMESG_SYSTEM_COLORS_DIR/kdmesg.enable"
        run on_tty "'$KDMESG' -K '$DATA/classic.kmsg' --seq 4"
        [[ "$output" == $'\033'* ]]
        # Off a terminal an enable file changes nothing.
        run "$KDMESG" -K "$DATA/classic.kmsg" --seq 4
        [ "$output" = "$plain" ]
}

# -H pages; its times need a boot time.
H="-H --boot-time 1700000000"
L0="[Nov14 22:13] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC"
L1="[  +0.000000] Command line: BOOT_IMAGE=/vmlinuz root=/dev/sda1"

@test "the pager: \$PAGER on a terminal, with -H only" {
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0-1"
        [ "${lines[0]}" = "PAGED:$L0" ]
        [ "${lines[1]}" = "PAGED:$L1" ]
        # Without -H, util-linux pages nothing: neither does kdmesg, for any view.
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "[    0.000000] Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' --format=table --color=never -K '$DATA/classic.kmsg' --seq 0"
        [[ "$output" != *PAGED:* ]]
        [[ "${lines[0]}" == *SEQ* ]]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' --lost --color=never -K '$DATA/classic.kmsg'"
        [[ "$output" != *PAGED:* ]]
}

@test "the pager: a PAGER with shell syntax runs through sh" {
        run on_tty "PAGER='sed s/^/PAGED:/ | sed s/^/TWICE:/' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "TWICE:PAGED:$L0" ]
}

@test "the pager: less -FRSX when PAGER is unset" {
        command -v less > /dev/null || skip "less is not installed"
        run on_tty "unset PAGER; LESS= '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [[ "$output" == *"$L0"* ]]
}

@test "the pager: one that cannot start costs no output, with one warning" {
        run on_tty "PAGER=nosuchpager '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0-1; echo status \$?"
        [ "${#lines[@]}" -eq 4 ]
        [ "${lines[0]}" = "kdmesg: cannot run the pager 'nosuchpager': No such file or directory; writing to standard output" ]
        [ "${lines[1]}" = "$L0" ]
        [ "${lines[2]}" = "$L1" ]
        [ "${lines[3]}" = "status 0" ]
        # Not executable, with arguments; and no less on PATH.
        : > "$BATS_TEST_TMPDIR/notexec"
        run on_tty "PAGER='$BATS_TEST_TMPDIR/notexec -R' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0 2>/dev/null; echo status \$?"
        [ "${lines[0]}" = "$L0" ]
        [ "${lines[1]}" = "status 0" ]
        run on_tty "unset PAGER; PATH=/nonexistent '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0 2>'$BATS_TEST_TMPDIR/err'"
        [ "$output" = "$L0" ]
        [ "$(cat "$BATS_TEST_TMPDIR/err")" = "kdmesg: cannot run the pager 'less': No such file or directory; writing to standard output" ]
}

@test "the pager: not with TERM=dumb, -P, --nopager, an empty PAGER, or off a terminal" {
        run on_tty "TERM=dumb PAGER='sed s/^/PAGED:/' '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H --nopager --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        run on_tty "PAGER='sed s/^/PAGED:/' '$KDMESG' $H -P --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        run on_tty "PAGER= '$KDMESG' $H --color=never -K '$DATA/classic.kmsg' --seq 0"
        [ "$output" = "$L0" ]
        PAGER='sed s/^/PAGED:/' run "$KDMESG" $H -K "$DATA/classic.kmsg" --seq 0
        [ "$output" = "$L0" ]
}

@test "the pager: never when following, nor for -r, cat and the machine formats" {
        local f
        # Following standard input (a pipe): read to its end, then done.
        run on_tty "cat '$DATA/classic.kmsg' | PAGER='sed s/^/PAGED:/' timeout 60 '$KDMESG' $H -w --color=never -K - --seq 0"
        [ "$output" = "$L0" ]
        for f in json json-dmesg kmsg export syslog cat; do
                run on_tty "PAGER='sed s/^/PAGED:/' KDMESG_BOOT_TIME=0 '$KDMESG' $H --format=$f --color=never -K '$DATA/classic.kmsg' --seq 0"
                [ -n "$output" ]
                [[ "$output" != *PAGED:* ]]
        done
        # The table is for people: paged with -H, as the classic view, by the same rules (issue 43), at 80 columns.
        run on_tty "stty cols 80; PAGER='sed s/^/PAGED:/' '$KDMESG' $H --format=table --color=never -K '$DATA/classic.kmsg' --seq 0"
        [[ "${lines[0]}" == "PAGED:"*SEQ* ]]
        run on_tty "stty cols 80; PAGER='sed s/^/PAGED:/' '$KDMESG' $H -o TIME,MESSAGE -K '$DATA/classic.kmsg' --seq 0"
        [ "${lines[0]}" = "PAGED:         TIME MESSAGE" ]
        [ "${lines[1]}" = "PAGED:  Nov14 22:13 Linux version 6.1.0 (test@build) #1 SMP PREEMPT_DYNAMIC" ]
        # The pager gets the colors (less -R shows them).
        run on_tty "stty cols 80; PAGER='sed s/^/PAGED:/' '$KDMESG' $H -o TIME,LEVEL,MESSAGE -K '$DATA/classic.kmsg' --seq 4"
        [[ "${lines[1]}" == "PAGED:"*$'\e[31merr\e[0m'* ]]
        local o
        for o in -P --nopager; do
                run on_tty "stty cols 80; PAGER='sed s/^/PAGED:/' '$KDMESG' $H $o --format=table -K '$DATA/classic.kmsg' --seq 0"
                [[ "$output" != *PAGED:* ]]
        done
        run on_tty "stty cols 80; TERM=dumb PAGER='sed s/^/PAGED:/' '$KDMESG' $H --format=table -K '$DATA/classic.kmsg' --seq 0"
        [[ "$output" != *PAGED:* ]]
        run on_tty "stty cols 80; PAGER= '$KDMESG' $H --format=table -K '$DATA/classic.kmsg' --seq 0"
        [[ "$output" != *PAGED:* ]]
        [[ "${lines[0]}" == *SEQ* ]]
}

@test "the pager: kdmesg waits for it and keeps the exit status" {
        run on_tty "PAGER='sleep 0.3; cat' '$KDMESG' $H --color=never -K '$BATS_TEST_TMPDIR/missing' -K '$DATA/classic.kmsg' --seq 0; echo status \$?"
        [[ "$output" == *"$L0"* ]]
        [ "${lines[-1]}" = "status 1" ]
}

@test "--color=always: the device slot colors the --show-device tag" {
        run bash -c '"$KDMESG" --color=always --show-device -K "$DATA/classic.kmsg" --seq 3-4 | cat -v'
        [ "${lines[0]}" = '^[[32m[    0.152000] ^[[0m^[[33mACPI: ^[[0m^[[1m\_SB_.PCI0: _PRT not found^[[0m' ]
        [ "${lines[1]}" = '^[[32m[    1.500000] ^[[0m^[[36m<c189:1> ^[[0m^[[33musb 1-1: ^[[0m^[[31mdevice descriptor read/64, error -71^[[0m' ]
}

@test "--color=always: the loss line is colored in the short, cat and table views, not in syslog, kmsg or json" {
        local want='^[[1;35m-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --^[[0m' f
        for f in short cat table; do
                run bash -c '"$KDMESG" --color=always --format="$1" -K "$DATA/formats.kmsg" 2>/dev/null | cat -v' _ "$f"
                [ "$status" -eq 0 ]
                grep -qxF -- "$want" <<<"$output"
        done
        # The syslog and cat views color nothing but the loss line.
        run bash -c '"$KDMESG" --color=always -r -K "$DATA/formats.kmsg" 2>/dev/null | grep -v lost'
        [[ "$output" != *$'\033'* ]]
        # The table's loss line between its rows is colored too.
        run bash -c '"$KDMESG" --color=always --format=table -K "$DATA/formats.kmsg" 2>/dev/null | cat -v'
        [ "${lines[4]}" = '^[[1;35m-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --^[[0m' ]
        KDMESG_COLORS='loss=4' run bash -c '"$KDMESG" --color=always --format=cat -K "$DATA/formats.kmsg" 2>/dev/null | cat -v'
        [[ "$output" == *'^[[4m-- 1 message lost (seq 4, between 2.000001 and 99000.000000, gap) --^[[0m'* ]]
        for f in syslog kmsg json export; do
                KDMESG_BOOT_TIME=0 run --separate-stderr "$KDMESG" --color=always --format="$f" -K "$DATA/formats.kmsg"
                [[ "$output" != *$'\033'* ]]
                [[ "$stderr" != *$'\033'* ]]
        done
}

@test "the table colors LEVEL as the classic view colors the message, and keeps its columns (issue 43)" {
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg" --format=table --color=always -q
        [ "$status" -eq 0 ]
        [[ "$output" == *$'\e[31merr\e[0m'* ]]
        [[ "$output" == *$'\e[1mwarn\e[0m'* ]]
        # Without the escapes, the same table as without colors: they take no column.
        [ "$(sed 's/\x1b\[[0-9;]*m//g' <<<"$output")" = "$("$KDMESG" -K "$DATA/classic.kmsg" --format=table --color=never -q)" ]
        run --separate-stderr "$KDMESG" -K "$DATA/classic.kmsg" --format=table --color=never -q
        [[ "$output" != *$'\e'* ]]
}

@test "the table colors MESSAGE as the classic view colors it, on a terminal at 80 columns, piped and through libsmartcols (issue 43)" {
        local err=$'\e[31m' seg=$'\e[2m\e[31m' off=$'\e[0m' strip='s/\x1b\[[0-9;]*m//g'
        # On a terminal, colors are on by default: LEVEL and MESSAGE in the level's color, cut inside it.
        run on_tty "stty cols 80; '$KDMESG' -K '$DATA/colors.kmsg' --format=table"
        [ "$status" -eq 0 ]
        [ "${lines[5]}" = "      4      1.500000 ${err}err${off}    usb       c189:1     ${err}usb 1-1: device descriptor re…${off}" ]
        # "segfault at" where the level has no color; emerg and info none, as util-linux.
        [ "${lines[10]}" = "      9      2.400000 info                        ${seg}a.out[4242]: segfault at 0 ip…${off}" ]
        [ "${lines[8]}" = "      7      2.200000 emerg                       emerg: not colored, as in uti…" ]
        # The escapes take no column: the same table as without colors, whatever column is last.
        [ "$(sed "$strip" <<<"$output")" = "$(on_tty "stty cols 80; '$KDMESG' -K '$DATA/colors.kmsg' --format=table --color=never")" ]
        run on_tty "stty cols 80; '$KDMESG' -K '$DATA/colors.kmsg' -o MESSAGE,TIME,LEVEL"
        [[ "$output" == *"${err}usb 1-1: device descriptor read/64, error -71${off}"*"${err}err${off}"* ]]
        [ "$(sed "$strip" <<<"$output")" = "$(on_tty "stty cols 80; '$KDMESG' -K '$DATA/colors.kmsg' -o MESSAGE,TIME,LEVEL --color=never")" ]
        run on_tty "stty cols 80; '$KDMESG' -K '$DATA/colors.kmsg' -o LEVEL,MESSAGE --wrap"
        [ "$(sed "$strip" <<<"$output")" = "$(on_tty "stty cols 80; '$KDMESG' -K '$DATA/colors.kmsg' -o LEVEL,MESSAGE --wrap --color=never")" ]
        # The same rules as the classic view: NO_COLOR, --color=never, the palette of KDMESG_COLORS.
        run on_tty "stty cols 80; NO_COLOR=1 '$KDMESG' -K '$DATA/colors.kmsg' --format=table"
        [[ "$output" != *$'\e'* ]]
        run on_tty "stty cols 80; KDMESG_COLORS='err=4' '$KDMESG' -K '$DATA/colors.kmsg' --format=table"
        [ "${lines[5]}" = "      4      1.500000 "$'\e[4m'"err${off}    usb       c189:1     "$'\e[4m'"usb 1-1: device descriptor re…${off}" ]
        # Piped with --color=always, laid out by kdmesg and by libsmartcols (COLUMNS): colored, same columns.
        run --separate-stderr "$KDMESG" -K "$DATA/colors.kmsg" --format=table --color=always
        [ "${lines[5]}" = "      4      1.500000 ${err}err${off}    usb       c189:1     ${err}usb 1-1: device descriptor read/64, error -71${off}" ]
        [ "$(sed "$strip" <<<"$output")" = "$("$KDMESG" -K "$DATA/colors.kmsg" --format=table --color=never 2>/dev/null)" ]
        COLUMNS=120 run --separate-stderr "$KDMESG" -K "$DATA/colors.kmsg" --format=table --color=always
        [[ "${lines[5]}" == *"${err}usb 1-1: device descriptor read/64, error -71${off}" ]]
        [ "$(sed "$strip" <<<"$output")" = "$(COLUMNS=120 "$KDMESG" -K "$DATA/colors.kmsg" --format=table --color=never 2>/dev/null)" ]
        # Piped without --color=always: none.
        run --separate-stderr "$KDMESG" -K "$DATA/colors.kmsg" --format=table
        [[ "$output" != *$'\e'* ]]
}
