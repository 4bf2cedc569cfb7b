#!/usr/bin/env python3
"""tests/ci/recipes.py — runs the pull-request gate recipes of docs/examples as their CI
systems would, in this tree (make test-cirecipes; docs/ci.md, "Pull-request gates").

Each YAML file is parsed (python3-yaml) and its commands run in order from the top of the
tree. GitHub (perf-gate.yml): every job's `run:` steps, each a script run by `bash
--noprofile --norc -eo pipefail` (the workflow's `defaults.run.shell: bash`), with the job's
`env:` and fake GITHUB_* variables ($GITHUB_STEP_SUMMARY a file of this test's; `git config
--global` writes a file of this test's through GIT_CONFIG_GLOBAL). GitLab
(perf-gate.gitlab-ci.yml): every job's `before_script` and `script` lines, in one bash with
`set -eo pipefail` (as GitLab's runner), with the job's `variables:` and fake CI_* variables,
after removing the job's artifact files (the runner starts from a clean checkout). A job stops
at its first failing command, as in CI. The steps and keys that are CI plumbing are not run:
each is listed below with the reason, and any step or key not listed fails the test, so a
step added to a recipe is run or refused, never skipped unseen.

  1. perf-gate.yml on the tree: every step exits 0 (the AVX-512 timed gate may say FAIL: a
     verdict on timings, never asserted here; its summary section and test case are); the
     summary holds the count gates' PASS sections with every baseline entry's row and the
     AVX-512 gate's section; the github exports validate against
     bench/github-benchmark.schema.json and hold this tree's counts; the JUnit report has the
     three gates' suites, without a failure from the counts. The plug-in job, with no
     baseline of the example plug-in committed, records one (naive's, an entry per corpus of
     the gate), then its make perf-check PERF_PLUGIN=... passes: its summary section names
     the plug-in with a passing row per entry, its github export holds the counts it measured.
  2. perf-gate.gitlab-ci.yml against doctored baselines (in the environment: PERF_BASELINE,
     as a make variable, one entry of bench/baseline.json with its count made 10% smaller
     than the tree's; PLUGIN_BASELINE, the job's variable, the same of the plug-in's baseline
     recorded in 1):
     each job fails at its `make perf-check`, whose summary says FAIL with the gate's exit
     code 1 and names the entry as a REGRESSION of +11.11%, as its JUnit report does; the
     Bencher exports validate against bench/bmf.schema.json and hold the tree's counts; the
     plug-in job records nothing (its baseline exists).

make perf-check's counts run once in full (about 30 s on an idle 2-core machine) and once on
the one doctored entry; the plug-in's are recorded once, checked once and once on one entry. Prints "ok - ..." or "FAIL - ..." per check and "N passed, N failed".

Usage: tests/ci/recipes.py    (run from anywhere; needs valgrind, make, bash, python3-yaml)
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from glob import glob

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from sbperf import gate, json_schema  # noqa: E402  (the tree's own validator and corpora)

GITHUB = "docs/examples/perf-gate.yml"
GITLAB = "docs/examples/perf-gate.gitlab-ci.yml"

# GitHub `uses:` steps not run here, each with the reason.
PLUMBING_USES = {
    "actions/checkout@v4": "the checkout: the steps run in this tree",
    "actions/upload-artifact@v4": "keeps the reports, which this test reads in place",
    "benchmark-action/github-action-benchmark@v1": "stores and charts an export on gh-pages: "
                                                   "GitHub's side (the export is checked here)",
}
# Job keys: run (steps, env, variables, scripts) or not run, each with the reason.
GITHUB_WORKFLOW_KEYS = {"name", True, "on", "defaults", "jobs", "permissions"}
GITHUB_JOB_NOT_RUN = {
    "runs-on": "the runner: this machine",
    "container": "debian:12: this machine is the Debian 12 the baselines were counted on",
    "timeout-minutes": "a hang guard: HANG_GUARD here",
    "permissions": "the token's rights, for the plumbing steps",
}
GITHUB_JOB_RUN = {"env", "steps"}
GITHUB_STEP_KEYS = {"name", "run", "uses", "with", "if"}
GITLAB_JOB_NOT_RUN = {
    "stage": "one stage",
    "image": "debian:12: this machine is the Debian 12 the baselines were counted on",
    "rules": "when the job runs (merge requests, the default branch): it runs here",
    "artifacts": "uploads; its files are removed before the job and read after it",
}
GITLAB_JOB_RUN = {"variables", "before_script", "script"}
GITLAB_TOP_NOT_JOBS = {"stages"}
# Steps whose failure is a verdict on timings, not asserted (matched by their command's start).
TIMED = ("make perf-check-avx512",)
HANG_GUARD = 1800  # seconds a job's command may take before it counts as hung (never a limit)

passed, failed = 0, 0


def check(ok, what, detail=""):
    """Records and prints one check."""
    global passed, failed
    if ok:
        passed += 1
        print("ok - " + what)
    else:
        failed += 1
        print("FAIL - " + what + ("\n  " + detail.replace("\n", "\n  ") if detail else ""))
    return ok


def tail(path, n=40):
    """Returns the last n lines of a log."""
    with open(path, errors="replace") as f:
        return "".join(f.readlines()[-n:])


def base_env(extra):
    """Returns the environment of a CI command: this one without the outer make's variables
    (a CI shell has none), plus extra."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT",
                        "MAKE_TERMERR")}
    env.update({k: str(v) for k, v in extra.items()})
    return env


