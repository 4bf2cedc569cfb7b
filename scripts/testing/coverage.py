#!/usr/bin/env python3
"""scripts/testing/coverage.py — gcovr over a --coverage build, for `make coverage` (mk/coverage.mk).

Usage: scripts/testing/coverage.py [GCOVR ARGUMENTS...]   (the same arguments as gcovr)

Runs Debian's gcovr with one difference: a function whose first line differs between the
objects that compile it is merged, not refused. The kernel header src/kernel/kernel.h defines
its helpers in per-level #if branches, so each stamp (kernel_sse4.c, kernel_avx2.c, ...)
sees sbk_load and its siblings at another line; gcovr 5.2 stops on that with an
AssertionError, gcovr 6 merges such functions (--merge-mode-functions). Line and branch
counts are per line and do not depend on it.
"""
import sys

import gcovr.merging
from gcovr.__main__ import main

_merge = gcovr.merging.merge_function
_LOOSE = gcovr.merging.MergeOptions(ignore_function_lineno=True)


def _merge_function(left, right, options=gcovr.merging.DEFAULT_MERGE_OPTIONS):
    return _merge(left, right, _LOOSE if left.lineno != right.lineno else options)


gcovr.merging.merge_function = _merge_function

if __name__ == "__main__":
    sys.exit(main())
