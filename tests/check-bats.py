#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No bats assertion that cannot fail.

    check-bats.py DIR

bats runs a test with `set -e`, and bash's errexit ignores a command
negated with `!`: a line `! grep -q x file` passes whether grep finds x or
not (unless it is the test's last command).  Such a line must end in
`|| false` (or be written `run ! cmd`).  Prints TAP, one test per .bats
file, failing with the lines that break the rule.
"""
import os
import re
import sys

NEGATED = re.compile(r"^\s*!\s")


def main():
    root = sys.argv[1]
    files = sorted(f for f in os.listdir(root) if f.endswith((".bats", ".bash")))
    print(f"1..{len(files)}")
    failed = 0
    for i, name in enumerate(files, 1):
        bad = []
        with open(os.path.join(root, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if NEGATED.match(line) and not line.rstrip().endswith("|| false"):
                    bad.append(f"{name}:{n}: {line.strip()}")
        if bad:
            failed += 1
            print(f"not ok {i} {name}: a negated command cannot fail the test; end it in '|| false'")
            for b in bad:
                print(f"# {b}")
        else:
            print(f"ok {i} {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
