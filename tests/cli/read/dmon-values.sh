# dmon and pmon rows whose date, time or pid cannot be read, written as
# nvidia-smi prints them: each is named with its line and skipped, the
# rows around them read (pid 0 is no process).  A log of times of day without a date (-o T) is
# refused without --start.
. "$TESTS/lib.sh"
cat > dt.log <<'LOG'
#Date       Time        gpu     fb   bar1 
#YYYYMMDD   HH:MM:SS    Idx     MB     MB 
 20240104   13:54:35      0    239      3 
 20240104   13:54:6x      0    239      3 
 2024-01-04 13:54:37      0    239      3 
 20240104   13:54:38      0    241      3 
LOG
gpumem-read dt.log
cat > t.log <<'LOG'
#Time        gpu     fb   bar1 
#HH:MM:SS    Idx     MB     MB 
 13:54:35      0    239      3 
LOG
rc=0; gpumem-read t.log || rc=$?
echo "time of day only: exit $rc"
gpumem-read -q --start 2024-01-04T00:00:00Z t.log | tail -n 1
cat > pm.log <<'LOG'
# gpu         pid   type     fb   command 
# Idx           #    C/G     MB   name 
    0       4242     C     1024   python3 
    0        abc     C     1024   python3 
    0          0     C     1024   python3 
    0          -     -        -   -       
LOG
gpumem-read --start 2024-01-04T00:00:00Z --interval 1s pm.log
