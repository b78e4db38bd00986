#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Console control and syslog(2) reading, against a test double for
# klogctl(2) (tests/shim/klogctl-shim.c, preloaded).  No test here reaches
# the kernel: each first proves that the double answers, and fails
# without calling kdmesg otherwise.

load helpers
load emu

setup() {
        : "${KLOGCTL_SHIM:?KLOGCTL_SHIM must point at the klogctl test double}"
        export KDMESG_SHIM_LOG="$BATS_TEST_TMPDIR/calls"
        export KDMESG_SHIM_BUFFER="$BATS_TEST_TMPDIR/ring"
        # The sanitizer runtime must come first unless told otherwise.
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
        printf '<6>[    0.500000] shim ring marker\n' > "$KDMESG_SHIM_BUFFER"
        # Prove the double is in place: -S must read its buffer, not the kernel's.
        local probe
        probe=$(LD_PRELOAD="$KLOGCTL_SHIM" "$KDMESG" -S -P 2>&1)
        if [ "$probe" != "[    0.500000] shim ring marker" ]; then
                echo "the klogctl test double is not active: $probe" >&2
                return 1
        fi
        : > "$KDMESG_SHIM_LOG"
}

shim() {
        LD_PRELOAD="$KLOGCTL_SHIM" "$@"
}

# The klogctl calls made, without the "loaded" lines.
calls() {
        grep -v '^loaded$' "$KDMESG_SHIM_LOG" || true
}

@test "-C, --clear: SYSLOG_ACTION_CLEAR, nothing printed" {
        run shim "$KDMESG" --clear
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ "$(calls)" = "5 0" ]
        : > "$KDMESG_SHIM_LOG"
        run shim "$KDMESG" -C
        [ "$(calls)" = "5 0" ]
}

@test "-D, --console-off and -E, --console-on" {
        run shim "$KDMESG" --console-off
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        run shim "$KDMESG" -D
        run shim "$KDMESG" --console-on
        [ "$status" -eq 0 ]
        run shim "$KDMESG" -E
        [ "$(calls)" = "$(printf '6 0\n6 0\n7 0\n7 0')" ]
}

@test "-n, --console-level: numbers 1-8 as given, a name shows that level and worse" {
        run shim "$KDMESG" --console-level 1
        [ "$status" -eq 0 ]
        run shim "$KDMESG" -n 8
        run shim "$KDMESG" -n emerg
        run shim "$KDMESG" -n err
        run shim "$KDMESG" -n debug
        [ "$(calls)" = "$(printf '8 1\n8 8\n8 1\n8 4\n8 8')" ]
}

@test "-n: numbers and names reach klogctl(2) as util-linux dmesg passes them" {
        command -v dmesg >/dev/null || skip "util-linux dmesg is not installed"
        command -v cc >/dev/null || skip "no C compiler for a plain build of the test double"
        # The double built without sanitizers, which dmesg does not load.
        cc -shared -fPIC -o "$BATS_TEST_TMPDIR/plain-shim.so" "$TESTS/shim/klogctl-shim.c"
        # With no capabilities at all, the kernel would refuse a call the
        # double did not take: the real console level stays as it is.
        local -a nocaps=()
        [ "$(id -u)" -ne 0 ] || nocaps=(setpriv --bounding-set=-all --inh-caps=-all)
        run "${nocaps[@]}" env LD_PRELOAD="$BATS_TEST_TMPDIR/plain-shim.so" dmesg -S
        [ "$output" = "[    0.500000] shim ring marker" ]
        local l theirs= ours=
        for l in 1 2 3 4 5 6 7 8 emerg alert crit err warn notice info debug; do
                : > "$KDMESG_SHIM_LOG"
                "${nocaps[@]}" env LD_PRELOAD="$BATS_TEST_TMPDIR/plain-shim.so" dmesg -n "$l"
                theirs+="$l: $(calls) "
                : > "$KDMESG_SHIM_LOG"
                shim "$KDMESG" -n "$l"
                ours+="$l: $(calls) "
        done
        echo "util-linux: $theirs"
        echo "kdmesg:     $ours"
        [ "$ours" = "$theirs" ]
        [[ "$ours" == *"err: 8 4 "* ]]
}

