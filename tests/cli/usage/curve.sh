# usage = total - free; attributed = what live processes hold;
# unattributed = the rest.  A task ends at t=20 with 4096 MiB that come
# back at t=23: unattributed shows them in between.
gpumem-synth -s slow-release | gpumem-usage | sed -n '1p;20,25p'
