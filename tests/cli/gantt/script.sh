# The gnuplot script of a known Gantt chart (--script).
gpumem-synth -s demo | gpumem-gantt --script --size 1000x300
