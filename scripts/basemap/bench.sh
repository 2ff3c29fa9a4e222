#!/usr/bin/env bash
# Load and query timings of the embedded basemap, release build. Prints medians.
# usage: bash scripts/basemap/bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
MAPWRIGHT_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter BasemapBenchmarks 2>&1 | grep -E "^basemap|error|✘"
