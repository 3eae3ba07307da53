/* SPDX-License-Identifier: ISC */
/*
 * fuzz_dmon.c: `gpumem read --format dmon`: nvidia-smi dmon
 * (formats/text/dmon.c).  Read as it is, then with --start and --interval (a
 * log without times of its own needs them).  What gpumem writes must read
 * back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("dmon", data, size);
	return 0;
}
