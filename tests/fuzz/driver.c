/* tests/fuzz/driver.c -- the libFuzzer entry point of one target, chosen at
 * compile time with -DIW_FUZZ_FN=iw_fuzz_NAME (Makefile rule `fuzz`). */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	/* A target returns non-zero when the parser broke its error contract:
	 * abort, so libFuzzer reports it and keeps the input (an assertion). */
	if (IW_FUZZ_FN(data, n) != 0)
		abort();
	return 0;
}