def no_expressions(text, where):
    """Refuses ${{ }} in what this test runs: it does not evaluate GitHub expressions."""
    if "${{" in str(text):
        raise SystemExit("%s: a GitHub expression in a command (%s): this runner does not "
                         "evaluate them" % (where, str(text)[:80]))


def run_github(tmp):
    """Runs perf-gate.yml's jobs; returns {job: {"steps": [(name, exit code, log)],
    "summary": path}}."""
    with open(os.path.join(ROOT, GITHUB)) as f:
        wf = yaml.safe_load(f)
    unknown = set(wf) - GITHUB_WORKFLOW_KEYS
    if unknown:
        raise SystemExit("%s: workflow keys this runner does not know: %s" % (GITHUB, unknown))
    shell = wf.get("defaults", {}).get("run", {}).get("shell")
    if shell != "bash":
        raise SystemExit("%s: defaults.run.shell is %r; this runner runs bash -eo pipefail"
                         % (GITHUB, shell))
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    out = {}
    for job, spec in wf["jobs"].items():
        unknown = set(spec) - set(GITHUB_JOB_NOT_RUN) - GITHUB_JOB_RUN
        if unknown:
            raise SystemExit("%s: job %s: keys this runner does not know: %s"
                             % (GITHUB, job, unknown))
        jdir = os.path.join(tmp, "github", job)
        os.makedirs(jdir)
        summary = os.path.join(jdir, "step_summary.md")
        open(summary, "w").close()
        for k, v in spec.get("env", {}).items():
            no_expressions(v, "%s: job %s: env %s" % (GITHUB, job, k))
        env = base_env(dict(spec.get("env", {}), CI="true", GITHUB_ACTIONS="true",
                            GITHUB_WORKSPACE=ROOT, GITHUB_STEP_SUMMARY=summary,
                            GITHUB_OUTPUT=os.path.join(jdir, "output"),
                            GITHUB_ENV=os.path.join(jdir, "env"), GITHUB_EVENT_NAME="pull_request",
                            GITHUB_SHA=head, GITHUB_JOB=job, RUNNER_TEMP=jdir,
                            GIT_CONFIG_GLOBAL=os.path.join(jdir, "gitconfig")))
        for path in glob_artifacts_github(spec):
            os.remove(path)
        steps, stopped = [], False
        for k, step in enumerate(spec["steps"]):
            unknown = set(step) - GITHUB_STEP_KEYS
            if unknown:
                raise SystemExit("%s: job %s, step %d: keys this runner does not know: %s"
                                 % (GITHUB, job, k, unknown))
            if "uses" in step:
                if step["uses"] not in PLUMBING_USES:
                    raise SystemExit("%s: job %s: step uses %s, which this runner neither runs "
                                     "nor lists as plumbing" % (GITHUB, job, step["uses"]))
                continue
            if "if" in step:
                raise SystemExit("%s: job %s: run step %r has an if:, which this runner does "
                                 "not evaluate" % (GITHUB, job, step.get("name")))
            if stopped:
                continue  # after a failure GitHub runs only the steps marked if: always()
            no_expressions(step["run"], "%s: job %s" % (GITHUB, job))
            script = os.path.join(jdir, "step%d.sh" % k)
            with open(script, "w") as f:
                f.write(step["run"])
            log = os.path.join(jdir, "step%d.log" % k)
            with open(log, "w") as lf:
                code = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                                      cwd=ROOT, env=env, stdout=lf, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, timeout=HANG_GUARD).returncode
            steps.append((step.get("name", step["run"].splitlines()[0]), step["run"], code, log))
            stopped = code != 0
        out[job] = {"steps": steps, "summary": summary}
    return out


