#!/usr/bin/env bash
# The README's test command: builds and runs every test, then the short fuzz pass.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build --build-tests
# The release CLI, for BoundedWorkCLITests (issue 13's work bounds are for the optimised build).
swift build -c release --product mapwright
set +e
swift test --skip-build --parallel 2>&1 | tail -n 400
rc=${PIPESTATUS[0]}
set -e
# Every fuzz target briefly (seeds, known crashers, then 5 s of mutation each): scripts/fuzz.sh.
scripts/fuzz.sh --ci 5 || rc=1
exit "$rc"
