#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Scripted consistency checks that keep --help, the man page, the
# completions and the translations true to each other and to the program.

bats_require_minimum_version 1.5.0
load helpers

SRC="$TESTS/.."
MAN="$SRC/man/kdmesg.1.scd"
BASHCOMP="$SRC/completions/kdmesg.bash"
ZSHCOMP="$SRC/completions/_kdmesg"

# Short options of --help that take an argument.
help_short_with_argument() {
        "$KDMESG" --help | grep -oE '^ +-[[:alnum:]], --[[:alnum:]-]+ +<' | grep -oE '^ +-[[:alnum:]]' | tr -d ' '
}

# Options listed in --help, one per line: "--long" or "-s --long".
help_options() {
        "$KDMESG" --help | grep -oE '^ +(-[[:alnum:]], )?--[[:alnum:]][[:alnum:]-]*' |
                sed -E 's/^ +//; s/,//'
}

help_long_options() {
        help_options | grep -oE -- '--[[:alnum:]-]+$'
}

@test "every short option in --help does what its long form does" {
        local short long arg n=0
        # An argument each, where one is needed; the kernel control options
        # (-C -c -D -E -n -S) and --follow never run here.
        declare -A args=([-K]="$DATA/classic.kmsg" [-F]="$DATA/classic.syslog" [-l]="err+"
                [-f]="kern" [-g]="usb" [-o]="SEQ,LEVEL,MESSAGE" [-L]="")
        while read -r short long; do
                [ -n "$long" ] || continue
                case $short in -C | -c | -D | -E | -n | -S | -w | -h | -V) continue ;; esac
                arg=${args[$short]-}
                local -a s=("$short") l=("$long")
                if [ -n "$arg" ]; then
                        s=("$short" "$arg")
                        l=("$long=$arg")
                fi
                KDMESG_BOOT_TIME=@1700000000 run --separate-stderr "$KDMESG" -P "${s[@]}" -K "$DATA/classic.kmsg"
                local st=$status out=$output err=$stderr
                KDMESG_BOOT_TIME=@1700000000 run --separate-stderr "$KDMESG" -P "${l[@]}" -K "$DATA/classic.kmsg"
                echo "$short / $long: status $st / $status"
                [ "$status" -eq "$st" ]
                [ "$output" = "$out" ]
                [ "$stderr" = "$err" ]
                n=$((n + 1))
        done < <(help_options)
        # -K -F -l -f -k -u -g -J -r -o -t -T -d -e -H -x -p -L -P -W -q at least.
        [ "$n" -ge 20 ]
        # -h and -V too, without a dump.
        [ "$("$KDMESG" -h)" = "$("$KDMESG" --help)" ]
        [ "$("$KDMESG" -V)" = "$("$KDMESG" --version)" ]
}

# The names of the sink table's rows (src/output/sinks.c): "formats" or "reports";
# "inputs": the names --input-format takes (libkmsg's input forms).
sink_rows() {
        : "${SINK_ROWS:?SINK_ROWS must point at the sink-rows helper}"
        "$SINK_ROWS" "$1"
}

