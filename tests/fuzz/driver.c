/* tests/fuzz/driver.c -- the libFuzzer entry point of one target, chosen at
 * compile time with -DIW_FUZZ_FN=iw_fuzz_NAME (Makefile rule `fuzz`). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	IW_FUZZ_FN(data, n);
	return 0;
}
