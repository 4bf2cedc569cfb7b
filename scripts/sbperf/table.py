"""sbperf.table — the aligned Markdown tables the gates and the history print."""

import re


def fmt_int(n):
    """Returns n with thousands separators."""
    return "{:,}".format(n)


def print_table(rows, out):
    """Prints rows as an aligned Markdown table (first row the header; columns whose cells
    are all numbers, or '-', are right-aligned)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    number = re.compile(r"^([-+]?[0-9][0-9,.]*(e[-+]?[0-9]+)?%?|-)$")
    numeric = [len(rows) > 1 and all(number.match(r[i]) for r in rows[1:])
               for i in range(len(rows[0]))]
    def line(r):
        cells = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(r, widths, numeric)]
        return "| " + " | ".join(cells) + " |"
    print(line(rows[0]), file=out)
    print("|" + "|".join(("-" * (w + 1) + ":") if num else ("-" * (w + 2))
                         for w, num in zip(widths, numeric)) + "|", file=out)
    for r in rows[1:]:
        print(line(r), file=out)

