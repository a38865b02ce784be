#!/bin/sh
# Checks (and, as root, installs) the Debian packages fronts needs.
# usage: deps.sh check|install PKG...
mode=$1; shift
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$mode" = install ] && [ "$(id -u)" = 0 ]; then
	echo "fronts: installing missing Debian packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null || {
		echo "fronts: apt-get install failed for:$missing" >&2; exit 1; }
	exit 0
fi
echo "fronts: missing Debian packages:$missing" >&2
echo "install them with: sudo apt-get install$missing" >&2
exit 1
