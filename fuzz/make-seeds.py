#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the hand-made seed inputs of the fuzz corpora (small valid and
hostile inputs).  The committed corpora are these seeds plus what fuzzing
found, minimised; run this only to re-create the seeds:
    fuzz/make-seeds.py fuzz/corpus"""
import hashlib
import os
import struct
import sys

RECORDS = [
    # real records from a 6.18 kernel's /dev/kmsg
    b"5,0,0,-;Linux version 6.18.44 (builder@sandboxing) (gcc (GCC) 15.3.0) #1 SMP PREEMPT_DYNAMIC @0\n",
    b"4,2,0,-;[Firmware Bug]: TSC doesn't count with P0 frequency!\n",
    b"6,90,253031,-;rcu: \\x09RCU restricting CPUs from NR_CPUS=256 to nr_cpu_ids=2.\n",
    b"6,193,316120,-;acpi PNP0A08:00: _OSC: OS supports [ExtendedConfig ASPM ClockPM Segments MSI HPX-Type3]\n"
    b" SUBSYSTEM=acpi\n DEVICE=+acpi:PNP0A08:00\n",
    b"6,204,316301,-;pci 0000:00:00.0: [8086:1237] type 00 class 0x060000\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:00.0\n",
    # caller ids, old and odd headers
    b"6,1001,4567890,-,caller=T123;thread caller\n",
    b"4,1002,4567891,-,caller=C1;cpu caller\n",
    b"6,1003,4567892,c,caller=T0,foo=bar;fragment with another field\n",
    b"6,1004,4567893,+;old follow-up fragment\n",
    b"6,1005,4567894;3.5-rc header without flags\n",
    b"6,1006,4567895,x;unknown flag\n",
    b"14,1007,4567896,-;user facility\n",
    b"2047,1008,4567897,-;largest userspace priority\n",
    b"6,1009,4567898,-,caller=X9;vendor caller text\n",
    b"6,1010,4567899,-,caller=T99999999999;caller id out of range\n",
    b"  6,1011,4567900,-;header after leading white space\n",
    # escapes
    b"6,1100,5000000,-;temp 42\\xc2\\xb0C \\x5cx2d stays \\x5c then x2d\n",
    b"6,1101,5000001,-;nul \\x00 and newline \\x0a inside, tab \\x09, DEL \\x7f, ESC \\x1b[31m\n",
    b"6,1102,5000002,-;malformed \\x4 \\xZZ \\xg1 lone \\ end \\\n",
    b"6,1103,5000003,-;upper case \\xC2\\xB0 and a semicolon; a comma, and key=value\n",
    b"6,1104,5000004,-;cut mid escape \\x5",
    # dictionaries
    b"6,1200,6000000,-;usb 1-1: new device\n SUBSYSTEM=usb\n DEVICE=c189:1\n",
    b"6,1201,6000001,-;sda: attached\n SUBSYSTEM=block\n DEVICE=b8:0\n",
    b"6,1202,6000002,-;eth0: link up\n SUBSYSTEM=net\n DEVICE=n2\n",
    b"6,1203,6000003,-;old dictionary\n SUBSYSTEM=scsi\n DEVICE=+scsi:0:0:0:0\n DRIVER=sd\n X=a=b=c\n X=dup\n",
    b"6,1204,6000004,-;escaped value\n V=tab\\x09nl\\x0anul\\x00bs\\x5c\n",
    b"6,1205,6000005,-;crlf\r\n SUBSYSTEM=pci\r\n DEVICE=+pci:0000:00:02.0\r\n",
    b"6,1206,6000006,-;not a dictionary line follows\n 6,1207,6000007,-;indented header\n",
    b"6,1208,6000008,-;bad dictionary key\n K!Y=v\n",
    # malformed headers
    b"6,1300;too few fields\n",
    b"a,1,2,-;priority not a number\n",
    b"6,1,2,-no semicolon at all\n",
    b"99999999999,1,2,-;priority too large\n",
    b"6,18446744073709551616,2,-;sequence number overflows\n",
    b"6,18446744073709551615,18446744073709551615,-;largest numbers\n",
    b";\n", b"\n", b"", b" ", b"\\", b"6,1,2,-;",
]

# stream inputs, one file each
def kmsg_stream():
    out = {}
    out["boot"] = b"".join(RECORDS[:16])
    out["gap-dup-reboot"] = (b"6,10,100,-;a\n6,11,101,-;b\n6,14,104,-;after gap\n6,11,101,-;b\n"
                             b"6,0,0,-;new boot\n6,1,1,-;second\n")
    out["nul-separated"] = b"6,1,1,-;one\n\0\0\0" + b"6,2,2,-;two\n\0" + b"6,3,3,-;three"
    out["blank-crlf"] = b"\n\r\n6,1,1,-;one\r\n\r\n \n\t\n6,2,2,-;two\r\n SUBSYSTEM=x\r\n\n"
    out["no-final-newline"] = b"6,1,1,-;one\n SUBSYSTEM=a\n DEVICE=b"
    out["truncated-2048"] = (b"6,5,50,-;" + b"A" * (2048 - 9) + b"6,6,51,-;next record on the same line\n")
    out["truncated-2048-escape"] = (b"6,7,70,-;" + b"\\x41" * 509 + b"\\x5" + b"6,8,71,-;next\n")
    out["bad-lines"] = b"garbage\n6,1,1,-;ok\nmore garbage\n\n6,2,2;x\n 7,3,3,-;indented\n"
    out["dict-only-ws"] = b"6,1,1,-;a\n   \n \t \n6,2,2,-;b\n"
    return out

def json_stream():
    """kdmesg --json output (JSON Lines), read back by -K."""
    return {
        "json": (b'{"seq":0,"time":0.000000,"pri":5,"facility":"kern","level":"notice","flags":"-",'
                 b'"msg":"Linux version 6.18.44","dict":{}}\n'
                 b'{"first_seq":1,"last_seq":1,"count":1,"cause":"gap","time_before":0.000000,'
                 b'"time_after":0.000000}\n'
                 b'{"seq":2,"time":0.002000,"pri":3,"facility":"kern","level":"err","flags":"c",'
                 b'"caller":"T7","fields":"caller=T7,x=y","msg":"two\\nlines\\u0000nul \\u00b0 \\ud83d\\ude00",'
                 b'"subsystem":"pci","device":"+pci:0000:00:01.0","devname":"0000:00:01.0",'
                 b'"dict":{"SUBSYSTEM":"pci","DEVICE":"+pci:0000:00:01.0","DRIVER":"e1000"}}\n'),
        "json-bad": (b'{"seq":1,"msg":"no time"}\n{"seq":"x"}\n{\n[1,2]\n{"seq":3,"time":1e400,"msg":"m"}\n'
                     b'{"seq":18446744073709551616,"time":-1,"pri":99999,"msg":"\\ud800"}\n'
                     b'{"seq":4,"time":0.5,"msg":"ok","dict":{"A":1,"B":null,"C":"x"}}\n{"seq":5,"time":0.6,"msg":"cut'),
    }


def export_field(k, v):
    if b"\n" in v:
        return k + b"\n" + struct.pack("<Q", len(v)) + v + b"\n"
    return k + b"=" + v + b"\n"

def export_stream():
    out = {}
    rec = lambda fields: b"".join(export_field(k, v) for k, v in fields) + b"\n"
    out["export-basic"] = (rec([(b"__CURSOR", b"s=1"), (b"__MONOTONIC_TIMESTAMP", b"1000"),
                                (b"PRIORITY", b"6"), (b"SYSLOG_FACILITY", b"0"), (b"SEQNUM", b"1"),
                                (b"TIMESTAMP", b"1000"), (b"MESSAGE", b"hello"),
                                (b"_KERNEL_SUBSYSTEM", b"pci"), (b"_KERNEL_DEVICE", b"+pci:0000:00:01.0")])
                           + rec([(b"PRIORITY", b"3"), (b"SEQNUM", b"2"), (b"TIMESTAMP", b"2000"),
                                  (b"MESSAGE", b"two\nlines\0nul"), (b"KMSG_FLAGS", b"c"),
                                  (b"KMSG_FIELDS", b"caller=T7,x=y"), (b"DRIVER", b"e1000")]))
    out["export-mono"] = rec([(b"_SOURCE_MONOTONIC_TIMESTAMP", b"123"), (b"MESSAGE", b"m")])
    out["export-bad"] = (b"PRIORITY=9\nMESSAGE=x\n\nSEQNUM=abc\nMESSAGE=y\n\nNOMESSAGE=1\n\n=empty\nMESSAGE=z\n\n"
                         b"MESSAGE\n" + struct.pack("<Q", 100) + b"short\n\nMESSAGE=after\n\n")
    out["export-huge-length"] = b"MESSAGE\n" + struct.pack("<Q", 2**64 - 1) + b"abc\n\n"
    out["export-truncated"] = b"MESSAGE\n" + struct.pack("<Q", 10) + b"abc"
    out["export-len-cut"] = b"SEQNUM=1\nMESSAGE\n\x05\x00\x00"
    # KMSG_MERGED, binary and text, a line that is no field, one nested.
    out["export-merged"] = (rec([(b"SEQNUM", b"1"), (b"MESSAGE", b"m"), (b"_KERNEL_A", b"1"),
                                 (b"KMSG_MERGED", b"_KERNEL_B=2\nKMSG_DICT=k\\x3d=v\nX_1=\x01\0\nSEQNUM=1")])
                            + b"SEQNUM=2\nMESSAGE=t\nKMSG_MERGED=_KERNEL_C=3\n\n"
                            + rec([(b"MESSAGE", b"bad"), (b"KMSG_MERGED", b"A=1\nno field\nKMSG_MERGED=B=2")])
                            + b"MESSAGE=n\nKMSG_MERGED=KMSG_MERGED=KMSG_MERGED=A=1\n\n")
    return out

def rfc5424_streams():
    """Export streams as the upload queue holds them, for fuzz-rfc5424: records, loss and boot entries, odd fields."""
    rec = lambda fields: b"".join(export_field(k, v) for k, v in fields) + b"\n"
    out = {}
    out["rfc5424-record"] = rec([(b"__REALTIME_TIMESTAMP", b"1700000001500000"), (b"_BOOT_ID", b"aba7d49a3f9a484a8905db37a872b9f5"),
                                 (b"_HOSTNAME", b"host1"), (b"_TRANSPORT", b"kernel"), (b"PRIORITY", b"3"),
                                 (b"SYSLOG_FACILITY", b"0"), (b"SYSLOG_IDENTIFIER", b"kernel"),
                                 (b"MESSAGE", b"usb 2-1.4: error -71 \\ \"q\" ]\x01\xff caf\xc3\xa9"), (b"SEQNUM", b"11"),
                                 (b"_SOURCE_MONOTONIC_TIMESTAMP", b"1500000"), (b"KMSG_FLAGS", b"-"),
                                 (b"KMSG_FIELDS", b"caller=T7,x=y"), (b"_KERNEL_SUBSYSTEM", b"usb"),
                                 (b"_KERNEL_DEVICE", b"c189:130"), (b"KMSG_DICT", b"lower.key=v\xff"),
                                 (b"KMSG_DICT", b"k y=\"]\\"), (b"KMSG_MERGED", b"_KERNEL_Z=1")])
    out["rfc5424-lost"] = (rec([(b"__MONOTONIC_TIMESTAMP", b"4000000"), (b"_BOOT_ID", b"b"), (b"PRIORITY", b"4"),
                                (b"SYSLOG_IDENTIFIER", b"kdmesg"), (b"MESSAGE_ID", b"9ac1b3703093449dace9a589386bdafe"),
                                (b"MESSAGE", b"-- 2 messages lost --"), (b"KDMESG_LOST", b"2"),
                                (b"KDMESG_LOST_FIRST_SEQ", b"18446744073709551615"), (b"KDMESG_LOST_CAUSE", b"gap"),
                                (b"KDMESG_REFUSED_REASON", b"500 \"no\"]")])
                           + rec([(b"MESSAGE_ID", b"9ac1b3703093449dace9a589386bdafe"), (b"KDMESG_LOST", b"0"),
                                  (b"KDMESG_LOST_FIRST_SEQ", b"5"), (b"MESSAGE", b"-- unknown --")]))
    out["rfc5424-boot"] = rec([(b"MESSAGE_ID", b"fab5b5ca374041ef9ca064a2b02def0a"), (b"KDMESG_BOOT", b"2"),
                               (b"KDMESG_BOOT_FIRST_SEQ", b"0"), (b"MESSAGE", b"-- boot 2 --")])
    out["rfc5424-odd"] = (rec([(b"SYSLOG_FACILITY", b"99"), (b"PRIORITY", b"12"), (b"_HOSTNAME", b"a b"),
                               (b"SYSLOG_IDENTIFIER", b"x" * 49), (b"SYSLOG_PID", b"-1"), (b"MESSAGE", b"")])
                          + rec([(b"__REALTIME_TIMESTAMP", b"999999999999999999"), (b"MESSAGE", b"\xef\xbb\xbfbom\ttab\x7f")])
                          + b"MESSAGE\n" + struct.pack("<Q", 4) + b"a\nbc\nSEQNUM=1\n\n")
    return out

def syslog_stream():
    return {
        "syslog": (b"<6>[    1.234567] hello\n[    2.000001] no priority\n<4>no time\n"
                   b"<13>[12345678.5] short fraction\n<99999>[1.0] odd\n[1.1234567] long fraction\n"
                   b"plain line\n<6>[ 1.0]\r\n\n<6>[    3.000000] esc \\x1b[0m \\xc2\\xb0\n"),
        "syslog-nul": b"<6>[    1.0] a\0b\n<6>[    2.0] ok\n",
    }

def device_scripts():
    """Scripts for fuzz-device: what successive read() calls on /dev/kmsg return."""
    rec = lambda b: b"\x00" + struct.pack("<H", len(b)) + b
    EAGAIN, EPIPE, EINTR = b"\x05", b"\x06", b"\x07"
    boot = [r for r in RECORDS[:16]]
    return {
        "device-boot": b"\x00" + b"".join(rec(r) for r in boot),
        "device-epipe": b"\x00" + rec(b"6,10,1,-;a\n") + EPIPE + rec(b"6,20,2,-;after overrun\n") + EINTR
        + rec(b"6,21,3,-;b\n") + EAGAIN + rec(b"6,22,4,-;c\n"),
        "device-toobig": b"\x00" + rec(b"6,1,1,-;a\n") + rec(b"6,2,2,-;" + b"x" * 20000 + b"\n")
        + rec(b"6,3,3,-;" + b"y" * 20000 + b"\n") + rec(b"6,4,4,-;d\n"),
        "device-limit": b"\x80" + rec(b"6,1,1,-;a\n") + rec(b"6,2,2,-;" + b"x" * 20000 + b"\n")
        + rec(b"6,3,3,-;d\n"),
        "device-bad": b"\x00" + rec(b"garbage") + rec(b"6,1,1,-;ok\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:01.0\n")
        + rec(b"6,2,2,-;bad dict\n K!=v\n"),
    }

def cursor_files():
    """Cursor files for fuzz-cursor: as kdmesg saves them, and broken ones."""
    head = b"# kdmesg cursor: the last record written\nboot_id=0b7e1ee8-5d43-4c9e-9c5b-8d1d3f0a6a11\n"
    return {
        "cursor-new-boot": head,
        "cursor-seq": head + b"seq=1200\nusec=12345678\n",
        "cursor-pending": head + b"seq=1200\nusec=12345678\npending_from=1201\npending=1300\n",
        "cursor-pending-no-from": b"boot_id=b\nseq=5\nusec=1\npending=9",
        "cursor-pending-no-seq": b"boot_id=b\npending_from=0\npending=3\n",
        "cursor-unknown-keys": b"# comment\n\nboot_id=x=y\nnext_version=1\nseq=0\n",
        "cursor-last-seq": b"boot_id=b\nseq=18446744073709551615\n",
        "cursor-too-big": b"boot_id=b\nseq=18446744073709551616\n",
        "cursor-pending-before": b"boot_id=b\nseq=10\npending_from=10\npending=20\n",
        "cursor-pending-backwards": b"boot_id=b\nseq=10\npending_from=15\npending=12\n",
        "cursor-no-eq": b"boot_id=b\nseq\n",
        "cursor-no-boot": b"seq=1\nusec=2\n",
        "cursor-long-boot": b"boot_id=" + b"a" * 64 + b"\n",
        "cursor-empty-boot": b"boot_id=\nseq=1\n",
        "cursor-nul": b"boot_id=b\0\nseq=1\n",
        "cursor-blank": b"\n",
        "cursor-crlf": b"boot_id=b\r\nseq=1\r\n",
        "cursor-repeated": b"boot_id=a\nboot_id=b\nseq=1\nseq=2\n",
    }

def json_records():
    """JSON Lines for fuzz-json: kdmesg --json, jq's rewritings of it, and values at the limits."""
    return {
        "json-dup-keys": (b'{"seq":1,"time":1.5,"msg":"m","dict":{"A":"1","A":"2","B":[0,255]}}\n'
                          b'{"seq":2,"time":2e-06,"msg":[104,105],"dict":{"K\\u0045Y":"v"}}\n'),
        "json-limits": (b'{"seq":18446744073709551615,"time":18446744073709.551615,"pri":2047,"msg":""}\n'
                        b'{"seq":0,"time":0,"pri":0,"facility":"user","msg":"x"}\n'
                        b'{"level":"debug","msg":"no seq, no time"}\n'
                        b'{"seq":3,"time":99000,"caller":"T12","msg":"caller alone"}\n'
                        b'{"seq":4,"time":1.0000009,"flags":"c","fields":"caller=C1,x=y","msg":"fragment"}\n'),
        "json-bad-values": (b'{"seq":-1,"msg":"a"}\n{"seq":1.5,"msg":"b"}\n{"pri":2048,"msg":"c"}\n'
                            b'{"flags":"a;b","msg":"d"}\n{"flags":"a,b","msg":"e"}\n{"msg":[256]}\n'
                            b'{"msg":"f","dict":{"\\u0000":"x"}}\n{"msg":"g","dict":[]}\n'
                            b'{"msg":"h"} trailing\n{"time":"1","msg":"i"}\n{"facility":"nope","msg":"j"}\n'),
    }


