// Declarations only (fuzzer_driver.h); libFuzzer itself comes from -sanitize=fuzzer.
#include "fuzzer_driver.h"
