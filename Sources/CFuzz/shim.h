/* libFuzzer's driver, for a fuzz target whose main is Swift's (SwiftPM names an executable's
   entry point itself, so libFuzzer's own main cannot be used). Only linked with -sanitize=fuzzer. */
#ifndef LINNET_CFUZZ_SHIM_H
#define LINNET_CFUZZ_SHIM_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
