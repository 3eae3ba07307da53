/* SPDX-License-Identifier: ISC */
/*
 * fuzz_stream.c: `gpumem read --format stream`: the record stream
 * (formats/reader/recfmt.c, rec.c).  What gpumem writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_roundtrip("stream", data, size);
	return 0;
}
