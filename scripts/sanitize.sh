#!/usr/bin/env bash
# The test suite under a sanitizer, in its own build directory (.build-SANITIZER).
#
#   scripts/sanitize.sh address     AddressSanitizer (and LeakSanitizer), every test
#   scripts/sanitize.sh undefined   UndefinedBehaviorSanitizer on the C code (our C helpers and the
#                                   packages' C shims), every test. swiftc has no -sanitize=undefined
#                                   on Linux; Swift code traps on its own undefined behaviour
#                                   (overflow, out-of-bounds, nil) in every build.
#   scripts/sanitize.sh thread      ThreadSanitizer over the multi-threaded parts: the renderer's
#                                   GL thread, the server's render pool, the viewer's render thread
#                                   (in-process tests, and the window and server CLI tests, whose
#                                   mapwright processes are instrumented too)
#   … [EXTRA swift test ARGUMENTS]  e.g. --filter MapServerTests
#
# Mesa, LLVM and the other system libraries are not instrumented; reports from inside them are
# suppressed by Fuzz/sanitizers/*.supp, each entry with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=()
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
kind=${1:?usage: scripts/sanitize.sh address|undefined|thread [swift test arguments]}
shift
supp=$(pwd)/Fuzz/sanitizers
# The Swift runtime's crash backtracer reads raw stack memory, which the sanitizers report as a
# bug of their own; the sanitizer's report is what we want to see.
export SWIFT_BACKTRACE=enable=no
# Tests that measure resident memory skip that check under a sanitizer (see ServeCLITests).
export MAPWRIGHT_SANITIZER=$kind
case "$kind" in
  address)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0
    export LSAN_OPTIONS=suppressions=$supp/lsan.supp:print_suppressions=0 ;;
  undefined)
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    rt=$(ls -d "$(dirname "$(command -v swift)")"/../lib/clang/*/lib/linux | head -1)
    flags=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
           -Xlinker "$rt/libclang_rt.ubsan_standalone-x86_64.so" -Xlinker -rpath -Xlinker "$rt") ;;
  thread)
    export TSAN_OPTIONS=suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1
    [ $# -gt 0 ] || set -- --filter "MapRenderGLTests|MapServerTests|MapViewerTests|WindowCLITests|ServeCLITests" ;;
  *) echo "sanitize.sh: address, undefined or thread" >&2; exit 2 ;;
esac
if [ "$kind" = undefined ]; then sanitize=(); else sanitize=(--sanitize="$kind"); fi
swift build --build-tests "${sanitize[@]}" "${flags[@]}" --build-path ".build-$kind"
# Every test is a swift-testing test; the XCTest pass would run nothing.
swift test --skip-build --disable-xctest "${sanitize[@]}" "${flags[@]}" --build-path ".build-$kind" "$@"
