# A configuration: task names by pid and by pattern, the tolerance.
gpumem-synth -s concurrent > s.csv
cat > c.yaml <<'YAML'
# Comments are fine.
tolerance_mib: 128
names:
  - pid: 6003
    name: "LLM server"
  - match: "py*"
    name: python job
YAML
gpumem-tasks -q --config c.yaml s.csv | cut -d, -f3,4,12
