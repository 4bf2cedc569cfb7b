#!/usr/bin/env python3
"""tests/perf/test_charts.py — sbperf.charts, what the charts of make report, make study and
make perf-history share: numbers in engineering notation with their unit, log-axis limits,
figures drawn to their exact pixel size, SVG text with tooltips and prefixed ids for a page,
and the PNG check the shell tests use (on good, truncated, resized and foreign files). Part
of `make test` (test-perf); needs matplotlib (Debian's python3-matplotlib, PYTHON), no timing.

Run alone: PYTHONPATH=scripts /usr/bin/python3 tests/perf/test_charts.py
"""

import contextlib
import io
import os
import re
import tempfile
import unittest

from sbperf import charts


class Eng(unittest.TestCase):
    def test_prefixes_and_three_significant_digits(self):
        self.assertEqual(charts.eng(1467120, "/s"), "1.47 M/s")
        self.assertEqual(charts.eng(188804, "/s"), "189 k/s")
        self.assertEqual(charts.eng(2569.8, "/s"), "2.57 k/s")
        self.assertEqual(charts.eng(2.5e-7, "s"), "250 ns")
        self.assertEqual(charts.eng(3.4e-6, "s"), "3.4 \u00b5s")
        self.assertEqual(charts.eng(1000, "/s"), "1 k/s")
        self.assertEqual(charts.eng(-1500.0), "-1.5 k")

    def test_no_space_before_a_bare_per_unit_and_none_for_counts(self):
        self.assertEqual(charts.eng(203, "/s"), "203/s")
        self.assertEqual(charts.eng(683.375), "683")
        self.assertEqual(charts.eng(16.375), "16.4")

    def test_a_count_below_one_has_no_milli(self):
        self.assertEqual(charts.eng(0.25), "0.25")
        self.assertEqual(charts.eng(0.0123), "0.0123")

    def test_rounding_up_to_the_next_prefix(self):
        self.assertEqual(charts.eng(999.7, "/s"), "1 k/s")
        self.assertEqual(charts.eng(999700, "/s"), "1 M/s")

    def test_zero_and_missing(self):
        self.assertEqual(charts.eng(0), "0")
        self.assertEqual(charts.eng(0, "s"), "0 s")
        self.assertEqual(charts.eng(0, "/s"), "0/s")
        self.assertEqual(charts.eng(None), "-")
        self.assertEqual(charts.eng(float("nan")), "-")


class Limits(unittest.TestCase):
    def test_from_the_decade_below_with_room_above(self):
        self.assertEqual(charts.log_limits(203, 1.47e6, 8), (100.0, 1.47e6 * 8))

    def test_at_least_one_decade(self):
        self.assertEqual(charts.log_limits(3.0, 4.0), (1.0, 10.0))


def drawn(kind, rows=1):
    """A figure of this kind and rows with a line and a title, as the charts draw."""
    fig = charts.figure(kind, rows)
    ax = fig.subplots()
    ax.plot([1, 2, 3], [1, 4, 9], label="a line")
    ax.plot([2], [4], marker="o", gid="pt-0-1")
    ax.set_title("a title & <markup>")
    charts.eng_axis(ax.yaxis, "/s")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


class Png(unittest.TestCase):
    def test_a_chart_has_exactly_its_size(self):
        with tempfile.TemporaryDirectory() as d:
            for kind, rows in (("report", 1), ("study", 1), ("history", 3)):
                path = os.path.join(d, "%s.png" % kind)
                charts.save_png(drawn(kind, rows), path)
                self.assertEqual(charts.png_size(path), charts.size(kind, rows))
                self.assertIsNone(charts.check(path, kind, rows))

    def test_rows_multiply_the_height(self):
        w, h = charts.SIZES["history"]
        self.assertEqual(charts.size("history", 3), (w, 3 * h))

    def test_what_check_refuses(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "good.png")
            charts.save_png(drawn("report"), good)
            with open(good, "rb") as f:
                data = f.read()
            cut = os.path.join(d, "cut.png")
            with open(cut, "wb") as f:
                f.write(data[:len(data) // 2])
            text = os.path.join(d, "chart.svg")
            with open(text, "w") as f:
                f.write("<svg/>")
            self.assertIn("not a whole PNG", charts.check(cut, "report"))
            self.assertIn("not a whole PNG", charts.check(text, "report"))
            self.assertIn("1200x720 pixels, study charts of 1 rows are 1200x420",
                          charts.check(good, "study"))
            self.assertIn("No such file", charts.check(os.path.join(d, "none.png"), "report"))

    def test_the_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "c.png")
            charts.save_png(drawn("history", 2), path)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(charts.main(["check", path, "history", "2"]), 0)
                self.assertEqual(charts.main(["check", path, "history"]), 1)
                self.assertEqual(charts.main(["check", path, "nosuchkind"]), 2)
                self.assertEqual(charts.main(["check", path, "history", "x"]), 2)
                self.assertEqual(charts.main(["ready"]), 0)
            self.assertIn("history charts of 1 rows", err.getvalue())


class Svg(unittest.TestCase):
    def test_tooltips_ids_and_size_for_a_page(self):
        text = charts.svg(drawn("history-corpus"), {"pt-0-1": "#2 abc\na <b> & c"}, "c7")
        self.assertTrue(text.startswith("<svg"))
        self.assertNotIn("<?xml", text)
        self.assertNotIn("DOCTYPE", text)
        self.assertRegex(text, r'^<svg[^>]* width="100%"')
        self.assertNotRegex(text.split(">", 1)[0], r'height=')
        w, h = charts.size("history-corpus")
        self.assertIn('viewBox="0 0 %g %g"' % (w * 0.72, h * 0.72), text)
        # the tooltip, escaped, first in its point's group
        self.assertIn('<g id="c7-pt-0-1"><title>#2 abc\na &lt;b&gt; &amp; c</title>', text)
        # every id and every reference to one carries the prefix
        ids = re.findall(r'\bid="([^"]+)"', text)
        self.assertTrue(ids and all(i.startswith("c7-") for i in ids), ids[:5])
        refs = re.findall(r'(?:href="#|url\(#)([^")]+)', text)
        self.assertTrue(refs and all(r in ids for r in refs), refs[:5])
        # the same chart gives the same text, and another prefix no shared id
        self.assertEqual(text.replace("<title>#2 abc\na &lt;b&gt; &amp; c</title>", ""),
                         charts.svg(drawn("history-corpus"), {}, "c7"))
        other = charts.svg(drawn("history-corpus"), {}, "c8")
        self.assertFalse(set(ids) & set(re.findall(r'\bid="([^"]+)"', other)))


if __name__ == "__main__":
    unittest.main(verbosity=1)