@test "the man page describes every output format, time format and exit status of --help" {
        local f formats times codes section missing=
        # The formats --help lists are the format rows of the sink table.
        formats=$("$KDMESG" --help | sed -n '/--format <format>/,/^ *-/p' | sed '$d' | sed 's/.*output format://' |
                tr -s ' ,\n' '\n' | grep -vxE '|or')
        [ "$formats" = "$(sink_rows formats)" ]
        # Every name --format takes is one the program accepts ...
        for f in $formats; do
                KDMESG_BOOT_TIME=@0 "$KDMESG" --format="$f" -K "$DATA/classic.kmsg" >/dev/null 2>&1 ||
                        missing+=" --format=$f(refused)"
        done
        # ... and has its own entry under OUTPUT FORMATS of kdmesg-formats(5).
        section=$(sed -n '/^# OUTPUT FORMATS/,/^# [A-Z]/p' "$SRC/man/kdmesg-formats.5.scd")
        for f in $formats; do
                grep -qE "^\*$f\*( |\$)" <<<"$section" || missing+=" format:$f"
        done
        times=$("$KDMESG" --help | grep -A1 -- '--time-format <format>' | head -1 |
                sed 's/.*<format>//; s/,/ /g; s/ or / /')
        [ "$(wc -w <<<"$times")" -eq 6 ]
        section=$(sed -n '/^\*--time-format\*/,/^\*--boot-time\*/p' "$MAN")
        for f in $times; do
                grep -qF "*$f*" <<<"$section" || missing+=" time:$f"
        done
        # "Exit status: 0 success, 1 failure (...), 3 ..., 4 ...": the numbers that start its items.
        codes=$("$KDMESG" --help | sed -n '/^Exit status:/,/^$/p' | tr '\n' ' ' | sed 's/^Exit status: *//' |
                grep -oE '(^|, )[0-9]+ ' | grep -oE '[0-9]+')
        [ "$(wc -w <<<"$codes")" -eq 5 ]
        section=$(sed -n '/^# EXIT STATUS/,/^# [A-Z]/p' "$MAN")
        for f in $codes; do
                grep -qx "\*$f\*" <<<"$section" || missing+=" exit:$f"
        done
        echo "missing:$missing"
        [ -z "$missing" ]
}

@test "--help goes to stdout, exits 0, writes nothing to stderr" {
        run --separate-stderr "$KDMESG" --help
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [[ "${lines[0]}" == "Usage:" ]]
        [[ "$output" == *"For more details see kdmesg(1), kdmesg-formats(5),"* ]]
}

@test "--help points at kdmesg(1) and at every reference page of its SEE ALSO (issue 42)" {
        local p missing= help
        help=$("$KDMESG" --help | tr '\n' ' ')
        for p in kdmesg.1 $(see_also_pages); do
                [[ "$help" == *" ${p%.*}(${p##*.})"[,.\ ]* ]] || missing+=" $p"
        done
        echo "not in --help:$missing"
        [ -z "$missing" ]
        [ "$(see_also_pages | wc -l)" -ge 4 ]
}

@test "--help lists --help and --version last in the options" {
        run help_long_options
        [ "${lines[-2]}" = "--help" ]
        [ "${lines[-1]}" = "--version" ]
}

@test "--help fits in 80 columns and 100 lines" {
        run long_lines < <("$KDMESG" --help)
        [ -z "$output" ]
        # Every line under 80 columns (issue 42): long_lines counts more than 80 only.
        run long_lines 79 < <("$KDMESG" --help)
        [ -z "$output" ]
        [ "$("$KDMESG" --help | wc -l)" -le 100 ]
}

@test "--version prints the version and the library version to stdout" {
        run --separate-stderr "$KDMESG" --version
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [[ "$output" =~ ^kdmesg\ [0-9]+\.[0-9]+\.[0-9]+\ \(libkmsg\ [0-9]+\.[0-9]+\.[0-9]+\)$ ]]
}

# A bad option: one line naming it, the pointer to --help, exit 1, no output.
bad_option() {
        run --separate-stderr "$KDMESG" "$@"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
}

@test "an unknown long option: one line, Try 'kdmesg --help', exit 1" {
        bad_option --no-such-option
        [ "${stderr_lines[0]}" = "kdmesg: unrecognized option '--no-such-option'" ]
}

@test "an unknown short option: one line, Try 'kdmesg --help', exit 1" {
        bad_option -%
        [ "${stderr_lines[0]}" = "kdmesg: invalid option -- '%'" ]
}

@test "a missing argument: one line, Try 'kdmesg --help', exit 1" {
        bad_option --kmsg-file
        [ "${stderr_lines[0]}" = "kdmesg: option '--kmsg-file' requires an argument" ]
        bad_option -K
        [ "${stderr_lines[0]}" = "kdmesg: option requires an argument -- 'K'" ]
}

@test "an argument to an option that takes none: one line, exit 1" {
        bad_option --help=yes
        [ "${stderr_lines[0]}" = "kdmesg: option '--help' doesn't allow an argument" ]
}

@test "a stray argument: one line, Try 'kdmesg --help', exit 1" {
        bad_option stray
        [ "${stderr_lines[0]}" = "kdmesg: unexpected argument 'stray'" ]
}

