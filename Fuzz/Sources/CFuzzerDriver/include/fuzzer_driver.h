#ifndef MAPWRIGHT_FUZZER_DRIVER_H
#define MAPWRIGHT_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs that have their own main (LLVM ≥ 11): SwiftPM gives an
// executable target its own entry point, so mapwright-fuzz hands its arguments to libFuzzer here.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
