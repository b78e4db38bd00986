#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Shipping the kernel log to a collector: export entries that are the ones
# journald writes (field for field), losses as entries of the stream.
load helpers
load devices
load emu

# need TOOL...: tools/install-deps installs them; a missing one fails the test.
need() {
        local t
        for t in "$@"; do
                command -v "$t" >/dev/null || [ -x "$t" ] || {
                        echo "$t is missing: run tools/install-deps" >&2
                        return 1
                }
        done
}

setup_file() {
        export ROOT="$BATS_FILE_TMPDIR/root"
        make_sysfs "$ROOT"
        # udev's database: the device links journald writes as _UDEV_DEVLINK.
        mkdir -p "$ROOT/run/udev/data"
        printf '%s\n' S:disk/by-id/ata-DISK-part1 S:disk/by-uuid/0f2c I:1234 E:ID_FS_TYPE=ext4 > "$ROOT/run/udev/data/b8:1"
        export J="$DATA/journal.kmsg"
        export BOOT=aba7d49a3f9a484a8905db37a872b9f5 MACHINE=3d1219c7c4c5404aaa1f6d2a48adfda4
        export LOSS_ID=9ac1b3703093449dace9a589386bdafe
        export REMOTE=/lib/systemd/systemd-journal-remote
}

# The export of journal.kmsg as a machine of the fake sysfs would ship it.
export_j() {
        "$KDMESG" -K "$J" --format=export --boot-time @1700000000 --sysroot "$ROOT" \
                --boot-id aba7d49a-3f9a-484a-8905-DB37A872B9F5 --machine-id "$MACHINE" --hostname host1 "$@"
}

@test "export: every field as journald writes it, over dictionaries, userspace facilities and odd keys (golden)" {
        export_j > "$BATS_TEST_TMPDIR/x" 2> "$BATS_TEST_TMPDIR/err"
        cmp "$BATS_TEST_TMPDIR/x" "$EXPECTED/collector/journal.export"
        # Seq 0-9 rotated out before the dump was read: coverage, not a loss of this read (issue 30).
        [ "$(cat "$BATS_TEST_TMPDIR/err")" = "kdmesg: 2 messages lost (gap)" ]
}

