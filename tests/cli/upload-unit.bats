#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kdmesg-upload.service as a packager ships it and an admin configures it:
# a configuration error ends kdmesg with the status the unit does not
# restart, and says what to edit; the key example of the unit works as
# written (the key through LoadCredential=, read as an unprivileged user).
bats_require_minimum_version 1.5.0
load helpers

REMOTE=/lib/systemd/systemd-journal-remote
UNIT_IN="$BUILDDIR/data/kdmesg-upload.service"

setup() {
        [ -f "$UNIT_IN" ]
        # The status the unit does not restart, as the unit says it.
        PREVENT=$(sed -n 's/^RestartPreventExitStatus=//p' "$UNIT_IN")
        [ -n "$PREVENT" ]
        # The command line of ExecStart=, its paths in the test's directory.
        CMD=$(sed -n 's/^ExecStart=[^ ]* //p' "$UNIT_IN")
        CMD=${CMD//\/var\/lib\/kdmesg/$BATS_TEST_TMPDIR}
        CMD=${CMD//\/var\/lib\/prometheus\/node-exporter/$BATS_TEST_TMPDIR}
}

# unit_run URL TLS-WORDS...: ExecStart= as systemd runs it, ${KDMESG_UPLOAD_URL}
# one word (empty when unset), $KDMESG_UPLOAD_TLS split into words.
unit_run() {
        local url=$1 w words=()
        shift
        for w in $CMD; do
                case $w in
                '${KDMESG_UPLOAD_URL}') words+=("$url") ;;
                '$KDMESG_UPLOAD_TLS') words+=("$@") ;;
                *) words+=("$w") ;;
                esac
        done
        # A command line that is no error follows /dev/kmsg: a failing test must not wait for ever.
        run --separate-stderr timeout 30 "$KDMESG" "${words[@]}"
}

