#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --upload relp:// against a real rsyslogd with imrelp started by the tests
# in the foreground on 127.0.0.1, with its own configuration, work
# directory and output file: the RFC 5424 fields as rsyslog parses them,
# kill -9 of the collector and SIGTERM of kdmesg mid-stream, a loss entry
# as a message of its own, and the one-line errors.
bats_require_minimum_version 1.5.0
load helpers
load emu

CHECK="$TESTS/cli/check-relp"

setup() {
        # tools/install-deps installs them (Debian's rsyslog and rsyslog-relp): missing fails.
        command -v rsyslogd >/dev/null
        R="$BATS_TEST_TMPDIR/rsyslog"
        GOT="$R/got"
        mkdir -p "$R/work"
        PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        URL="relp://127.0.0.1:$PORT"
        TLS=()
        C="$BATS_TEST_TMPDIR/cursor"
        # The configuration of the man page, with a template that writes every field the checks read:
        # PRI, time, host, app-name, procid, msgid, the structured data as JSON, the message.
        # A direct main queue: the file is written before imrelp acknowledges.
        cat > "$R/rsyslog.conf" <<EOF
global(workDirectory="$R/work")
main_queue(queue.type="Direct")
module(load="imrelp")
module(load="mmpstrucdata")
input(type="imrelp" address="127.0.0.1" port="$PORT" ruleset="kdmesg")
template(name="kdmesg" type="list") {
        property(name="pri") constant(value="\t")
        property(name="timereported" dateFormat="rfc3339") constant(value="\t")
        property(name="hostname") constant(value="\t")
        property(name="app-name") constant(value="\t")
        property(name="procid") constant(value="\t")
        property(name="msgid") constant(value="\t")
        property(name="\$!rfc5424-sd") constant(value="\t")
        property(name="msg" format="json") constant(value="\n")
}
ruleset(name="kdmesg") {
        action(type="mmpstrucdata" sd_name.lowercase="off")
        action(type="omfile" file="$GOT" template="kdmesg")
        # An alert on the problem kdmesg names in the structured data.
        if \$!rfc5424-sd!kdmesg-problem@32473!kind == "oops" then
                action(type="omfile" file="$R/oops" template="kdmesg")
}
EOF
}

