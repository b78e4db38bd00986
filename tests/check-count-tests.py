#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/count-tests on made-up meson test logs.

    check-count-tests.py COUNT_TESTS

The closing line counts every TAP case (a skip and a todo as skipped, a
test without TAP as one case, a crash after the TAP lines as one failure),
the exit status says whether anything failed, and each failed case comes
with the diagnostic lines bats printed after it on standard error.  Prints
TAP.
"""
import json
import os
import subprocess
import sys
import tempfile

TAP_FAIL = "1..3\nok 1 a\nnot ok 2 b\n# (in test file x.bats, line 3)\n#   `[ \"$m\" -gt 1000 ]' failed\n# m=5\nok 3 c # skip no tool\n"

CASES = [
    ("all passed", [("t", "tap", "OK", "1..2\nok 1 a\nok 2 b\n")], 0, "2 passed, 0 failed, 0 skipped", []),
    ("a failed case and its diagnostics", [("x", "tap", "FAIL", TAP_FAIL)], 1, "1 passed, 1 failed, 1 skipped",
     ["x: not ok 2 b", "x: # (in test file x.bats, line 3)", "x: # m=5"]),
    ("a test without TAP", [("u", "exitcode", "OK", ""), ("v", "exitcode", "FAIL", "")], 1,
     "1 passed, 1 failed, 0 skipped", []),
    ("a crash after the TAP lines", [("c", "tap", "ERROR", "1..2\nok 1 a\n")], 1, "1 passed, 1 failed, 0 skipped",
     ["c: ERROR after its TAP output"]),
    ("a todo", [("d", "tap", "OK", "1..2\nok 1 a\nnot ok 2 b # TODO later\n")], 0, "1 passed, 0 failed, 1 skipped", []),
    ("nothing ran", [], 1, "0 passed, 0 failed, 0 skipped", []),
]


def main():
    tool = sys.argv[1]
    print(f"1..{len(CASES)}")
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        for i, (what, tests, status, last, diag) in enumerate(CASES, 1):
            log = os.path.join(d, f"log{i}.json")
            with open(log, "w", encoding="utf-8") as f:
                for name, proto, result, out in tests:
                    f.write(json.dumps({"name": name, "protocol": proto, "result": result, "stdout": out}) + "\n")
            p = subprocess.run([sys.executable, tool, log], capture_output=True, text=True)
            errs = p.stderr.splitlines()
            bad = []
            if p.returncode != status:
                bad.append(f"exit status {p.returncode}, not {status}")
            if p.stdout.splitlines()[-1:] != [last]:
                bad.append(f"last line {p.stdout!r}, not {last!r}")
            bad += [f"no line {l!r} on standard error" for l in diag if l not in errs]
            if not diag and errs and status == 0:
                bad.append(f"standard error {p.stderr!r}")
            print(f"{'not ok' if bad else 'ok'} {i} {what}")
            for b in bad:
                print(f"# {b}")
            failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