@test "export: the rules, field by field" {
        export_j > "$BATS_TEST_TMPDIR/x" 2>/dev/null
        # One JSON object per entry: {KEY: [values]} (no binary field but the two-line message).
        python3 - "$BATS_TEST_TMPDIR/x" > "$BATS_TEST_TMPDIR/entries" <<'PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
i, e = 0, {}
while i < len(d):
    nl = d.index(b"\n", i)
    line = d[i:nl]
    if not line:
        print(json.dumps(e, sort_keys=True)); e = {}; i = nl + 1; continue
    if b"=" in line:
        k, v = line.split(b"=", 1); i = nl + 1
    else:
        k = line; n = struct.unpack("<Q", d[nl + 1:nl + 9])[0]; v = d[nl + 9:nl + 9 + n]; i = nl + 10 + n
    e.setdefault(k.decode(), []).append(v.decode())
PY
        q() { jq -c "$1" "$BATS_TEST_TMPDIR/entries"; }
        # Every entry has the machine's fields; every record the kernel transport.
        [ "$(q 'select(._BOOT_ID != ["'$BOOT'"] or ._MACHINE_ID != ["'$MACHINE'"] or ._HOSTNAME != ["host1"])')" = "" ]
        [ "$(q 'select(._TRANSPORT != ["kernel"])')" = "" ]
        # The kernel's records: SYSLOG_IDENTIFIER=kernel, SYSLOG_FACILITY=0 (journald writes it on every
        # record: journalctl --facility=kern finds them), the message untouched.
        [ "$(q 'select(.SEQNUM and (.SEQNUM[0] | tonumber) <= 13 or .SEQNUM == ["21"] or .SEQNUM == ["24"])
                 | select(.SYSLOG_IDENTIFIER != ["kernel"] or .SYSLOG_FACILITY != ["0"] or .SYSLOG_PID)')" = "" ]
        [ "$(q 'select(.SEQNUM and .SYSLOG_FACILITY == null)')" = "" ]
        # A dump is no journald's: no _RUNTIME_SCOPE (the live log's is tested below).
        [ "$(q 'select(._RUNTIME_SCOPE)')" = "" ]
        [ "$(q 'select(.SEQNUM == ["21"]) | .MESSAGE')" = '["systemd[1]: the kernel'"'"'s own facility keeps its message"]' ]
        # Every dictionary line as _KERNEL_KEY; keys that cannot follow _KERNEL_ as KMSG_DICT.
        [ "$(q 'select(.SEQNUM == ["13"]) | [._KERNEL_SUBSYSTEM, ._KERNEL_DEVICE, ._KERNEL_DRIVER, ._KERNEL_MESSAGE, .KMSG_DICT, .MESSAGE]')" = \
          '[["pci"],["+pci:0000:00:1f.2"],["ahci"],["not the message"],["lower=x","a.b=c","ABCDEFGHIJKLMNOPQRSTUVWXYZ_ABCDEFGHIJKLMNOPQRSTUVWXYZ_1234=too long for _KERNEL_"],["ahci 0000:00:1f.2: port does not respond"]]' ]
        # _UDEV_SYSNAME from sysfs, _UDEV_DEVNODE for block and char devices, _UDEV_DEVLINK from udev.
        [ "$(q 'select(._KERNEL_DEVICE) | [._KERNEL_DEVICE[0], ._UDEV_SYSNAME, ._UDEV_DEVNODE, ._UDEV_DEVLINK]' | tr -d '\n')" = \
          '["b8:1",["sda1"],["/dev/sda1"],["/dev/disk/by-id/ata-DISK-part1","/dev/disk/by-uuid/0f2c"]]["c189:130",["2-1.4"],["/dev/bus/usb/002/003"],null]["n2",["eth0"],null,null]["+pci:0000:00:1f.2",["0000:00:1f.2"],null,null]' ]
        # Userspace facilities: SYSLOG_FACILITY, and the identifier and PID out of the message.
        [ "$(q 'select(.SYSLOG_FACILITY and .SYSLOG_FACILITY != ["0"]) | [.SEQNUM[0], .SYSLOG_FACILITY[0], .PRIORITY[0], .SYSLOG_IDENTIFIER, .SYSLOG_PID, .MESSAGE[0], .KMSG_MESSAGE]' | tr -d '\n')" = \
          '["14","3","6",["systemd"],["1"],"Started Journal Service.",null]["15","1","6",["sshd"],["42"],"Accepted publickey for root",null]["16","1","5",["foo"],null,"bar",null]["17","1","5",null,null,"no prefix here",null]["18","1","5",null,null,"[5]: no identifier before the bracket",null]["19","1","5",["lead"],null,"white space before and  after",["  lead: white space before and  after"]]["20","1","5",["x[a]b"],null,"not a pid",null]' ]
        # kdmesg's own: the header's flags and fields, the sequence number; no zeros for what is not known.
        [ "$(q 'select(.SEQNUM == ["11"]) | [.KMSG_FLAGS, .KMSG_FIELDS, ._SOURCE_MONOTONIC_TIMESTAMP, .__MONOTONIC_TIMESTAMP, .__REALTIME_TIMESTAMP]')" = \
          '[["-"],["caller=T7"],["1500000"],["1500000"],["1700000001500000"]]' ]
        [ "$(q 'select(.SEQNUM == ["24"]) | [.KMSG_FLAGS, .MESSAGE]')" = '[["c"],["line one\nline two"]]' ]
        # The losses: entries of their own, right before the record after them.
        [ "$(q 'select(.KDMESG_LOST) | [.KDMESG_LOST[0], .KDMESG_LOST_FIRST_SEQ[0], .KDMESG_LOST_CAUSE[0], .MESSAGE_ID[0], .SYSLOG_IDENTIFIER[0], .PRIORITY[0], .MESSAGE[0], .__MONOTONIC_TIMESTAMP[0], .SEQNUM]' | tr -d '\n')" = \
          '["2","22","gap","'$LOSS_ID'","kdmesg","4","-- 2 messages lost (seq 22-23, between 3.700000 and 4.000000, gap) --","4000000",null]' ]
}

@test "export: a dump has no _BOOT_ID, _HOSTNAME, _MACHINE_ID unless given, never zeros; the live log has this machine's" {
        run --separate-stderr "$KDMESG" -K "$J" --format=export --boot-time @0
        [ "$status" -eq 0 ]
        ! grep -qE '^(_BOOT_ID|_HOSTNAME|_MACHINE_ID|_UDEV_SYSNAME|_UDEV_DEVNODE)=' <<<"$output" || false
        emu_init 16
        emu write 2
        run --separate-stderr kdmesg_emu --format=export
        [ "$status" -eq 0 ]
        [ "$(grep -c "^_BOOT_ID=$(emu get boot_id | tr -d -)$" <<<"$output")" -eq 2 ]
        [ "$(grep -c "^_MACHINE_ID=$(tr -d '\n' < /etc/machine-id)$" <<<"$output")" -eq 2 ]
        [ "$(grep -c "^_HOSTNAME=$(hostname)$" <<<"$output")" -eq 2 ]
        # As journald 252 marks every entry it writes outside an initrd.
        [ "$(grep -c "^_RUNTIME_SCOPE=system$" <<<"$output")" -eq 2 ]
        # The options win over this machine's.
        run --separate-stderr kdmesg_emu --format=export --hostname other --machine-id "$BOOT"
        [ "$(grep -c '^_HOSTNAME=other$' <<<"$output")" -eq 2 ]
        [ "$(grep -c "^_MACHINE_ID=$BOOT$" <<<"$output")" -eq 2 ]
}

@test "--boot-id, --machine-id, --hostname: bad values and other formats are one-line errors" {
        run --separate-stderr "$KDMESG" -K "$J" --format=export --boot-id 1234
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: bad id '1234' for --boot-id (expected 32 hex digits)" ]
        run --separate-stderr "$KDMESG" -K "$J" --format=export --machine-id "${BOOT}0"
        [ "$stderr" = "kdmesg: bad id '${BOOT}0' for --machine-id (expected 32 hex digits)" ]
        run --separate-stderr "$KDMESG" -K "$J" --format=export --hostname $'a\nb'
        [ "$stderr" = "kdmesg: bad host name for --hostname (1 to 255 bytes, no spaces or control characters)" ]
        run --separate-stderr "$KDMESG" -K "$J" --json --hostname h
        [ "$status" -eq 1 ]
        [ "${lines[0]:-}" = "" ]
        [ "$stderr" = "kdmesg: --hostname names the records of --format=export, not of json
Try 'kdmesg --help' for more information." ]
}

@test "export read back: kdmesg's own and journald's (journalctl -o export) keep every record and every field" {
        need "$REMOTE" journalctl
        export_j > "$BATS_TEST_TMPDIR/x" 2>/dev/null
        # kdmesg's export read back: the same records, the same export.
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x" --format=kmsg 2>/dev/null | cmp - "$J"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/x" --format=export --boot-time @1700000000 2>/dev/null | cmp - "$BATS_TEST_TMPDIR/x"
        # Through a journal: journalctl's export holds every field of every entry ...
        "$REMOTE" -o "$BATS_TEST_TMPDIR/j.journal" "$BATS_TEST_TMPDIR/x" 2>/dev/null
        journalctl --file "$BATS_TEST_TMPDIR/j.journal" -o export > "$BATS_TEST_TMPDIR/y"
        python3 - "$BATS_TEST_TMPDIR/x" "$BATS_TEST_TMPDIR/y" <<'PY'
import struct, sys
def entries(path):
    d = open(path, "rb").read(); i = 0; e = []; out = []
    while i < len(d):
        nl = d.index(b"\n", i); line = d[i:nl]
        if not line:
            out.append(e); e = []; i = nl + 1; continue
        if b"=" in line:
            e.append(line); i = nl + 1
        else:
            n = struct.unpack("<Q", d[nl + 1:nl + 9])[0]
            e.append(line + b"=" + d[nl + 9:nl + 9 + n]); i = nl + 10 + n
    return out
a, b = entries(sys.argv[1]), entries(sys.argv[2])
assert len(a) == len(b) == 14, (len(a), len(b))
for x, y in zip(a, b):
    missing = [f for f in x if f not in y]
    assert not missing, missing
PY
        # ... and read back by kdmesg, the records are the dump's, and their export is ours
        # plus journald's own fields (__CURSOR, __SEQNUM, ...).
        "$KDMESG" -K "$BATS_TEST_TMPDIR/y" --format=kmsg 2>/dev/null | cmp - "$J"
        "$KDMESG" -K "$BATS_TEST_TMPDIR/y" --format=export --boot-time @1700000000 2>/dev/null |
                grep -av '^__SEQNUM\|^__CURSOR\|^_RUNTIME_SCOPE\|^__SEQNUM_ID' | cmp - "$BATS_TEST_TMPDIR/x"
        # The collector's queries: the boot, the kernel transport, every loss by its MESSAGE_ID.
        [ "$(journalctl --file "$BATS_TEST_TMPDIR/j.journal" -k -b "$BOOT" -o cat | wc -l)" -eq 15 ]
        run journalctl --file "$BATS_TEST_TMPDIR/j.journal" MESSAGE_ID=$LOSS_ID -o cat
        [ "$output" = "-- 2 messages lost (seq 22-23, between 3.700000 and 4.000000, gap) --" ]
        run journalctl --file "$BATS_TEST_TMPDIR/j.journal" SYSLOG_IDENTIFIER=systemd -o cat
        [ "$output" = "Started Journal Service." ]
        # journalctl --facility=kern: the kernel's records, as on a journald host (the two of
        # facility 0 that look like userspace, 21 and 24, included; the losses are kdmesg's: none).
        journalctl --file "$BATS_TEST_TMPDIR/j.journal" --facility=kern -o export |
                grep -a '^SEQNUM=' | tr '\n' ' ' > "$BATS_TEST_TMPDIR/kern"
        [ "$(cat "$BATS_TEST_TMPDIR/kern")" = "SEQNUM=10 SEQNUM=11 SEQNUM=12 SEQNUM=13 SEQNUM=21 SEQNUM=24 " ]
}

# journald_ring DIR: systemd-journald (Debian 12's, 252) reads the emulated ring once through the
# shim, in a mount namespace of its own with a fresh /run (DIR/run: its journal, its sockets);
# its export of the kernel's records in DIR/journald.export.
journald_ring() {
        local d="$1" n
        n=$(($(emu get next_seq) - $(emu get first_seq)))
        mkdir -p "$d/run/systemd/journal" "$d/run/log/journal"
        unshare -m --propagation private sh -ec '
                mount --bind "$1/run" /run
                LD_PRELOAD="$2" /lib/systemd/systemd-journald > "$1/journald.log" 2>&1 &
                pid=$!
                i=0
                until [ "$(journalctl -D /run/log/journal -k -o cat 2>/dev/null | wc -l)" -ge "$3" ]; do
                        i=$((i + 1)); [ $i -lt 200 ] || break; sleep 0.05
                done
                kill "$pid"; wait "$pid" || true' _ "$d" "$KMSG_EMU_SHIM_PLAIN" "$n"
        journalctl -D "$d/run/log/journal" -k -o export --no-pager > "$d/journald.export"
}

@test "export: field for field what systemd-journald 252 writes for the same records of the ring" {
        need /lib/systemd/systemd-journald journalctl
        [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null || skip "journald needs root and a mount namespace here"
        emu_init 64
        # The kernel's records (facility 0), with and without a dictionary; a message the device
        # escapes (\x1b, \x0a); userspace facilities with "ident[pid]: "; devices no machine has
        # (journald looks them up in sysfs; neither finds them: no _UDEV_* from either).
        emu append 6 "plain kernel record"
        emu append 3 $'ahci 0000:fe:1f.7: port does not respond\n SUBSYSTEM=pci\n DEVICE=+pci:0000:fe:1f.7'
        emu append 4 $'sd 9:0:0:0: [sdz] no medium\n SUBSYSTEM=block\n DEVICE=b254:250'
        emu append 6 'usb: kernel message that looks like an identifier'
        emu append 5 'escaped bytes: \x1b[31mred\x1b[0m, line one\x0aline two, tab\x09end'
        emu append 30 "systemd[1]: Started Journal Service."
        emu append 13 "sshd[42]: Accepted publickey for root"
        emu append 14 "no identifier at all"
        journald_ring "$BATS_TEST_TMPDIR"
        KDMESG_BOOT_TIME=@1700000000 kdmesg_emu --format=export > "$BATS_TEST_TMPDIR/kdmesg.export"
        # Every field journald wrote for a record, kdmesg writes with the same value, except the
        # two time stamps (journald's are when it read the record; kdmesg's the record's own,
        # boot time + stamp) and the journal's own (__CURSOR, __SEQNUM*).  Where journald 252 takes
        # each one (src/journal/journald-kmsg.c dev_kmsg_record(), journald-server.c
        # dispatch_message_real()):
        #   _SOURCE_MONOTONIC_TIMESTAMP  the record's time stamp (kmsg header)
        #   _TRANSPORT=kernel            every record of /dev/kmsg
        #   PRIORITY, SYSLOG_FACILITY    level and facility of the header's PRI, facility 0 too
        #   SYSLOG_IDENTIFIER=kernel     facility 0; otherwise "ident[pid]: " is taken off the
        #   SYSLOG_PID, MESSAGE          message (syslog_parse_identifier()); MESSAGE unescaped
        #   _KERNEL_<KEY>                each dictionary line (DEVICE= also looked up in sysfs
        #                                for _UDEV_SYSNAME, _UDEV_DEVNODE, _UDEV_DEVLINK)
        #   _BOOT_ID, _MACHINE_ID        sd_id128_get_boot(), sd_id128_get_machine()
        #   _HOSTNAME                    gethostname()
        #   _RUNTIME_SCOPE=system        "initrd" in an initrd
        python3 - "$BATS_TEST_TMPDIR/journald.export" "$BATS_TEST_TMPDIR/kdmesg.export" <<'PY'
import struct, sys
def entries(path):
    d = open(path, "rb").read(); i = 0; e = []; out = []
    while i < len(d):
        nl = d.index(b"\n", i); line = d[i:nl]
        if not line:
            out.append(e); e = []; i = nl + 1; continue
        if b"=" in line:
            k, v = line.split(b"=", 1); i = nl + 1
        else:
            n = struct.unpack("<Q", d[nl + 1:nl + 9])[0]
            k, v = line, d[nl + 9:nl + 9 + n]; i = nl + 10 + n
        e.append((k.decode(), v))
    return out
journal_own = {"__CURSOR", "__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP", "__SEQNUM", "__SEQNUM_ID"}
kdmesg_own = {"__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP", "SEQNUM", "KMSG_FLAGS", "KMSG_FIELDS"}
jd, kd = entries(sys.argv[1]), entries(sys.argv[2])
assert len(jd) == len(kd) == 8, (len(jd), len(kd))
seen = set()
for j, k in zip(jd, kd):
    want = sorted(f for f in j if f[0] not in journal_own)
    got = sorted(f for f in k if f[0] not in kdmesg_own)
    assert want == got, ("journald", want, "kdmesg", got)
    seen.update(f[0] for f in want)
# The fields the table above names were all there to compare.
need = {"_SOURCE_MONOTONIC_TIMESTAMP", "_TRANSPORT", "PRIORITY", "SYSLOG_FACILITY", "SYSLOG_IDENTIFIER",
        "SYSLOG_PID", "MESSAGE", "_KERNEL_SUBSYSTEM", "_KERNEL_DEVICE", "_BOOT_ID", "_MACHINE_ID", "_HOSTNAME",
        "_RUNTIME_SCOPE"}
assert need <= seen, need - seen
PY
}
