# The gnuplot script of a known input (--script: no gnuplot is run).  It
# holds no path and no time but the data's, so it is compared whole.
gpumem-synth -s demo | gpumem-plot --script --size 1000x600
