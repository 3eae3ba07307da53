# Binary garbage and text no format reads: one line each, exit 2.
head -c 3000 /dev/zero | tr '\0' '\1' > junk.bin
printf 'hello world\nthis is not a log\n' > words.txt
printf '\037\213\010\000\000\000\000\000\000\003' > notreally.gz
gpumem-read junk.bin words.txt notreally.gz
