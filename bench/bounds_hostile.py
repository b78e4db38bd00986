# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/bounds --hostile: the hostile inputs of issue 32, each run once with
its time, peak memory, exit status, how long a SIGTERM took to end it, and
whether a raw control byte reached standard output or standard error.

Cases (made in a temporary directory):
  stamps   time stamps at and above 2^63 us (--timeline, its JSON, the --lost
           strip on a terminal, every time format), sleeps whose logged
           durations add up past 2^63 us
  pstore   a dmesg.txt of 20,000 parts, one part of 1,000,000 records,
           40 sparse 16 MB files, 5,000 parts (over the 4096 read), duplicate
           part numbers, a FIFO and a symlink to /dev/zero among the files
  bytes    ESC, BEL, C1 (0x9b raw and U+009B), bidi controls in every outside
           string: message, dictionary, caller, flags, fields, DEVICE, file
           names, a pstore backend, a cursor path; in every view and report
  boots    adversarial boots: an alternating _BOOT_ID, time jumping back
           (figures only: what kdmesg concludes is the captures engineer's)

A raw control byte is one below 0x20 but newline and tab, DEL, a byte
0x80-0x9f outside valid UTF-8, or U+0080-U+009F as UTF-8.  Machine formats
(--format=export, whose binary fields are raw by design) are not scanned;
JSON is scanned and its findings counted apart ("json").  With an
AddressSanitizer build (--kdmesg build-test/src/kdmesg) a sanitizer report
on stderr is counted too.
"""
import os
import pty
import select
import signal
import struct
import subprocess
import tempfile
import time

TIME = "/usr/bin/time"
LIMIT = 300  # seconds: a case that runs longer is a hang


def raw_controls(data):
    """How many raw control bytes data holds (see the module's doc)."""
    n, i, size = 0, 0, len(data)
    while i < size:
        b = data[i]
        if b < 0x80:
            if (b < 0x20 and b not in (0x0a, 0x09)) or b == 0x7f:
                n += 1
            i += 1
            continue
        try:
            k = 2 if 0xc2 <= b <= 0xdf else 3 if 0xe0 <= b <= 0xef else 4 if 0xf0 <= b <= 0xf4 else 0
            ch = data[i:i + k].decode("utf-8") if k else None
        except UnicodeDecodeError:
            ch = None
        if ch is None:
            n += 0x80 <= b <= 0x9f
            i += 1
        else:
            n += 0x80 <= ord(ch) <= 0x9f
            i += k
    return n


def kmsg_line(seq, usec, msg, pri=6, flags=b"-", fields=b"", dict_lines=()):
    head = b"%d,%d,%d,%s" % (pri, seq, usec, flags) + (b"," + fields if fields else b"")
    return head + b";" + msg + b"\n" + b"".join(b" " + d + b"\n" for d in dict_lines)


def write(path, data, mode="wb"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def make_stamps(d):
    out = [kmsg_line(i, i * 1000, b"record %d" % i) for i in range(100000)]
    out.append(kmsg_line(100000, 1 << 63, b"at 2^63"))
    out.append(kmsg_line(100002, (1 << 64) - 1, b"at 2^64 - 1"))
    write(d + "/big-stamps.kmsg", b"".join(out))
    sleeps = []
    for i in range(40):
        sleeps.append(kmsg_line(2 * i, 2 * i + 1, b"PM: suspend entry (deep)"))
        sleeps.append(kmsg_line(2 * i + 1, 2 * i + 2, b"PM: Timekeeping suspended for 922337203685.9 seconds"))
    write(d + "/sleeps.kmsg", b"".join(sleeps))


def make_pstore(d):
    txt = []
    for k in range(20000, 0, -1):
        txt.append(b"dmesg-efi-17000000%05d:\nOops#1 Part%d\n<6>[%5d.000000] line %d\n" % (k, k, k, k))
    write(d + "/txt20k/var/lib/systemd/pstore/1700000000/dmesg.txt", b"".join(txt))
    os.makedirs(d + "/txt20k/sys", exist_ok=True)
    big = [b"Panic#1 Part1\n"] + [b"<6>[%d.%06d] r\n" % (i // 100000, i % 100000) for i in range(1000000)]
    write(d + "/onepart/sys/fs/pstore/dmesg-ramoops-0", b"".join(big))
    for k in range(40):
        p = d + "/sparse/sys/fs/pstore/dmesg-efi-1700000000%02d001" % k
        write(p, b"Oops#%d Part1\n<6>[    1.000000] dump %d\n" % (k + 1, k + 1))
        os.truncate(p, 16 * 1024 * 1024 - 1)
    cap = [b"Oops#1 Part%d\n<6>[%5d.000000] part %d\n" % (k, k, k) for k in range(5000, 0, -1)]
    write(d + "/cap/var/lib/systemd/pstore/1700000000/dmesg.txt", b"".join(cap))
    os.makedirs(d + "/cap/sys", exist_ok=True)
    write(d + "/dup/var/lib/systemd/pstore/1/dmesg.txt",
          b"Oops#1 Part2\n<6>[ 1.0] a\nOops#1 Part2\n<6>[ 2.0] b\nOops#1 Part1\n<6>[ 3.0] c\n")
    os.makedirs(d + "/dup/sys", exist_ok=True)
    write(d + "/odd/sys/fs/pstore/dmesg-efi-1", b"Oops#1 Part1\n<6>[    1.000000] a\n")
    os.mkfifo(d + "/odd/sys/fs/pstore/dmesg-efi-2")
    os.symlink("/dev/zero", d + "/odd/sys/fs/pstore/dmesg-efi-3")
    write(d + "/odd/sys/fs/pstore/dmesg-\x1b[31m\x9b-4", b"Panic#1 Part1\n<6>[    1.000000] b\n")


HOSTILE = [b"\x1b[31m", b"\x07", b"\x9b31m", b"\xc2\x9b31m", b"\xe2\x80\xae", b"\x7f", b"\r"]


def make_bytes(d):
    recs = []
    seq = 0
    for h in HOSTILE:
        esc = "".join("\\x%02x" % c for c in h).encode()
        recs.append(kmsg_line(seq, seq * 1000 + 1, b"escaped " + esc + b" in the message", pri=3,
                              dict_lines=[b"SUBSYSTEM=usb" + esc, b"DEVICE=+usb:1-" + esc, b"K" + esc + b"EY=v" + esc]))
        recs.append(kmsg_line(seq + 1, seq * 1000 + 2, b"raw in the header", flags=b"-" + h, fields=b"caller=T" + h))
        recs.append(kmsg_line(seq + 2, seq * 1000 + 3, b"BUG: kernel NULL pointer dereference " + esc, pri=1,
                              fields=b"caller=C1,x=" + h))
        seq += 4  # one lost between: loss lines too
    write(d + "/bytes.kmsg", b"".join(recs))
    json_lines = [b'{"seq":%d,"time":1.0,"pri":6,"caller":"T\\u001b[1m\\u009b","fields":"caller=T1,a=\\u009b",'
                  b'"msg":"j\\u001b\\u009b\\u202e","dict":{"DEVICE":"\\u001b","\\u009b":"x"}}\n' % i for i in range(3)]
    write(d + "/bytes.json", b"".join(json_lines))


def export_entry(fields):
    out = b""
    for k, v in fields:
        if b"\n" in v or any(c < 0x20 for c in v):
            out += k + b"\n" + struct.pack("<Q", len(v)) + v + b"\n"
        else:
            out += k + b"=" + v + b"\n"
    return out + b"\n"


def make_boots(d):
    ents = []
    for i in range(20000):
        ents.append(export_entry([(b"MESSAGE", b"record %d" % i), (b"PRIORITY", b"6"), (b"SEQNUM", b"%d" % i),
                                  (b"_BOOT_ID", b"%032x" % (i % 2 + 1)),
                                  (b"__MONOTONIC_TIMESTAMP", b"%d" % (i * 1000))]))
    write(d + "/boots.export", b"".join(ents))
    write(d + "/back.kmsg", b"".join(kmsg_line(i, (i % 2) * 10 ** 12 + i, b"r%d" % i) for i in range(2000)))
    write(d + "/export-bytes.export", export_entry([(b"MESSAGE", b"m\x1b[2J\xc2\x9b"), (b"PRIORITY", b"6"),
                                                    (b"SEQNUM", b"1"), (b"KMSG_FIELDS", b"caller=T\x1b\x9b"),
                                                    (b"_BOOT_ID", b"zz\x1bzz")]))


def cases(d):
    """(set, name, argv after kdmesg, how): how has "pty" for a terminal, "sig" for the SIGTERM figure."""
    bt = ["--boot-time", "@1700000000"]
    views = [[], ["-x"], ["-T"] + bt, ["--time-format=iso"] + bt, ["-e"] + bt, ["-d"], ["-r"], ["--format=cat"],
             ["--format=kmsg"], ["-o", "SEQ,TIME,CALLER,FLAGS,SUBSYSTEM,DEVICE,DEVNAME,DICT,MESSAGE"],
             ["--show-device"], ["--json"], ["--json=dmesg"], ["--devices"], ["--problems"], ["--problems", "-T"] + bt,
             ["--lost"], ["--timeline"], ["--timeline", "--problems"]]
    out = [
        ("stamps", "timeline 2^63", ["-K", d + "/big-stamps.kmsg", "--timeline"], ""),
        ("stamps", "timeline 2^63 json", ["-K", d + "/big-stamps.kmsg", "--timeline", "--json"], ""),
        ("stamps", "timeline 2^63 -T", ["-K", d + "/big-stamps.kmsg", "--timeline", "-T"] + bt, ""),
        ("stamps", "lost strip pty", ["-P", "-K", d + "/big-stamps.kmsg", "--lost"], "pty"),
        ("stamps", "views 2^63 -T", ["-K", d + "/big-stamps.kmsg", "-T"] + bt, ""),
        ("stamps", "views 2^63 iso -d", ["-K", d + "/big-stamps.kmsg", "--time-format=iso", "-d"] + bt, ""),
        ("stamps", "since 2^63", ["-K", d + "/big-stamps.kmsg", "--since", "9223372036", "-T"] + bt, ""),
        ("stamps", "sleeps -T", ["-K", d + "/sleeps.kmsg", "-T"] + bt, ""),
        ("stamps", "sleeps timeline", ["-K", d + "/sleeps.kmsg", "--timeline", "--time-format=iso"] + bt, ""),
        ("pstore", "txt 20k parts", ["--sysroot", d + "/txt20k", "--pstore"], ""),
        ("pstore", "txt 20k --list", ["--sysroot", d + "/txt20k", "--pstore", "--list"], ""),
        ("pstore", "1M-record part", ["--sysroot", d + "/onepart", "--pstore"], "sig"),
        ("pstore", "1M-record --problems", ["--sysroot", d + "/onepart", "--pstore", "--problems"], "sig"),
        ("pstore", "40 sparse --list", ["--sysroot", d + "/sparse", "--pstore", "--list"], ""),
        ("pstore", "40 sparse show", ["--sysroot", d + "/sparse", "--pstore"], ""),
        ("pstore", "5000 parts", ["--sysroot", d + "/cap", "--pstore"], ""),
        ("pstore", "duplicates", ["--sysroot", d + "/dup", "--pstore"], ""),
        ("pstore", "fifo+zero+esc --list", ["--sysroot", d + "/odd", "--pstore", "--list"], ""),
        ("pstore", "fifo+zero+esc", ["--sysroot", d + "/odd", "--pstore=2"], ""),
    ]
    for v in views:
        out.append(("bytes", "kmsg " + " ".join(v)[:40], ["-K", d + "/bytes.kmsg"] + v, ""))
    for v in ([], ["--format=kmsg"], ["-o", "CALLER,FLAGS,DEVICE,DICT,MESSAGE"], ["--devices"], ["-r"]):
        out.append(("bytes", "json-in " + " ".join(v), ["-K", d + "/bytes.json"] + v, ""))
        out.append(("bytes", "export-in " + " ".join(v), ["-K", d + "/export-bytes.export"] + v, ""))
    out += [
        ("bytes", "file name", ["-K", d + "/no\x1b[31msuch\x9b\xc2\x9b"], ""),
        ("bytes", "cursor path", ["--cursor-file", d + "/no/such\x1b]0;t\x07/cursor", "-K", d + "/bytes.kmsg"], ""),
        ("bytes", "kmsg pty", ["-P", "-K", d + "/bytes.kmsg"], "pty"),
        ("bytes", "table pty", ["-P", "-K", d + "/bytes.kmsg", "--format=table"], "pty"),
        ("boots", "alternating boot id", ["-K", d + "/boots.export", "--lost"], ""),
        ("boots", "alternating boot id timeline", ["-K", d + "/boots.export", "--timeline"], ""),
        ("boots", "time back", ["-K", d + "/back.kmsg", "--lost"], ""),
    ]
    return out


def run_case(kdmesg, argv, how, env):
    """(wall s, cpu s, peak KiB, exit, stdout+stderr findings, json findings, sanitizer?, SIGTERM ms, "done"
    when the run ended before the signal, or None)."""
    stats = tempfile.NamedTemporaryFile(prefix="kdmesg-hostile-", delete=False)
    stats.close()
    cmd = [TIME, "-o", stats.name, "-f", "%U %S %M"] + [kdmesg] + [a.encode("utf-8", "surrogateescape")
                                                              if isinstance(a, str) else a for a in argv]
    t0 = time.perf_counter()
    out = b""
    if "pty" in how:
        master, slave = pty.openpty()
        os.system("stty cols 100 < %s" % os.ttyname(slave))
        # No colors: their SGR sequences are kdmesg's own, not input's.
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=dict(env, NO_COLOR="1"))
        os.close(slave)
        deadline = time.time() + LIMIT
        while time.time() < deadline:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            elif p.poll() is not None:
                break
        os.close(master)
        try:
            status = p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            status = "HANG"
        out = out.replace(b"\r\n", b"\n")
    else:
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=LIMIT)
            status, out = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            status = "HANG"
    wall = time.perf_counter() - t0
    with open(stats.name) as f:
        fig = f.read().split()
    os.unlink(stats.name)
    cpu = float(fig[-3]) + float(fig[-2]) if len(fig) >= 3 else float("nan")
    rss = int(fig[-1]) if len(fig) >= 3 else 0
    machine = any(a in ("--json", "--json=dmesg") for a in argv) or "--format=export" in argv
    findings = raw_controls(out)
    sanitizer = b"runtime error" in out or b"AddressSanitizer" in out or b"LeakSanitizer" in out
    sig_ms = None
    if "sig" in how:
        p = subprocess.Popen([kdmesg] + argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env)
        # Halfway through the run (it took wall seconds above), if it is still going.
        time.sleep(min(wall / 2, 0.3))
        t1 = time.perf_counter()
        if p.poll() is not None:
            sig_ms = "done"
        else:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=10)
                sig_ms = (time.perf_counter() - t1) * 1000
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                sig_ms = float("inf")
    if machine:
        return wall, cpu, rss, status, 0, findings, sanitizer, sig_ms
    return wall, cpu, rss, status, findings, 0, sanitizer, sig_ms


def run_all(kdmesg, only=None):
    env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8", COLUMNS="100", KDMESG_PROBLEMS_DIR="")
    with tempfile.TemporaryDirectory(prefix="kdmesg-hostile-") as d:
        make_stamps(d)
        make_pstore(d)
        make_bytes(d)
        make_boots(d)
        print("%-7s %-40s %8s %8s %10s %6s %4s %4s %4s %8s" % ("set", "case", "wall s", "cpu s", "peak RSS", "exit",
                                                                "raw", "json", "san", "SIGTERM"))
        bad = 0
        for kind, name, argv, how in cases(d):
            if only and kind not in only:
                continue
            wall, cpu, rss, status, raw, js, san, sig = run_case(kdmesg, argv, how, env)
            bad += raw > 0 or san or status == "HANG" or (isinstance(sig, float) and sig > 100) or rss > 64 * 1024
            print("%-7s %-40s %8.2f %8.2f %6.1f MiB %6s %4d %4d %4s %8s" % (
                kind, name.replace("\x1b", "^[")[:40], wall, cpu, rss / 1024, status, raw, js, "yes" if san else "-",
                "-" if sig is None else sig if isinstance(sig, str) else "%.0f ms" % sig), flush=True)
        print("cases over a bound (raw byte, sanitizer, hang, SIGTERM > 100 ms, over 64 MiB): %d" % bad)
