#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --upload against hostile input and hostile servers (issue 32): entries
# systemd-journal-remote would refuse are never sent as they are; an entry
# it refuses anyway costs that entry alone (a loss entry says so), not the
# rest; a server that trickles its answer meets a deadline; the URL's
# password and a server's control bytes never reach the terminal.  The
# collector is the real systemd-journal-remote on 127.0.0.1.
bats_require_minimum_version 1.5.0
load helpers

REMOTE=/lib/systemd/systemd-journal-remote
CHECK="$TESTS/cli/check-journal"

setup() {
        command -v journalctl openssl >/dev/null
        [ -x "$REMOTE" ]
        J="$BATS_TEST_TMPDIR/journal"
        mkdir -p "$J"
        PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        URL="http://127.0.0.1:$PORT"
}

teardown() {
        local j
        for j in $(jobs -p); do
                kill -KILL "$j" 2>/dev/null || true
        done
}

start_remote() {
        local i
        "$REMOTE" "${@:---listen-http=127.0.0.1:$PORT}" -o "$J/" 2>>"$BATS_TEST_TMPDIR/remote.log" 3>&- &
        RPID=$!
        for ((i = 0; i < 200; i++)); do
                (exec 4<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
                sleep 0.05
        done
        return 1
}

kill_remote() {
        kill -TERM "$RPID"
        wait "$RPID" || true
}

journal_json() {
        journalctl --directory "$J" -o json --no-pager 2>/dev/null
}

# kmsg_dump FILE WILD FIELDS: records 0-19 ("record N"); record 9 has FIELDS dictionary lines,
# the last one the time stamp WILD (us).
kmsg_dump() {
        python3 - "$@" <<'PY'
import sys
path, wild, fields = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = []
for s in range(20):
    t = wild if s == 19 else (s + 1) * 1000
    out.append("6,%d,%d,-;record %d\n" % (s, t, s))
    if s == 9:
        out.append("".join(" K%d=v\n" % i for i in range(fields)))
open(path, "w").write("".join(out))
PY
}

@test "entries the collector would refuse are made fit and said so: every record arrives, none stalls the rest" {
        local d="$BATS_TEST_TMPDIR"
        # Export input with what journal-remote drops the connection at (issue 32): a __MONOTONIC_TIMESTAMP
        # that is no number, _BOOT_ID=zzzz, the source journal's __ fields, and 1100 dictionary fields.
        python3 - "$d/poison.export" <<'PY'
import sys
out = []
def entry(seq, extra=(), boot="aba7d49a3f9a484a8905db37a872b9f5"):
    f = [("_SOURCE_MONOTONIC_TIMESTAMP", str((seq + 1) * 1000)), ("PRIORITY", "6"), ("SYSLOG_FACILITY", "0"),
         ("SEQNUM", str(seq)), ("MESSAGE", "record %d" % seq), ("_BOOT_ID", boot)] + list(extra)
    out.append("".join("%s=%s\n" % kv for kv in f) + "\n")
entry(0)
entry(1, [("__MONOTONIC_TIMESTAMP", "x")])
entry(2, boot="zzzz")
entry(3, [("__CURSOR", "s=abc;i=1"), ("__SEQNUM", "7"), ("__REALTIME_TIMESTAMP", "36028797018963968")])
entry(4, [("_KERNEL_K%d" % i, "v") for i in range(1100)])
entry(5)
open(sys.argv[1], "w").write("".join(out))
PY
        start_remote
        run --separate-stderr "$KDMESG" -K "$d/poison.export" --boot-time @1700000000 --upload "$URL" -q
        echo "$stderr"
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: seq 1: a time stamp outside journald's range (0 to 2^55 us) is written as its end or left out
kdmesg: seq 2: _BOOT_ID 'zzzz' is no 128-bit id: left out (the collector refuses it)
kdmesg: seq 4: 89 fields past the collector's limit of fields per entry go into KMSG_MERGED" ]
        # A dump: a time stamp past 2^63 us gives a wall clock past journald's range.
        kmsg_dump "$d/wild.kmsg" 18446744073709551000 0
        run --separate-stderr "$KDMESG" -K "$d/wild.kmsg" --boot-time @1700000000 --upload "$URL" -q
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: seq 19: a time stamp outside journald's range (0 to 2^55 us) is written as its end or left out" ]
        kill_remote
        for s in 0 1 2 3 4 5; do
                [ "$(journalctl --directory "$J" SEQNUM=$s -o cat --no-pager | sort -u)" = "record $s" ]
        done
        # The merged fields are there, one NAME=VALUE line each; the source journal's __ fields are not.
        journalctl --directory "$J" SEQNUM=4 -o export --no-pager > "$d/four"
        python3 - "$d/four" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read(); i = 0; f = []
while i < len(d):
    nl = d.index(b"\n", i); line = d[i:nl]
    if not line:
        break
    if b"=" in line:
        f.append(line.split(b"=", 1)); i = nl + 1
    else:
        n = struct.unpack("<Q", d[nl + 1:nl + 9])[0]; f.append([line, d[nl + 9:nl + 9 + n]]); i = nl + 10 + n
kernel = [k for k, v in f if k.startswith(b"_KERNEL_K")]
merged = [v for k, v in f if k == b"KMSG_MERGED"]
assert len(kernel) == 1011, len(kernel)
assert len(merged) == 1 and merged[0].split(b"\n")[0] == b"_KERNEL_K1011=v" and merged[0].count(b"\n") == 88, merged
assert sum(1 for k, v in f if not k.startswith(b"__")) <= 1024
PY
        ! journalctl --directory "$J" SEQNUM=3 -o export --no-pager | grep -aq '^__SEQNUM=7$' || false
        [ "$(journalctl --directory "$J" SEQNUM=19 -o cat --no-pager)" = "record 19" ]
}

@test "a collector that refuses one entry part-way: the rest is sent, the refused one becomes a loss entry with its seq and reason" {
        local d="$BATS_TEST_TMPDIR"
        # kdmesg told the collector takes 2000 fields: journal-remote (1024) drops the connection at record 9.
        kmsg_dump "$d/many.kmsg" 20000 1100
        start_remote
        run --separate-stderr env KDMESG_JOURNAL_FIELDS_MAX=2000 "$KDMESG" -K "$d/many.kmsg" --boot-time @1700000000 \
                --upload "$URL" -q
        echo "$stderr"
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: $URL refused the entry of seq 9 (Empty reply from server): a loss entry says so in its place" ]
        kill_remote
        # Every other record arrived; the entries before record 9 of its batch may be there more than
        # once: stored before the collector dropped the batch, again when libcurl retried it on a fresh
        # connection (it does so for a reused one that answered nothing), again one by one.
        run "$CHECK" 0 19 9 2 < <(journal_json)
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == "records=19 "*" lost=1 loss_entries=1 missing=0" ]]
        run journalctl --directory "$J" KDMESG_LOST_CAUSE=refused -o cat --no-pager
        [ "$output" = "-- 1 message lost (seq 9, refused by the collector: Empty reply from server) --" ]
        journalctl --directory "$J" KDMESG_LOST_CAUSE=refused -o export --no-pager | grep -qx 'KDMESG_LOST_FIRST_SEQ=9'
}

