/* SPDX-License-Identifier: ISC */
/*
 * fuzz_help.c: `gpumem read --format help`: nvidia-smi help texts, refused
 * with a reason (formats/text/help.c).  What gpumem writes must read back the
 * same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_roundtrip("help", data, size);
	return 0;
}
