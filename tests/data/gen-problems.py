#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the /dev/kmsg dump of tests/data/problems-cases.txt to standard
output: one record per case line, sequence numbers from 0, half a second
apart (ten seconds after a comment line: a report ends there), the text escaped as the kernel escapes it, a DEVICE (and its
SUBSYSTEM) where the line names one with @.

usage: gen-problems.py [CASES]   (default: problems-cases.txt beside this script)
"""
import os
import sys

SUBSYSTEMS = {"b": "block", "c": "usb", "n": "net"}


def escape(text):
    out = []
    for b in text.encode("utf-8"):
        out.append("\\x%02x" % b if b < 0x20 or b == 0x5c or b >= 0x7f else chr(b))
    return "".join(out)


def cases(path):
    """(level, kind, device or None, message, pause) for each case line;
    pause: a comment line came before it."""
    pause = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                pause = True
            if not line or line.startswith("#"):
                continue
            level, kind, rest = line.split(" ", 2)
            device = None
            if rest.startswith("@"):
                device, rest = rest[1:].split(" ", 1)
            msg = rest
            yield int(level), kind, device, msg.replace("\\t", "\t"), pause
            pause = False


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "problems-cases.txt")
    out = sys.stdout
    usec = 500000
    for seq, (level, kind, device, msg, pause) in enumerate(cases(path)):
        usec += 10000000 if pause else 500000
        out.write("%d,%d,%d,-;%s\n" % (level, seq, usec, escape(msg)))
        if device:
            out.write(" SUBSYSTEM=%s\n DEVICE=%s\n" % (SUBSYSTEMS[device[0]], device))


if __name__ == "__main__":
    main()
