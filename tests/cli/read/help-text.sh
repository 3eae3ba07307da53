# nvidia-smi's help texts hold field names or options, no data: refused.
cat > h.txt <<'LOG'
NVIDIA System Management Interface -- v590.48.01

NVSMI provides monitoring information for Tesla and select Quadro devices.
LOG
cat > q.txt <<'LOG'
List of valid properties to query for the switch "--query-compute-apps=":

Section about Active Compute Processes properties
LOG
rc=0; gpumem-read h.txt q.txt || rc=$?; echo "exit $rc"
