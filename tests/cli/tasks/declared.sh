# A device-only log (query-gpu alone) with the times of CI jobs given by
# --tasks (CSV or YAML): each job's baseline is the usage before it began.
gpumem-synth -s slow-release --nvsmi nv
cat > jobs.csv <<'CSV'
name,gpu,start,end
first,0,2026-01-01T00:00:05Z,2026-01-01T00:00:20Z
second,0,2026-01-01T00:00:30Z,2026-01-01T00:00:50Z
third,0,2026-01-01T00:01:40Z,2026-01-01T00:01:50Z
late,0,2026-01-01T00:04:00Z,2026-01-01T00:05:00Z
CSV
gpumem-tasks -q --tasks jobs.csv nv/query-gpu.csv
cat > jobs.yaml <<'YAML'
- name: first
  gpu: 0
  start: 2026-01-01T00:00:05Z
  end: "2026/01/01 00:00:20"
YAML
gpumem-tasks -q -t text --utc --tasks jobs.yaml nv/query-gpu.csv
