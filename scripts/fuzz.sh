#!/usr/bin/env bash
# libFuzzer with address sanitizer over Mapwright's readers and decoders (Fuzz/, issue 13).
#
#   scripts/fuzz.sh TARGET [SECONDS]   fuzz one target (default 60 s; 0: until stopped)
#   scripts/fuzz.sh --runs N TARGET    fuzz one target for exactly N executions
#   scripts/fuzz.sh --ci [SECONDS]     every target: replay its seeds and known crashers, then
#                                      mutate for SECONDS each (default 5); what CI runs
#   scripts/fuzz.sh --list             the targets
#
# Seeds: Fuzz/Corpus/TARGET (committed, from the test fixtures and other tools' files; see
# Fuzz/make_seeds.py). Every crasher found goes to Fuzz/Crashers/TARGET (committed, replayed by
# --ci) and becomes a fixture test. New inputs libFuzzer finds accumulate in
# Fuzz/.build/corpus/TARGET; crash files land in Fuzz/.build/artifacts/. Limits per input:
# 10 s, 2 GiB, 64 KiB long. Prints libFuzzer's final stats (stat::number_of_executed_units).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
# Debug builds by default (CI builds them in a few minutes; WMO release builds of NIO and
# Hummingbird with ASan take several times longer); FUZZ_CONFIG=release for long runs.
CONFIG=${FUZZ_CONFIG:-debug}
# What system libraries keep for the life of the process (fontconfig's configuration once a
# label is measured, Cairo's font caches…) is not a leak of ours: the suppressions that
# scripts/sanitize.sh uses.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/sanitizers/lsan.supp:print_suppressions=0}
TARGETS="csv gpx geojson polyline scene png jpeg webp image pmtiles mbtiles mvt google mapbox query gestures svgpath"

build() {
  swift build --package-path Fuzz -c "$CONFIG" --sanitize=address -Xswiftc -sanitize=fuzzer \
    -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link 2>&1 | grep -E "error|warning: unre|Compiling mapwright-fuzz|Build" || true
  BIN=Fuzz/.build/$CONFIG/mapwright-fuzz
  [ -x "$BIN" ] || { echo "fuzz.sh: the fuzz build failed" >&2; exit 1; }
}

# run TARGET LIBFUZZER_OPTIONS…
run() {
  local t=$1; shift
  case " $TARGETS " in *" $t "*) ;; *) echo "fuzz.sh: unknown target '$t' (one of: $TARGETS)" >&2; exit 2 ;; esac
  mkdir -p "Fuzz/.build/corpus/$t" Fuzz/.build/artifacts
  local dirs=("Fuzz/.build/corpus/$t" "Fuzz/Corpus/$t")
  [ -d "Fuzz/Crashers/$t" ] && dirs+=("Fuzz/Crashers/$t")
  MAPWRIGHT_FUZZ_TARGET=$t ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} "$BIN" "${dirs[@]}" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="Fuzz/.build/artifacts/$t-" "$@"
}

case "${1:-}" in
  --list) echo $TARGETS ;;
  --runs) build; run "$3" -runs="$2" ;;
  --ci)
    build
    secs=${2:-5}; failed=""
    for t in $TARGETS; do
      # Known crashers first, each on its own (a non-zero exit fails the build), then a short run.
      if [ -d "Fuzz/Crashers/$t" ] && ls "Fuzz/Crashers/$t"/* >/dev/null 2>&1; then
        MAPWRIGHT_FUZZ_TARGET=$t "$BIN" Fuzz/Crashers/$t/* >/dev/null 2>&1 || { echo "fuzz: $t: a known crasher fails again"; failed="$failed $t"; continue; }
      fi
      if run "$t" -max_total_time="$secs" -seed=1 >"Fuzz/.build/ci-$t.log" 2>&1; then
        echo "fuzz: $t: ok, $(grep -o 'number_of_executed_units: [0-9]*' "Fuzz/.build/ci-$t.log" | grep -o '[0-9]*$') executions"
      else
        echo "fuzz: $t: FAILED"; tail -n 40 "Fuzz/.build/ci-$t.log"; failed="$failed $t"
      fi
    done
    [ -z "$failed" ] || { echo "fuzz: failed:$failed"; exit 1; } ;;
  ""|-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
  *) build; t=$1; secs=${2:-60}; if [ "$secs" = 0 ]; then run "$t"; else run "$t" -max_total_time="$secs"; fi ;;
esac
