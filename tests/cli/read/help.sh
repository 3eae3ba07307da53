# --help: the synopsis, what read does, its own options, then the read
# options and the exit status, on stdout (nothing on stderr), exit 0.
# That every option listed is accepted, and every one the man page names
# is listed, is all/help-options.sh's.
gpumem-read --help
