/* SPDX-License-Identifier: ISC */
/*
 * fuzz_rocmsmi.c: `gpumem read --format rocm-smi`: rocm-smi --showmeminfo
 * vram as text or --json (formats/text/rocmsmi.c).  Read as it is, then
 * with --start and --interval (a log without date lines needs them).
 * What gpumem writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("rocm-smi", data, size);
	return 0;
}
