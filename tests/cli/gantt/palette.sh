# The colour scale of release delays is fixed, the same in every chart:
# stops at 0, 1 s, 10 s, 1 min and 10 min+, a delay's colour between the
# stops around it (on the colour bar, one step a stop; past 10 min, the
# last).  Two charts of different delays write the same palette lines,
# and the delays of a task table written by hand (0.5 s, 1 s, 5.5 s,
# 60 s, 2 h) sit at 0.5, 1, 1.5, 3 and 4.
. "$TESTS/lib.sh"
cat > tasks.csv <<'CSV'
host,gpu,process_id,name,start,end,peak_mib,held_mib,release,release_delay_s,leaked_mib,status,delay_min_s,delay_max_s,note
,0,1201,a,1767225600000000000,1767225610000000000,100,100,1767225610500000000,0.5,0,released,0,1,
,0,1202,b,1767225600000000000,1767225610000000000,100,100,1767225611000000000,1,0,released,0,1,
,0,1203,c,1767225600000000000,1767225610000000000,100,100,1767225615500000000,5.5,0,released,5,6,
,0,1204,d,1767225600000000000,1767225610000000000,100,100,1767225670000000000,60,0,released,59,61,
,0,1205,e,1767225600000000000,1767225610000000000,100,100,1767232810000000000,7200,0,released,7199,7201,
CSV
gpumem-gantt --script tasks.csv > hand.gp
gpumem-synth -s demo | gpumem-gantt --script > demo.gp
gpumem-synth -s slow-release | gpumem-gantt --script > slow.gp
grep -E '^set (palette|cbrange|cbtics|cblabel)' hand.gp
for f in demo.gp slow.gp; do
	grep -E '^set (palette|cbrange|cbtics|cblabel)' $f > $f.pal
	grep -E '^set (palette|cbrange|cbtics|cblabel)' hand.gp | cmp -s - $f.pal ||
		die "$f: another colour scale: $(cat $f.pal)"
done
# The colour column of the delays, by task.
sed -n '/^\$held << EOD/,/^EOD/p' hand.gp
