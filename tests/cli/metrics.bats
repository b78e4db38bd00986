#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --metrics FILE against the real components from Debian: promtool checks
# every file kdmesg writes, prometheus-node-exporter serves them from its
# textfile directory, a prometheus on 127.0.0.1 scrapes it and answers
# queries and alerts (the rules of kdmesg(1)); the emulated ring overruns.
bats_require_minimum_version 1.5.0
load helpers
load emu

NODE_EXPORTER=/usr/bin/prometheus-node-exporter
PROMETHEUS=/usr/bin/prometheus

setup() {
        # tools/install-deps installs them (Debian's prometheus, prometheus-node-exporter): missing fails.
        command -v promtool curl >/dev/null
        [ -x "$NODE_EXPORTER" ]
        [ -x "$PROMETHEUS" ]
        T="$BATS_TEST_TMPDIR"
        TF="$T/textfile"
        mkdir -p "$TF"
        M="$TF/kdmesg.prom"
        SERVERS=()
}

# The servers this test started, then kdmesg: stopped and waited for.
teardown() {
        local p j
        for p in "${SERVERS[@]}"; do
                kill -TERM "$p" 2>/dev/null || true
                wait "$p" 2>/dev/null || true
        done
        for j in $(jobs -p); do
                kill -KILL "$j" 2>/dev/null || true
        done
}