# start_rsyslog: the collector on $PORT, writing into $GOT; RPID.
start_rsyslog() {
        local i
        rm -f "$R/pid"
        rsyslogd -n -f "$R/rsyslog.conf" -i "$R/pid" 2>>"$R/log" 3>&- &
        RPID=$!
        for ((i = 0; i < 200; i++)); do
                (exec 4<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
                sleep 0.05
        done
        echo "rsyslogd did not start:" >&2
        cat "$R/log" >&2
        return 1
}

kill_rsyslog() {
        kill -"${1:-TERM}" "$RPID"
        wait "$RPID" || true
}

# make_cert NAME CN [CA [DAYS]]: NAME.key and NAME.pem in $T, for CN (and a DNS name of it), signed by CA (self-signed
# without), valid DAYS days from now (2; -1: expired yesterday).
make_cert() {
        local ext="subjectAltName=DNS:$2"

        [ -n "${3:-}" ] || ext="basicConstraints=critical,CA:TRUE"
        openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
                -keyout "$T/$1.key" -out "$T/$1.csr" 2>/dev/null
        if [ -n "${3:-}" ]; then
                openssl x509 -req -in "$T/$1.csr" -CA "$T/$3.pem" -CAkey "$T/$3.key" -CAcreateserial -days "${4:-2}" \
                        -extfile <(echo "$ext") -out "$T/$1.pem" 2>/dev/null
        else
                openssl x509 -req -in "$T/$1.csr" -signkey "$T/$1.key" -days 2 -extfile <(echo "$ext") \
                        -out "$T/$1.pem" 2>/dev/null
        fi
}

# use_tls: certificates made here (a CA; the collector's, named 127.0.0.1 as librelp compares names; the
# client's, client.example) and imrelp over TLS that asks for the client's; URL is relp+tls://, TLS the options.
use_tls() {
        T="$BATS_TEST_TMPDIR/tls"
        mkdir -p "$T"
        make_cert ca "kdmesg test CA"
        make_cert server 127.0.0.1 ca
        make_cert client client.example ca
        sed -i "s|^input(type=\"imrelp\" address=\"127.0.0.1\" port=\"$PORT\" ruleset=\"kdmesg\")\$|input(type=\"imrelp\" address=\"127.0.0.1\" port=\"$PORT\" ruleset=\"kdmesg\" tls=\"on\" tls.caCert=\"$T/ca.pem\" tls.myCert=\"$T/server.pem\" tls.myPrivKey=\"$T/server.key\" tls.authMode=\"name\" tls.permittedPeer=[\"client.example\"])|" "$R/rsyslog.conf"
        grep -q 'tls="on"' "$R/rsyslog.conf"
        URL="relp+tls://127.0.0.1:$PORT"
        TLS=(--trust "$T/ca.pem" --cert "$T/client.pem" --key "$T/client.key")
}

# wait_seq N: until the collector has the record with seq N (10 s at most).
wait_seq() {
        local i
        for ((i = 0; i < 200; i++)); do
                grep -q "\"seq\": \"$1\"" "$GOT" 2>/dev/null && return 0
                sleep 0.05
        done
        echo "the collector never got seq $1" >&2
        return 1
}

cursor_seq() {
        sed -n 's/^seq=//p' "$C"
}

# check_fields EXPORT: every message in $GOT is the entry of the export file, field by field (check_fields.py).
check_fields() {
        python3 - "$1" "$GOT" <<'PY'
import datetime, json, sys

def entries(path):
    d = open(path, "rb").read(); i = 0; e = {}; dicts = []
    while i < len(d):
        nl = d.index(b"\n", i); line = d[i:nl]
        if not line:
            e["dict"] = dicts; yield e; e = {}; dicts = []; i = nl + 1; continue
        if b"=" in line:
            k, v = line.split(b"=", 1); i = nl + 1
        else:
            n = int.from_bytes(d[nl + 1:nl + 9], "little"); k, v = line, d[nl + 9:nl + 9 + n]; i = nl + 10 + n
        k = k.decode(); v = v.decode("utf-8", "surrogateescape")
        if k.startswith("_KERNEL_"):
            dicts.append((k[8:], v))
        elif k == "KMSG_DICT":
            dicts.append(tuple(v.split("=", 1)))
        else:
            e[k] = v

# Bytes that are not UTF-8 as \xNN; in the message also control characters but the tab, DEL and '\'.
def esc(v, msg=False):
    return "".join("\\x%02x" % (ord(c) - 0xdc00) if 0xdc80 <= ord(c) <= 0xdcff else
                   "\\x%02x" % ord(c) if msg and c != "\t" and (c < " " or c in "\\\x7f") else c for c in v)

got = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
want = list(entries(sys.argv[1]))
assert len(got) == len(want), (len(got), len(want))
for w, g in zip(want, got):
    pri, time, host, app, procid, msgid, sd, msg = g
    sd = json.loads(sd); msg = json.loads('"%s"' % msg)
    assert int(pri) == int(w.get("SYSLOG_FACILITY", 0)) * 8 + int(w["PRIORITY"]), (w, g)
    t = datetime.datetime.fromtimestamp(int(w["__REALTIME_TIMESTAMP"]) / 1e6, datetime.timezone.utc)
    assert time == t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z", (time, w)
    assert host == w["_HOSTNAME"] and app == w.get("SYSLOG_IDENTIFIER", "-"), (w, g)
    assert procid == w.get("SYSLOG_PID", "-"), (w, g)
    k = sd["kdmesg@32473"]
    assert k["boot"] == w["_BOOT_ID"], (w, g)
    if w.get("MESSAGE_ID") == "9ac1b3703093449dace9a589386bdafe":
        l = sd["kdmesg-lost@32473"]; n, f = int(w["KDMESG_LOST"]), int(w["KDMESG_LOST_FIRST_SEQ"])
        assert msgid == "kmsg-lost" and int(l["count"]) == n and int(l["first"]) == f, (w, g)
        assert int(l["last"]) == f + n - 1 and l["cause"] == w["KDMESG_LOST_CAUSE"], (w, g)
        assert msg == w["MESSAGE"], (w, g)
        continue
    assert msgid == "kmsg" and k["seq"] == w["SEQNUM"] and k["flags"] == w["KMSG_FLAGS"], (w, g)
    assert k["mono"] == w["_SOURCE_MONOTONIC_TIMESTAMP"], (w, g)
    caller = [f[7:] for f in w.get("KMSG_FIELDS", "").split(",") if f.startswith("caller=")]
    assert k.get("caller") == (caller[0] if caller else None), (w, g)
    # The dictionary: keys that are SD-NAMEs in kdmesg-dict, in order; the others as dict="KEY=VALUE"
    # (repeated, of which mmpstrucdata's JSON keeps the last).
    def sd_name(a):
        return 0 < len(a) <= 32 and "\\" not in a and all(33 <= ord(c) <= 126 and c not in '="]' for c in a)
    names = [(a, esc(b)) for a, b in w["dict"] if sd_name(a)]
    others = [(esc(a), esc(b)) for a, b in w["dict"] if not sd_name(a)]
    assert list(sd.get("kdmesg-dict@32473", {}).items()) == names, (w, g)
    assert (tuple(k["dict"].split("=", 1)) == others[-1]) if others else "dict" not in k, (w, g)
    # The message as the kernel escapes it: control characters and '\' as \xNN.
    assert msg == esc(w["MESSAGE"], True), (msg, w["MESSAGE"])
print("%d messages, every field as the export entry has it" % len(got))
PY
}

# dump_arrives: journal.kmsg uploaded once ($URL, $TLS) arrives whole, every field as its export entry has it.
dump_arrives() {
        opts=(-K "$DATA/journal.kmsg" --boot-time @1700000000 --boot-id aba7d49a3f9a484a8905db37a872b9f5
              --hostname host1)
        start_rsyslog
        run --separate-stderr "$KDMESG" "${opts[@]}" --upload "$URL" "${TLS[@]}" -q
        [ "$status" -eq 0 ]
        [ -z "$output" ]
        [ -z "$stderr" ]
        kill_rsyslog
        "$KDMESG" "${opts[@]}" --format=export -q > "$BATS_TEST_TMPDIR/want"
        # The upload also sends the loss of seq 0-9, rotated out before the dump was read (as upload.bats).
        head -1 "$GOT" | grep -q $'\tkmsg-lost\t{ "kdmesg-lost@32473": { "count": "10", "first": "0", "last": "9", "cause": "rotated" }'
        sed -i 1d "$GOT"
        run check_fields "$BATS_TEST_TMPDIR/want"
        echo "$output"
        [ "$status" -eq 0 ]
        [ "$output" = "14 messages, every field as the export entry has it" ]
}

@test "--upload relp:// a dump: rsyslog stores every record once, with its PRI, time, host, app-name and structured data, and the loss entries" {
        dump_arrives
        # A record of a userspace facility: its PRI, its identifier and pid in the header.
        grep -q $'^30\t2023-11-14T22:13:23.000000Z\thost1\tsystemd\t1\tkmsg\t' "$GOT"
        # The gap of seq 22-23 as a message of its own.
        grep -q $'^4\t2023-11-14T22:13:24.000000Z\thost1\tkdmesg\t-\tkmsg-lost\t{ "kdmesg-lost@32473": { "count": "2", "first": "22", "last": "23", "cause": "gap" }' "$GOT"
}

@test "--upload relp://: an rsyslog filter on the structured data (kdmesg-problem@32473 kind) finds the oops" {
        start_rsyslog
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --boot-time @1700000000 --hostname host1 --upload "$URL" -q
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        kill_rsyslog
        # The oops's four records, and only they, went through the filter, each with its kind and subject.
        [ "$(cut -f7 "$R/oops" | jq -r '."kdmesg@32473".seq' | tr '\n' ' ')" = "4 5 6 7 " ]
        [ "$(cut -f7 "$R/oops" | jq -c '."kdmesg-problem@32473"' | sort | uniq -c | sed 's/^ *//')" = \
          '1 {"kind":"oops","subject":"BUG: unable to handle kernel paging request in corrupted","start":"1"}
3 {"kind":"oops","subject":"BUG: unable to handle kernel paging request in corrupted"}' ]
        # The warning's records carry their kind too; the others none.
        [ "$(cut -f7 "$GOT" | jq -r 'select(."kdmesg-problem@32473".kind == "warning") | ."kdmesg@32473".seq' | tr '\n' ' ')" = "2 3 " ]
        [ "$(cut -f7 "$GOT" | jq -r 'select(."kdmesg-problem@32473" == null) | ."kdmesg@32473".seq' | tr '\n' ' ')" = "0 1 8 9 10 " ]
}

@test "--upload relp:// the emulated ring: quotes, backslashes, brackets and bytes that are not UTF-8 reach rsyslog's parser intact" {
        emu_init 64
        emu write 2
        emu append 3 $'quote " backslash \\ bracket ] caf\xc3\xa9 \xff end\n SUBSYSTEM=x"y\\z]\n lower.key=v\xff'
        KDMESG_BOOT_TIME=@1700000000 kdmesg_emu --format=export -q > "$BATS_TEST_TMPDIR/want"
        start_rsyslog
        KDMESG_BOOT_TIME=@1700000000 kdmesg_emu --upload "$URL" -q
        kill_rsyslog
        run check_fields "$BATS_TEST_TMPDIR/want"
        echo "$output"
        [ "$status" -eq 0 ]
        [ "$output" = "3 messages, every field as the export entry has it" ]
        # As rsyslog parsed it (mmpstrucdata), and the message valid UTF-8 with its bad byte escaped.
        tail -1 "$GOT" | grep -qF '"kdmesg-dict@32473": { "SUBSYSTEM": "x\"y\\z]", "lower.key": "v\\xff" }'
        tail -1 "$GOT" | grep -qF $'\tquote \\" backslash \\\\x5c bracket ] caf\xc3\xa9 \\\\xff end'
        python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$GOT"
        [ "$(tail -1 "$GOT" | cut -f1,4,6)" = $'3\tkernel\tkmsg' ]
}

# kill_collector_3_times: the collector killed with kill -9 mid-stream and restarted, 3 times.
kill_collector_3_times() {
        local i
        emu_init 16384
        start_rsyslog
        "$KMSG_EMU" write "$RING" 3000 1000 3>&- &
        WPID=$!
        kdmesg_bg -w --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
        for i in 1 2 3; do
                sleep "0.$((RANDOM % 4 + 4))"
                kill_rsyslog KILL
                sleep 0.3
                start_rsyslog
        done
        wait "$WPID"
        wait_seq 2999
        for ((i = 0; i < 100; i++)); do [ "$(cursor_seq)" = 2999 ] && break; sleep 0.05; done
        [ "$(cursor_seq)" = 2999 ]
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        kill_rsyslog
        grep -q "^kdmesg: cannot upload to $URL: .*; retrying$" "$ERR"
        # rsyslog stores a message before it answers: what it stored of the batch in flight when it
        # was killed is sent again, as over HTTP (upload.bats).  A batch is at most 256 KiB: about
        # 800 of these records.  (61 duplicates in one run of the release build, 0 in most ASan runs.)
        run "$CHECK" 0 2999 800 3 < "$GOT"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == "records=3000 "*" lost=0 "* ]]
}

