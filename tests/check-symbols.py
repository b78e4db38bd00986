#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that the public header, the version script and the symbols the
built shared library exports name the same functions.  Prints TAP.

usage: check-symbols.py libkmsg.h libkmsg.sym libkmsg.so"""
import re
import subprocess
import sys

header, script, lib = sys.argv[1:4]

with open(header, encoding="utf-8") as f:
    text = f.read()
# Comments name functions too ("see kmsg_reader_get_error()"): drop them.
text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
text = re.sub(r"//[^\n]*", " ", text)
declared = set(re.findall(r"\b(kmsg_[A-Za-z0-9_]+)\s*\(", text))

with open(script, encoding="utf-8") as f:
    body = f.read()
# Every version node's global: list, up to its local: or its end.
listed = set()
for m in re.finditer(r"global:(.*?)(?:local:|\})", body, re.S):
    listed |= set(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*;", m.group(1)))

out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
exported = set()
for line in out.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[1] in ("T", "W", "i"):
        name = parts[2].split("@")[0]
        if not name.startswith("_"):
            exported.add(name)

checks = [
    ("header functions are in the version script", declared - listed, listed - declared),
    ("the version script matches the library's exports", listed - exported, exported - listed),
    ("the header matches the library's exports", declared - exported, exported - declared),
]
print(f"1..{len(checks) + 1}")
ok_all = True
print(f"{'ok' if declared else 'not ok'} 1 - the header declares functions ({len(declared)})")
ok_all &= bool(declared)
for i, (name, missing, extra) in enumerate(checks, 2):
    good = not missing and not extra
    ok_all &= good
    print(f"{'ok' if good else 'not ok'} {i} - {name}")
    for s in sorted(missing):
        print(f"#   only on the left: {s}")
    for s in sorted(extra):
        print(f"#   only on the right: {s}")
sys.exit(0 if ok_all else 1)
