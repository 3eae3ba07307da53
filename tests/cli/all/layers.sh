# The includes go one way (DEVELOPERS.md, "Layout"): each library folder
# of formats/ includes the headers of the folders below it and of its
# own, never one above; no folder of formats/ includes analyze/ or
# reports/.  From the floor up:
#   core      nothing outside it
#   wire      core (the GMEM protocol, below the capture reader)
#   text      core (the log parsers: format.h is their contract)
#   capture   core, wire
#   record    core
#   reader    the parsers and everything of formats/ below it
# A header is found by its name in the tree (every folder that holds one
# is on the include path), so a header's folder is where it lives.
. "$TESTS/lib.sh"
top=$TESTS/..
cd "$top"
find formats analyze reports -name '*.h' > "$OLDPWD/headers"
cd "$OLDPWD"
rules='core:core
wire:core wire
text:core text
capture:core wire capture
record:core record
reader:core wire text capture record reader'
n=0
for d in core wire text capture record reader; do
	allowed=$(printf '%s\n' "$rules" | sed -n "s/^$d://p")
	for f in "$top"/formats/$d/*.[ch]; do
		n=$((n + 1))
		awk -v allowed=" $allowed " -v file="formats/$d/${f##*/}" '
		FNR == NR {
			h = $0; sub(/.*\//, "", h)
			dir = $0; sub(/\/[^\/]*$/, "", dir)
			where[h] = dir
			next
		}
		/^[ \t]*#[ \t]*include[ \t]*"/ {
			h = $0
			sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
			if (!(h in where))
				next
			dir = where[h]
			sub(/^formats\//, "", dir)
			if (index(allowed, " " dir " ") == 0)
				printf "%s:%d: includes %s (%s), above it\n",
				    file, FNR, h, where[h]
		}' headers "$f" >> bad
	done
done
[ $n -ge 50 ] || die "only $n files of formats/ looked at"
if [ -s bad ]; then
	cat bad >&2
	die "includes that go up: $(wc -l < bad)"
fi