def glob_artifacts_github(spec):
    """Returns the files the job's upload-artifact steps name (a fresh checkout has none)."""
    out = []
    for step in spec.get("steps", []):
        if step.get("uses") == "actions/upload-artifact@v4":
            for pattern in str(step.get("with", {}).get("path", "")).split():
                out += [p for p in glob(os.path.join(ROOT, pattern)) if os.path.isfile(p)]
    return out


def run_gitlab(tmp, extra_env):
    """Runs perf-gate.gitlab-ci.yml's jobs; returns {job: {"lines": [...], "ran": number of
    lines run, "code": the job's exit code, "log": path}}."""
    with open(os.path.join(ROOT, GITLAB)) as f:
        doc = yaml.safe_load(f)
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    out = {}
    for job, spec in doc.items():
        if job in GITLAB_TOP_NOT_JOBS:
            continue
        unknown = set(spec) - set(GITLAB_JOB_NOT_RUN) - GITLAB_JOB_RUN
        if unknown:
            raise SystemExit("%s: job %s: keys this runner does not know: %s"
                             % (GITLAB, job, unknown))
        jdir = os.path.join(tmp, "gitlab", job)
        os.makedirs(jdir)
        art = spec.get("artifacts", {})
        for path in art.get("paths", []) + list(art.get("reports", {}).values()):
            if os.path.isfile(os.path.join(ROOT, path)):
                os.remove(os.path.join(ROOT, path))
        lines = list(spec.get("before_script", [])) + list(spec["script"])
        marker = os.path.join(jdir, "line")
        body = ["set -eo pipefail"]
        for k, line in enumerate(lines):
            body += ["echo %d >%s" % (k, marker), line]
        body.append("echo %d >%s" % (len(lines), marker))
        script = os.path.join(jdir, "job.sh")
        with open(script, "w") as f:
            f.write("\n".join(body) + "\n")
        env = base_env(dict(spec.get("variables", {}), CI="true", GITLAB_CI="true",
                            CI_PROJECT_DIR=ROOT, CI_JOB_NAME=job, CI_COMMIT_SHA=head,
                            CI_PIPELINE_SOURCE="merge_request_event", CI_DEFAULT_BRANCH="main",
                            CI_MERGE_REQUEST_IID="1",
                            GIT_CONFIG_GLOBAL=os.path.join(jdir, "gitconfig"), **extra_env))
        log = os.path.join(jdir, "job.log")
        with open(log, "w") as lf:
            code = subprocess.run(["bash", "--noprofile", "--norc", script], cwd=ROOT, env=env,
                                  stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  timeout=HANG_GUARD).returncode
        with open(marker) as f:
            ran = int(f.read())
        out[job] = {"lines": lines, "ran": ran, "code": code, "log": log}
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def schema(name):
    return json.loads(read(os.path.join(ROOT, "bench", name + ".schema.json")))