free_port() {
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# until_true SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds.
until_true() {
        local i n=$(($1 * 10))
        shift
        for ((i = 0; i < n; i++)); do
                "$@" && return 0
                sleep 0.1
        done
        echo "timed out: $*" >&2
        return 1
}

# value NAME{LABELS}: the sample's value in $M.
value() {
        awk -v k="$1" '$1 == k { print $2 }' "$M"
}

has_value() {
        [ "$(value "$1")" = "$2" ]
}

# Every file kdmesg writes passes promtool.
check_metrics() {
        run promtool check metrics <"$M"
        echo "$output"
        [ "$status" -eq 0 ]
}

start_node_exporter() {
        NE_PORT=$(free_port)
        "$NODE_EXPORTER" --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
                --collector.textfile --collector.textfile.directory="$TF" 2>"$T/node-exporter.log" 3>&- &
        SERVERS+=($!)
        until_true 20 curl -sf -o /dev/null "http://127.0.0.1:$NE_PORT/metrics"
}

# rules: the alerting rules of kdmesg-upload(8), as a file.
rules() {
        # The first literal block after the heading.
        awk '/^## Alerting rules$/ { on = 1; next } on && /^```$/ { if (++fence == 2) exit; next } on && fence == 1' \
                "$TESTS/../man/kdmesg-upload.8.scd" >"$T/kdmesg.rules.yml"
        [ -s "$T/kdmesg.rules.yml" ]
}

start_prometheus() {
        P_PORT=$(free_port)
        rules
        cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $T/kdmesg.rules.yml
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
EOF
        "$PROMETHEUS" --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
                --web.listen-address="127.0.0.1:$P_PORT" 2>"$T/prometheus.log" 3>&- &
        SERVERS+=($!)
        until_true 60 curl -sf -o /dev/null "http://127.0.0.1:$P_PORT/-/ready"
}

# query EXPR: the value of the first sample Prometheus has for EXPR now ("" for none).
query() {
        curl -sf "http://127.0.0.1:$P_PORT/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // ""'
}

query_is() {
        [ "$(query "$1")" = "$2" ]
}

# firing NAME: the alert NAME is firing.
firing() {
        curl -sf "http://127.0.0.1:$P_PORT/api/v1/alerts" |
                jq -e --arg n "$1" '.data.alerts | any(.labels.alertname == $n and .state == "firing")' >/dev/null
}

@test "--metrics on a dump: records by level, problems by kind, the last record; promtool checks it" {
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --metrics "$M"
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        check_metrics
        grep -qx '# TYPE kdmesg_records_total counter' "$M"
        grep -qx '# HELP kdmesg_lost_records_total .*' "$M"
        has_value 'kdmesg_records_total{level="alert"}' 1
        has_value 'kdmesg_records_total{level="warn"}' 3
        has_value 'kdmesg_records_total{level="info"}' 6
        # Every record is counted once.
        [ "$(awk '/^kdmesg_records_total/ { n += $2 } END { print n }' "$M")" -eq \
                "$("$KDMESG" -K "$DATA/oops.kmsg" --json | wc -l)" ]
        has_value 'kdmesg_problems_total{kind="oops"}' 1
        has_value 'kdmesg_problems_total{kind="warning"}' 1
        has_value 'kdmesg_problems_total{kind="panic"}' 0
        has_value 'kdmesg_lost_records_total{cause="overrun"}' 0
        has_value kdmesg_last_record_seq 10
        # A dump of an unknown boot: no wall clock, no boot id, nothing made up.
        [ -z "$(grep 'kdmesg_last_record_timestamp_seconds\|kdmesg_boot_info\|kdmesg_upload' "$M")" ]
        # With its boot time: boot + 2.234570 s.
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --boot-time '2024-05-01 08:00' --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        has_value kdmesg_last_record_timestamp_seconds 1714550402.234570
        # No temporary file is left beside it.
        [ "$(ls -A "$TF")" = kdmesg.prom ]
}

@test "--metrics on a 'dmesg -T' paste: records without a level, the wall clock it printed" {
        run --separate-stderr "$KDMESG" -F "$DATA/dmesg-T.txt" --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        has_value 'kdmesg_records_total{level="unknown"}' 6
        has_value 'kdmesg_problems_total{kind="hung-task"}' 2
        # [Wed Dec 19 03:40:10 2018], read in TZ=UTC as the views read it.
        has_value kdmesg_last_record_timestamp_seconds 1545190810.000000
        [ -z "$(grep kdmesg_last_record_seq "$M")" ]
}

@test "--metrics on a dump with gaps counts the records lost by cause, and the losses" {
        run --separate-stderr "$KDMESG" -K "$DATA/formats.kmsg" --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        # seq 4 is missing (a gap); seq 0, before the dump's first record, is what it covers: no loss.
        has_value 'kdmesg_lost_records_total{cause="gap"}' 1
        has_value 'kdmesg_lost_records_total{cause="rotated"}' 0
        has_value 'kdmesg_loss_events_total{cause="gap"}' 1
}

@test "--metrics on the live log: the boot id and the wall clock of the last record" {
        emu_init 16
        emu write 5
        KDMESG_TEST_CLOCKS="1700000100 100 100" run --separate-stderr kdmesg_emu --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        has_value kdmesg_last_record_seq 4
        has_value 'kdmesg_records_total{level="info"}' 5
        # The ring's boot id, as the shim hands it out for /proc/sys/kernel/random/boot_id.
        has_value "kdmesg_boot_info{boot_id=\"$(emu get boot_id | tr -d -)\"}" 1
        # Booted at 1700000000 (REALTIME - BOOTTIME), the last record 0.005 s later.
        has_value kdmesg_last_record_timestamp_seconds 1700000000.005000
}

@test "--metrics --cursor-file: the counters start at 0 with each run, which counts what the last one did not; the last seq goes on" {
        local c="$T/cursor"
        emu_init 100
        emu write 5
        run --separate-stderr kdmesg_emu --cursor-file "$c" --metrics "$M"
        [ "$status" -eq 0 ]
        has_value 'kdmesg_records_total{level="info"}' 5
        has_value kdmesg_last_record_seq 4
        # Nothing new: nothing counted, the last seq is the cursor's.
        run --separate-stderr kdmesg_emu --cursor-file "$c" --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        has_value 'kdmesg_records_total{level="info"}' 0
        has_value kdmesg_last_record_seq 4
        # 3 more: this run counts those only.
        emu write 3
        run --separate-stderr kdmesg_emu --cursor-file "$c" --metrics "$M"
        has_value 'kdmesg_records_total{level="info"}' 3
        has_value kdmesg_last_record_seq 7
        # 150 more into a ring of 100 while no kdmesg ran: the next run counts the 50 rotated out.
        emu write 150
        run --separate-stderr kdmesg_emu --cursor-file "$c" --metrics "$M"
        has_value 'kdmesg_records_total{level="info"}' 100
        has_value 'kdmesg_lost_records_total{cause="rotated"}' 50
        has_value kdmesg_last_record_seq 157
        # After a reboot, the cursor names another boot: no last seq until a record comes.
        emu reboot
        run --separate-stderr kdmesg_emu --cursor-file "$c" --metrics "$M"
        check_metrics
        [ -z "$(grep kdmesg_last_record_seq "$M")" ]
        # The previous boot's unread tail: a loss of no known size.
        has_value 'kdmesg_loss_events_total{cause="reboot"}' 1
        has_value 'kdmesg_lost_records_total{cause="reboot"}' 0
        emu write 2
        run --separate-stderr kdmesg_emu --cursor-file "$c" --metrics "$M"
        check_metrics
        has_value kdmesg_last_record_seq 1
        has_value 'kdmesg_records_total{level="info"}' 2
}

@test "--follow --metrics: an overrun of 200 records while the reader is stopped is kdmesg_lost_records_total{cause=\"overrun\"} 200" {
        emu_init 100
        emu write 10
        kdmesg_bg --follow --metrics "$M" --metrics-interval 1
        until_true 20 has_value 'kdmesg_records_total{level="info"}' 10
        check_metrics
        has_value 'kdmesg_lost_records_total{cause="overrun"}' 0
        # The reader at seq 10 while 300 records go into a ring of 100: seq 10-209 are overwritten.
        kill -STOP "$PID"
        emu write 300
        kill -CONT "$PID"
        until_true 20 has_value 'kdmesg_lost_records_total{cause="overrun"}' 200
        check_metrics
        has_value 'kdmesg_loss_events_total{cause="overrun"}' 1
        has_value 'kdmesg_records_total{level="info"}' 110
        has_value kdmesg_last_record_seq 309
        stop_bg
        [ "$STATUS" -eq 0 ]
        check_metrics
        has_value 'kdmesg_lost_records_total{cause="overrun"}' 200
        [ "$(emu get epipes)" -ge 1 ]
}

@test "--follow -K FILE --metrics: the file follows what is appended, and the last write is at exit" {
        local f="$T/log.kmsg"
        printf '6,0,1000,-;one\n6,1,2000,-;two\n' >"$f"
        "$KDMESG" --follow -K "$f" --metrics "$M" --metrics-interval 1 >"$T/out" 2>"$T/err" &
        PID=$!
        until_true 20 has_value 'kdmesg_records_total{level="info"}' 2
        check_metrics
        printf '1,2,3000,-;BUG: kernel NULL pointer dereference, address: 0000000000000000\n6,3,4000,-;three\n' >>"$f"
        until_true 20 has_value 'kdmesg_problems_total{kind="oops"}' 1
        check_metrics
        has_value kdmesg_last_record_seq 3
        has_value 'kdmesg_records_total{level="alert"}' 1
        # Not due for an hour: only the write at exit shows what came since.
        kill -TERM "$PID"
        wait "$PID"
        rm "$M"
        "$KDMESG" --follow -K "$f" --metrics "$M" --metrics-interval 3600 >"$T/out" 2>"$T/err" &
        PID=$!
        until_true 20 has_value kdmesg_last_record_seq 3
        printf '6,4,5000,-;four\n' >>"$f"
        until_true 20 grep -q 'four' "$T/out"
        has_value kdmesg_last_record_seq 3
        kill -TERM "$PID"
        wait "$PID"
        check_metrics
        has_value kdmesg_last_record_seq 4
        [ ! -s "$T/err" ]
}

@test "--follow --metrics: every 15 s by default, not at every record" {
        emu_init 100
        emu write 2
        kdmesg_bg --follow --metrics "$M"
        until_true 20 has_value kdmesg_last_record_seq 1
        start=$(date +%s)
        emu write 1
        wait_lines 3
        sleep 2
        # Read and printed, not written yet: that comes with the next interval.
        has_value kdmesg_last_record_seq 1
        until_true 30 has_value kdmesg_last_record_seq 2
        (( $(date +%s) - start >= 10 ))
        stop_bg
        [ "$STATUS" -eq 0 ]
}

@test "--metrics into a directory that cannot be written: one line, the run goes on" {
        : >"$T/file"
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --metrics "$T/file/kdmesg.prom"
        [ "$status" -eq 1 ]
        [ "$stderr" = "kdmesg: cannot write the metrics file $T/file/kdmesg.prom: Not a directory" ]
        [ "$output" = "$("$KDMESG" -K "$DATA/oops.kmsg")" ]
        # Following: said once however many writes fail, and every record still printed.
        emu_init 100
        emu write 3
        kdmesg_bg --follow --metrics "$T/file/kdmesg.prom" --metrics-interval 1
        wait_lines 3
        sleep 2.5
        emu write 2
        wait_lines 5
        # The last write, at exit, failed too: the exit status says so.
        stop_bg
        [ "$STATUS" -eq 1 ]
        [ "$(cat "$ERR")" = "kdmesg: cannot write the metrics file $T/file/kdmesg.prom: Not a directory" ]
}

@test "--metrics-interval: seconds from 1, with --follow and --metrics only; a usage error before anything runs" {
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --follow --metrics "$M" --metrics-interval 0
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: bad number '0' for --metrics-interval (seconds, 1 to 86400)" ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --metrics "$M" --metrics-interval 5
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --metrics-interval is for --follow: without it the metrics are written once, at the end" ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --metrics ''
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --metrics needs the name of a file" ]
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --metrics-interval 5
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: --metrics-interval needs --metrics" ]
        [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
}

@test "--metrics with an action that reads no records (-C, -D, -E, -n, --pstore --list, --list-boots, --list-problem-rules) is refused, not ignored" {
        local a
        for a in -C -D -E "-n 3" "--pstore --list" "-K $DATA/oops.kmsg --list-boots" --list-problem-rules; do
                # shellcheck disable=SC2086 # the words of the action
                run --separate-stderr "$KDMESG" $a --metrics "$M"
                echo "$a: $stderr"
                [ "$status" -eq 1 ]
                [[ "${stderr_lines[0]}" == "kdmesg: --metrics counts the records a run reads; it cannot be combined with --"* ]]
                [ "${stderr_lines[1]}" = "Try 'kdmesg --help' for more information." ]
                [ ! -e "$M" ]
        done
}

@test "the alerting rules of kdmesg-upload(8) pass promtool check rules" {
        rules
        run promtool check rules "$T/kdmesg.rules.yml"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *"SUCCESS: 2 rules found"* ]]
}

