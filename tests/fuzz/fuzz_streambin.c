/* SPDX-License-Identifier: ISC */
/*
 * fuzz_streambin.c: `gpumem read --format stream-binary`: the binary form
 * of the record stream between gpumem tools (formats/reader/recfmt.c, rec.c).
 * What is read of it, written as text, must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_roundtrip("stream-binary", data, size);
	return 0;
}
