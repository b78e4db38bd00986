#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The man page tells the truth about the program.  Prints TAP.

  1. Every long option that `kdmesg --help` lists has an entry in the man page.
  2. Every command in the man page's EXAMPLES section runs and exits 0: each
     in a new directory holding boot.kmsg (a copy of tests/data/devices.kmsg);
     those that read /dev/kmsg are skipped where it cannot be read; one that
     follows (-w, -W, --follow) is stopped with SIGTERM after a second.

usage: check-man.py SRCDIR KDMESG
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

srcdir, kdmesg = sys.argv[1:3]
scd = open(os.path.join(srcdir, "man", "kdmesg.1.scd"), encoding="utf-8").read()
results = []

helptext = subprocess.run([kdmesg, "--help"], capture_output=True, text=True, check=True).stdout
longopts = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", helptext)))
missing = [o for o in longopts if not re.search(r"\*" + re.escape(o) + r"(\*|=|\[)", scd)]
results.append(("each of the %d long options of --help has a man page entry" % len(longopts),
                bool(longopts) and not missing, "missing: " + " ".join(missing)))

section = scd.split("\n# EXAMPLES\n", 1)
examples = []
if len(section) == 2:
    body = section[1].split("\n# ", 1)[0]
    examples = [line for block in re.findall(r"```\n(.*?)```", body, re.S)
                for line in block.splitlines() if line.startswith("kdmesg ")]
results.append(("the man page has EXAMPLES", len(examples) >= 10, "%d examples" % len(examples)))

live_ok = os.access("/dev/kmsg", os.R_OK)
bindir = tempfile.mkdtemp()
os.symlink(os.path.abspath(kdmesg), os.path.join(bindir, "kdmesg"))
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], PAGER="", NO_COLOR="1",
           KDMESG_PROBLEMS_RULES=os.path.join(os.path.abspath(srcdir), "data", "problems.rules"),
           KDMESG_PROBLEMS_DIR="")
for cmd in examples:
    reads_live = "-K " not in cmd and "-F " not in cmd
    if reads_live and not live_ok:
        results.append(("example runs: " + cmd, None, "/dev/kmsg is not readable here"))
        continue
    work = tempfile.mkdtemp()
    shutil.copy(os.path.join(srcdir, "tests", "data", "devices.kmsg"), os.path.join(work, "boot.kmsg"))
    follows = re.search(r"(^| )(-w|-W|--follow|--follow-new)( |$)", cmd) is not None
    p = subprocess.Popen(["sh", "-c", "exec " + cmd + (" > /dev/null" if ">" not in cmd else "")], cwd=work,
                         env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=1 if follows else 60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        _, err = p.communicate()
        err = ("" if follows else "did not end in 60 s; ") + err
    ok = p.returncode == 0 and not err
    results.append(("example runs: " + cmd, ok, "exit %d: %s" % (p.returncode, err)))
    shutil.rmtree(work)
shutil.rmtree(bindir)

print("1..%d" % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    if ok is None:
        print("ok %d - %s # SKIP %s" % (i, name, detail))
        continue
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        for line in detail.splitlines():
            print("# " + line)
sys.exit(0 if all(ok is not False for _, ok, _ in results) else 1)