@test "node_exporter serves the file, and Prometheus scrapes it: the overrun, the oops and their alerts" {
        emu_init 100
        emu write 10
        kdmesg_bg --follow --metrics "$M" --metrics-interval 1
        until_true 20 has_value 'kdmesg_records_total{level="info"}' 10
        start_node_exporter
        run curl -sf "http://127.0.0.1:$NE_PORT/metrics"
        [ "$status" -eq 0 ]
        grep -qx 'node_textfile_scrape_error 0' <<<"$output"
        grep -qx 'kdmesg_records_total{level="info"} 10' <<<"$output"
        # When the file was written last (kdmesg(1): a follower moves it every interval).
        grep -q "^node_textfile_mtime_seconds{file=\"$M\"} " <<<"$output"
        grep -qx 'kdmesg_lost_records_total{cause="overrun"} 0' <<<"$output"
        start_prometheus
        # Scraped before anything happens: the alerts see the counters rise.
        until_true 60 query_is 'kdmesg_records_total{level="info"}' 10
        kill -STOP "$PID"
        emu write 300
        kill -CONT "$PID"
        emu append 1 "BUG: kernel NULL pointer dereference, address: 0000000000000000"
        until_true 20 has_value 'kdmesg_problems_total{kind="oops"}' 1
        run curl -sf "http://127.0.0.1:$NE_PORT/metrics"
        grep -qx 'node_textfile_scrape_error 0' <<<"$output"
        grep -qx 'kdmesg_lost_records_total{cause="overrun"} 200' <<<"$output"
        until_true 30 query_is 'kdmesg_lost_records_total{cause="overrun"}' 200
        until_true 30 query_is 'kdmesg_problems_total{kind="oops"}' 1
        query_is 'node_textfile_scrape_error' 0
        until_true 30 firing KdmesgLostRecords
        until_true 30 firing KdmesgKernelOops
        stop_bg
        [ "$STATUS" -eq 0 ]
        check_metrics
}

