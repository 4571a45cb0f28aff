// libFuzzer's driver, for a fuzz target that has its own `main`: SwiftPM
// links every executable with `--defsym main=<Module>_main`, so the fuzz
// executables define that function and hand over to libFuzzer from it.
// Declared only: the symbol comes with `-sanitize=fuzzer`, and is used only
// when FUZZING is defined (see Fuzz/Targets/FuzzDriver.swift).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
