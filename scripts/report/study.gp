# scripts/report/study.gp — the Pareto chart of `make study` (gnuplot 5.4, pngcairo).
#
# Usage: gnuplot -e "dir='build/reports'" scripts/report/study.gp
# Reads dir/study/NAME.dat (usec/puzzle, guesses/puzzle, "pipeline") and NAME.pareto.dat,
# which scripts/report/study.py writes, and draws dir/study.png: one panel per corpus, every row a
# labelled point, the rows no other beats in both joined as the front. Time is on a log
# scale: the fused kernel and the generic engine are 2 orders of magnitude apart.

if (!exists("dir")) dir = "build/reports"

files = system(sprintf("ls '%s'/study/*.dat 2>/dev/null | grep -v '[.]pareto[.]dat$'", dir))
n = words(files)
if (n == 0) { print "study.gp: no data in ".dir."/study"; exit }
rows = int((n + 1) / 2)

set terminal pngcairo size 1200, 460 * rows noenhanced font "DejaVu Sans,10"
set output dir."/study.png"
set multiplot layout rows, 2
set logscale x
set grid lc rgb "#bbbbbb" lw 1 back
set border 3
set tics nomirror
set xlabel "usec/puzzle (log scale)"
set ylabel "guesses/puzzle"
set key top right
do for [i = 1:n] {
    f = word(files, i)
    front = f[1:strlen(f) - 4].".pareto.dat"
    set title system(sprintf("basename '%s' .dat", f))
    plot f using 1:2 with points pt 7 ps 0.8 lc rgb "#1f5fa8" notitle, \
         f using 1:2:3 with labels font ",7" left offset 0.6, 0.4 notitle, \
         front using 1:2 with linespoints lw 2 pt 6 lc rgb "#c00000" title "Pareto front"
}
unset multiplot
