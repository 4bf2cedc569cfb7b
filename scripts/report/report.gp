# scripts/report/report.gp — the charts of `make report` (gnuplot 5.4, pngcairo).
#
# Usage: gnuplot -e "dir='build/reports'" scripts/report/report.gp
# Reads the .dat files scripts/report/report.py writes in dir (header row of column titles, one row
# per x value, '-' for a missing figure) and writes throughput.png, guesses.png, simd.png
# and scaling.png there. `noenhanced` keeps underscores in corpus names literal.

if (!exists("dir")) dir = "build/reports"
if (!exists("slice")) slice = "N"

set terminal pngcairo size 1100,640 noenhanced font "DejaVu Sans,11"
set datafile missing "-"
set datafile columnheaders
set key outside right top vertical Left reverse noautotitle
set grid ytics lc rgb "#bbbbbb" lw 1 back
set border 3
set tics nomirror
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 border rgb "#333333"
set boxwidth 0.9
set xtics scale 0
set bmargin 4.5

# Columns after the first: one series per pipeline or level. Iterate until the header ends.
ncols(file) = system(sprintf("head -1 '%s' | wc -w", file)) + 0
# Centre of bar j (column j+2) of cluster i in a clustered histogram of n columns, gap 1.
barx(i, j, n) = i + (j - (n - 1) / 2.0) / (n + 1.0)
# Long corpus names break in two at the first underscore from their middle, so neighbouring
# tic labels do not run into each other.
under(s, i) = i > strlen(s) ? 0 : substr(s, i, i) eq "_" ? i : under(s, i + 1)
wrap(s) = strlen(s) <= 18 ? s : (k = under(s, strlen(s) / 2), \
          k == 0 ? s : substr(s, 1, k - 1)."\n".substr(s, k + 1, strlen(s)))
# Bar labels: whole numbers from 100 up, three significant digits below; k/M for rates.
count(v) = v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)
rate(v) = v >= 1e6 ? sprintf("%.3gM", v / 1e6) : v >= 1e3 ? sprintf("%.3gk", v / 1e3) : sprintf("%.3g", v)

set output dir."/throughput.png"
set title sprintf("Throughput per pipeline and corpus (first %s puzzles of each, 1 thread)", slice)
set ylabel "puzzles / second (log scale)"
set logscale y
set format y "%.1s%c"
set yrange [*:*]
f = dir."/throughput.dat"
n = ncols(f) - 1
# stats keeps only points inside the current ranges: the last chart's must not filter these
set autoscale y
ymax = 1
do for [i=2:ncols(f)] { stats f using i nooutput; if (STATS_max > ymax) { ymax = STATS_max } }
set yrange [*:ymax * 10]
plot for [i=2:ncols(f)] f using i:xtic(wrap(strcol(1))) title columnheader(i), \
     for [i=2:ncols(f)] f using (barx($0, i - 2, n)):(column(i) * 1.15):(rate(column(i))) \
         with labels rotate by 90 left font ",9" notitle

set output dir."/guesses.png"
set title "Guesses per puzzle (same runs; fewer = stronger propagation)"
set ylabel "guesses / puzzle (log scale)"
set format y "%g"
f = dir."/guesses.dat"
# Each bar carries its value, so that zero (no bar on a log scale) still reads as 0.
n = ncols(f) - 1
# stats keeps only points inside the current ranges: the last chart's must not filter these
set autoscale y
ymax = 1
do for [i=2:ncols(f)] { stats f using i nooutput; if (STATS_max > ymax) { ymax = STATS_max } }
set yrange [0.1:ymax * 40]
plot for [i=2:ncols(f)] f using i:xtic(wrap(strcol(1))) title columnheader(i), \
     for [i=2:ncols(f)] f using (barx($0, i - 2, n)):(column(i) > 0.12 ? column(i) * 1.15 : 0.12): \
         (count(column(i))) with labels rotate by 90 left font ",9" notitle

set output dir."/simd.png"
set title "Pipeline fast on the whole corpora, per SIMD level (1 thread)"
set ylabel "puzzles / second"
unset logscale y
set format y "%.1s%c"
f = dir."/simd.dat"
n = ncols(f) - 1
# stats keeps only points inside the current ranges: the last chart's must not filter these
set autoscale y
ymax = 1
do for [i=2:ncols(f)] { stats f using i nooutput; if (STATS_max > ymax) { ymax = STATS_max } }
set yrange [0:ymax * 1.15]
plot for [i=2:ncols(f)] f using i:xtic(wrap(strcol(1))) title columnheader(i), \
     for [i=2:ncols(f)] f using (barx($0, i - 2, n)):(column(i)):(rate(column(i))) \
         with labels offset 0,0.7 font ",9" notitle

set output dir."/scaling.png"
set title "Thread scaling of pipeline fast (whole corpora, best SIMD level)"
set style data linespoints
set xlabel "threads"
set ylabel "speedup over 1 thread"
set format y "%.1f"
f = dir."/scaling.dat"
set autoscale xy
stats f using 1 nooutput
set xrange [0.8:STATS_max + 0.2]
set yrange [0:STATS_max + 0.5]
set xtics 1 scale 1
set key inside left top
plot (x >= 1 && x <= STATS_max ? x : 1/0) with lines dashtype 2 lc rgb "#888888" title "linear", \
     for [i=2:ncols(f)] f using 1:i with linespoints lw 2 pt 7 ps 1.2 title columnheader(i)
