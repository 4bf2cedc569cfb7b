"""sbperf.publish — what the gates hand to a CI system (stdlib only).

  - A Markdown summary: each gate appends one section (its verdict, its exit code, its table
    and notes) to a file: $GITHUB_STEP_SUMMARY in GitHub Actions, an artifact in GitLab.
  - The gated counts in the formats `sudokubench bench --export` writes, the names the
    gate's entries: bmf (Bencher Metric Format, one measure "instructions") and github
    (github-action-benchmark's customSmallerIsBetter: name, unit, value, extra). Checked by
    the same schemas as bench's exports (bench/bmf.schema.json,
    bench/github-benchmark.schema.json).
  - junit: a JUnit XML report, one test case per entry (a regression or an entry not
    measured is a failure, a skipped entry is skipped, a gate that cannot compare is an
    error): GitLab's test report.

An export file that exists is merged into, not replaced: entries (bmf, github) or the test
suite (junit) of the same name are replaced, the others kept. That lets the two count gates
of `make perf-check` (sb_solve and sb_solve_many) and the AVX-512 gate write one file each;
make perf-check removes the files before its first gate, so nothing stale is kept.
"""

import json
import os
import xml.etree.ElementTree as ET

from .measure import PerfError

FORMATS = ("bmf", "github", "junit")
MEASURE = "instructions"  # the Bencher measure of the counts


def parse_exports(specs, allowed=FORMATS):
    """Returns [(format, path)] of --export FORMAT:FILE values; raises PerfError on a bad
    one (an unknown format, an empty path, the same path twice)."""
    out, seen = [], set()
    for spec in specs or []:
        fmt, sep, path = spec.partition(":")
        if not sep or fmt not in allowed or not path:
            raise PerfError("bad --export '%s': FORMAT:FILE with FORMAT one of %s"
                            % (spec, ", ".join(allowed)))
        if os.path.abspath(path) in seen:
            raise PerfError("bad --export '%s': %s is named twice" % (spec, path))
        seen.add(os.path.abspath(path))
        out.append((fmt, path))
    return out


def _write(path, text):
    """Writes text to path whole (a temporary beside it, then renamed); raises PerfError
    when it cannot."""
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    except OSError as e:
        raise PerfError("cannot write %s: %s" % (path, e))


def append_summary(path, text):
    """Appends a Markdown section to path (created with its folder when missing), set off
    from what is there by a blank line; raises PerfError when it cannot."""
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(text.rstrip("\n") + "\n\n")
    except OSError as e:
        raise PerfError("cannot write the summary %s: %s" % (path, e))


def _existing(path, fmt, kind):
    """Returns the JSON document at path when it exists (of type kind), else None; raises
    PerfError when it is something else, which is not to be overwritten."""
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise PerfError("--export %s:%s: the file exists and is not an export: %s"
                        % (fmt, path, e))
    if not isinstance(doc, kind):
        raise PerfError("--export %s:%s: the file exists and is not a %s export"
                        % (fmt, path, fmt))
    return doc


def write_counts(fmt, path, records):
    """Writes records [{"name", "value", "extra"}] (instruction counts) to path as bmf or
    github, merged into the file's entries of other names."""
    if fmt == "bmf":
        doc = _existing(path, fmt, dict) or {}
        for r in records:
            doc[r["name"]] = {MEASURE: {"value": r["value"]}}
        _write(path, json.dumps(doc, indent=1) + "\n")
    elif fmt == "github":
        doc = _existing(path, fmt, list) or []
        names = {r["name"] for r in records}
        doc = [e for e in doc if not (isinstance(e, dict) and e.get("name") in names)]
        doc += [{"name": r["name"], "unit": MEASURE, "value": r["value"], "extra": r["extra"]}
                for r in records]
        _write(path, json.dumps(doc, indent=1) + "\n")
    else:
        raise PerfError("write_counts: no counts format %r" % fmt)


def write_junit(path, suite, cases, seconds=0.0):
    """Writes the test suite named suite into the JUnit XML file at path (merged: a suite of
    the same name is replaced). cases: [{"name", "classname", and at most one of "failure",
    "skipped", "error" (a message), "detail" (text under a failure or error)}]."""
    root = None
    if os.path.exists(path):
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            raise PerfError("--export junit:%s: the file exists and is not JUnit XML: %s"
                            % (path, e))
        if root.tag != "testsuites":
            raise PerfError("--export junit:%s: the file exists and is not a JUnit report"
                            % path)
        for old in root.findall("testsuite"):
            if old.get("name") == suite:
                root.remove(old)
    if root is None:
        root = ET.Element("testsuites", name="perf-check")
    ts = ET.SubElement(root, "testsuite", name=suite)
    counts = {"failure": 0, "skipped": 0, "error": 0}
    for c in cases:
        tc = ET.SubElement(ts, "testcase", classname=c["classname"], name=c["name"],
                           time="0")
        for kind in counts:
            if c.get(kind):
                counts[kind] += 1
                el = ET.SubElement(tc, kind, message=c[kind])
                if kind != "skipped":
                    el.set("type", c.get("type", kind))
                    el.text = c.get("detail", c[kind])
    ts.set("tests", str(len(cases)))
    ts.set("failures", str(counts["failure"]))
    ts.set("errors", str(counts["error"]))
    ts.set("skipped", str(counts["skipped"]))
    ts.set("time", "%.1f" % seconds)
    for key, attr in (("tests", "tests"), ("failures", "failures"), ("errors", "errors"),
                      ("skipped", "skipped")):
        root.set(attr, str(sum(int(s.get(key, "0")) for s in root.findall("testsuite"))))
    if hasattr(ET, "indent"):  # Python 3.9+: one element a line, for a reader
        ET.indent(root)
    _write(path, '<?xml version="1.0" encoding="UTF-8"?>\n'
           + ET.tostring(root, encoding="unicode") + "\n")
