/*
 * tests/hardening/test_meta_api_replay.c: the fuzz_meta_api target run
 * under ctest (ASan+UBSan) over every corpus file of at most 4 MiB, as it
 * is and with single bytes changed at nine places spread over the file
 * (tests/replay.h). The target aborts on any broken invariant; this test
 * passes when every run returns.
 */
#include "replay.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_meta_api
#include "../../fuzz/fuzz_meta_api.c"
#undef LLVMFuzzerTestOneInput

int main(void) { return pqt_replay_main("meta_api_replay", "fuzz_meta_api", pqt_fuzz_meta_api_one, (size_t)4 << 20); }
