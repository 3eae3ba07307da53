/* SPDX-License-Identifier: ISC */
/*
 * fuzz_capture.c: `gpumem read --format pcap`: pcap and pcapng captures of
 * GMEM telemetry: libpcap, formats/capture/capture.c, netlayers.c, ipreasm.c, tcpreasm.c, gmem.c
 * and the pcapng fallback.  What gpumem writes must read back the same.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_roundtrip("pcap", data, size);
	return 0;
}
