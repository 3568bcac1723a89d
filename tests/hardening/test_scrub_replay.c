/*
 * tests/hardening/test_scrub_replay.c: the fuzz_scrub target
 * (fuzz/fuzz_scrub.c: page walks, file layout, scrub, scrub of the scrubbed
 * copy) over every corpus file of at most 1 MiB and nine one-byte
 * mutations of each, and the kept findings of fuzz_scrub (one: a footer
 * whose TimestampType.unit holds a member this version does not know, which
 * scrub reported as EINVAL), under ASan+UBSan (tests/replay.h), so `ctest` runs
 * what the fuzzer checks.
 */
#include "replay.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_scrub
#include "../../fuzz/fuzz_scrub.c"
#undef LLVMFuzzerTestOneInput

int main(void) { return pqt_replay_main("scrub_replay", "fuzz_scrub", pqt_fuzz_scrub_one, (size_t)1 << 20); }
