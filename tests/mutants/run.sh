#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/mutants/run.sh: break the code on purpose, one rule at a time, and
# check that a test notices (`make mutants`).
#
#   sh tests/mutants/run.sh [-nv] [NAME ...]
#
# tests/mutants/list holds the mutants (its opening comment says how).
# The tracked and new files of the tree are copied into a temporary
# directory, built there once (the normal build, make -j2), and the tests
# the mutants name are run once unchanged: they must pass.  Then each
# mutant (the NAMEs given, or all) is applied alone, the tree rebuilt and
# its tests run (tests/run.sh --only TEST, each in turn, until one fails):
# KILLED when one fails, SURVIVED when all pass; then the file is put
# back.  The last line is "mutants: N killed, N survived".  Exit 0 when
# every mutant was killed, 1 when one survived, 2 when one no longer
# applies (its text is not in its file exactly once: the list must follow
# the code), does not build, or the tests fail without a mutant.  -v shows
# the output of the tests of a survivor and of a build that failed; -n
# only checks that every mutant applies to the tree as it is (after a
# merge: which ones must be aimed again), without building anything.
# A test that runs longer than MUTANT_TIMEOUT seconds (300) fails: a
# mutant may make a tool loop.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
list=$top/tests/mutants/list
verbose=0 dry=0
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1; shift ;;
	-n) dry=1; shift ;;
	*) break ;;
	esac
done
limit=${MUTANT_TIMEOUT:-300}