@test "--upload --metrics: the records acknowledged, the time of the last batch, nothing held; a collector that is not there: failures" {
        local remote=/lib/systemd/systemd-journal-remote port
        [ -x "$remote" ]
        port=$(free_port)
        mkdir -p "$T/journal"
        "$remote" --listen-http="127.0.0.1:$port" -o "$T/journal/" 2>"$T/remote.log" 3>&- &
        SERVERS+=($!)
        until_true 20 bash -c "exec 4<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
        before=$(date +%s)
        run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" --boot-time '2024-05-01 08:00' \
                --upload "http://127.0.0.1:$port" --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        has_value kdmesg_upload_acknowledged_records_total 11
        has_value kdmesg_upload_send_failures_total 0
        has_value 'kdmesg_upload_queued_bytes{where="memory"}' 0
        has_value 'kdmesg_lost_records_total{cause="spool-full"}' 0
        has_value 'kdmesg_lost_records_total{cause="refused"}' 0
        ack=$(value kdmesg_upload_last_ack_timestamp_seconds)
        (( ${ack%.*} >= before && ${ack%.*} <= $(date +%s) ))
        # Nobody listens on the port now: the tries fail, what was read is still held.
        port=$(free_port)
        KDMESG_UPLOAD_TIMEOUT_MS=1000 run --separate-stderr "$KDMESG" -K "$DATA/oops.kmsg" \
                --boot-time '2024-05-01 08:00' --upload "http://127.0.0.1:$port" --metrics "$M"
        [ "$status" -eq 1 ]
        check_metrics
        has_value kdmesg_upload_acknowledged_records_total 0
        (( $(value kdmesg_upload_send_failures_total) >= 1 ))
        (( $(value 'kdmesg_upload_queued_bytes{where="memory"}') > 0 ))
        [ -z "$(grep kdmesg_upload_last_ack_timestamp_seconds "$M")" ]
}

