/* SPDX-License-Identifier: ISC */
/*
 * fuzz_querytext.c: `gpumem read --format query-text`: the nvidia-smi -q
 * text report (formats/text/querytext.c).  Read as it is, then with --start and
 * --interval (a log without times of its own needs them).  What gpumem
 * writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("query-text", data, size);
	return 0;
}
