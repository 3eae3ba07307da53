# dmon -o D prints a date and no time of day: samples are --interval
# apart from the date's midnight (local), or from --start.
cat > d.log <<'LOG'
#Date       gpu     fb 
#YYYYMMDD   Idx     MB 
 20240104     0    100 
 20240104     1    200 
 20240104     0    101 
 20240104     1    201 
LOG
gpumem-read --interval 5s d.log
gpumem-read -q --interval 5s --start 2024-01-04T08:00:00Z d.log | tail -n 1
rc=0; gpumem-read d.log || rc=$?; echo "exit $rc"
