# --every: buckets with min, mean and max of each curve.
gpumem-synth -s slow-release | gpumem-usage --every 1m
gpumem-synth -s multi-gpu | gpumem-usage --every 30s --gpu 4-5
