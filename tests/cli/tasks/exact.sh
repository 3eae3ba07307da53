# The classic cases, field by field: immediate release (delay 0), a slow
# release, the "closed Stable Diffusion" leak, a partial leak, two tasks
# waiting at once, pid reuse.
for s in sequential leak partial-leak two-waiting pid-reuse; do
	gpumem-synth -s $s | gpumem-tasks -q
done
