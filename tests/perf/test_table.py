#!/usr/bin/env python3
"""tests/perf/test_table.py — sbperf.table: the Markdown tables the gates and the history
print (aligned columns, numbers to the right). Part of `make test` (test-perf).

Run alone: PYTHONPATH=scripts python3 tests/perf/test_table.py
"""

import io
import unittest

from sbperf import table


def printed(rows):
    buf = io.StringIO()
    table.print_table(rows, buf)
    return buf.getvalue().splitlines()


class Table(unittest.TestCase):
    def test_thousands_separators(self):
        self.assertEqual(table.fmt_int(1234567), "1,234,567")
        self.assertEqual(table.fmt_int(12), "12")

    def test_columns_align_and_numbers_go_right(self):
        lines = printed([("entry", "Ir", "delta"), ("fast/scalar/a", "1,000", "+5.00%"),
                         ("b", "-", "-0.10%")])
        self.assertEqual(len({len(line) for line in lines}), 1, lines)
        self.assertEqual(lines[0], "| entry         |    Ir |  delta |")
        self.assertEqual(lines[1], "|---------------|------:|-------:|")
        self.assertEqual(lines[3], "| b             |     - | -0.10% |")

    def test_a_column_with_text_stays_left(self):
        lines = printed([("a", "b"), ("1", "x"), ("2", "3")])
        self.assertEqual(lines[1], "|--:|---|")
        self.assertEqual(lines[2], "| 1 | x |")

    def test_a_header_alone_is_left_aligned(self):
        self.assertEqual(printed([("n", "m")]), ["| n | m |", "|---|---|"])


if __name__ == "__main__":
    unittest.main(verbosity=1)