def baseline_ids(path, suffix=""):
    return [e["id"] + suffix for e in json.loads(read(os.path.join(ROOT, path)))["entries"]]


def table_row(text, eid):
    """Returns the Markdown table row of entry eid in text, or ""."""
    return next((line for line in text.splitlines() if line.startswith("| %s " % eid)), "")


def github_checks(res):
    reports = os.path.join(ROOT, "build", "reports")
    # every step ran and passed (the timed gate's verdict excepted)
    for job, r in res.items():
        for name, cmd, code, log in r["steps"]:
            timed = cmd.lstrip().startswith(TIMED)
            ok = code == 0 or (timed and code == 1)
            check(ok, "github %s: step '%s' exits 0%s" % (job, name, " (or 1: a timed verdict)"
                                                            if timed else ""),
                  "exit %d; the log's end:\n%s" % (code, tail(log)))
        ran = len(r["steps"])
        wanted = sum(1 for s in yaml_steps(job) if "run" in s)
        check(ran == wanted, "github %s: all %d run steps ran" % (job, wanted), "ran %d" % ran)
    summary = read(res["perf-check"]["summary"])
    for function, baseline in (("sb_solve", "bench/baseline.json"),
                               ("sb_solve_many", "bench/baseline_many.json")):
        head = "### perf-check %s (`%s`): PASS, exit code 0" % (function, baseline)
        check(head in summary, "github summary: " + head, summary[:2000])
        section = summary.split(head, 1)[-1].split("\n### ", 1)[0]
        check("\n| entry " in section, "github summary: the %s table" % function)
        for eid in baseline_ids(baseline):
            row = table_row(section, eid)
            # skipped: a level valgrind cannot run on this CPU (AVX2 on an old one)
            check(re.search(r"\| (ok|improved|skipped) *\|$", row) is not None,
                  "github summary: %s's row for %s passes" % (function, eid), row or "no row")
    check("### perf-check avx512 (timed): " in summary, "github summary: the AVX-512 gate's section",
          summary[-1500:])
    gh = json.loads(read(os.path.join(reports, "perf-check-github.json")))
    check(json_schema.validate(gh, schema("github-benchmark")) == [],
          "github export: valid against bench/github-benchmark.schema.json",
          str(json_schema.validate(gh, schema("github-benchmark"))))
    current = {}
    for name, suffix in (("current.json", ""), ("current_many.json", "@sb_solve_many")):
        for e in json.loads(read(os.path.join(ROOT, "build/perf", name)))["entries"]:
            if e.get("solve_ir") and not e.get("unmeasured"):
                current[e["id"] + suffix] = e["solve_ir"]
    want = [n for n in baseline_ids("bench/baseline.json") +
            baseline_ids("bench/baseline_many.json", "@sb_solve_many") if n in current]
    check(want and [e["name"] for e in gh] == want,
          "github export: one entry per measured baseline entry", str([e["name"] for e in gh]))
    check(all(e["value"] == current.get(e["name"]) and e["unit"] == "instructions" for e in gh),
          "github export: the counts the gates measured (build/perf/current*.json)")
    root = ET.parse(os.path.join(reports, "perf-check.xml")).getroot()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    check(sorted(suites) == sorted(["perf-check bench/baseline.json",
                                    "perf-check bench/baseline_many.json",
                                    "perf-check avx512 (timed)"]),
          "junit: the three gates' suites", str(sorted(suites)))
    check(all(suites[n].get("failures") == "0" and suites[n].get("errors") == "0"
              for n in suites if n.startswith("perf-check bench/")),
          "junit: no failure from the counts")
    return current, plugin_checks(res["plugin"])


