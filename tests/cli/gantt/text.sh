# The Unicode Gantt chart (--text, no gnuplot) of known inputs: from a
# record stream (delays with their sampling interval, the leak running to
# the end of the log) and from a task table (which does not say where
# the log ends, nor the sampling interval).
gpumem-synth -s demo > demo.csv
gpumem-gantt --text --width 100 demo.csv
gpumem-synth -s concurrent | gpumem-gantt --text --width 72
gpumem-synth -s leak | gpumem-tasks -q | gpumem-gantt --text --width 80
# Labels are cut to a third of the line.
gpumem-gantt --text --width 40 demo.csv
