#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""libkmsg is used from outside through its public face only.  Prints TAP.

  1. kdmesg includes no private header of lib/ and reaches no private
     symbol: it links libkmsg.so dynamically and defines no kmsg_ function
     of its own (the library is not compiled into it).
  2. The pkg-config file meson writes for the build tree names the public
     header's directory and the shared library, and a program built with
     nothing but `pkg-config --cflags --libs` and #include <libkmsg.h>
     parses a record.

usage: check-api-use.py SRCDIR BUILDDIR KDMESG LIBKMSG_SO CC...
"""
import os
import re
import subprocess
import sys
import tempfile

srcdir, builddir, kdmesg, libkmsg = sys.argv[1:5]
cc = sys.argv[5:]
results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


private = {os.path.basename(p) for p in os.listdir(os.path.join(srcdir, "lib")) if p.endswith(".h")}
private.discard("libkmsg.h")
bad = []
for d in ("src",):
    for f in sorted(os.listdir(os.path.join(srcdir, d))):
        if not f.endswith((".c", ".h")):
            continue
        with open(os.path.join(srcdir, d, f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r'\s*#\s*include\s*[<"]([^>"]+)[>"]', line)
                if m and os.path.basename(m.group(1)) in private:
                    bad.append(f"{d}/{f}:{n}: {m.group(1)}")
check("src/ includes no private header of lib/", not bad, "; ".join(bad))

dyn = subprocess.run(["readelf", "-d", kdmesg], check=True, capture_output=True, text=True).stdout
check("kdmesg links libkmsg.so.0", "[libkmsg.so.0]" in dyn)

def defined(path, dynamic=False):
    out = subprocess.run(["nm", "--defined-only"] + (["-D"] if dynamic else []) + [path],
                         check=True, capture_output=True, text=True).stdout
    return {l.split()[-1].split("@")[0] for l in out.splitlines() if re.search(r" [TtWi] ", l)}


exported = {s for s in defined(libkmsg, True) if s.startswith("kmsg_")}
own = sorted(defined(kdmesg) & exported)
check("kdmesg defines none of the library's functions (it is not compiled in)",
      exported and not own, " ".join(own[:5]))

env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(builddir, "meson-uninstalled"))
pc = subprocess.run(["pkg-config", "--cflags", "--libs", "libkmsg-uninstalled"], env=env,
                    capture_output=True, text=True)
flags = pc.stdout.split()
incs = [f[2:] for f in flags if f.startswith("-I")]
libs = [f[2:] for f in flags if f.startswith("-L")]
check("pkg-config names the header's and the library's directories",
      pc.returncode == 0 and "-lkmsg" in flags
      and any(os.path.exists(os.path.join(i, "libkmsg.h")) for i in incs)
      and any(os.path.realpath(os.path.join(l, os.path.basename(libkmsg))) == os.path.realpath(libkmsg)
              for l in libs),
      pc.stderr.strip() or pc.stdout.strip())

consumer = r'''
#include <stdio.h>
#include <libkmsg.h>

int main(void) {
        static const char rec[] = "6,7,8,-,caller=T1;hello\\x0aworld\n SUBSYSTEM=usb\n";
        struct kmsg_record *r = NULL;
        size_t len = 0;
        const char *m;

        if (kmsg_record_parse(rec, sizeof(rec) - 1, &r) < 0)
                return 1;
        m = kmsg_record_get_message(r, &len);
        printf("%s %zu %.*s|%s\n", kmsg_version(), len, (int)len, m, kmsg_record_get_subsystem(r));
        r = kmsg_record_unref(r);
        return r != NULL;
}
'''
# A library built with sanitizers needs their runtimes in the program too.
needed = subprocess.run(["readelf", "-d", libkmsg], check=True, capture_output=True, text=True).stdout
san = [f for f, lib in (("-fsanitize=address", "libasan"), ("-fsanitize=undefined", "libubsan"))
       if lib in needed]
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "consumer.c")
    exe = os.path.join(tmp, "consumer")
    with open(src, "w", encoding="utf-8") as fh:
        fh.write(consumer)
    build = subprocess.run(cc + san + ["-std=c99", "-Wall", "-Werror", "-o", exe, src] + flags,
                           capture_output=True, text=True)
    if build.returncode != 0:
        check("a program built from pkg-config alone parses a record", False, build.stderr.strip())
    else:
        run_env = dict(os.environ, LD_LIBRARY_PATH=":".join(libs),
                       ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0")
        out = subprocess.run([exe], env=run_env, capture_output=True, text=True)
        check("a program built from pkg-config alone parses a record",
              out.returncode == 0 and out.stdout.endswith(" 11 hello\nworld|usb\n"),
              f"exit {out.returncode}: {out.stdout!r} {out.stderr.strip()}")

print(f"1..{len(results)}")
for i, (name, ok, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        for line in detail.splitlines():
            print(f"# {line}")
