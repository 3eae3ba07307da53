/* SPDX-License-Identifier: ISC */
/*
 * fuzz_xml.c: `gpumem read --format xml`: nvidia-smi -q -x XML
 * (formats/text/xml.c, snapdoc.c).  Read as it is, then with --start and
 * --interval (a log without times of its own needs them).  What gpumem
 * writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_clocked("xml", data, size);
	return 0;
}