@test "no /dev/kmsg (kernels before 3.5): the log is read through syslog(2), as with -S" {
        emu_init 16
        emu write 3
        # emu_init took the file name of the syslog(2) buffer: give it another.
        export KDMESG_SHIM_BUFFER="$BATS_TEST_TMPDIR/syslog-buffer"
        printf '<6>[    0.500000] shim ring marker\n' > "$KDMESG_SHIM_BUFFER"
        # The emulated device fails to open with ENOENT; syslog(2) is the double.
        both() {
                LD_PRELOAD="$KMSG_EMU_SHIM $KLOGCTL_SHIM" "$@"
        }
        KMSG_EMU_OPEN_ERRNO=2 run --separate-stderr both "$KDMESG" -P
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.500000] shim ring marker" ]
        [ -z "$stderr" ]
        [ "$(calls)" = "$(printf '10 0\n3 4096')" ]
        # -c clears as it reads, in one call.
        : > "$KDMESG_SHIM_LOG"
        KMSG_EMU_OPEN_ERRNO=2 run --separate-stderr both "$KDMESG" -P -c
        [ "$status" -eq 0 ]
        [ "$output" = "[    0.500000] shim ring marker" ]
        [ "$(calls)" = "$(printf '10 0\n4 4096')" ]
        # Following and a cursor need the device itself: one line, exit 1.
        : > "$KDMESG_SHIM_LOG"
        KMSG_EMU_OPEN_ERRNO=2 run --separate-stderr both timeout 60 "$KDMESG" -P -w
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot open /dev/kmsg: No such file or directory" ]
        KMSG_EMU_OPEN_ERRNO=2 run --separate-stderr both "$KDMESG" -P --cursor-file "$BATS_TEST_TMPDIR/cursor"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot open /dev/kmsg: No such file or directory" ]
        # Another error is not a missing device: said, not worked around.
        KMSG_EMU_OPEN_ERRNO=5 run --separate-stderr both "$KDMESG" -P
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot open /dev/kmsg: Input/output error" ]
        [ -z "$(calls)" ]
        # With the device there, syslog(2) is not used.
        run --separate-stderr both "$KDMESG" -P -t
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -eq 3 ]
        [ -z "$(calls)" ]
}

@test "-n: a bad level is one line, exit 1, and nothing is called" {
        run --separate-stderr shim "$KDMESG" -n 9
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: unknown console level '9' (expected 1 to 8 or a level name)" ]
        run --separate-stderr shim "$KDMESG" -n loud
        [ "$status" -eq 1 ]
        [ -z "$(calls)" ]
}

@test "-S, --syslog: reads the buffer through SYSLOG_ACTION_READ_ALL" {
        cp "$DATA/classic.syslog" "$KDMESG_SHIM_BUFFER"
        run --separate-stderr shim "$KDMESG" --syslog
        [ "$status" -eq 0 ]
        golden syslog/view-syslog.txt
        [ "$(calls)" = "$(printf '10 0\n3 4096')" ]
}

@test "-S -c, --read-clear: prints, through SYSLOG_ACTION_READ_CLEAR" {
        cp "$DATA/classic.syslog" "$KDMESG_SHIM_BUFFER"
        run --separate-stderr shim "$KDMESG" -S --read-clear
        [ "$status" -eq 0 ]
        golden syslog/view-syslog.txt
        [ "$(calls)" = "$(printf '10 0\n4 4096')" ]
}

@test "-c without -S: reads /dev/kmsg, then SYSLOG_ACTION_CLEAR" {
        [ -r /dev/kmsg ] && "$KDMESG" -t > /dev/null 2>&1 || skip "/dev/kmsg is not readable here"
        run --separate-stderr shim "$KDMESG" -c -P -t
        [ "$status" -eq 0 ]
        [ -n "$output" ]
        [ "$(calls)" = "5 0" ]
}

@test "-c: no clearing when the log could not be read in full" {
        [ -r /dev/kmsg ] && "$KDMESG" -t > /dev/null 2>&1 || skip "/dev/kmsg is not readable here"
        run --separate-stderr shim bash -c '"$KDMESG" -c -P > /dev/full'
        [ "$status" -eq 1 ]
        [ -z "$(calls)" ]
}

@test "-S with filters and time formats like any input" {
        cp "$DATA/classic.syslog" "$KDMESG_SHIM_BUFFER"
        KDMESG_BOOT_TIME=1700000000 run --separate-stderr shim "$KDMESG" -S -T -l err
        [ "$status" -eq 0 ]
        [ "$output" = "[Tue Nov 14 22:13:21 2023] usb 1-1: device descriptor read/64, error -71" ]
        # Its line without a priority is no record -l can take: said once (issue 37).
        [ "$stderr" = "kdmesg: syslog(2):4: a record without a level: --level matches no such record" ]
}

@test "permission denied: one line naming the action, exit 1" {
        export KDMESG_SHIM_ERRNO=1
        run --separate-stderr shim "$KDMESG" -C
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot clear the kernel ring buffer: Operation not permitted" ]
        run --separate-stderr shim "$KDMESG" -D
        [ "$stderr" = "kdmesg: cannot disable printing messages to the console: Operation not permitted" ]
        run --separate-stderr shim "$KDMESG" -E
        [ "$stderr" = "kdmesg: cannot enable printing messages to the console: Operation not permitted" ]
        run --separate-stderr shim "$KDMESG" -n 3
        [ "$stderr" = "kdmesg: cannot set the console level: Operation not permitted" ]
        run --separate-stderr shim "$KDMESG" -S
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot read the kernel log through syslog(2): Operation not permitted" ]
}

@test "-C, -D, -E, -n and -c exclude each other" {
        run --separate-stderr shim "$KDMESG" -C -D
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --clear and --console-off cannot be used together" ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
        run --separate-stderr shim "$KDMESG" -c -n 3
        [ "$status" -eq 1 ]
        [ -z "$(calls)" ]
}