# Fill the associative array named $1 with the lines of standard input.
set_of() {
        local -n _set=$1
        local l
        while IFS= read -r l; do
                [ -n "$l" ] && _set[$l]=1
        done
        return 0
}

# Every option token in file $1 ("-K", "--kmsg-file"), one per line.
option_tokens() {
        grep -oE -- '(^|[^[:alnum:]-])-{1,2}[[:alnum:]][[:alnum:]-]*' "$1" | grep -oE -- '-{1,2}[[:alnum:]][[:alnum:]-]*' | sort -u
}

@test "every option in --help has an entry in the man page" {
        local o s l missing=
        local -A heads
        # "*-K*, *--kmsg-file*" and "*--noescape*" at the start of a line.
        set_of heads < <(grep -oE '^\*-[^*]+\*(, \*--[^*]+\*)?' "$MAN" | tr -d '*')
        while read -r o; do
                l=${o##* }
                if [[ $o == -?\ * ]]; then
                        s=${o%% *}
                        [ -n "${heads["$s, $l"]-}" ] || missing+=" $s,$l"
                else
                        [ -n "${heads[$l]-}" ] || missing+=" $l"
                fi
        done < <(help_options)
        echo "not in the man page:$missing"
        [ -z "$missing" ]
}

@test "every option in the man page is in --help" {
        local o extra=
        local -A help
        set_of help < <(help_options | tr ' ' '\n')
        for o in $(grep -oE '^\*-[^*]+\*(, \*--[^*]+\*)?' "$MAN" | grep -oE -- '-{1,2}[[:alnum:]-]+'); do
                [ -n "${help[$o]-}" ] || extra+=" $o"
        done
        echo "in the man page, not in --help:$extra"
        [ -z "$extra" ]
}

@test "every option in --help is completed by bash and zsh" {
        local o missing=
        local -A zsh bash
        set_of zsh < <(option_tokens "$ZSHCOMP")
        set_of bash < <(option_tokens "$BASHCOMP")
        # zsh offers every option; bash the long ones, and completes the
        # arguments of short ones too.
        for o in $(help_options); do
                [ -n "${zsh[$o]-}" ] || missing+=" $o(_kdmesg)"
        done
        for o in $(help_long_options) $(help_short_with_argument); do
                [ -n "${bash[$o]-}" ] || missing+=" $o(kdmesg.bash)"
        done
        echo "not completed:$missing"
        [ -z "$missing" ]
}

@test "the completions offer no long option that --help does not list" {
        local o f extra=
        local -A help
        set_of help < <(help_options | tr ' ' '\n')
        for f in "$BASHCOMP" "$ZSHCOMP"; do
                for o in $(option_tokens "$f" | grep -E -- '^--'); do
                        [ -n "${help[$o]-}" ] || extra+=" $o($(basename "$f"))"
                done
        done
        echo "completed but not in --help:$extra"
        [ -z "$extra" ]
}

@test "the completions offer the formats of the sink table, and its reports" {
        local f o missing= rows bash zsh
        rows=$(sink_rows formats | sort)
        # bash: the words of --format; zsh: the values of --format=.
        bash=$(sed -n '/^ *--format)$/,/;;/p' "$BASHCOMP" | grep -oE 'compgen -W "[^"]*"' |
                sed 's/compgen -W "//; s/"$//' | tr ' ' '\n' | sort)
        zsh=$(grep -oE -- "--format=\[[^]]*\]:format:\([^)]*\)" "$ZSHCOMP" | sed 's/.*:(//; s/)$//' | tr ' ' '\n' | sort)
        echo "rows: $rows"
        echo "bash: $bash"
        echo "zsh: $zsh"
        [ -n "$rows" ]
        [ "$bash" = "$rows" ]
        [ "$zsh" = "$rows" ]
        # Every report is an option of --help, completed by both shells.
        for o in $(sink_rows reports); do
                "$KDMESG" --help | grep -qE -- "^ +$o(\[|  )" || missing+=" $o(--help)"
                grep -qE -- "(^|[^[:alnum:]-])$o([^[:alnum:]-]|\$)" "$BASHCOMP" || missing+=" $o(kdmesg.bash)"
                grep -qE -- "(^|[^[:alnum:]-])$o([^[:alnum:]-]|\$)" "$ZSHCOMP" || missing+=" $o(_kdmesg)"
        done
        echo "missing:$missing"
        [ -z "$missing" ]
        [ "$(sink_rows reports | wc -l)" -ge 4 ]
}

@test "--help and the completions offer the input forms of libkmsg for --input-format" {
        local forms bash zsh
        forms=$(sink_rows inputs | sort)
        bash=$(sed -n '/^ *--input-format)$/,/;;/p' "$BASHCOMP" | grep -oE 'compgen -W "[^"]*"' |
                sed 's/compgen -W "//; s/"$//' | tr ' ' '\n' | sort)
        zsh=$(grep -oE -- "--input-format=\[[^]]*\]:format:\([^)]*\)" "$ZSHCOMP" | sed 's/.*:(//; s/)$//' |
                tr ' ' '\n' | sort)
        echo "libkmsg: $forms"
        echo "bash: $bash"
        echo "zsh: $zsh"
        [ "$(wc -l <<<"$forms")" -ge 5 ]
        [ "$bash" = "$forms" ]
        [ "$zsh" = "$forms" ]
        # --help names every form but auto, which is its default (the form detected).
        [ "$("$KDMESG" --help | grep -- '--input-format <fmt>' | sed 's/.*-K form://' |
                tr -s ' ,\n' '\n' | grep -vxE '' | sort)" = "$(grep -vx auto <<<"$forms")" ]
}

@test "the man page sources are valid scdoc: kdmesg(1) and its reference pages" {
        command -v scdoc >/dev/null || skip "scdoc is not installed"
        local p n=0
        for p in "$SRC"/man/kdmesg*.scd; do
                echo "$p"
                run bash -c 'scdoc < "$1" > /dev/null' _ "$p"
                [ "$status" -eq 0 ]
                n=$((n + 1))
        done
        [ "$n" -ge 5 ]
}

# The pages of kdmesg's own that kdmesg(1)'s SEE ALSO names: "kdmesg-formats.5" ...
see_also_pages() {
        sed -n '/^# SEE ALSO/,/^# [A-Z]/p' "$MAN" | grep -oE '\*kdmesg-[a-z-]+\*\([1-8]\)' |
                sed -E 's/\*//g; s/\(([1-8])\)/.\1/' | sort -u
}

# kdmesg(1) rendered as man(1) shows it on a terminal of 80 columns.
man80() {
        command -v scdoc >/dev/null || skip "scdoc is not installed"
        command -v man >/dev/null || skip "man is not installed"
        scdoc < "$1" > "$BATS_TEST_TMPDIR/page"
        MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$BATS_TEST_TMPDIR/page" 2>/dev/null
}

@test "kdmesg(1) is a page for the terminal: at most 900 lines at 80 columns, EXAMPLES within its first 300 (issue 42)" {
        local lines examples
        lines=$(man80 "$MAN" | wc -l)
        examples=$(man80 "$MAN" | grep -nx 'EXAMPLES' | cut -d: -f1)
        echo "kdmesg(1): $lines lines, EXAMPLES at line $examples"
        [ "$lines" -ge 300 ]
        [ "$lines" -le 900 ]
        [ -n "$examples" ]
        [ "$examples" -le 300 ]
        # What it is for comes first: EXAMPLES before OPTIONS, the exit statuses kept.
        [ "$examples" -lt "$(man80 "$MAN" | grep -nx 'OPTIONS' | cut -d: -f1)" ]
        man80 "$MAN" | grep -qx 'EXIT STATUS'
}

@test "kdmesg(1) names its reference pages in SEE ALSO and in its options, and every man/kdmesg-*.scd is one of them" {
        local p missing= pages opts
        pages=$(see_also_pages)
        echo "SEE ALSO: $pages"
        [ "$(wc -l <<<"$pages")" -ge 4 ]
        [ "$(cd "$SRC/man" && ls kdmesg-*.scd | sed 's/\.scd$//' | sort)" = "$pages" ]
        opts=$(sed -n '/^# OPTIONS/,/^# [A-Z]/p' "$MAN")
        for p in $pages; do
                grep -qF "*${p%.*}*(${p##*.})" <<<"$opts" || missing+=" $p(OPTIONS)"
                grep -qF "'$p'" "$SRC/man/meson.build" || missing+=" $p(man/meson.build)"
                head -1 "$SRC/man/$p.scd" | grep -qF "${p%.*}(${p##*.}) " || missing+=" $p(title)"
        done
        echo "missing:$missing"
        [ -z "$missing" ]
}

@test "meson install puts kdmesg(1) and every page of its SEE ALSO in place, built by scdoc" {
        command -v meson > /dev/null || skip "meson is not on PATH"
        local d="$BATS_TEST_TMPDIR/inst" p f missing=
        run meson install -C "$BUILDDIR" --destdir "$d" --no-rebuild --quiet
        [ "$status" -eq 0 ]
        for p in kdmesg.1 $(see_also_pages); do
                f=$(find "$d" -path "*/man${p##*.}/$p")
                echo "$p: $f"
                if [ -z "$f" ]; then
                        missing+=" $p"
                        continue
                fi
                grep -qi "^\.TH \"${p%.*}\" \"${p##*.}\"" "$f" || missing+=" $p(.TH)"
        done
        echo "not installed:$missing"
        [ -z "$missing" ]
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
                printf "%s\n" "${COMPREPLY[@]}"' _ "$BASHCOMP" "$@"
}

@test "--since completes no tomorrow (a log has nothing from then on), --until does; in zsh too (issue 43)" {
        run bash_complete --since t
        [ "$status" -eq 0 ]
        [ "$output" = "today" ]
        run bash_complete --until t
        [ "$output" = "$(printf 'today\ntomorrow')" ]
        grep -q -- "'--since=\[[^]]*\]:time:(now today yesterday -10min -1h)'" "$ZSHCOMP"
        grep -q -- "'--until=\[[^]]*\]:time:(now today yesterday tomorrow -10min -1h)'" "$ZSHCOMP"
}

@test "the bash completion completes options" {
        run bash_complete --kmsg
        [ "$status" -eq 0 ]
        [ "$output" = "--kmsg-file" ]
        run bash_complete --con
        [ "$output" = "$(printf -- '--console-off\n--console-on\n--console-level')" ]
}

@test "the bash completion completes level and facility names, in lists" {
        run bash_complete --level e
        [ "$output" = "$(printf 'emerg\nerr')" ]
        run bash_complete -l err,w
        [ "$output" = "err,warn" ]
        run bash_complete -l +no
        [ "$output" = "+notice" ]
        run bash_complete --facility kern,dae
        [ "$output" = "kern,daemon" ]
        run bash_complete -n cr
        [ "$output" = "crit" ]
}

@test "the bash completion completes option values" {
        run bash_complete --time-format i
        [ "$output" = "iso" ]
        run bash_complete --input-format e
        [ "$output" = "export" ]
        run bash_complete --color a
        [ "$output" = "$(printf 'auto\nalways')" ]
}

@test "the bash completion: --device and --subsystem offer names, never ls headers" {
        local r="$BATS_TEST_TMPDIR/root"
        mkdir -p "$r/sys/class/block/sda" "$r/sys/class/block/sda1" "$r/sys/class/net/eth0" "$r/sys/class/net/lo" \
                "$r/sys/class/tty" "$r/sys/bus/usb" "$r/sys/bus/pci"
        run bash_complete --sysroot "$r" --device ""
        [ "$output" = "$(printf 'sda\nsda1\neth0\nlo')" ]
        run bash_complete --sysroot "$r" --device s
        [ "$output" = "$(printf 'sda\nsda1')" ]
        run bash_complete --sysroot "$r" --subsystem ""
        [ "$output" = "$(printf 'block\nnet\ntty\npci\nusb')" ]
        # On this machine's /sys too: names only.
        run bash_complete --device ""
        [[ "$output" != *:* ]]
        [[ "$output" != */* ]]
        run bash_complete --subsystem ""
        [[ "$output" != *:* ]]
}

@test "the bash completion: -o in any case, without the columns already chosen" {
        run bash_complete -o se
        [ "$output" = "SEQ" ]
        run bash_complete -o SEQ,t
        [ "$output" = "SEQ,TIME" ]
        run bash_complete -o seq,time,
        [[ "$output" != *SEQ,time,SEQ* ]]
        [[ "$output" != *SEQ,time,TIME* ]]
        [[ "$output" == *"seq,time,MESSAGE"* ]]
        [[ "$output" == *"seq,time,DEV."* ]]
        run bash_complete -o +mes
        [ "$output" = "+MESSAGE" ]
        run bash_complete --output DEV.a,d
        [ "$output" = "$(printf 'DEV.a,DEVICE\nDEV.a,DEVNAME\nDEV.a,DICT\nDEV.a,DEV.')" ]
}

# Tab pressed at the end of a command line in an interactive zsh (tests/cli/zsh-complete).
zsh_complete() {
        command -v zsh >/dev/null || skip "zsh is not installed"
        timeout 60 zsh -f "$TESTS/cli/zsh-complete" "$SRC/completions" "kdmesg $*"
}

@test "the zsh completion completes level and facility names, in lists" {
        run zsh_complete --level e
        [ "$status" -eq 0 ]
        [ "$output" = "$(printf 'emerg\nerr')" ]
        run zsh_complete -l err,w
        [ "$output" = "warn" ]
        run zsh_complete -l +no
        [ "$output" = "notice" ]
        run zsh_complete --facility kern,dae
        [ "$output" = "daemon" ]
        run zsh_complete -f local
        [ "${#lines[@]}" -eq 8 ]
        run zsh_complete -n cr
        [ "$output" = "crit" ]
}

@test "the zsh completion completes options and option values" {
        run zsh_complete --kmsg
        [ "$output" = "--kmsg-file" ]
        run zsh_complete --time-format i
        [ "$output" = "iso" ]
        run zsh_complete --input-format e
        [ "$output" = "export" ]
        run zsh_complete --format json
        [ "$output" = "$(printf 'json\njson-dmesg')" ]
}

@test "the zsh completion parses" {
        command -v zsh >/dev/null || skip "zsh is not installed"
        run zsh -n "$ZSHCOMP"
        [ "$status" -eq 0 ]
}

@test "po/POTFILES.in lists every source file with translatable strings" {
        command -v xgettext >/dev/null || skip "xgettext is not installed"
        local f missing= pot="$BATS_TEST_TMPDIR/one.pot"
        # xgettext decides what is translatable: _() and N_(), however written.
        for f in $(cd "$SRC" && find src lib -name '*.[ch]' | sort); do
                rm -f "$pot"
                (cd "$SRC" && xgettext --from-code=UTF-8 --language=C --keyword=_ --keyword=N_ -o "$pot" "$f")
                [ -s "$pot" ] || continue
                grep -qxF "$f" "$SRC/po/POTFILES.in" || missing+=" $f"
        done
        echo "not in po/POTFILES.in:$missing"
        [ -z "$missing" ]
}

@test "meson install puts the man page, both completions and the catalogs in place" {
        command -v meson > /dev/null || skip "meson is not on PATH"
        local d="$BATS_TEST_TMPDIR/inst" f
        run meson install -C "$BUILDDIR" --destdir "$d" --no-rebuild --quiet
        [ "$status" -eq 0 ]
        f=$(find "$d" -path '*/man1/kdmesg.1')
        [ -n "$f" ]
        grep -q '^\.TH "kdmesg" "1"' "$f"
        grep -q 'boot-time' "$f"
        [ -n "$(find "$d" -path '*/bash-completion/completions/kdmesg')" ]
        [ -n "$(find "$d" -path '*/zsh/site-functions/_kdmesg')" ]
        if [ -f "$BUILDDIR/po/de/LC_MESSAGES/kdmesg.mo" ]; then
                [ -n "$(find "$d" -path '*/locale/de/LC_MESSAGES/kdmesg.mo')" ]
        fi
}