def plugin_checks(res):
    """Checks the GitHub plug-in job's results; returns the counts it measured {id: Ir}."""
    reports = os.path.join(ROOT, "build", "reports")
    base = json.loads(read(os.path.join(reports, "plugin-baseline.json")))
    ids = [e["id"] for e in base["entries"]]
    check(base.get("plugin") == "naive" and base.get("function") == "sb_engine_solve" and
          ids == ["naive/plugin/" + gate.dataset_name(d) for d in gate.DEFAULT_DATASETS],
          "github plugin: the job recorded naive's baseline, an entry per corpus of the gate",
          str(ids))
    summary = read(res["summary"])
    head = ("### perf-check sb_engine_solve, plug-in naive (`build/reports/plugin-baseline.json`):"
            " PASS, exit code 0")
    check(head in summary, "github plugin summary: " + head, summary[:1500])
    for eid in ids:
        row = table_row(summary, eid)
        check(re.search(r"\| ok *\|$", row) is not None,
              "github plugin summary: the row for %s passes" % eid, row or "no row")
    current = {e["id"]: e["solve_ir"] for e in json.loads(read(os.path.join(
        ROOT, "build/perf/current-plugin-baseline.json")))["entries"]}
    gh = json.loads(read(os.path.join(reports, "plugin-github.json")))
    check(json_schema.validate(gh, schema("github-benchmark")) == [] and
          [e["name"] for e in gh] == [eid + "@sb_engine_solve" for eid in ids] and
          all(e["value"] == current[e["name"].split("@")[0]] for e in gh),
          "plug-in github export: valid, the counts the gate measured, named after the plug-in",
          json.dumps(gh)[:500])
    return current


_GITHUB_DOC = None


def yaml_steps(job):
    global _GITHUB_DOC
    if _GITHUB_DOC is None:
        with open(os.path.join(ROOT, GITHUB)) as f:
            _GITHUB_DOC = yaml.safe_load(f)
    return _GITHUB_DOC["jobs"][job]["steps"]


def doctor(tmp, current, source="bench/baseline.json", pick=lambda entries: entries[0]):
    """Writes a baseline of one entry of the baseline file source (the first, or the one
    pick chooses) with its count made 10% smaller than this tree's (current, as the first run
    measured it); returns (path, entry id, the tree's count)."""
    base = json.loads(read(os.path.join(ROOT, source)))
    entry = dict(pick(base["entries"]))
    true = current[entry["id"]]
    entry["solve_ir"] = true * 9 // 10
    base["entries"] = [entry]
    base.pop("walltime", None)
    path = os.path.join(tmp, "doctored_" + os.path.basename(source))
    with open(path, "w") as f:
        json.dump(base, f)
    return path, entry["id"], true