@test "--upload relp:// --follow: rsyslog killed with kill -9 mid-stream and restarted, 3 times: 0 missing, duplicates within one batch per kill" {
        kill_collector_3_times
}

@test "--upload relp+tls:// --follow: rsyslog with TLS killed with kill -9 mid-stream and restarted, 3 times: 0 missing, duplicates within one batch per kill" {
        use_tls
        kill_collector_3_times
}

# sigterm_5_times: kdmesg stopped with SIGTERM mid-stream and started again with the cursor, 5 times.
sigterm_5_times() {
        local i n
        emu_init 65536
        start_rsyslog
        "$KMSG_EMU" write "$RING" 0 500 3>&- &
        WPID=$!
        for i in 1 2 3 4 5; do
                n=$(emu get blocks)
                KDMESG_UPLOAD_STOP_MS=60000 kdmesg_bg -w --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
                emu wait blocks $((n + 1)) 30
                wait_seq $(($(emu get next_seq) - 1))
                sleep "0.$((RANDOM % 5 + 2))"
                stop_bg TERM
                [ "$STATUS" -eq 0 ]
                [ -z "$(cat "$ERR")" ]
        done
        kill -TERM "$WPID"
        wait "$WPID"
        # The last run catches up and ends.
        kdmesg_emu --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
        kill_rsyslog
        LAST=$(($(emu get next_seq) - 1))
        [ "$LAST" -ge 500 ]
        [ "$(cursor_seq)" = "$LAST" ]
        run "$CHECK" 0 "$LAST" 0 0 < "$GOT"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == "records=$((LAST + 1)) duplicates=0 lost=0 "* ]]
}

