/* SPDX-License-Identifier: ISC */
/*
 * fuzz_table.c: `gpumem read --format table`: the plain nvidia-smi table
 * (formats/text/table.c).  Read as it is, then with --start and --interval (a
 * log without times of its own needs them).  What gpumem writes must read
 * back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("table", data, size);
	return 0;
}
