#!/bin/sh
# SPDX-License-Identifier: ISC
# tests/deps.sh: make sure the Debian packages gpumem builds and tests with
# are installed; install the missing ones when we can (root, or sudo
# without a password), else say which command to run.  gnuplot draws the
# charts; xmllint checks SVG in the tests.  Chromium (the report renders
# in a browser) is left to CI (.ci/run): the test that needs it skips
# without it, and it is too big to install behind a user's back.
set -u
# package:what-shows-it-is-there
need="
gcc:cmd:cc
make:cmd:make
pkg-config:cmd:pkg-config
libpcap-dev:pc:libpcap
zlib1g-dev:pc:zlib
libyaml-dev:pc:yaml-0.1
gzip:cmd:gzip
gnuplot-nox:cmd:gnuplot
libxml2-utils:cmd:xmllint
"
missing=
for item in $need; do
	pkg=${item%%:*}
	rest=${item#*:}
	kind=${rest%%:*}
	what=${rest#*:}
	case $kind in
	cmd) command -v "$what" >/dev/null 2>&1 && continue ;;
	pc) command -v pkg-config >/dev/null 2>&1 &&
		pkg-config --exists "$what" 2>/dev/null && continue ;;
	esac
	missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "gpumem: missing Debian packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
	run=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	run=sudo
else
	echo "gpumem: install them with: sudo apt-get install$missing" >&2
	exit 2
fi
$run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2 ||
	{ $run apt-get update -q >&2 &&
	  $run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2; } ||
	{ echo "gpumem: could not install:$missing" >&2; exit 2; }
