#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a deterministic synthetic /dev/kmsg dump ("cat /dev/kmsg" form) of
N records to stdout: plain records, records with dictionaries (SUBSYSTEM,
DEVICE), escaped bytes (tabs, UTF-8, control bytes) and caller ids.

    bench/gen-dump.py 1000000 > /tmp/bench.kmsg

With --hostile, a dump made to push memory up instead: 20 records of one
MiB of escapes each (just under the 1 MiB record limit), then one record
with 262,000 dictionary lines.
"""
import sys

WORDS = (b"usb pci acpi ext4 eth0 nvme sda cpu irq dma mem link up down reset device driver "
         b"registered probe failed timeout firmware loaded version bus port slot mode").split()
DICTS = [
    (b"pci", b"+pci:0000:00:1f.2"), (b"usb", b"c189:3"), (b"block", b"b8:0"),
    (b"net", b"n2"), (b"scsi", b"+scsi:0:0:0:0"), (b"acpi", b"+acpi:PNP0A08:00"),
]
ESCAPES = [b"\\x09", b"\\xc2\\xb0C", b"\\x1b[1m", b"\\x5c", b"\\xe2\\x80\\x94", b"\\x0a"]


def hostile(out):
    for seq in range(20):
        out.write(b"6,%d,%d,-;" % (seq, seq) + b"\\x41" * 260000 + b"\n")
    out.write(b"6,20,20,-;many dictionary lines\n" + b" A=\n" * 262000)
    out.write(b"6,21,21,-;after\n")


def main():
    out = sys.stdout.buffer
    if sys.argv[1:2] == ["--hostile"]:
        hostile(out)
        return
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
    x = 12345  # a fixed LCG: the same dump on every run and machine
    usec = 0
    buf = []
    for seq in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        a = x >> 16  # 48 bits for the header and the record kind
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        w = x >> 8  # 56 bits for the words
        usec += 1 + (a & 0x3ff)
        level = (a >> 10) & 7
        kind = (a >> 13) % 10
        nwords = 4 + ((a >> 17) & 7)
        words = [WORDS[(w >> (i * 5)) % len(WORDS)] for i in range(nwords)]
        cpu_caller = (a >> 20) & 1
        caller = b",caller=C%d" % ((a >> 21) & 1) if cpu_caller else b",caller=T%d" % ((a >> 22) % 4000)
        msg = b" ".join(words)
        if kind in (1, 2):  # 20%: escaped bytes in the message
            msg += b" " + ESCAPES[(a >> 34) % len(ESCAPES)] + b" " + words[1]
        buf.append(b"%d,%d,%d,-%s;%s: %s\n" % (level, seq, usec, caller, words[0], msg))
        if kind in (3, 4):  # 20%: a dictionary
            sub, dev = DICTS[(a >> 38) % len(DICTS)]
            buf.append(b" SUBSYSTEM=%s\n DEVICE=%s\n" % (sub, dev))
        if len(buf) >= 4096:
            out.write(b"".join(buf))
            buf.clear()
    out.write(b"".join(buf))


main()
