#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The library's manual covers the public header.  Prints TAP.

  1. Every function declared in lib/libkmsg.h is in the SYNOPSIS of one of
     the man(3) pages (man/*.3.scd).
  2. Every function in a man(3) SYNOPSIS is declared in the header.
  3. Each man(3) page is built and installed by man/meson.build, and its
     title line names the page.
  4. The example program in libkmsg(3) is examples/kmsg-errors.c, which
     check-install builds against the installed library.

usage: check-man3.py SRCDIR
"""
import glob
import os
import re
import sys

srcdir = sys.argv[1]
results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


def read(*parts):
    with open(os.path.join(srcdir, *parts), encoding="utf-8") as f:
        return f.read()



header = read("lib", "libkmsg.h")
code = re.sub(r"/\*.*?\*/", " ", header, flags=re.S)
code = "\n".join(l for l in code.splitlines() if not l.lstrip().startswith("#"))
declared = set(re.findall(r"\b(kmsg_\w+)\s*\(", code))
check("the header declares functions", len(declared) > 40, "%d found" % len(declared))

pages = sorted(glob.glob(os.path.join(srcdir, "man", "*.3.scd")))
synopsis = {}
for path in pages:
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^# SYNOPSIS\n(.*?)^# ", text, re.S | re.M)
    names = set(re.findall(r"\b(kmsg_\w+)\(", m.group(1).replace("\\_", "_"))) if m else set()
    synopsis[os.path.basename(path)] = names
    check("%s has a SYNOPSIS with functions" % os.path.basename(path), bool(names))
documented = set().union(*synopsis.values()) if synopsis else set()

missing = sorted(declared - documented)
check("each of the %d functions of libkmsg.h is in a man(3) SYNOPSIS" % len(declared), not missing,
      "undocumented: " + " ".join(missing))
stale = sorted(documented - declared)
check("each function in a man(3) SYNOPSIS is declared in libkmsg.h", not stale,
      "not in the header: " + " ".join(stale))

meson = read("man", "meson.build")
listed = set(re.findall(r"'([\w.]+)'", re.search(r"man_pages\s*=\s*\[(.*?)\]", meson, re.S).group(1)))
for path in pages:
    page = os.path.basename(path)[:-len(".scd")]
    title = open(path, encoding="utf-8").readline()
    name, sec = page.rsplit(".", 1)
    check("%s is in man/meson.build and titled %s(%s)" % (page, name, sec),
          page in listed and title.startswith('%s(%s) "libkmsg @VERSION@"' % (name, sec)),
          "title: " + title)
for page in ("libkmsg.3", "kmsg_record.3", "kmsg_reader.3", "kmsg_seqtrack.3"):
    check("man/%s.scd exists" % page, os.path.exists(os.path.join(srcdir, "man", page + ".scd")))

example = read("examples", "kmsg-errors.c")
example = example[example.index("#include"):].rstrip("\n")
overview = read("man", "libkmsg.3.scd")
blocks = [b.replace("\\\\", "\\") for b in re.findall(r"^```\n(.*?)\n```", overview, re.S | re.M)]
check("the example in libkmsg(3) is examples/kmsg-errors.c", example in blocks,
      "no code block of libkmsg.3.scd matches the file from its first #include")

print("1..%d" % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and detail:
        for line in str(detail).splitlines():
            print("# " + line)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