@test "kdmesg-upload.service: started before a URL is set, kdmesg exits with the status the unit does not restart, and says what to set" {
        [ "$PREVENT" -eq 78 ]
        grep -qx 'Restart=always' "$UNIT_IN"
        # From a terminal: one line.
        unit_run ""
        [ "$status" -eq 78 ]
        [ "${stderr_lines[0]}" = "kdmesg: --upload: the collector's URL is empty (expected http://, https://, relp:// or relp+tls://)" ]
        [ "${#stderr_lines[@]}" -eq 1 ]
        # Started by systemd (INVOCATION_ID set): what to edit, and KDMESG_UPLOAD_URL.
        INVOCATION_ID=0123456789abcdef0123456789abcdef unit_run ""
        [ "$status" -eq 78 ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        [[ "${stderr_lines[1]}" == "kdmesg: a configuration error (exit status 78): give the collector's URL with 'systemctl edit "*"' ([Service] Environment=KDMESG_UPLOAD_URL=https://HOST:19532), then 'systemctl restart "* ]]
        # A URL that is none: the same status.
        INVOCATION_ID=x unit_run "collector.example:19532"
        [ "$status" -eq 78 ]
        [[ "${stderr_lines[0]}" == "kdmesg: bad URL 'collector.example:19532' for --upload"* ]]
        [[ "${stderr_lines[1]}" == *"KDMESG_UPLOAD_URL=https://HOST:19532"* ]]
}

@test "kdmesg-upload.service: a bad option or an unreadable file in KDMESG_UPLOAD_TLS exits 78, naming the file and the errno" {
        INVOCATION_ID=x unit_run "https://127.0.0.1:9" --trustt=/etc/ssl/ca.pem
        [ "$status" -eq 78 ]
        [ "${stderr_lines[0]}" = "kdmesg: unrecognized option '--trustt'" ]
        [[ "${stderr_lines[2]}" == "kdmesg: a configuration error (exit status 78): correct it with 'systemctl edit "*"' (KDMESG_UPLOAD_URL, KDMESG_UPLOAD_TLS, the files they name), then 'systemctl restart "* ]]
        INVOCATION_ID=x unit_run "https://127.0.0.1:9" --key="$BATS_TEST_TMPDIR/none.pem"
        [ "$status" -eq 78 ]
        [ "${stderr_lines[0]}" = "kdmesg: cannot read the --key file $BATS_TEST_TMPDIR/none.pem: No such file or directory" ]
        [ "${#stderr_lines[@]}" -eq 2 ]
        # A usage error before --upload on the command line is the shipper's too; without --upload it stays 1.
        run --separate-stderr "$KDMESG" --bogus --upload "https://127.0.0.1:9"
        [ "$status" -eq 78 ]
        run --separate-stderr "$KDMESG" --bogus
        [ "$status" -eq 1 ]
}

@test "kdmesg-upload.service: a damaged cursor file exits 78; a cursor file held by another kdmesg exits 1 (a restart may find it free)" {
        printf 'garbage\n' > "$BATS_TEST_TMPDIR/upload.cursor"
        unit_run "http://127.0.0.1:9"
        [ "$status" -eq 78 ]
        [[ "${stderr_lines[0]}" == "kdmesg: $BATS_TEST_TMPDIR/upload.cursor: line 1: "* ]]
        rm "$BATS_TEST_TMPDIR/upload.cursor"
        # Another process holds the cursor file's lock (a kdmesg on its way out): a restart may find it free.
        python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a"); fcntl.lockf(f, fcntl.LOCK_EX); print("locked", flush=True); time.sleep(30)' \
                "$BATS_TEST_TMPDIR/upload.cursor.lock" > "$BATS_TEST_TMPDIR/locked" 3>&- &
        local pid=$! i
        for ((i = 0; i < 200; i++)); do
                [ -s "$BATS_TEST_TMPDIR/locked" ] && break
                sleep 0.05
        done
        unit_run "http://127.0.0.1:9"
        kill "$pid"
        wait "$pid" || true
        [ "$status" -eq 1 ]
        [[ "${stderr_lines[0]}" == *"is in use by another kdmesg"* ]]
}

@test "kdmesg-upload.service: its https example works as written: the key of a root-only directory through LoadCredential=, read by an unprivileged user" {
        command -v setpriv openssl > /dev/null || skip "setpriv or openssl is not installed"
        [ -x "$REMOTE" ]
        setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$KDMESG" || skip "the build tree is not readable by nobody"
        local d url port example tls w words=()
        # The example's lines, uncommented, as a drop-in would hold them; systemd's check of the unit with them.
        example=$(sed -n '/^#   systemctl edit kdmesg-upload.service/,/^#   systemctl enable/{s/^#       //p}' "$UNIT_IN")
        grep -qx 'LoadCredential=upload-key:/etc/ssl/private/kdmesg.pem' <<<"$example"
        { sed "s|^ExecStart=[^ ]*|ExecStart=$KDMESG|" "$UNIT_IN"; printf '%s\n' "$example" | grep -v '^#'; } \
                > "$BATS_TEST_TMPDIR/kdmesg-upload.service"
        run systemd-analyze verify --man=no "$BATS_TEST_TMPDIR/kdmesg-upload.service"
        echo "$output"
        [ "$status" -eq 0 ]
        # A key as /etc/ssl/private keeps it (root's, 0710), a credential directory as systemd makes one.
        d=$(mktemp -d /tmp/kdmesg-unit.XXXXXX)
        chmod 755 "$d"
        mkdir -m 0710 "$d/private" "$d/creds"
        openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
                -keyout "$d/private/kdmesg.pem" -out "$d/cert.pem" -days 2 2>/dev/null
        chmod 644 "$d/cert.pem"
        install -m 0400 -o 65534 "$d/private/kdmesg.pem" "$d/creds/upload-key"
        chown 65534 "$d/creds"
        chmod 0500 "$d/creds"
        port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        url="https://127.0.0.1:$port"
        mkdir "$BATS_TEST_TMPDIR/journal"
        "$REMOTE" --listen-https="127.0.0.1:$port" --key="$d/private/kdmesg.pem" --cert="$d/cert.pem" \
                -o "$BATS_TEST_TMPDIR/journal/" 2>>"$BATS_TEST_TMPDIR/remote.log" 3>&- &
        local rpid=$! i
        for ((i = 0; i < 200; i++)); do
                (exec 4<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
                sleep 0.05
        done
        # KDMESG_UPLOAD_TLS as the example sets it, %d the credential directory, the example's paths here.
        tls=$(sed -n 's/^Environment="KDMESG_UPLOAD_TLS=\(.*\)"$/\1/p' <<<"$example")
        [[ "$tls" == *"--key=%d/upload-key"* ]]
        tls=${tls//%d/$d/creds}
        tls=${tls//\/etc\/ssl\/ca.pem/$d/cert.pem}
        tls=${tls//\/etc\/ssl\/certs\/kdmesg.pem/$d/cert.pem}
        for w in $tls; do words+=("$w"); done
        run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$KDMESG" -K "$DATA/journal.kmsg" \
                --boot-time @0 -q --upload "$url" "${words[@]}"
        echo "$stderr"
        [ "$status" -eq 0 ]
        # The key where the example found it before: the service's user cannot read it; said at start, status 78.
        run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$KDMESG" -K "$DATA/journal.kmsg" \
                --boot-time @0 -q --upload "$url" --trust="$d/cert.pem" --key="$d/private/kdmesg.pem" --cert="$d/cert.pem"
        kill "$rpid"
        wait "$rpid" || true
        [ "$status" -eq 78 ]
        [ "$stderr" = "kdmesg: cannot read the --key file $d/private/kdmesg.pem: Permission denied" ]
        [ "$(journalctl --directory "$BATS_TEST_TMPDIR/journal" -o cat --no-pager | wc -l)" -eq 16 ]
        rm -rf "$d"
}
