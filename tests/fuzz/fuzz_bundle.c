/* SPDX-License-Identifier: ISC */
/*
 * fuzz_bundle.c: `gpumem read --format bundle`: capture bundles
 * (formats/reader/bundle.c, and the format of each section).  Read as it is, then
 * with --start and --interval (a log without times of its own needs them).
 * What gpumem writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("bundle", data, size);
	return 0;
}
