# contrib/slurm's scripts refuse what would go wrong on the cluster, before
# any job runs (no Slurm needed): a list with an empty line (line i is
# array task i), no list; an array task that is not one, or whose line
# is not in the list.  And what gpumem-slurm submits (a stand-in sbatch
# says it): an array of one task per line, the last one without its line
# feed too, and the reduce after it.
. "$TESTS/lib.sh"
slurm=$TESTS/../contrib/slurm
sh "$slurm/gpumem-slurm" --help | sed -n 1p
expect_exit 2 sh "$slurm/gpumem-slurm"
printf 'a.log\n\nb.log\n' > gap.list
expect_exit 2 sh "$slurm/gpumem-slurm" gap.list
: > empty.list
expect_exit 2 sh "$slurm/gpumem-slurm" empty.list
printf 'a.log\nb.log\n' > two.list
expect_exit 2 env -u SLURM_ARRAY_TASK_ID sh "$slurm/gpumem-array.sbatch" two.list out
expect_exit 2 env SLURM_ARRAY_TASK_ID=3 sh "$slurm/gpumem-array.sbatch" two.list out
expect_exit 2 sh "$slurm/gpumem-reduce.sbatch" out out
# The submission, to a stand-in sbatch.
mkdir fake
cat > fake/sbatch <<'EOS'
#!/bin/sh
echo "sbatch $*" | sed "s|$PWD|DIR|g; s|/[^ ]*/contrib/slurm/|CONTRIB/|g" >&2
n=$(($(cat n 2> /dev/null || echo 0) + 1))
echo $n > n
echo "$n;cluster"
EOS
chmod +x fake/sbatch
printf 'a.log\nb.log' > last.list
PATH=$PWD/fake:$PATH sh "$slurm/gpumem-slurm" -e 1m -s "-p gpu --time=10" -o res last.list
exit 0