def pstore_trees():
    """pstore trees for fuzz-pstore: a first byte (where the files go), then files separated by NUL FILE NUL."""
    sep = b"\0FILE\0"
    part = lambda h, *lines: h + b"\n" + b"".join(l + b"\n" for l in lines)
    return {
        "pstore-efi-parts": b"\0" + sep.join([
            part(b"Panic#1 Part3", b"<6>[    1.000000] Linux version 6.1.0", b"<6>[    2.000000] mounted"),
            part(b"Panic#1 Part2", b"<1>[  100.000000] BUG: kernel NULL pointer dereference",
                 b"<4>[  100.000100] Call Trace:", b"<4>[  100.000300]  <TASK>"),
            part(b"Panic#1 Part1", b"<0>[  101.000000] Kernel panic - not syncing: Fatal exception")]),
        "pstore-missing-part": b"\x04" + sep.join([
            part(b"Oops#1 Part3", b"<6>[   10.000000] Linux version 6.6.0"),
            part(b"Oops#1 Part1", b"<3>[   50.000000] INFO: task blocked", b"continued line")]),
        "pstore-dmesg-txt": b"\x01" + (b"dmesg-erst-169986240002001:\n" + part(b"Oops#2 Part2", b"<6>[    5.0] older")
                                       + b"dmesg-erst-169986240001001:\n"
                                       + part(b"Oops#2 Part1", b"<3>[    6.000000] segfault at 0")),
        "pstore-txt-duplicates": b"\x01" + part(b"Oops#1 Part2", b"<6>[ 1.0] a") + part(b"Oops#1 Part2", b"<6>[ 2.0] b")
                                 + part(b"Oops#1 Part1", b"\0 nul", b"<6>[ 3.0] c"),
        "pstore-txt-no-header": b"\x01dmesg-efi-1:\n<6>[    1.000000] a\ndmesg-efi-2:\n<6>[    2.000000] b",
        "pstore-systemd-dir": b"\x02" + sep.join([
            part(b"Oops#1 Part1", b"<6>[ 1.0] a"), part(b"Oops#1 Part2", b"<6>[ 0.5] b"),
            part(b"Oops#1 Part2", b"<6>[ 0.6] c"), b"Oops#1 Part4294967295\n", b"Oops#1 Part4294967296\n"]),
        "pstore-odd-headers": b"\x1c" + sep.join([
            b"Oops#1 Part1\r\n<6>[1.5] crlf\r\n", b"Oops#1 Part0\nzero", b"Oops#1 Part1", b"",
            b"#1 Part1\n", b"Oops# Part1\n", b"Oops#1 Part1 \n", b"x" * 200 + b"\nOops#1 Part1\n"]),
    }


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")
    for r in RECORDS:
        write(os.path.join(root, "fuzz-record"), "seed-" + hashlib.sha1(r).hexdigest()[:12], r)
    streams = {}
    streams.update(kmsg_stream())
    streams.update(export_stream())
    streams.update(syslog_stream())
    streams.update(json_stream())
    for name, data in streams.items():
        write(os.path.join(root, "fuzz-reader"), "seed-" + name, data)
    for name, data in device_scripts().items():
        write(os.path.join(root, "fuzz-device"), "seed-" + name, data)
    for name, data in cursor_files().items():
        write(os.path.join(root, "fuzz-cursor"), "seed-" + name, data)
    for name, data in list(json_stream().items()) + list(json_records().items()):
        write(os.path.join(root, "fuzz-json"), "seed-" + name, data)
    for name, data in rfc5424_streams().items():
        write(os.path.join(root, "fuzz-rfc5424"), "seed-" + name, data)
    for name, data in pstore_trees().items():
        write(os.path.join(root, "fuzz-pstore"), "seed-" + name, data)
    for r in RECORDS[3:6] + RECORDS[16:22]:
        write(os.path.join(root, "fuzz-reader"), "seed-" + hashlib.sha1(r).hexdigest()[:12], r)

main()
