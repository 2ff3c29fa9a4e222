#!/usr/bin/env bash
# PNG encoding benchmark (MapImage): encodes a map-like 1024x768 image drawn with Canvas2D with
# each option set and prints median times and sizes. Release build. Optional: MAPWRIGHT_BENCH_OUT=DIR
# also writes the benchmark image there to look at.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --build-tests -Xswiftc -enable-testing >/dev/null  # -enable-testing: other test targets use @testable
MAPWRIGHT_BENCH=1 swift test -c release -Xswiftc -enable-testing --skip-build --filter PNGEncodeBenchmark 2>&1 | grep -E "^  |benchmark|✘|error"
