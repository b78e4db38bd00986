# bash completion for kdmesg                                -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later

# Complete the last item of the comma-separated list in $cur from the words in $1.
_kdmesg_list()
{
        local prefix="" last="$cur"
        if [[ $cur == *,* ]]; then
                prefix="${cur%,*},"
                last="${cur##*,}"
        fi
        # +LEVEL is accepted for levels: keep a leading '+'.
        if [[ $last == +* ]]; then
                prefix+="+"
                last="${last#+}"
        fi
        local IFS=$' \t\n'
        COMPREPLY=($(compgen -P "$prefix" -W "$1" -- "$last"))
        compopt -o nospace 2>/dev/null
}

# Complete the last column of the -o list in $cur, from the names in $1,
# in upper case whatever case was typed, leaving out the columns already
# in the list (DEV.KEY may come again).  A leading '+' is kept.
_kdmesg_columns()
{
        local prefix="" last="$cur" col words=""
        if [[ $cur == *,* ]]; then
                prefix="${cur%,*},"
                last="${cur##*,}"
        elif [[ $cur == +* ]]; then
                prefix="+"
                last="${cur#+}"
        fi
        local chosen=",${prefix#+}"
        chosen="${chosen^^}"
        for col in $1; do
                [[ $col != *. && $chosen == *",$col,"* ]] || words+=" $col"
        done
        local IFS=$' \t\n'
        COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "${last^^}"))
        compopt -o nospace 2>/dev/null
}

# The names of the entries of the directories given (no 'ls' headers), under
# the --sysroot given on the command line, if any.
_kdmesg_sysnames()
{
        local root="" i d
        for ((i = 1; i < ${#words[@]} - 1; i++)); do
                if [[ ${words[i]} == --sysroot ]]; then
                        root="${words[i + 1]}"
                        [[ $root == = ]] && root="${words[i + 2]-}"
                fi
                [[ ${words[i]} == --sysroot=* ]] && root="${words[i]#--sysroot=}"
        done
        for d in "$@"; do
                for d in "$root$d"/*; do
                        [[ -e $d || -L $d ]] && printf '%s\n' "${d##*/}"
                done
        done
}

_kdmesg()
{
        local cur prev words cword split
        _init_completion -s || return

        local levels="emerg alert crit err warn notice info debug"
        local facilities="kern user mail daemon auth syslog lpr news uucp cron
                authpriv ftp local0 local1 local2 local3 local4 local5 local6
                local7"

        case $prev in
                -K | --kmsg-file | -F | --file | --cursor-file | --key | --cert | --metrics)
                        _filedir
                        return
                        ;;
                --input-format)
                        COMPREPLY=($(compgen -W "auto kmsg syslog export json" -- "$cur"))
                        return
                        ;;
                -l | --level)
                        _kdmesg_list "$levels"
                        return
                        ;;
                -f | --facility)
                        _kdmesg_list "$facilities"
                        return
                        ;;
                -n | --console-level)
                        COMPREPLY=($(compgen -W "$levels 1 2 3 4 5 6 7 8" -- "$cur"))
                        return
                        ;;
                --time-format)
                        COMPREPLY=($(compgen -W "delta reltime ctime notime iso raw" -- "$cur"))
                        return
                        ;;
                --color)
                        COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
                        return
                        ;;
                --boot-id | --machine-id | --upload | --metrics-interval)
                        return
                        ;;
                --trust)
                        _filedir
                        COMPREPLY+=($(compgen -W "all" -- "$cur"))
                        return
                        ;;
                --hostname)
                        _known_hosts_real -- "$cur"
                        return
                        ;;
                --boot)
                        COMPREPLY=($(compgen -W "1 0 -1" -- "$cur"))
                        return
                        ;;
                --since)
                        # Not tomorrow: a log has nothing from then on.
                        COMPREPLY=($(compgen -W "now today yesterday -10min -1h" -- "$cur"))
                        return
                        ;;
                --until | --boot-time)
                        COMPREPLY=($(compgen -W "now today yesterday tomorrow -10min -1h" -- "$cur"))
                        return
                        ;;
                --format)
                        COMPREPLY=($(compgen -W "short table json json-dmesg syslog kmsg export cat" -- "$cur"))
                        return
                        ;;
                --json)
                        COMPREPLY=($(compgen -W "dmesg" -- "$cur"))
                        return
                        ;;
                -o | --output)
                        _kdmesg_columns "SEQ TIME PRI FACILITY LEVEL FLAGS CALLER MESSAGE SUBSYSTEM DEVICE DEVNAME MATCH DICT DEV."
                        return
                        ;;
                --device)
                        local IFS=$'\n'
                        COMPREPLY=($(compgen -W "$(_kdmesg_sysnames /sys/class/block /sys/class/net)" -- "$cur"))
                        [[ $cur == /* ]] && _filedir
                        return
                        ;;
                --subsystem)
                        local IFS=$'\n'
                        COMPREPLY=($(compgen -W "$(_kdmesg_sysnames /sys/class /sys/bus)" -- "$cur"))
                        return
                        ;;
                --sysroot)
                        _filedir -d
                        return
                        ;;
                --problem-rules)
                        _filedir
                        return
                        ;;
                --timeline)
                        COMPREPLY=($(compgen -W "auto utf8 ascii" -- "$cur"))
                        return
                        ;;
                --problem)
                        COMPREPLY=($(compgen -W "panic oops hard-lockup soft-lockup rcu-stall hung-task mce oom-kill
                                fs-error io-error thermal lockdep memory-leak segfault warning link-down" -- "$cur"))
                        return
                        ;;
                --match)
                        COMPREPLY=($(compgen -W "SUBSYSTEM= DEVICE=" -- "$cur"))
                        compopt -o nospace 2>/dev/null
                        return
                        ;;
                -g | --grep | --seq | -s | --buffer-size | -h | --help | -V | --version)
                        return
                        ;;
        esac

        $split && return

        if [[ $cur == -* ]]; then
                local opts="
                        --kmsg-file --file --input-format --syslog --buffer-size
                        --level --facility --kernel --userspace --since --until
                        --grep --seq
                        --notime --ctime --show-delta --reltime --human
                        --time-format --boot-time --boot --list-boots --decode --force-prefix
                        --noescape --color= --nopager
                        -w --follow -W --follow-new --cursor-file --fail-on-loss -q --quiet --lost
                        --metrics --metrics-interval
                        --clear --read-clear --console-off --console-on
                        --console-level
                        --format= -J --json --json=dmesg -r --raw -o --output=
                        --list-columns --noheadings --wrap --boot-id --hostname --machine-id
                        --upload --trust --key --cert
                        --device --subsystem --match --with-children --device-text
                        --show-device --resolve --sysroot --devices
                        --problems --problem --fail-on-problem --problem-rules --list-problem-rules
                        --timeline --timeline=
                        --pstore --pstore= --list
                        --help --version"
                COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
                return
        fi
} &&
        complete -F _kdmesg kdmesg

# ex: filetype=sh
