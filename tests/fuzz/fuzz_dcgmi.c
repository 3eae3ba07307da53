/* SPDX-License-Identifier: ISC */
/*
 * fuzz_dcgmi.c: `gpumem read --format dcgmi`: dcgmi dmon
 * (formats/text/dcgmi.c).  Read as it is, then with --start and --interval (a
 * log without times of its own needs them).  What gpumem writes must read
 * back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("dcgmi", data, size);
	return 0;
}