@test "--upload relp:// --follow: SIGTERM mid-stream and a restart with the cursor, 5 times: 0 missing, 0 duplicates" {
        sigterm_5_times
}

@test "--upload relp+tls:// --follow: SIGTERM mid-stream and a restart with the cursor, 5 times: 0 missing, 0 duplicates" {
        use_tls
        sigterm_5_times
}

@test "--upload relp://: what the ring overwrites while rsyslog is away arrives as a loss message of its own with the exact count and range" {
        emu_init 32
        # 4 KiB of entries at most (about ten records): then kdmesg stops reading.  No spool: it would take them.
        KDMESG_UPLOAD_SPOOL_MAX=0 KDMESG_UPLOAD_MEMORY=4096 kdmesg_bg -w --cursor-file "$C" --upload "$URL" -q
        emu wait blocks 1
        emu write 300 300
        start_rsyslog
        wait_seq 299
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        kill_rsyslog
        # Every seq is delivered or inside a loss message, never both; the loss messages' ranges are exact.
        run "$CHECK" 0 299 0 0 < "$GOT"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" =~ lost=([0-9]+).*ranges=([0-9]+)-([0-9]+):overrun ]]
        [ "${BASH_REMATCH[1]}" -ge 200 ]
        first=${BASH_REMATCH[2]} last=${BASH_REMATCH[3]}
        # The message says the same range, and the records on both sides of it arrived.
        grep -q $'\tkdmesg\t-\tkmsg-lost\t.*"cause": "overrun".*\t-- '"$((last - first + 1))"" messages lost (seq $first-$last, " "$GOT"
        grep -q "\"seq\": \"$((first - 1))\"" "$GOT"
        grep -q "\"seq\": \"$((last + 1))\"" "$GOT"
}

