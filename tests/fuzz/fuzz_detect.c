/* SPDX-License-Identifier: ISC */
/*
 * fuzz_detect.c: `gpumem read FILE` with no --format: gzip detection, every
 * format's sniffer, then the parser the best one picks; as it is, then
 * with --start and --interval.  What gpumem writes must read back the
 * same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked(NULL, data, size);
	return 0;
}
