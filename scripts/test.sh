#!/usr/bin/env bash
# The README's test command: builds and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build --build-tests
# The release CLI, for BoundedWorkCLITests (issue 13's work bounds are for the optimised build).
swift build -c release --product mapwright
swift test --skip-build --parallel 2>&1 | tail -n 400
exit "${PIPESTATUS[0]}"