def gitlab_checks(res, doctored, eid, true, pdoctored, peid, ptrue):
    reports = os.path.join(ROOT, "build", "reports")
    pc = res["perf-check"]
    gate_line = next(k for k, line in enumerate(pc["lines"]) if line.startswith("make perf-check "))
    log = read(pc["log"])
    check(pc["code"] != 0 and pc["ran"] == gate_line,
          "gitlab perf-check: fails at `make perf-check`, nothing after it runs",
          "exit %d, stopped at line %d of %d (%s); the log's end:\n%s"
          % (pc["code"], pc["ran"], len(pc["lines"]), pc["lines"][min(pc["ran"], len(pc["lines"]) - 1)],
             tail(pc["log"])))
    check("perf-check: 1 entry, 1 regression above +2.0%, 0 not measured: FAIL" in log,
          "gitlab perf-check: the gate's verdict line", tail(pc["log"]))
    summary = read(os.path.join(reports, "perf-check.md"))
    head = "### perf-check sb_solve (`%s`): FAIL, exit code 1" % doctored
    check(head in summary, "gitlab summary: " + head, summary[:1500])
    check("**REGRESSION**: `%s` +11.11%%." % eid in summary,
          "gitlab summary: names %s, +11.11%%" % eid, summary[:1500])
    check(re.search(r"\| REGRESSION *\|$", table_row(summary, eid)) is not None,
          "gitlab summary: the table row says REGRESSION", table_row(summary, eid))
    root = ET.parse(os.path.join(reports, "perf-check.xml")).getroot()
    case = root.find("testsuite[@name='perf-check %s']/testcase[@name='%s']" % (doctored, eid))
    failure = case.find("failure") if case is not None else None
    check(failure is not None and failure.get("type") == "REGRESSION" and
          failure.get("message") == "sb_solve Ir +11.11%, above +2.0%",
          "junit: %s failed as a REGRESSION" % eid, ET.tostring(root, encoding="unicode")[:1500])
    bmf = json.loads(read(os.path.join(reports, "perf-check-bmf.json")))
    check(json_schema.validate(bmf, schema("bmf")) == [] and
          bmf == {eid: {"instructions": {"value": true}}},
          "bmf export: valid against bench/bmf.schema.json, the entry's count",
          json.dumps(bmf)[:500])
    pj = res["plugin"]
    gate_line = next(k for k, line in enumerate(pj["lines"]) if line.startswith("make perf-check "))
    log = read(pj["log"])
    check(pj["code"] != 0 and pj["ran"] == gate_line and "perf-baseline: wrote" not in log,
          "gitlab plugin: records nothing (its baseline exists), fails at `make perf-check`",
          "exit %d, stopped at line %d of %d; the log's end:\n%s"
          % (pj["code"], pj["ran"], len(pj["lines"]), tail(pj["log"])))
    check("perf-check: 1 entry, 1 regression above +2.0%, 0 not measured: FAIL" in log,
          "gitlab plugin: the gate's verdict line", tail(pj["log"]))
    summary = read(os.path.join(reports, "plugin.md"))
    head = "### perf-check sb_engine_solve, plug-in naive (`%s`): FAIL, exit code 1" % pdoctored
    check(head in summary and "**REGRESSION**: `%s` +11.11%%." % peid in summary,
          "gitlab plugin summary: %s, naming %s +11.11%%" % (head, peid), summary[:1500])
    root = ET.parse(os.path.join(reports, "plugin.xml")).getroot()
    name = peid + "@sb_engine_solve"
    case = root.find("testsuite[@name='perf-check %s']/testcase[@name='%s']" % (pdoctored, name))
    failure = case.find("failure") if case is not None else None
    check(failure is not None and failure.get("type") == "REGRESSION" and
          failure.get("message") == "sb_engine_solve Ir +11.11%, above +2.0%",
          "plug-in junit: %s failed as a REGRESSION" % name,
          ET.tostring(root, encoding="unicode")[:1500])
    plug = json.loads(read(os.path.join(reports, "plugin-bmf.json")))
    check(json_schema.validate(plug, schema("bmf")) == [] and
          plug == {name: {"instructions": {"value": ptrue}}},
          "plug-in bmf export: valid, the entry's count", json.dumps(plug)[:500])


def main():
    for tool in ("valgrind", "make", "git", "bash"):
        if shutil.which(tool) is None:
            print("test-cirecipes: skipped: %s not found (make deps-all)" % tool)
            return 0
    keep = os.path.join(ROOT, "build", "cirecipes")
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(keep)
    tmp = tempfile.mkdtemp(dir=keep)
    print("test-cirecipes: logs in %s" % os.path.relpath(tmp, ROOT))
    gh = run_github(tmp)
    current, pcurrent = github_checks(gh)
    doctored, eid, true = doctor(tmp, current)
    # the plug-in's cheapest entry: the failing run measures it alone
    pdoctored, peid, ptrue = doctor(tmp, pcurrent, "build/reports/plugin-baseline.json",
                                    lambda entries: min(entries, key=lambda e: e["solve_ir"]))
    gl = run_gitlab(tmp, {"PERF_BASELINE": doctored, "PLUGIN_BASELINE": pdoctored})
    gitlab_checks(gl, doctored, eid, true, pdoctored, peid, ptrue)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
