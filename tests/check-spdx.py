#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every source file carries an SPDX-License-Identifier line, naming a
license that LICENSES/ holds: LGPL-2.1-or-later for the library (lib/) and
what builds with it, GPL-2.0-or-later or LGPL-2.1-or-later elsewhere.

    check-spdx.py SOURCE_ROOT

Prints TAP: one test per directory, failing with the files that lack the
line or name another license.
"""
import os
import sys

SOURCE_SUFFIXES = (".c", ".h", ".py", ".sh", ".bash", ".bats", ".sym", ".scd")
SOURCE_NAMES = ("meson.build", "meson_options.txt", "_kdmesg")
# Data, not source: dumps, golden files, fuzz corpora, translations.
SKIP_DIRS = {"LICENSES", "tests/data", "tests/expected", "fuzz/corpus", "po"}
HEAD_LINES = 5


def is_source(path):
    name = os.path.basename(path)
    if name.endswith(SOURCE_SUFFIXES) or name in SOURCE_NAMES:
        return True
    # Scripts without a suffix (tools/run-tests, bench/follow, ...).
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def license_of(path):
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for _, line in zip(range(HEAD_LINES), f):
            if "SPDX-License-Identifier:" in line:
                word = line.split("SPDX-License-Identifier:", 1)[1].split()
                return word[0].rstrip("*/") if word else ""
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    known = {n[:-4] for n in os.listdir(os.path.join(root, "LICENSES")) if n.endswith(".txt")}
    by_dir = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if os.path.normpath(os.path.join(rel, d)) not in SKIP_DIRS
                             and not d.startswith(("build", ".")))
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not is_source(path):
                continue
            top = rel.split(os.sep)[0] if rel != "." else "."
            by_dir.setdefault(top, []).append((os.path.join(rel, name), license_of(path)))

    print("1..%d" % len(by_dir))
    failed = 0
    for n, top in enumerate(sorted(by_dir), 1):
        bad = []
        for rel, lic in by_dir[top]:
            if lic is None:
                bad.append("%s: no SPDX-License-Identifier line" % rel)
            elif lic not in known:
                bad.append("%s: %s is not in LICENSES/" % (rel, lic))
            elif top == "lib" and lic != "LGPL-2.1-or-later":
                bad.append("%s: the library is LGPL-2.1-or-later, not %s" % (rel, lic))
        ok = "ok" if not bad else "not ok"
        print("%s %d - %s: %d source files" % (ok, n, top, len(by_dir[top])))
        for b in bad:
            print("#   " + b)
        failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
