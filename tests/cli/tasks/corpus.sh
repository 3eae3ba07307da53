# Real logs with per-process data: the capture bundles' compute-apps
# sections, joined to their query-gpu sections.  Every process is still
# listed at the bundle's last poll: all running.
. "$TESTS/lib.sh"
need_corpus real/capture-bundle
gpumem-tasks -q "$CORPUS/real/capture-bundle/nvgpuexp_linux_h200_drv590.48.01.txt"