@test "a server that trickles its answer: each request has a deadline, the upload ends" {
        # It takes the POST, then sends one byte of its answer every half second, for ever.
        python3 - "$PORT" 3>&- <<'PY' &
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.wfile.write(b"HTTP/1.1 200 OK\r\n")
        while True:
            self.wfile.write(b"X")
            self.wfile.flush()
            time.sleep(0.5)
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
        RPID=$!
        for ((i = 0; i < 100; i++)); do (exec 4<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.05; done
        local t0=$SECONDS
        run --separate-stderr env KDMESG_UPLOAD_TIMEOUT_MS=1000 "$KDMESG" -K "$DATA/journal.kmsg" --boot-time @0 \
                --upload "$URL" -q
        echo "$stderr"
        [ "$status" -eq 1 ]
        [[ "$stderr" =~ ^"kdmesg: cannot upload to $URL: Operation timed out after "[0-9]+" milliseconds with "[0-9]+" bytes received (tried 4 times)"$ ]]
        # Four tries of a second and the waits between them, not for ever.
        [ $((SECONDS - t0)) -le 20 ]
        run --separate-stderr env KDMESG_UPLOAD_TIMEOUT_MS=0 "$KDMESG" -K "$DATA/journal.kmsg" --boot-time @0 --upload "$URL"
        [ "$stderr" = "kdmesg: bad time '0' in KDMESG_UPLOAD_TIMEOUT_MS (milliseconds, 1 to 3600000)" ]
}

@test "the URL's user:password is in no message; a certificate's control bytes reach stderr escaped" {
        local d="$BATS_TEST_TMPDIR"
        # Nothing listens: every message names the URL, none with its secret.
        run --separate-stderr "$KDMESG" -K "$DATA/journal.kmsg" --boot-time @0 \
                --upload "http://fleet:s3cret@127.0.0.1:$PORT/x" -q
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: cannot upload to http://127.0.0.1:$PORT/x: "*"(tried 4 times)" ]]
        [[ "$stderr" != *s3cret* && "$stderr" != *fleet* ]]
        run --separate-stderr "$KDMESG" --upload "ftp://fleet:s3cret@host/"
        [ "$stderr" = "kdmesg: bad URL 'ftp://host/' for --upload (expected http://, https://, relp:// or relp+tls://)" ]
        # A server whose certificate's name is ESC [31m BEL: curl's message quotes it.
        openssl req -x509 -newkey rsa:2048 -nodes -subj $'/CN=evil\e[31m\a' -keyout "$d/key.pem" -out "$d/cert.pem" \
                -days 2 2>/dev/null
        start_remote --listen-https="127.0.0.1:$PORT" --key="$d/key.pem" --cert="$d/cert.pem"
        run --separate-stderr "$KDMESG" -K "$DATA/journal.kmsg" --boot-time @0 --upload "https://u:pw@127.0.0.1:$PORT" \
                --trust "$d/cert.pem" -q
        kill_remote
        echo "$stderr"
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: cannot upload to https://127.0.0.1:$PORT: "*'evil\x1b[31m\x07'* ]]
        [[ "$stderr" != *$'\e'* && "$stderr" != *$'\a'* && "$stderr" != *pw@* ]]
}