@test "--upload relp://: a bad URL, TLS options without TLS and an unreachable collector are one line each, exit 1; librelp is loaded only when used" {
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @1700000000 --upload relp://127.0.0.1:0 -q
        [ "$status" -eq 78 ]
        [ "$stderr" = "kdmesg: bad URL 'relp://127.0.0.1:0' for --upload (expected relp://HOST:PORT or relp+tls://HOST:PORT)" ]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @1700000000 --upload relp://u:pw@127.0.0.1:1/x -q
        [ "$status" -eq 78 ]
        [ "$stderr" = "kdmesg: bad URL 'relp://127.0.0.1:1/x' for --upload (expected relp://HOST:PORT or relp+tls://HOST:PORT)" ]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --upload relp://127.0.0.1:1 --trust all -q
        [ "$status" -eq 78 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: --trust is for --upload https:// or relp+tls://; relp:// has no TLS" ]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @1700000000 --upload "$URL" -q
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [ "$stderr" = "kdmesg: cannot upload to $URL: cannot connect: the connection broke (tried 4 times)" ]
        # Not linked; a machine without librelp is told what is missing.
        run ldd "$KDMESG"
        [[ "$output" != *librelp* ]]
        command -v unshare >/dev/null || skip "no unshare"
        unshare -m true 2>/dev/null || skip "no mount namespaces here"
        lib=$(ldconfig -p | awk '$1 == "librelp.so.0" { print $NF; exit }')
        [ -n "$lib" ] || skip "librelp.so.0 not in the linker cache"
        run --separate-stderr unshare -m sh -c 'mount --bind /dev/null "$1" && shift && "$@"' _ "$lib" \
                "$KDMESG" -K "$DATA/basic.kmsg" --upload "$URL" --boot-time 0
        [ "$status" -eq 78 ]
        [ "$stderr" = "kdmesg: --upload relp:// needs librelp (librelp.so.0), which cannot be loaded: install librelp0" ]
        [ -z "$output" ]
}

@test "--upload relp://: the rsyslog configuration of kdmesg-upload(8) takes the messages and stores their fields" {
        local man="$TESTS/../man/kdmesg-upload.8.scd"
        # The block from kdmesg-upload(8), on this test's port and file (scdoc's "\\" is a backslash).
        {
                echo "global(workDirectory=\"$R/work\")"
                sed -n '/^main_queue(queue.type="Direct")$/,/^}$/p; /^ruleset(name="kdmesg") {$/,/^}$/p' "$man" |
                        sed 's/\\\\/\\/g'
        } | sed "s|port=\"2514\"|address=\"127.0.0.1\" port=\"$PORT\"|; s|/var/log/kdmesg/kernel.log|$GOT|" \
                > "$R/rsyslog.conf"
        grep -q '^template(name="kdmesg" type="list") {$' "$R/rsyslog.conf"
        grep -q 'action(type="omfile"' "$R/rsyslog.conf"
        start_rsyslog
        "$KDMESG" -K "$DATA/journal.kmsg" --boot-time @1700000000 --boot-id aba7d49a3f9a484a8905db37a872b9f5 \
                --hostname host1 --upload "relp://127.0.0.1:$PORT/" -q
        kill_rsyslog
        cat "$GOT"
        [ "$(wc -l < "$GOT")" -eq 15 ]
        grep -qxF '2023-11-14T22:13:21.500000Z host1 kern.err kernel kmsg { "kdmesg@32473": { "seq": "11", "mono": "1500000", "flags": "-", "caller": "T7", "boot": "aba7d49a3f9a484a8905db37a872b9f5" }, "kdmesg-dict@32473": { "SUBSYSTEM": "usb", "DEVICE": "c189:130" } } usb 2-1.4: device descriptor read/64, error -71' "$GOT"
        grep -qxF '2023-11-14T22:13:24.000000Z host1 kern.warning kdmesg kmsg-lost { "kdmesg-lost@32473": { "count": "2", "first": "22", "last": "23", "cause": "gap" }, "kdmesg@32473": { "boot": "aba7d49a3f9a484a8905db37a872b9f5" } } -- 2 messages lost (seq 22-23, between 3.700000 and 4.000000, gap) --' "$GOT"
}

@test "--upload relp+tls:// a dump: rsyslog with TLS, which asks for kdmesg's certificate, stores every record once, field by field" {
        use_tls
        dump_arrives
        # A key in the file of its certificate does as well as --key.
        cat "$T/client.pem" "$T/client.key" > "$T/both.pem"
        : > "$GOT.2"
        sed -i "s|file=\"$GOT\"|file=\"$GOT.2\"|" "$R/rsyslog.conf"
        start_rsyslog
        "$KDMESG" "${opts[@]}" --upload "$URL" --trust "$T/ca.pem" --cert "$T/both.pem" -q
        kill_rsyslog
        [ "$(wc -l < "$GOT.2")" -eq 15 ]
}

# follow_ends ARGS...: kdmesg_bg ARGS, which must end by itself within 20 s; its exit status in $STATUS.
follow_ends() {
        local i
        kdmesg_bg "$@"
        for ((i = 0; i < 400; i++)); do
                kill -0 "$PID" 2>/dev/null || break
                sleep 0.05
        done
        kill -0 "$PID" 2>/dev/null && { echo "kdmesg did not stop: $(cat "$ERR")" >&2; return 1; }
        STATUS=0
        wait "$PID" || STATUS=$?
}

@test "--upload relp+tls://: a server certificate that is not the one asked for (another CA, expired, another name) stops the upload at once with one line, --follow too; three failed handshakes in a row stop it too" {
        use_tls
        start_rsyslog
        # Signed by a CA that --trust does not name.
        make_cert other "another CA"
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @1700000000 --upload "$URL" \
                --trust "$T/other.pem" --cert "$T/client.pem" --key "$T/client.key" -q
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot upload to $URL: the server's certificate does not verify with the CAs of $T/other.pem (certificate validation failed)" ]
        # Signed by the CA, named right, expired: not said to be of another CA.
        kill_rsyslog
        make_cert expired 127.0.0.1 ca -1
        sed -i "s|$T/server\.|$T/expired.|g" "$R/rsyslog.conf"
        start_rsyslog
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @1700000000 --upload "$URL" "${TLS[@]}" -q
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot upload to $URL: the server's certificate does not verify with the CAs of $T/ca.pem (certificate validation failed)" ]
        sed -i "s|$T/expired\.|$T/server.|g" "$R/rsyslog.conf"
        # Signed by the CA but for another name: following, it stops at once all the same (no retry, no wait).
        kill_rsyslog
        make_cert elsewhere collector.example ca
        sed -i "s|$T/server\.|$T/elsewhere.|g" "$R/rsyslog.conf"
        start_rsyslog
        emu_init 64
        emu write 5
        follow_ends -w --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
        [ "$STATUS" -eq 1 ]
        [ "$(cat "$ERR")" = "kdmesg: cannot upload to $URL: the server's certificate does not name 127.0.0.1 (it has DNSname: collector.example; DNSname: collector.example)" ]
        [ ! -e "$C" ] || [ -z "$(cursor_seq)" ]
        # A server without TLS: the handshake fails; the third in a row stops it.
        kill_rsyslog
        start_fake
        follow_ends -w --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
        [ "$STATUS" -eq 1 ]
        # Following, the first failure says it retries (as any other), the third stops.
        cat "$ERR"
        [ "$(wc -l < "$ERR")" -eq 2 ]
        [[ "$(head -1 "$ERR")" == "kdmesg: cannot upload to $URL: TLS handshake failed ["*"]; retrying" ]]
        [[ "$(tail -1 "$ERR")" == "kdmesg: cannot upload to $URL: TLS handshake failed ["*"] (3 times in a row)" ]]
        kill_rsyslog
}

@test "--upload relp+tls://: --trust all, --key without --cert and a certificate file that cannot be read are one line each, before anything is sent" {
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @0 --upload relp+tls://127.0.0.1:1 --trust all -q
        [ "$status" -eq 78 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: --trust all is for https://: relp+tls:// always checks the server's certificate (give the file of its CA)" ]
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @0 --upload relp+tls://127.0.0.1:1 --key /k -q
        [ "$status" -eq 78 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: --key is the key of --cert: add --cert" ]
        # Without --cert librelp speaks anonymous TLS, which imrelp refuses: it would never connect.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @0 --upload relp+tls://127.0.0.1:1 \
                --trust "$DATA/basic.kmsg" -q
        [ "$status" -eq 78 ]
        [ "${stderr%%$'\n'*}" = "kdmesg: relp+tls:// needs --cert: without a client certificate librelp speaks anonymous TLS, which imrelp refuses" ]
        for o in --trust --cert --key; do
                local args=(--trust "$DATA/basic.kmsg" --cert "$DATA/basic.kmsg")
                [ "$o" = --key ] && args+=(--key "$BATS_TEST_TMPDIR/none") || args+=("$o" "$BATS_TEST_TMPDIR/none")
                run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --boot-time @0 --upload relp+tls://127.0.0.1:1 \
                        "${args[@]}" -q
                [ "$status" -eq 78 ]
                [ "$stderr" = "kdmesg: cannot read the $o file $BATS_TEST_TMPDIR/none: No such file or directory" ]
        done
        # The bad URL's message names both forms.
        run --separate-stderr "$KDMESG" -K "$DATA/basic.kmsg" --upload relp+tls://127.0.0.1:x -q
        [ "$status" -eq 78 ]
        [ "$stderr" = "kdmesg: bad URL 'relp+tls://127.0.0.1:x' for --upload (expected relp://HOST:PORT or relp+tls://HOST:PORT)" ]
}

# start_fake ARGS...: tests/cli/relp-server on $PORT, storing what it acknowledges in $GOT; RPID.
start_fake() {
        local i
        python3 "$TESTS/cli/relp-server" "$PORT" "$GOT" "$@" 3>&- &
        RPID=$!
        for ((i = 0; i < 200; i++)); do
                (exec 4<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
                sleep 0.05
        done
        echo "relp-server did not start" >&2
        return 1
}

# seqs: the seq of each message in $GOT, one a line ("lost F-L" for a loss message).
seqs() {
        sed -n 's/.*kdmesg-lost@32473 count="\([0-9]*\)" first="\([0-9]*\)".*/lost \2+\1/p; s/.*\[kdmesg@32473 seq="\([0-9]*\)".*/\1/p' "$GOT"
}

@test "--upload relp://: a collector that acknowledges part of a batch and dies: the cursor moves exactly past what it acknowledged" {
        emu_init 1024
        emu write 50
        # It acknowledges 17 messages, then drops the connection at the 18th and is gone.
        start_fake --ack 17
        run --separate-stderr kdmesg_emu --cursor-file "$C" --upload "$URL" -q
        [ "$status" -eq 1 ]
        [[ "$stderr" == "kdmesg: cannot upload to $URL: "*"(tried 4 times)" ]]
        wait "$RPID"
        [ "$(seqs | wc -l)" -eq 17 ]
        [ "$(cursor_seq)" = 16 ]
        # The next run sends the rest: each record once.
        start_fake
        kdmesg_emu --cursor-file "$C" --upload "$URL" -q
        kill "$RPID"
        [ "$(cursor_seq)" = 49 ]
        [ "$(seqs | tr '\n' ' ')" = "$(seq -s ' ' 0 49) " ]
}

@test "--upload relp://: a message the collector answers with 500 is sent alone, then a loss entry with cause refused takes its place; the others arrive" {
        emu_init 1024
        emu write 40
        start_fake --refuse 20
        run --separate-stderr kdmesg_emu --cursor-file "$C" --upload "$URL" -q
        kill "$RPID"
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: $URL refused the entry of seq 20 (the server answered 500 refused by the test): a loss entry says so in its place" ]
        [ "$(cursor_seq)" = 39 ]
        grep -qF '[kdmesg-lost@32473 count="1" first="20" last="20" cause="refused" reason="the server answered 500 refused by the test"]' "$GOT"
        # Every other record at least once; the ones after it in its batch may come twice (librelp reads no
        # answer after a 500, so their acknowledgements are not known).
        run python3 -c 'import sys; s = [l.strip() for l in sys.stdin]; assert sorted(set(s) - {"lost 20+1"}, key=int) == [str(i) for i in range(40) if i != 20], s; assert s.index("lost 20+1") > 0' < <(seqs)
        echo "$output"
        [ "$status" -eq 0 ]
}

@test "--upload relp://: a record of an earlier boot, from the spool, that the collector refuses: its loss message says that boot, not the new one, and no time" {
        local old
        emu_init 1024
        emu write 5
        old=$(emu get boot_id | tr -d -)
        KDMESG_UPLOAD_STOP_MS=300 kdmesg_bg -w --cursor-file "$C" --upload "$URL" -q
        for ((i = 0; i < 200; i++)); do grep -q 'retrying$' "$ERR" && break; sleep 0.05; done
        stop_bg TERM
        emu reboot
        emu write 2
        start_fake --refuse 3
        run --separate-stderr kdmesg_emu --cursor-file "$C" --upload "$URL" -q
        kill "$RPID"
        echo "$stderr"
        [ "$status" -eq 0 ]
        [ "$stderr" = "kdmesg: $URL refused the entry of seq 3 (the server answered 500 refused by the test): a loss entry says so in its place" ]
        # No time (the old boot's start is not known here), the old boot's id.
        grep -q '^<4>1 - [^ ]* kdmesg - kmsg-lost \[kdmesg-lost@32473 count="1" first="3" last="3" cause="refused" reason="the server answered 500 refused by the test"\]\[kdmesg@32473 boot="'"$old"'" machine="[0-9a-f]*"\] -- 1 message lost (seq 3 of an earlier boot, refused by the collector: the server answered 500 refused by the test) --$' "$GOT"
        # The other records of both boots arrived (those after a 500 in its batch may come twice: librelp
        # reads no answer after it), and the reboot's message (seq 5 and later of the old boot: unknown).
        [ "$(seqs | sort -u | tr '\n' ' ')" = "0 1 2 4 lost 3+1 lost 5+0 " ]
        [ "$(seqs | grep -cx 0)" -ge 2 ]
        [ "$(seqs | grep -cx 1)" -ge 2 ]
}

@test "--upload relp://: the spool: with rsyslog away past KDMESG_UPLOAD_SPOOL_MAX, one loss message of exact range; the rest arrives after a reboot" {
        local i
        emu_init 4096
        KDMESG_UPLOAD_SPOOL_MAX=16384 KDMESG_UPLOAD_STOP_MS=300 kdmesg_bg -w --cursor-file "$C" --upload "$URL" -q
        emu wait blocks 1
        emu write 300 1000
        for ((i = 0; i < 200; i++)); do grep -q 'retrying$' "$ERR" && break; sleep 0.05; done
        sleep 1.5
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        cat "$ERR"
        grep -qx "kdmesg: the spool $C.spool/units is full (16384 bytes): the oldest records not delivered make room, a loss entry says which" "$ERR"
        # The machine reboots; rsyslog comes back; kdmesg starts again: the spool goes first.
        emu reboot
        start_rsyslog
        run --separate-stderr kdmesg_emu --cursor-file "$C" --upload "$URL" -q
        echo "$stderr"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        kill_rsyslog
        run "$CHECK" 0 299 0 0 < "$GOT"
        echo "$output"
        [ "$status" -eq 0 ]
        # Every seq once, delivered or in a spool-full range (the oldest); the reboot's message counts none.
        [[ "$output" =~ ^records=([0-9]+)\ duplicates=0\ lost=([0-9]+)\ .*missing=0\ ranges=0-([0-9]+):spool-full(,[0-9]+-[0-9]+:spool-full)*,300-299:reboot$ ]]
        [ $((BASH_REMATCH[1] + BASH_REMATCH[2])) -eq 300 ]
        grep -q '"seq": "299"' "$GOT"
        [ "$(stat -c %s "$C.spool/units")" -eq 32 ]
}

@test "--upload relp://: answers for transaction numbers not sent yet are no acknowledgements: every record arrives" {
        emu_init 1024
        emu write 600
        # With the answer to the 128th message, 200 for the next 400 numbers too; then the connection ends.
        start_fake --phantom 400
        run --separate-stderr kdmesg_emu --cursor-file "$C" --upload "$URL" -q
        kill "$RPID"
        echo "$stderr"
        [ "$(cursor_seq)" = 599 ]

        # Each record arrived: none passed for an answer to what was never sent.
        [ "$(seqs | sort -un | tr '\n' ' ')" = "$(seq -s ' ' 0 599) " ]
}

@test "--upload relp://: a collector that refuses the loss entry of a refused record too: one more line, the cursor passes it, the rest arrives" {
        emu_init 1024
        emu write 40
        start_fake --refuse 20 --refuse-loss
        run --separate-stderr timeout 60 env LD_PRELOAD="$KMSG_EMU_SHIM" \
                ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$KDMESG" --cursor-file "$C" \
                --upload "$URL" -q
        kill "$RPID"
        echo "$stderr"
        [ "$status" -eq 0 ]
        [ "${stderr_lines[0]}" = "kdmesg: $URL refused the entry of seq 20 (the server answered 500 refused by the test): a loss entry says so in its place" ]
        [ "${stderr_lines[1]}" = "kdmesg: $URL refused the loss entry that took the place of seq 20 too (the server answered 500 refused by the test): left out" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [ "$(cursor_seq)" = 39 ]
        [ "$(seqs | sort -un | tr '\n' ' ')" = "$(seq -s ' ' 0 19) $(seq -s ' ' 21 39) " ]
}

@test "--upload relp://: a collector that answers every 9 s holds a SIGTERM no longer than KDMESG_UPLOAD_STOP_MS and a little" {
        local t0 t1
        emu_init 1024
        emu write 20
        start_fake --slow 9
        KDMESG_UPLOAD_STOP_MS=2000 kdmesg_bg -w --cursor-file "$C" --upload "$URL" -q
        sleep 2
        t0=$(date +%s%N)
        stop_bg TERM
        t1=$(date +%s%N)
        kill "$RPID"
        cat "$ERR"
        echo "stopped in $(((t1 - t0) / 1000000)) ms"
        [ "$STATUS" -eq 0 ]
        # 2 s, and the break-off of the session: well under librelp's 10 s wait for an answer.
        [ $(((t1 - t0) / 1000000)) -lt 5000 ]
        grep -qx "kdmesg: stopping: not everything read was delivered to $URL within 2000 ms; the next run sends the rest" "$ERR"
}

# crash_scenario up|away: kdmesg killed with SIGKILL, mid-flow at 2,000 records/s with rsyslog up, or
# 0.2 s after a burst of 20,000 records with it away; then the ring rebooted and everything read
# delivered by the next run.  Every record of the old boot up to the one the reboot entry names arrives
# once (at most one batch of 800 again), the entry leaves out at most the 64 records kdmesg had not
# written to its spool yet, and it asserts no loss (check-crash; upload.bats does the same over HTTP).
# The next run says nothing, or that the spool's last unit was cut short (after_kill_said).
crash_scenario() {
        local old m
        emu_init 32768
        old=$(emu get boot_id)
        [ "$1" = away ] || start_rsyslog
        kdmesg_bg -w --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
        emu wait blocks 1
        if [ "$1" = away ]; then
                emu write 20000
                sleep 0.2
        else
                "$KMSG_EMU" write "$RING" 4000 2000 3>&- &
                WPID=$!
                sleep 1
        fi
        kill -KILL "$PID"
        wait "$PID" || true
        m=$(emu get read_next)
        if [ "$1" != away ]; then
                kill "$WPID"
                wait "$WPID" || true
        fi
        [ "$m" -gt 1000 ]
        emu reboot
        emu write 50
        [ "$1" != away ] || start_rsyslog
        run --separate-stderr kdmesg_emu --cursor-file "$C" --upload "$URL" "${TLS[@]}" -q
        echo "$stderr"
        [ "$status" -eq 0 ]
        after_kill_said "$C.spool" "$stderr"
        kill_rsyslog
        run "$TESTS/cli/check-crash" relp "$old" "$m" 50 800 64 < "$GOT"
        echo "$output"
        [ "$status" -eq 0 ]
}

@test "crash: relp:// SIGKILL mid-flow at 2,000 records/s, rsyslog up, then a reboot: every record read arrives once, no loss asserted" {
        crash_scenario up
}

@test "crash: relp:// SIGKILL 0.2 s after a burst of 20,000 records, rsyslog away, reboot, rsyslog back: every record read arrives once" {
        crash_scenario away
}

@test "crash: relp+tls:// SIGKILL mid-flow at 2,000 records/s, rsyslog up, then a reboot: every record read arrives once, no loss asserted" {
        use_tls
        crash_scenario up
}

@test "crash: relp+tls:// SIGKILL 0.2 s after a burst of 20,000 records, rsyslog away, reboot, rsyslog back: every record read arrives once" {
        use_tls
        crash_scenario away
}
