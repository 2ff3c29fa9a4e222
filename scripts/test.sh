#!/usr/bin/env bash
# The README's test command: builds and runs every test, then the short fuzz pass.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build --build-tests
# The release CLI, for BoundedWorkCLITests (issue 13's work bounds are for the optimised build).
swift build -c release --static-swift-stdlib --product mapwright
log=$(mktemp /tmp/mapwright-tests.XXXXXX)
set +e
swift test --skip-build --parallel >"$log" 2>&1
rc=$?
set -e
tail -n 400 "$log"
# Every fuzz target briefly (seeds, known crashers, then 5 s of mutation each): scripts/fuzz.sh.
scripts/fuzz.sh --ci 5 || rc=1
# Last, so that a failure is what a truncated log shows: every failed test and recorded issue.
if [ "$rc" -ne 0 ]; then
    echo "== failures (from the whole test log) =="
    grep -E -A3 "✘|recorded an issue|Fatal error|Crash" "$log" | cut -c1-600 | head -n 80 || true
fi
rm -f "$log"
exit "$rc"
