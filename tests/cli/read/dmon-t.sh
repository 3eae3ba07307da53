# dmon -o T prints a time of day and no date: the date is --start's, and
# a time earlier than the row before it is the next day.  Without --start
# the log is refused, saying why.
cat > t.log <<'LOG'
#Time        gpu     fb   bar1 
#HH:MM:SS    Idx     MB     MB 
 23:59:58      0    100      1 
 23:59:59      0    110      1 
 00:00:00      0    120      1 
 00:00:01      0    130      1 
LOG
gpumem-read --start 2024-02-28T23:59:00Z t.log
# A --start later in the day than the first row: the first row is the
# next day (the log began after --start).
gpumem-read -q --start 2024-02-28T23:59:59.500Z t.log | sed -n 2p
rc=0; gpumem-read t.log || rc=$?; echo "exit $rc"
# A loop "date; nvidia-smi dmon -o T -c 2": each date line gives the day.
cat > loop.log <<'LOG'
Thu Feb 29 23:59:58 UTC 2024
#Time        gpu     fb 
#HH:MM:SS    Idx     MB 
 23:59:58      0    100 
 23:59:59      0    110 
Fri Mar  1 00:10:00 UTC 2024
#Time        gpu     fb 
#HH:MM:SS    Idx     MB 
 00:10:00      0    200 
 00:10:01      0    210 
LOG
gpumem-read -q loop.log
