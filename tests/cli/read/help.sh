# --help goes to stdout with exit 0; the synopsis names every option.
gpumem-read --help
