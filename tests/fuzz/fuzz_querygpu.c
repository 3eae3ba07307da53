/* SPDX-License-Identifier: ISC */
/*
 * fuzz_querygpu.c: `gpumem read --format query-gpu`: nvidia-smi --query-
 * gpu CSV (formats/text/nvsmi.c).  Read as it is, then with --start and
 * --interval (a log without times of its own needs them).  What gpumem
 * writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("query-gpu", data, size);
	return 0;
}