@test "kdmesg-upload.service writes its metrics where Debian's node_exporter reads textfiles by default" {
        local unit="$BUILDDIR/data/kdmesg-upload.service" cmd dir remote=/lib/systemd/systemd-journal-remote port
        [ -f "$unit" ]
        cmd=$(sed -n 's/^ExecStart=//p' "$unit")
        [[ "$cmd" == *" --metrics /var/lib/prometheus/node-exporter/kdmesg.prom"* ]]
        dir=$("$NODE_EXPORTER" --help 2>&1 | sed -n 's/.*--collector.textfile.directory="\([^"]*\)".*/\1/p')
        [ "$dir" = /var/lib/prometheus/node-exporter ]
        # The command line as systemd runs it, its directories moved into the test's.
        port=$(free_port)
        mkdir -p "$T/journal"
        "$remote" --listen-http="127.0.0.1:$port" -o "$T/journal/" 2>"$T/remote.log" 3>&- &
        SERVERS+=($!)
        until_true 20 bash -c "exec 4<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
        emu_init 64
        emu write 3
        cmd=${cmd#* }
        cmd=${cmd//\/var\/lib\/kdmesg/$T}
        cmd=${cmd//\/var\/lib\/prometheus\/node-exporter/$TF}
        cmd=${cmd//'${KDMESG_UPLOAD_URL}'/http://127.0.0.1:$port}
        cmd=${cmd//'$KDMESG_UPLOAD_TLS'/}
        # shellcheck disable=SC2086 # the words of ExecStart
        kdmesg_bg $cmd
        until_true 30 has_value kdmesg_upload_acknowledged_records_total 3
        check_metrics
        has_value 'kdmesg_upload_queued_bytes{where="spool"}' 0
        start_node_exporter
        run curl -sf "http://127.0.0.1:$NE_PORT/metrics"
        grep -qx 'node_textfile_scrape_error 0' <<<"$output"
        grep -qx 'kdmesg_upload_acknowledged_records_total 3' <<<"$output"
        stop_bg
        [ "$STATUS" -eq 0 ]
}

@test "--upload --metrics with a full spool: failures and bytes held while the collector is away, then the records it dropped as spool-full, exactly" {
        local remote=/lib/systemd/systemd-journal-remote port c="$T/cursor" counts
        [ -x "$remote" ]
        port=$(free_port)
        emu_init 4096
        # Nobody listens yet: what is read waits in the spool, 16 KiB at most.
        KDMESG_UPLOAD_SPOOL_MAX=16384 KDMESG_UPLOAD_STOP_MS=300 kdmesg_bg -w --cursor-file "$c" \
                --upload "http://127.0.0.1:$port" -q --metrics "$M" --metrics-interval 1
        emu wait blocks 1
        emu write 300 1000
        until_true 20 grep -q 'retrying$' "$ERR"
        until_true 20 has_value 'kdmesg_records_total{level="info"}' 300
        until_true 20 bash -c "(( \$(awk '\$1 == \"kdmesg_upload_send_failures_total\" { print \$2 }' '$M') >= 2 ))"
        check_metrics
        has_value kdmesg_upload_acknowledged_records_total 0
        (( $(value 'kdmesg_upload_queued_bytes{where="memory"}') > 0 ))
        (( $(value 'kdmesg_upload_queued_bytes{where="spool"}') > 0 ))
        (( $(value 'kdmesg_upload_queued_bytes{where="spool"}') <= $(value 'kdmesg_upload_queued_bytes{where="memory"}') ))
        stop_bg TERM
        [ "$STATUS" -eq 0 ]
        # The collector is back: the next run sends the spool, the loss entries of what it dropped among it.
        mkdir -p "$T/journal"
        "$remote" --listen-http="127.0.0.1:$port" -o "$T/journal/" 2>"$T/remote.log" 3>&- &
        SERVERS+=($!)
        until_true 20 bash -c "exec 4<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
        run --separate-stderr kdmesg_emu --cursor-file "$c" --upload "http://127.0.0.1:$port" -q --metrics "$M"
        [ "$status" -eq 0 ]
        check_metrics
        counts=$(journalctl --directory "$T/journal" -o json --no-pager | jq -s -r \
                '[([.[] | select(.SEQNUM) ] | length), ([.[] | select(.KDMESG_LOST_CAUSE == "spool-full") | .KDMESG_LOST | tonumber] | add)] | "\(.[0]) \(.[1])"')
        echo "journal: records lost: $counts"
        [ "${counts#* }" -gt 0 ]
        [ $((${counts% *} + ${counts#* })) -eq 300 ]
        has_value kdmesg_upload_acknowledged_records_total "${counts% *}"
        has_value 'kdmesg_lost_records_total{cause="spool-full"}' "${counts#* }"
        has_value 'kdmesg_upload_queued_bytes{where="memory"}' 0
        has_value 'kdmesg_upload_queued_bytes{where="spool"}' 0
}

@test "--upload --metrics: a record the collector refuses is kdmesg_lost_records_total{cause=\"refused\"} 1" {
        local remote=/lib/systemd/systemd-journal-remote port
        [ -x "$remote" ]
        # Records 0-19; record 9 has 1100 dictionary fields, which journal-remote (1024 at most) drops the
        # connection at when kdmesg is told it takes 2000 (as upload-poison.bats does).
        python3 - "$T/many.kmsg" <<'PY'
import sys
out = []
for s in range(20):
    out.append("6,%d,%d,-;record %d\n" % (s, (s + 1) * 1000, s))
    if s == 9:
        out.append("".join(" K%d=v\n" % i for i in range(1100)))
open(sys.argv[1], "w").write("".join(out))
PY
        port=$(free_port)
        mkdir -p "$T/journal"
        "$remote" --listen-http="127.0.0.1:$port" -o "$T/journal/" 2>"$T/remote.log" 3>&- &
        SERVERS+=($!)
        until_true 20 bash -c "exec 4<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
        run --separate-stderr env KDMESG_JOURNAL_FIELDS_MAX=2000 "$KDMESG" -K "$T/many.kmsg" --boot-time @1700000000 \
                --upload "http://127.0.0.1:$port" -q --metrics "$M"
        [ "$status" -eq 0 ]
        [[ "$stderr" == *"refused the entry of seq 9"* ]]
        check_metrics
        has_value 'kdmesg_lost_records_total{cause="refused"}' 1
        # The 19 records, and the loss entry in the place of record 9.
        has_value kdmesg_upload_acknowledged_records_total 20
        (( $(value kdmesg_upload_send_failures_total) >= 1 ))
        has_value 'kdmesg_records_total{level="info"}' 20
}
