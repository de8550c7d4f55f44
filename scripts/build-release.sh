#!/usr/bin/env bash
# The release build of idp-tui: one static executable (Swift runtime, Foundation, ncursesw, libcrypto and
# SQLite linked in), so that start-up has nothing for the dynamic loader to do. docs/performance.md measures
# this binary. It needs the static libraries of libncurses-dev, libssl-dev and libsqlite3-dev (`.ci/run`
# installs those packages). The binary is .build/release/idp-tui.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product idp-tui -Xswiftc -static-executable -Xlinker -lncursesw -Xlinker -ltinfo "$@"
