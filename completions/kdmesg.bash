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

_kdmesg()
{
        local cur prev words cword split
        _init_completion -s || return

        local levels="emerg alert crit err warn notice info debug"
        local facilities="kern user mail daemon auth syslog lpr news uucp cron
                authpriv ftp local0 local1 local2 local3 local4 local5 local6
                local7"

        case $prev in
                -K | --kmsg-file | -F | --file | --cursor-file | --key | --cert)
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
                --boot-id | --machine-id | --upload)
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
                --since | --until | --boot-time)
                        COMPREPLY=($(compgen -W "now today yesterday -10min -1h" -- "$cur"))
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
                        _kdmesg_list "SEQ TIME PRI FACILITY LEVEL FLAGS CALLER MESSAGE SUBSYSTEM DEVICE DEVNAME MATCH DICT DEV."
                        return
                        ;;
                --device)
                        local IFS=$'\n'
                        COMPREPLY=($(compgen -W "$(ls /sys/class/block /sys/class/net 2>/dev/null)" -- "$cur"))
                        [[ $cur == /* ]] && _filedir
                        return
                        ;;
                --subsystem)
                        COMPREPLY=($(compgen -W "$(ls /sys/class /sys/bus 2>/dev/null)" -- "$cur"))
                        return
                        ;;
                --sysroot)
                        _filedir -d
                        return
                        ;;
                --match)
                        COMPREPLY=($(compgen -W "SUBSYSTEM= DEVICE=" -- "$cur"))
                        compopt -o nospace 2>/dev/null
                        return
                        ;;
                -g | --grep | --seq | -h | --help | -V | --version)
                        return
                        ;;
        esac

        $split && return

        if [[ $cur == -* ]]; then
                local opts="
                        --kmsg-file --file --input-format --syslog
                        --level --facility --kernel --userspace --since --until
                        --grep --seq
                        --notime --ctime --show-delta --reltime --human
                        --time-format --boot-time --decode --force-prefix
                        --noescape --color= --nopager
                        -w --follow -W --follow-new --cursor-file --fail-on-loss -q --quiet --lost
                        --clear --read-clear --console-off --console-on
                        --console-level
                        --format= -J --json --json=dmesg -r --raw -o --output=
                        --list-columns --noheadings --boot-id --hostname --machine-id
                        --upload --trust --key --cert
                        --device --subsystem --match --with-children --device-text
                        --show-device --resolve --sysroot --devices
                        --help --version"
                COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
                return
        fi
} &&
        complete -F _kdmesg kdmesg

# ex: filetype=sh
