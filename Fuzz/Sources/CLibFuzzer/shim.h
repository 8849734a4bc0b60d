#ifndef CLIBFUZZER_SHIM_H
#define CLIBFUZZER_SHIM_H

// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links (clang's
// libclang_rt.fuzzer, shipped with the Swift toolchain). A harness calls it from its own main
// because SwiftPM gives every executable a Swift entry point, so libFuzzer's main is never used.

#include <stddef.h>
#include <stdint.h>

/// Parses libFuzzer's flags from argc/argv and runs `callback` on each input; returns the exit code.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
