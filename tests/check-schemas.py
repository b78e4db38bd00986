#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every JSON that kdmesg writes is valid against its shipped schema.  Prints TAP.

  1. Each schema in data/ is a valid Draft 7 schema whose $id is its own
     file name (relative: no URL of a site that does not exist).
  2. On several dumps, the JSON Lines of --json, --lost --json and
     --devices --json, and the document of --json=dmesg (with and without
     -x), validate against kdmesg-record, kdmesg-lost, kdmesg-devices and
     kdmesg-dmesg.schema.json.
  3. Every golden file in tests/expected/ that holds JSON validates against
     the schema listed for it below; a golden JSON file not listed fails.
  4. The schemas reject what they should, so that the validation can fail.

The schemas refer to each other by relative $ref (kdmesg-record.schema.json
#/definitions/...), resolved here against the files in data/.

usage: check-schemas.py SRCDIR KDMESG
"""
import glob
import json
import os
import subprocess
import sys

import jsonschema
import referencing

srcdir, kdmesg = sys.argv[1:3]
datadir = os.path.join(srcdir, "data")
results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


schemas = {}
for path in sorted(glob.glob(os.path.join(datadir, "*.schema.json"))):
    with open(path, encoding="utf-8") as f:
        schemas[os.path.basename(path)] = json.load(f)
registry = referencing.Registry().with_resources(
    (s["$id"], referencing.Resource.from_contents(s)) for s in schemas.values())
for name, s in schemas.items():
    try:
        jsonschema.Draft7Validator.check_schema(s)
        check("%s is a valid Draft 7 schema" % name, True)
    except jsonschema.SchemaError as e:
        check("%s is a valid Draft 7 schema" % name, False, e.message)
    # An id that is a URL names a place that serves nothing: each id is the
    # file's own name, relative, so that it resolves beside the file it is in.
    check("%s has the relative $id %s" % (name, name), s.get("$id") == name, "$id: %r" % s.get("$id"))
for name in ("kdmesg-record", "kdmesg-lost", "kdmesg-devices", "kdmesg-dmesg", "kdmesg-problems",
             "kdmesg-timeline", "kdmesg-boots"):
    check("data/%s.schema.json exists" % name, name + ".schema.json" in schemas)
if not all(ok for _, ok, _ in results):
    schemas = {}


def validator(name):
    return jsonschema.Draft7Validator(schemas[name], registry=registry)


def problems(name, text, lines=True):
    """Validation problems of text: JSON Lines, or one document."""
    v = validator(name)
    docs = text.splitlines() if lines else [text]
    bad = []
    for n, doc in enumerate(docs, 1):
        try:
            obj = json.loads(doc)
        except ValueError as e:
            bad.append("line %d: not JSON: %s" % (n, e))
            continue
        bad += ["line %d: %s" % (n, e.message) for e in v.iter_errors(obj)]
    return bad


dumps = ["basic.kmsg", "classic.kmsg", "devices.kmsg", "early-boot.kmsg", "empty.kmsg",
         "formats.kmsg", "formats-real.kmsg", "malformed.kmsg", "two-boots-same-kernel.kmsg",
         "wide.kmsg", "basic.export", "classic.export", "problems.kmsg", "two-boots-reset.kmsg",
         "two-boots-forward.kmsg", "two-boots.export", "fallout.kmsg"]
runs = [("--json", ["-J"], "kdmesg-record.schema.json", True),
        # realtime and realtime_usec on every record with a time stamp.
        ("--json --boot-time", ["-J", "--boot-time", "2024-05-01 09:12:44"], "kdmesg-record.schema.json", True),
        # problem, problem_subject and problem_start on the records of problems.
        ("--json --fail-on-problem", ["-J", "--fail-on-problem"], "kdmesg-record.schema.json", True),
        ("--lost --json", ["--lost", "--json"], "kdmesg-lost.schema.json", True),
        ("--devices --json", ["--devices", "--json"], "kdmesg-devices.schema.json", True),
        ("--problems --json", ["--problems", "--json"], "kdmesg-problems.schema.json", True),
        # Two inputs: the groups name their file.
        ("--problems --json, two inputs", ["-K", os.path.join(srcdir, "tests", "data", "fallout.kmsg"), "--problems",
                                           "--json"], "kdmesg-problems.schema.json", True),
        ("--timeline --json", ["--timeline", "--json"], "kdmesg-timeline.schema.json", True),
        ("--timeline --problems --json", ["--timeline", "--problems", "--json"], "kdmesg-timeline.schema.json", True),
        ("--list-boots --json", ["--list-boots", "--json"], "kdmesg-boots.schema.json", True),
        # first_realtime and last_realtime.
        ("--list-boots --json --boot-time", ["--list-boots", "--json", "--boot-time", "@1700000000"],
         "kdmesg-boots.schema.json", True),
        ("--json=dmesg", ["--json=dmesg"], "kdmesg-dmesg.schema.json", False),
        ("--json=dmesg -x", ["--json=dmesg", "-x"], "kdmesg-dmesg.schema.json", False)]
for label, args, schema, lines in runs:
    bad, count = [], 0
    for dump in dumps:
        p = subprocess.run([kdmesg, "-K", os.path.join(srcdir, "tests", "data", dump)] + args,
                           capture_output=True, text=True,
                           env=dict(os.environ, NO_COLOR="1", PAGER="", KDMESG_PROBLEMS_DIR="",
                                    KDMESG_PROBLEMS_RULES=os.path.join(srcdir, "data", "problems.rules")))
        # malformed.kmsg exits 1 for its skipped records; what is written must still be valid.
        # --fail-on-problem: 4 when a problem was found.
        if "--fail-on-problem" in args and p.returncode == 4:
            pass
        elif p.returncode not in (0, 1) or (p.returncode == 1 and dump != "malformed.kmsg"):
            bad.append("%s: exit %d: %s" % (dump, p.returncode, p.stderr))
            continue
        if not p.stdout:
            continue
        count += len(p.stdout.splitlines()) if lines else 1
        if schema in schemas:
            bad += ["%s: %s" % (dump, b) for b in problems(schema, p.stdout, lines)]
    check("%s on %d dumps: %d %s valid against %s" % (label, len(dumps), count,
                                                       "lines" if lines else "documents", schema),
          schema in schemas and count > 0 and not bad, "\n".join(bad[:20]))

# The live log: boot_id, realtime and realtime_usec from this machine.
if os.access("/dev/kmsg", os.R_OK):
    p = subprocess.run([kdmesg, "-J"], capture_output=True, text=True)
    bad = problems("kdmesg-record.schema.json", p.stdout) if "kdmesg-record.schema.json" in schemas else ["no schema"]
    check("live --json: %d lines valid against kdmesg-record.schema.json, with boot_id and realtime" %
          len(p.stdout.splitlines()),
          p.returncode == 0 and not bad and '"boot_id":' in p.stdout and '"realtime":' in p.stdout, "\n".join(bad[:20]))

# Golden outputs that hold JSON, and the schema each must satisfy.
golden = {
    "boots/export.json": ("kdmesg-record.schema.json", True),
    "boots/forward.json": ("kdmesg-record.schema.json", True),
    "boots/forward.lost.json": ("kdmesg-lost.schema.json", True),
    "boots/forward.json-dmesg": ("kdmesg-dmesg.schema.json", False),
    "boots/reset.json": ("kdmesg-record.schema.json", True),
    "boots/reset.lost.json": ("kdmesg-lost.schema.json", True),
    "boots/reset.json-dmesg": ("kdmesg-dmesg.schema.json", False),
    "devices/bounded.json": ("kdmesg-devices.schema.json", True),
    "devices/report.json": ("kdmesg-devices.schema.json", True),
    "devices/report-text.json": ("kdmesg-devices.schema.json", True),
    "devices/text-sda1.json": ("kdmesg-record.schema.json", True),
    "json/formats-json.out": ("kdmesg-record.schema.json", True),
    "json/formats-json-dmesg.out": ("kdmesg-dmesg.schema.json", False),
    "problems/report.json": ("kdmesg-problems.schema.json", True),
    "timeline/levels.json": ("kdmesg-timeline.schema.json", True),
    "parity/json-dmesg.out": ("kdmesg-dmesg.schema.json", False),
    "parity/json-dmesg-x.out": ("kdmesg-dmesg.schema.json", False),
}
expected = os.path.join(srcdir, "tests", "expected")
found = []
for path in sorted(glob.glob(os.path.join(expected, "**", "*"), recursive=True)):
    if not os.path.isfile(path):
        continue
    with open(path, "rb") as f:
        first = f.readline()
    try:
        # A text golden may start with "[" (a time stamp), but is not JSON.
        if first.strip() == b"{" or isinstance(json.loads(first), (dict, list)):
            found.append(os.path.relpath(path, expected))
    except ValueError:
        pass
unlisted = [g for g in found if g not in golden]
check("every golden JSON file has a schema listed in check-schemas.py", not unlisted,
      "not listed: " + " ".join(unlisted))
for rel, (schema, lines) in sorted(golden.items()):
    path = os.path.join(expected, rel)
    if not os.path.exists(path):
        check("golden %s exists" % rel, False)
        continue
    with open(path, encoding="utf-8") as f:
        text = f.read()
    bad = problems(schema, text, lines) if schema in schemas else ["no schema"]
    check("golden %s is valid against %s" % (rel, schema), not bad, "\n".join(bad[:20]))

rejects = [
    ("kdmesg-lost.schema.json", '{"lost_total":0,"lost_unknown":false,"gaps":0,"lost_by_cause":{"lost":1},"records":0,"boots":0}'),
    ("kdmesg-lost.schema.json", '{"lost_total":0,"lost_unknown":0,"gaps":0,"lost_by_cause":{},"records":0,"boots":0}'),
    ("kdmesg-lost.schema.json", '{"lost_total":0,"lost_unknown":false,"gaps":0,"lost_by_cause":{},"records":1,"boots":1,"first_seq":0}'),
    ("kdmesg-lost.schema.json", '{"first_seq":1,"last_seq":1,"count":1,"cause":"x"}'),
    ("kdmesg-lost.schema.json", '{"lost_total":0,"lost_unknown":false,"gaps":0,"lost_by_cause":{},"records":0}'),
    ("kdmesg-lost.schema.json", '{"lost_total":0,"lost_unknown":false,"gaps":0,"lost_by_cause":{},"records":0,"boots":2,"by_boot":[{"boot":0,"records":0}]}'),
    ("kdmesg-record.schema.json", '{"boot":1,"first_seq":0}'),
    ("kdmesg-record.schema.json", '{"boot":2}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"realtime":"2024-05-01T09:12:44.000000Z"}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"realtime_usec":1714554764000000}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"problem":"oom"}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"problem_subject":"x"}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"problem":"oops","problem_start":false}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"realtime":"2024-05-01 09:12:44","realtime_usec":1714554764000000}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"realtime":"2024-05-01T09:12:44.000000Z","realtime_usec":-1}'),
    ("kdmesg-record.schema.json", '{"flags":"-","msg":"x","dict":{},"realtime":"2024-05-01T09:12:44.000000Z","realtime_usec":"1714554764000000"}'),
    ("kdmesg-devices.schema.json", '{"device":"b8:0","count":0,"msg":"x"}'),
    ("kdmesg-devices.schema.json", '{"device":"b8:0","count":1,"msg":"x","seq":1}'),
    ("kdmesg-devices.schema.json", '{"device":"b8:0","count":1,"level":"warning","msg":"x"}'),
    ("kdmesg-devices.schema.json", '{"count":1,"msg":"x"}'),
    ("kdmesg-devices.schema.json", '{"others":true,"device":"b8:0","count":1,"msg":"x"}'),
    ("kdmesg-devices.schema.json", '{"others":false,"count":1,"msg":"x"}'),
    ("kdmesg-devices.schema.json", '{"others":true,"subsystem":"usb","count":1,"msg":"x"}'),
    ("kdmesg-dmesg.schema.json", '{"dmesg":[{"pri":6,"msg":"x"}]}'),
    ("kdmesg-problems.schema.json", '{"problem":"oom","count":1,"subject":"","message":"x"}'),
    ("kdmesg-problems.schema.json", '{"problem":"oops","count":0,"subject":"","message":"x"}'),
    ("kdmesg-problems.schema.json", '{"problem":"oops","count":1,"message":"x"}'),
    ("kdmesg-boots.schema.json", '{"boot":0,"index":0,"records":1}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":1,"records":1}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":0}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":0,"records":1,"first_seq":0}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":0,"records":1,"first_time":1.5}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":0,"records":1,"first_realtime":"2023-11-14T22:13:20.000000Z"}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":0,"records":1,"first_realtime":"2023-11-14 22:13:20",'
                                 '"first_realtime_usec":1,"last_realtime":"2023-11-14 22:13:20","last_realtime_usec":1}'),
    ("kdmesg-boots.schema.json", '{"boot":1,"index":0,"records":1,"seq":1}'),
    ("kdmesg-timeline.schema.json", '{"time_start":0,"time_end":1,"counts":{"errors":1}}'),
    ("kdmesg-timeline.schema.json", '{"time_start":0,"counts":{"warn":1}}'),
]
for schema, text in rejects:
    check("%s rejects %s" % (schema, text), schema in schemas and bool(problems(schema, text)))

# The last lines of a report over input that was not all read (issue 37), as
# empty-results.bats and timeline.bats see kdmesg write them.
accepts = [
    ("kdmesg-devices.schema.json", '{"unread_inputs":1}'),
    ("kdmesg-timeline.schema.json", '{"unread_inputs":2}'),
    ("kdmesg-timeline.schema.json", '{"untimed":2}'),
    ("kdmesg-timeline.schema.json", '{"time_start":0,"time_end":1,"counts":{"no-level":2}}'),
    ("kdmesg-problems.schema.json", '{"unread":0,"unread_inputs":1}'),
    ("kdmesg-problems.schema.json", '{"unread":3,"unread_rest":true,"unread_inputs":1}'),
]
for schema, text in accepts:
    bad = problems(schema, text) if schema in schemas else ["no schema"]
    check("%s accepts %s" % (schema, text), not bad, "\n".join(bad[:5]))
for schema, text in (("kdmesg-devices.schema.json", '{"unread_inputs":0}'),
                     ("kdmesg-devices.schema.json", '{"unread_inputs":1,"count":1}'),
                     ("kdmesg-timeline.schema.json", '{"untimed":0}')):
    check("%s rejects %s" % (schema, text), schema in schemas and bool(problems(schema, text)))

print("1..%d" % len(results))
for i, (name, ok, detail) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and detail:
        for line in str(detail).splitlines():
            print("# " + line)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
