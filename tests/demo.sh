#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/demo.sh: the main job on data gpumem makes itself.  Writes demo/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
out=$top/demo
rm -rf "$out"
mkdir -p "$out"
cd "$out"
echo "1. gpumem synth writes what nvidia-smi would log on a 2-GPU host:"
"$bin/gpumem" synth --scenario demo --nvsmi logs --truth truth.csv
ls -l logs
echo
echo "2. gpumem read turns the logs into one record stream:"
"$bin/gpumem" read logs/query-gpu.csv logs/compute-apps.csv > records.csv
head -n 4 records.csv
echo "   ... ($(($(wc -l < records.csv) - 1)) records in demo/records.csv)"
echo
echo "3. gpumem tasks: how long memory stayed occupied after each job, and what"
echo "   never came back (the truth synth planted is in demo/truth.csv):"
"$bin/gpumem" tasks -t text --utc records.csv
"$bin/gpumem" tasks -q records.csv > tasks.csv
"$bin/gpumem" usage --every 10s records.csv > usage.csv
echo
echo "4. gpumem gantt draws the tasks, here as text (no gnuplot needed):"
"$bin/gpumem" gantt --text --utc -q records.csv
echo
echo "5. gpumem plot draws memory over time (demo/usage.png); gpumem report writes"
echo "   one HTML page: headline numbers, the charts of each GPU, the task table."
"$bin/gpumem" plot -q --utc -o usage.png records.csv
"$bin/gpumem" report -q --utc -o report.html logs/query-gpu.csv logs/compute-apps.csv
echo
echo "Demo data and results are in $out: records.csv, tasks.csv, usage.csv,"
echo "usage.png, and the report: open $out/report.html in a browser."