work=$(mktemp -d "${TMPDIR:-/tmp}/gpumem-mutants.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' INT TERM
tree=$work/tree
mkdir "$tree"

# The mutants, one a line in $work/m (fields separated by a tab: name,
# file, rule, tests); find and replace texts in $work/NAME.find and .repl.
awk -v dir="$work" '
function flush() {
	if (name == "")
		return
	if (file == "" || !hasfind || tests == "" || rule == "") {
		printf "%s: mutant %s: file, find, rule and tests are needed\n",
		    FILENAME, name > "/dev/stderr"
		bad = 1
	}
	if (name in seen) {
		printf "%s: mutant %s twice\n", FILENAME, name > "/dev/stderr"
		bad = 1
	}
	seen[name] = 1
	printf "%s", find > (dir "/" name ".find")
	printf "%s", repl > (dir "/" name ".repl")
	close(dir "/" name ".find")
	close(dir "/" name ".repl")
	printf "%s\t%s\t%s\t%s\n", name, file, rule, tests > (dir "/m")
	name = file = rule = tests = find = repl = ""
	hasfind = hasrepl = 0
}
/^#/ { next }
/^[ \t]*$/ { flush(); next }
{
	key = $0
	sub(/:.*/, "", key)
	val = substr($0, length(key) + 2)
	sub(/^ /, "", val)
}
key == "name" { name = val; next }
key == "file" { file = val; next }
key == "rule" { rule = val; next }
key == "tests" { tests = val; next }
# Several find (repl) lines are lines of one text.
key == "find" { find = hasfind ? find "\n" val : val; hasfind = 1; next }
key == "repl" { repl = hasrepl ? repl "\n" val : val; hasrepl = 1; next }
{
	printf "%s:%d: unknown line: %s\n", FILENAME, FNR, $0 > "/dev/stderr"
	bad = 1
}
END {
	flush()
	exit bad ? 2 : 0
}' "$list" || exit 2

# Only the mutants named, in the order of the list.
if [ $# -gt 0 ]; then
	for n in "$@"; do
		grep -q "^$n	" "$work/m" || {
			echo "no mutant $n" >&2
			exit 2
		}
	done
	printf '%s\n' "$@" > "$work/names"
	awk -F '\t' 'NR == FNR { want[$0] = 1; next } $1 in want' \
	    "$work/names" "$work/m" > "$work/sel"
	mv "$work/sel" "$work/m"
fi

# replace FILE FIND REPL: replace the only occurrence of the text in FIND
# (a file) by the text in REPL; exit 1 when it does not occur exactly once.
replace() {
	awk -v findf="$2" -v replf="$3" '
	function slurp(f,    s, line, n) {
		s = ""
		n = 0
		while ((getline line < f) > 0)
			s = s (n++ ? "\n" : "") line
		close(f)
		return s
	}
	BEGIN {
		find = slurp(findf)
		repl = slurp(replf)
		text = slurp(ARGV[1])
		rest = text
		n = 0
		while ((i = index(rest, find)) > 0) {
			n++
			rest = substr(rest, i + length(find))
		}
		if (n != 1)
			exit 1
		i = index(text, find)
		printf "%s%s%s\n", substr(text, 1, i - 1), repl,
		    substr(text, i + length(find))
	}' "$1"
}

# test_passes TEST: tests/run.sh --only TEST in the copy passes (and ran
# something: a pattern that matches no test is an error).
test_passes() {
	rc=0
	timeout "$limit" sh "$tree/tests/run.sh" --only "$1" \
	    "$tree/bin" "$tree/build/normal" > "$work/out" 2>&1 || rc=$?
	if tail -n 1 "$work/out" | grep -q '^0 passed, 0 failed\(, [0-9]* skipped\)*$'; then
		# A case that skips (a port taken by another run, a tool
		# missing) defends nothing: said with its reason.
		if grep -q '^skip ' "$work/out"; then
			echo "mutants: test $1 was skipped:" \
			    "$(grep -m 1 '^skip ' "$work/out")" >&2
		else
			echo "mutants: test $1 matches nothing" >&2
		fi
		exit 2
	fi
	return $rc
}

if [ $dry -eq 1 ]; then
	stale=0
	while IFS='	' read -r name file rule tests <&3; do
		if ! replace "$top/$file" "$work/$name.find" \
		    "$work/$name.repl" > /dev/null; then
			echo "STALE    $name: its text is not in $file" \
			    "exactly once"
			stale=$((stale + 1))
		fi
	done 3< "$work/m"
	echo "mutants: $(wc -l < "$work/m") listed, $stale stale"
	[ $stale -eq 0 ] || exit 2
	exit 0
fi

cd "$top"
git ls-files -z -c -o --exclude-standard |
    tar --null -T - --ignore-failed-read -cf - 2> /dev/null |
    tar -xf - -C "$tree"
echo "mutants: building a copy of the tree in $tree"
make -C "$tree" -j2 all tests > "$work/build" 2>&1 || {
	tail -n 20 "$work/build"
	echo "mutants: the unchanged tree does not build" >&2
	exit 2
}

# What a mutant's tests run: the programs, the test tools and the unit
# tests it names (not every unit test nor the fuzz replayers: remaking
# them all for every mutant would triple its cost).
targets=$(cd "$tree" && ls -d bin/* build/normal/tools/*)

# Every test named, once, on the unchanged tree.
for t in $(cut -f 4 "$work/m" | tr ' ' '\n' | sort -u); do
	test_passes "$t" || {
		tail -n 30 "$work/out"
		echo "mutants: $t fails without a mutant" >&2
		exit 2
	}
done

killed=0 survived=0 trouble=0
# The list on fd 3: what runs inside keeps the standard input it had.
while IFS='	' read -r name file rule tests <&3; do
	f=$tree/$file
	cp -p "$f" "$work/orig"
	if ! replace "$f" "$work/$name.find" "$work/$name.repl" \
	    > "$work/new"; then
		echo "STALE    $name: its text is not in $file exactly once"
		trouble=1
		continue
	fi
	cat "$work/new" > "$f"
	by=
	units=
	for t in $tests; do
		case $t in
		unit/*) units="$units build/normal/tests/${t#unit/}" ;;
		esac
	done
	if ! make -C "$tree" -j2 $targets $units > "$work/build" 2>&1; then
		echo "NOBUILD  $name: $file does not build with it"
		[ $verbose -eq 0 ] || grep -m 10 'error' "$work/build"
		trouble=1
	else
		for t in $tests; do
			if ! test_passes "$t"; then
				by=$t
				break
			fi
		done
		if [ -n "$by" ]; then
			echo "KILLED   $name (by $by)"
			killed=$((killed + 1))
		else
			echo "SURVIVED $name: $file: $rule"
			[ $verbose -eq 0 ] || tail -n 5 "$work/out"
			survived=$((survived + 1))
		fi
	fi
	# The original back, newer than the objects built from the mutant.
	cat "$work/orig" > "$f"
done 3< "$work/m"
echo "mutants: $killed killed, $survived survived"
[ $trouble -eq 0 ] || exit 2
[ $survived -eq 0 ] || exit 1
