#!/usr/bin/env python3
"""tests/perf/history_page.py — what a history page shows, read from the DOM a browser built
from it (headless Chromium's --dump-dom: tests/perf/test_history.sh).

Usage: PYTHONPATH=scripts python3 tests/perf/history_page.py DOM --charts N --points N
                                                            [--tip TEXT]...
Checks that the page holds N charts (an <svg> directly in a <figure class="chart">), each
with the viewBox of a "history-corpus" chart of sbperf.charts and N tooltips (an SVG <title>
per point), one of them holding every TEXT of --tip; N tables; and no element that loads
anything (script, img, link, iframe, object, embed, or any src). Prints what it found, or
each problem, and exits 1 on a problem.
"""

import argparse
import html.parser
import sys

from sbperf import charts

# Elements that load something, which a page that works offline without scripts has none of.
LOADERS = ("script", "img", "link", "iframe", "object", "embed")
# Elements not kept on the stack of open elements: their end tag may be missing.
EMPTY = ("path", "use", "rect", "stop", "br", "meta", "col", "hr", "input")


class Page(html.parser.HTMLParser):
    """The charts (viewBox, tooltips), the tables and the loading elements of a page."""

    def __init__(self):
        super().__init__()
        self.stack, self.charts, self.tables, self.loaders, self.title = [], [], 0, [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and self.stack and self.stack[-1] == "figure.chart":
            self.charts.append({"viewbox": a.get("viewbox"), "tips": []})
        if tag == "title" and "svg" in self.stack and self.charts:
            self.title = ""
        if tag == "table":
            self.tables += 1
        if tag in LOADERS or (a.get("src") or "").strip():
            self.loaders.append(tag)
        if tag not in EMPTY:
            self.stack.append("figure.chart" if tag == "figure" and a.get("class") == "chart"
                              else tag)

    def handle_endtag(self, tag):
        if tag in EMPTY:
            return
        if tag == "title" and self.title is not None:
            self.charts[-1]["tips"].append(self.title)
            self.title = None
        while self.stack and self.stack.pop().split(".")[0] != tag:
            pass

    def handle_data(self, data):
        if self.title is not None:
            self.title += data


def problems(page, n_charts, n_points, tips):
    """Returns what the parsed page lacks against the expected charts, points and tips."""
    w, h = charts.size("history-corpus")
    box = "0 0 %g %g" % (w * 72.0 / charts.DPI, h * 72.0 / charts.DPI)  # SVG sizes in pt
    out = []
    if len(page.charts) != n_charts:
        out.append("%d charts, not %d" % (len(page.charts), n_charts))
    for k, c in enumerate(page.charts):
        if c["viewbox"] != box:
            out.append("chart %d: viewBox %r, not %r" % (k, c["viewbox"], box))
        if len(c["tips"]) != n_points:
            out.append("chart %d: %d tooltips, not %d" % (k, len(c["tips"]), n_points))
        if tips and not any(all(t in tip for t in tips) for tip in c["tips"]):
            out.append("chart %d: no tooltip with %r; the first: %r" % (k, tips, c["tips"][:3]))
    if page.tables != n_charts:
        out.append("%d tables, not %d" % (page.tables, n_charts))
    if page.loaders:
        out.append("elements that load something: %s" % ", ".join(page.loaders))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dom")
    ap.add_argument("--charts", type=int, required=True)
    ap.add_argument("--points", type=int, required=True)
    ap.add_argument("--tip", action="append", default=[])
    args = ap.parse_args(argv)
    page = Page()
    with open(args.dom, encoding="utf-8") as f:
        page.feed(f.read())
    found = problems(page, args.charts, args.points, args.tip)
    print("\n".join(found) or "%d charts of %d tooltips, %d tables, nothing loaded"
          % (len(page.charts), args.points, page.tables))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
