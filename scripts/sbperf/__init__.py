"""sbperf — the project's performance tooling, run as modules (PYTHONPATH=scripts):

  measure      callgrind runs of the perf driver and their parsing; the workload's slices
  stats        change in percent, spread, a figure of two sample sets, the Mann-Whitney U test
  table        the aligned Markdown tables
  gate         `make perf-check` / `make perf-baseline`: the instruction-count gate (of the
               library, or of a solver plug-in)
  avx512       the timed gate of the AVX-512 kernel (valgrind cannot run it)
  worktree     a revision's perf driver, built in its own git worktree
  history      `make perf-history`: counts over commits, stored as JSON Lines
  report       the history's charts and page (history.png, history.html)
  charts       what the charts share: matplotlib set up for files, sizes, units, SVG tooltips
  bisect       `make perf-bisect`: the first commit above the threshold
  json_schema  the validator of bench/*.schema.json
  compare      `make compare`: sudokubench against tdoku, same run
  compare_ir   `make compare-ir`: instructions beside that comparison
  guess_model  an independent model of the search's guesses (`make test-guesses`)
"""
