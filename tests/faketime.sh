#!/bin/sh
# Runs a command with libfaketime preloaded, so that it and every process
# it starts read the time FAKETIME names (but the commands
# FAKETIME_SKIP_CMDS names, and fronts' sandbox workers, whose environment
# is fronts' own). `make test-night` runs the integration tests this way.
for lib in /usr/lib/*/faketime/libfaketimeMT.so.1 /usr/lib/faketime/libfaketimeMT.so.1; do
	[ -f "$lib" ] && break
done
if [ ! -f "$lib" ]; then
	echo "FAIL: libfaketime is installed (Debian package libfaketime)"
	exit 1
fi
LD_PRELOAD=$lib exec "$@"
