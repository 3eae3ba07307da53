# A parser that decides at the end of its input whether it held anything
# (query-text without its 'NVSMI LOG' banner: lines passed over, not one
# report) decides the same on a worker thread (-j 2) as on the main one:
# the lines it passed over count, though a worker hands their count on.
. "$TESTS/lib.sh"
printf 'GPU memory\nUsed : 10 MiB\nnot a report\n' > a.txt
printf 'some text\n\nmore text\n' > b.txt
same_jobs gpumem-read --format query-text a.txt b.txt
