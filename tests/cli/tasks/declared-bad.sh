# A bad --tasks file: named by file and line, exit 2.
gpumem-synth -s clean > s.csv
printf 'name,gpu,start,end\nok,0,2026-01-01T00:00:01Z,2026-01-01T00:00:02Z\nbad,x,2026-01-01T00:00:01Z,2026-01-01T00:00:02Z\n' > a.csv
rc=0; gpumem-tasks --tasks a.csv s.csv || rc=$?; echo "exit $rc"
printf 'name,gpu,start,end\nbad,0,soon,2026-01-01T00:00:02Z\n' > b.csv
rc=0; gpumem-tasks --tasks b.csv s.csv || rc=$?; echo "exit $rc"
printf 'name,gpu,start,end\nbad,0,2026-01-01T00:00:03Z,2026-01-01T00:00:02Z\n' > c.csv
rc=0; gpumem-tasks --tasks c.csv s.csv || rc=$?; echo "exit $rc"
printf -- '- name: a\n  gpu: 0\n  start: 2026-01-01T00:00:01Z\n  finish: 2026-01-01T00:00:02Z\n' > d.yaml
rc=0; gpumem-tasks --tasks d.yaml s.csv || rc=$?; echo "exit $rc"
