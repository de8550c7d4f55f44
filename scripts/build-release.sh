#!/usr/bin/env bash
# The release build of idp-tui: one static executable (Swift runtime, Foundation, ncursesw, libcrypto and
# SQLite linked in), so that start-up has nothing for the dynamic loader to do. docs/performance.md measures
# this binary. It needs the static libraries of libncurses-dev, libssl-dev and libsqlite3-dev (`.ci/run`
# installs those packages). The binary is .build/release/idp-tui.
#
# glibc's static link prints a notice for each use of dlopen, getaddrinfo, gethostbyname and the passwd and
# group lookups (getpwuid, getpwnam, getgrgid …) in the linked libraries (libcrypto, SQLite, Foundation): those
# load glibc's shared NSS modules at run time, and crash in a static binary (getpwuid did, through Foundation's
# NSHomeDirectory, for a user without HOME); and one for Foundation's own use of mktemp (in a temporary-file
# helper). idp-tui calls none of them (it reads /etc/passwd itself for a missing HOME), so the notices are
# counted here instead of printed one by one.
set -euo pipefail
cd "$(dirname "$0")/.."
notice='in statically linked applications requires at runtime the shared libraries|the use of .mktemp. is dangerous'
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift build -c release --product idp-tui -Xswiftc -static-executable -Xlinker -lncursesw -Xlinker -ltinfo "$@" >"$log" 2>&1 || status=$?
grep -Ev "$notice" "$log" || true
count=$(grep -Ec "$notice" "$log" || true)
[ "$count" -eq 0 ] || echo "($count glibc static-link notices about dlopen/getaddrinfo/gethostbyname/getpw*/getgr*/mktemp left out: idp-tui calls none of them)"
exit "$status"
