gpumem-read --version
gpumem read --version
