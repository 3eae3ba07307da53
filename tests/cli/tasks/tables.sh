# The same table for people (text, md) and for jq (json); delays carry
# the sampling interval they are known to.
gpumem-synth -s demo > demo.csv
gpumem-tasks -q -t text --utc demo.csv
gpumem-tasks -q -t md --utc demo.csv
gpumem-tasks -q -t json --utc demo.csv
