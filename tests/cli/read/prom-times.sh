# The time of a sample: its own timestamp (milliseconds) wins; else a
# comment or date(1) line before its scrape gives the time; else
# --start/--interval.  A file of one series at many timestamps (a range
# dump) is read whole.
cat > ts.prom <<'LOG'
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa"} 100 1717241235361
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa"} 200 1717241240361
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa"} 300 1717241245361
DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-aaaa"} 39900 1717241235361
DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-aaaa"} 39800 1717241240361
LOG
gpumem-read ts.prom
cat > comments.prom <<'LOG'
# 2024-06-01T11:27:15Z
DCGM_FI_DEV_FB_USED{gpu="0"} 100
# timestamp: @1717241240
DCGM_FI_DEV_FB_USED{gpu="0"} 200
Sat Jun  1 11:27:25 UTC 2024
DCGM_FI_DEV_FB_USED{gpu="0"} 300
# scraped at 2024/06/01 11:27:30.500
DCGM_FI_DEV_FB_USED{gpu="0"} 400
# EOF
LOG
gpumem-read comments.prom
# A loop that kept only the FB lines ("curl ... | grep FB_USED >> log"):
# the series comes again, so a scrape ends there.
cat > grep.prom <<'LOG'
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa"} 100
DCGM_FI_DEV_FB_USED{gpu="1",UUID="GPU-bbbb"} 5
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-aaaa"} 150
DCGM_FI_DEV_FB_USED{gpu="1",UUID="GPU-bbbb"} 6
LOG
gpumem-read --start 2024-06-01T11:27:15Z --interval 1m grep.prom
