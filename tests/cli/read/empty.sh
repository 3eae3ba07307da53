# An empty input is no error: a header alone, and the summary says so.
: > empty.csv
gpumem-read empty.csv
