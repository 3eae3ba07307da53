# Every query-gpu log of tests/corpus: a checked record count and
# checked values on a few records each.
. "$TESTS/lib.sh"
need_corpus real/query-gpu-csv
d=$CORPUS/real/query-gpu-csv

# check FILE COUNT [OPTIONS...]: read, check the count and exit status.
check() {
	f=$1 want=$2
	shift 2
	gpumem-read -q "$@" "$d/$f" > "$f.out" 2> "$f.err"
	rc=$?
	[ $rc -eq 0 ] || die "$f: exit $rc: $(cat "$f.err")"
	expect_eq "$f: records" "$(nrec "$f.out")" "$want"
}
# row FILE N: record N (1-based) of the output.
row() {
	sed -n "$(($2 + 1))p" "$1.out"
}

check akshayroyal_rtx2070_repeated-header.csv 224
expect_eq "akshay first" "$(row akshayroyal_rtx2070_repeated-header.csv 1)" "1687460216252000000,,0,0,841,7140,8192,"
expect_eq "akshay last" "$(row akshayroyal_rtx2070_repeated-header.csv 224)" "$(tail -n 1 akshayroyal_rtx2070_repeated-header.csv.out)"

check akshayroyal_rtx2070_single-header.csv 232
expect_eq "single first" "$(row akshayroyal_rtx2070_single-header.csv 1)" "1687460016635000000,,0,0,754,7228,8192,"
expect_eq "single 9th (after a 3-minute gap)" "$(row akshayroyal_rtx2070_single-header.csv 9)" "1687460216252000000,,0,0,841,7140,8192,"

# 500 blocks of 8 GPUs; GNU date lines are the clock; row order is the GPU.
check convert-cpu-gpu_8x2080ti_date-line-blocks_no-timestamp.log 4000
expect_eq "date-line block 1, GPU 1" "$(row convert-cpu-gpu_8x2080ti_date-line-blocks_no-timestamp.log 2)" "1591693201000000000,,1,0,10983,36,11019,"
expect_eq "date-line block 2, GPU 0" "$(row convert-cpu-gpu_8x2080ti_date-line-blocks_no-timestamp.log 9)" "1591695001000000000,,0,0,0,11019,11019,"

# Windows cmd loop: CRLF, prompts, date /T + time /T as the clock.
check convert-cpu-gpu_windows-cmd-loop_crlf_no-timestamp.log 1968
expect_eq "windows block 1, GPU 5" "$(row convert-cpu-gpu_windows-cmd-loop_crlf_no-timestamp.log 6)" "1597765440000000000,,5,0,9520,1744,11264,"
expect_eq "windows last" "$(row convert-cpu-gpu_windows-cmd-loop_crlf_no-timestamp.log 1968)" "1598210040000000000,,7,0,9951,1313,11264,"
gpumem-read "$d/convert-cpu-gpu_windows-cmd-loop_crlf_no-timestamp.log" 2>&1 >/dev/null | grep -q 'skipped 738: 738 shell prompt lines$' || die "windows log: prompts not counted"

# A wrapper's own header; ISO times with +08:00; its gpu column, not index.
check gpu_glasses_8xgpu_iso-ts_nounits-wrapped.csv 43
expect_eq "glasses GPU 7" "$(row gpu_glasses_8xgpu_iso-ts_nounits-wrapped.csv 8)" "1757323610000000000,,7,0,4,,81559,"

check metamotion_v100s_l10.csv 368
expect_eq "metamotion 3rd" "$(row metamotion_v100s_l10.csv 3)" "1771135988460000000,,0,0,472,,32768,"

# One row, no timestamp: --start places it; R510 reserved memory counts
# in the total (103 + 0 + 16280).
check netdata_tesla-p100_drv510_csv-nounits-with-header.csv 1 --start 2022-10-01T00:00:00Z
expect_eq "p100" "$(row netdata_tesla-p100_drv510_csv-nounits-with-header.csv 1)" "1664582400000000000,,0,0,0,16280,16383,"

omni=timestamp,name,pci.bus_id,driver_version,pstate,pcie.link.gen.max,pcie.link.gen.current,temperature.gpu,utilization.gpu,utilization.memory,memory.total,memory.free,memory.used
check omniopt2_3xa100_noheader_i8033.csv 8 --fields $omni
# Bus 0B is GPU 0, 3B GPU 1, 8B GPU 2 (PCI order, as nvidia-smi counts).
expect_eq "omni 3x 4th" "$(row omniopt2_3xa100_noheader_i8033.csv 4)" "1717241235309000000,,2,0,38803,1534,40960,"
check omniopt2_4xa100_noheader_unsorted-gpus_i8037.csv 21 --fields $omni
# Rows of a poll out of order are sorted: .315 before .361.
expect_eq "omni 4x 17th" "$(row omniopt2_4xa100_noheader_unsorted-gpus_i8037.csv 17)" "1717241235315000000,,0,0,5,40332,40960,"
# The corrupted copy: the chopped line 4 is reported; line 8's damage is
# in columns not read, so its memory values are kept.
gpumem-read --fields $omni "$d/omniopt2_3xa100_noheader_DELIBERATELY-CORRUPTED_i8033.csv" > bad.out 2> bad.err
expect_eq "corrupted exit" $? 0
expect_eq "corrupted records" "$(nrec bad.out)" 7
grep -q "DELIBERATELY-CORRUPTED_i8033.csv:4: expected 13 fields, got 11$" bad.err || die "line 4 not reported: $(cat bad.err)"
grep -q "7 records (nvidia-smi --query-gpu CSV; device only: no per-process data, tasks are its usage's episodes, or --tasks); skipped 1: 1 unreadable$" bad.err || die "corrupted summary: $(cat bad.err)"

# noheader with units kept.  The 5th column is memory.free, not .total:
# used + it stays 20148 (the provenance note only inferred the columns).
check plato_20gb_csv-noheader-with-units_alloc-free-cycles.csv 1923 --fields timestamp,utilization.gpu,utilization.memory,memory.used,memory.free,temperature.gpu,power.draw
expect_eq "plato 1000th" "$(row plato_20gb_csv-noheader-with-units_alloc-free-cycles.csv 1000)" "1777138179726000000,,0,0,573,19575,20148,"

check trojan-input_a100-80gb_l5_memory-ramp.csv 24
expect_eq "trojan 4th" "$(row trojan-input_a100-80gb_l5_memory-ramp.csv 4)" "1765320997233000000,,0,0,8083,,81920,"

# Every file was covered above.
expect_eq "files in the folder" "$(ls "$d" | wc -l | tr -d ' ')" 12
