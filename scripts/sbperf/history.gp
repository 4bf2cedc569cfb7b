# scripts/sbperf/history.gp — the trend chart of `make perf-history` (gnuplot 5.4).
#
# Usage: gnuplot -e "dir='build/reports'; term='png'" scripts/sbperf/history.gp   (term png or svg)
# Reads what scripts/sbperf/history.py writes in dir/data/history: vars.gp (n_entries,
# n_commits, threshold, and per panel j file_j, title_j, ref_j, reflabel_j) and one .dat per
# entry (commit number, Ir per puzzle, '-' where the commit has no measurement). Writes
# dir/history.png or dir/history.svg: one panel per entry, Ir per puzzle over the commits,
# the reference as a dashed line and the gate's +-threshold band around it.

if (!exists("dir")) dir = "build/reports"
if (!exists("term")) term = "png"
data = dir."/data/history"
load data."/vars.gp"

cols = n_entries <= 4 ? n_entries : (n_entries <= 9 ? 3 : 4)
rows = int((n_entries + cols - 1) / cols)
width = 360 * cols
height = 250 * rows + 40
if (term eq "svg") {
    set terminal svg size width, height noenhanced font "DejaVu Sans,10" background rgb "white"
} else {
    set terminal pngcairo size width, height noenhanced font "DejaVu Sans,9"
}
set output dir."/history.".term

set datafile missing "-"
set datafile columnheaders
set grid ytics lc rgb "#cccccc" back
set border 3
set tics nomirror
set key off
set xrange [0.5 : n_commits + 0.5]
set xtics 1 scale 0.5
if (n_commits > 20) { set xtics int(n_commits / 10) }
set format y "%.0f"
set lmargin 10
set multiplot layout rows, cols title sprintf("Callgrind Ir per puzzle over %d commits (x: commit number, see history.html); dashed: reference, band: +-%g%% (the gate's threshold)", n_commits, threshold)
do for [j = 1:n_entries] {
    f = data."/".value("file_".j)
    r = value("ref_".j)
    set title value("title_".j)."  (vs ".value("reflabel_".j).")"
    plot '+' using 1:(r * (1 - threshold / 100.0)):(r * (1 + threshold / 100.0)) \
             with filledcurves lc rgb "#d8e8f8" notitle, \
         r with lines dt 2 lc rgb "#3060a0" notitle, \
         f using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb "#c03020" notitle
}
unset multiplot
