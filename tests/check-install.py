#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What `meson install` ships works from the installed tree alone.  Prints TAP.

Installs the build into a temporary DESTDIR, then:
  1. the program, library, header, pkg-config file, schemas (every
     data/kdmesg-*.schema.json) and man pages are there;
  2. examples/kmsg-errors.c builds with nothing but the installed
     libkmsg.pc and runs on a dump;
  3. the installed kdmesg reads that dump as the built one does, and carries
     no RUNPATH into the build tree.

usage: check-install.py SRCDIR BUILDDIR MESON CC...
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

srcdir, builddir, meson = sys.argv[1:4]
cc = sys.argv[4:]
results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


opts = {o["name"]: o["value"] for o in
        json.loads(run([meson, "introspect", "--buildoptions", builddir], check=True).stdout)}
prefix, libdir, bindir = opts["prefix"], opts["libdir"], opts["bindir"]
dump = os.path.join(srcdir, "tests", "data", "basic.kmsg")

with tempfile.TemporaryDirectory() as dest:
    inst = run([meson, "install", "--no-rebuild", "--quiet", "-C", builddir, "--destdir", dest])
    check("meson install into a DESTDIR", inst.returncode == 0, inst.stdout + inst.stderr)

    root = dest + prefix
    lib = os.path.join(root, libdir)
    kdmesg = os.path.join(root, bindir, "kdmesg")
    wanted = [kdmesg, os.path.join(lib, "libkmsg.so.1"), os.path.join(lib, "libkmsg.so"),
              os.path.join(root, "include", "libkmsg.h"), os.path.join(lib, "pkgconfig", "libkmsg.pc"),
              ] + [os.path.join(root, "share", "kdmesg", os.path.basename(s))
                   for s in sorted(glob.glob(os.path.join(srcdir, "data", "kdmesg-*.schema.json")))]
    if opts.get("man"):
        wanted += [os.path.join(root, "share", "man", "man" + p[-1], p)
                   for p in ("kdmesg.1", "kdmesg-formats.5", "kdmesg-problems.5", "kdmesg-reports.7",
                             "kdmesg-upload.8")]
        wanted += [os.path.join(root, "share", "man", "man3", p + ".3")
                   for p in ("libkmsg", "kmsg_record", "kmsg_reader", "kmsg_seqtrack")]
    missing = [p[len(dest):] for p in wanted if not os.path.exists(p)]
    check("the program, library, header, pkg-config file, schemas and man pages are installed",
          not missing, "missing: " + " ".join(missing))

    # The license texts, where the licensedir option says (by default
    # datadir/licenses/kdmesg), byte for byte those of LICENSES/.
    licdir = opts.get("licensedir") or os.path.join(opts["datadir"], "licenses", "kdmesg")
    if licdir != "no":
        texts = sorted(os.listdir(os.path.join(srcdir, "LICENSES")))
        bad = []
        for t in texts:
            got = os.path.join(dest + os.path.join(prefix, licdir), t)
            with open(os.path.join(srcdir, "LICENSES", t), "rb") as f:
                if not os.path.exists(got) or open(got, "rb").read() != f.read():
                    bad.append(got[len(dest):])
        check("the license texts of LICENSES/ are installed in %s" % licdir, texts and not bad,
              "missing or different: " + " ".join(bad))

    # The unit goes below the prefix (unless the option names a directory),
    # and its ExecStart is the installed kdmesg.
    unitdir = opts.get("systemdsystemunitdir") or os.path.join("lib", "systemd", "system")
    if unitdir != "no":
        unit = dest + os.path.join(prefix, unitdir, "kdmesg-upload.service")
        text = open(unit).read() if os.path.exists(unit) else ""
        check("kdmesg-upload.service is installed in %s" % os.path.join(prefix, unitdir), bool(text),
              "no " + unit[len(dest):])
        check("its ExecStart runs the kdmesg of the same prefix",
              "ExecStart=" + os.path.join(prefix, bindir, "kdmesg") + " " in text,
              [l for l in text.splitlines() if l.startswith("ExecStart")])
    outside = []
    for top, dirs, files in os.walk(dest):
        outside += [os.path.join(top, f)[len(dest):] for f in files
                    if not os.path.join(top, f).startswith(dest + prefix + "/")]
    check("nothing is installed outside the prefix %s" % prefix, not outside, " ".join(outside))

    # The example, built against the installed tree only.
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"), PKG_CONFIG_LIBDIR="")
    pc = run(["pkg-config", "--define-variable=prefix=" + root, "--cflags", "--libs", "libkmsg"], env=env)
    check("pkg-config finds the installed libkmsg.pc", pc.returncode == 0, pc.stderr)
    flags = pc.stdout.split()
    outside = [f for f in flags if f.startswith(("-I", "-L")) and not f[2:].startswith(dest)]
    check("its flags point into the installed tree only", pc.returncode == 0 and not outside,
          " ".join(outside))

    # A library built with sanitizers needs their runtimes in the program too.
    needed = run(["readelf", "-d", os.path.join(lib, "libkmsg.so.1")]).stdout
    san = [f for f, so in (("-fsanitize=address", "libasan"), ("-fsanitize=undefined", "libubsan"))
           if so in needed]
    run_env = dict(os.environ, LD_LIBRARY_PATH=lib,
                   ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0")
    exe = os.path.join(dest, "kmsg-errors")
    build = run(cc + san + ["-std=c99", "-Wall", "-Wextra", "-Werror", "-o", exe,
                            os.path.join(srcdir, "examples", "kmsg-errors.c")] + flags)
    check("examples/kmsg-errors.c builds against the installed libkmsg", build.returncode == 0,
          build.stderr)
    if build.returncode == 0:
        out = run([exe, dump], env=run_env)
        check("the example prints the dump's err record",
              out.returncode == 0 and out.stdout.startswith("3 err usb 1-1: device descriptor read/64, error -71\n"),
              f"exit {out.returncode}: {out.stdout!r} {out.stderr}")
        bad = run([exe, os.path.join(dest, "no-such-file")], env=run_env)
        check("the example names a file it cannot open", bad.returncode == 1 and "no-such-file" in bad.stderr,
              f"exit {bad.returncode}: {bad.stderr!r}")

    dyn = run(["readelf", "-d", kdmesg]).stdout
    check("the installed kdmesg has no RUNPATH into the build tree",
          os.path.abspath(builddir) not in dyn, dyn)
    # Under a prefix of one's own, the library is found without LD_LIBRARY_PATH.
    runpath = [l for l in dyn.splitlines() if "(RUNPATH)" in l or "(RPATH)" in l]
    want = os.path.join(prefix, libdir)
    if prefix == "/usr":
        check("under /usr the installed kdmesg has no RUNPATH", not runpath, runpath)
    else:
        check("under %s the installed kdmesg's RUNPATH is %s" % (prefix, want),
              len(runpath) == 1 and ("[%s]" % want) in runpath[0], runpath)
    mine = run([kdmesg, "-K", dump], env=run_env)
    built = run([os.path.join(builddir, "src", "kdmesg"), "-K", dump], env=run_env)
    check("the installed kdmesg reads a dump as the built one does",
          mine.returncode == 0 and mine.stdout == built.stdout and mine.stdout,
          f"exit {mine.returncode}: {mine.stderr}")

print(f"1..{len(results)}")
for i, (name, ok, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        for line in str(detail).splitlines():
            print(f"# {line}")
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
