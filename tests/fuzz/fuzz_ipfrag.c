/* SPDX-License-Identifier: ISC */
/*
 * fuzz_ipfrag.c: IPv4 and IPv6 fragment reassembly (formats/capture/ipreasm.c)
 * under caps small enough to be hit.
 *
 * Input: a byte of settings (bits 0-1: the datagram cap, 2-3: the byte
 * cap, 4: flush at the end or free at once), then fragments: a byte of
 * flags (bit 0: IPv6; 1-2: which of four sources; 3: more fragments
 * follow; 4: which protocol; 5: cut by the snapshot length; 6-7: how
 * much capture time passes), the id, the offset (16 bits), the length (16
 * bits, as much as is left) and the data.
 *
 * Invariants: a datagram handed back is at most 65535 bytes, made of at
 * least one fragment, and every byte of it is readable; the counters add
 * up after the flush.
 */
#include <string.h>

#include "fuzz.h"
#include "reasm.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t maxd[4] = {1, 4, 64, 4096};
	static const size_t maxb[4] = {4096, 65536, 1 << 20, 32 << 20};
	static const uint64_t step[4] = {0, 1000000, 10000000000ULL,
	    40000000000ULL};
	static const unsigned char addr[4][16] = {
		{10, 0, 0, 7}, {10, 0, 0, 8},
		{0x20, 0x01, 0x0d, 0xb8, [15] = 7}, {0xfe, 0x80, [15] = 1}
	};
	static const unsigned char dst[16] = {10, 0, 0, 1, [15] = 1};
	struct fuzz_in in = {data, size, 0};
	struct ipreasm *r;
	struct ipfrag f;
	const unsigned char *out;
	size_t outlen, i;
	uint64_t now = 1, sum = 0, frags = 0;
	unsigned nfrags;
	uint8_t set, fl, proto;
	int rc;

	set = fuzz_u8(&in);
	r = ipreasm_new(maxd[set & 3], maxb[(set >> 2) & 3],
	    30000000000ULL);
	while (!fuzz_done(&in)) {
		memset(&f, 0, sizeof(f));
		fl = fuzz_u8(&in);
		f.family = fl & 1 ? 6 : 4;
		f.src = addr[(fl >> 1) & 3];
		f.dst = dst;
		f.more = (fl >> 3) & 1;
		f.proto = fl & 0x10 ? 6 : 17;
		now += step[fl >> 6];
		f.id = fuzz_u8(&in);
		f.offset = fuzz_u16(&in);
		f.data = fuzz_bytes(&in, fuzz_u16(&in), &f.len);
		f.wirelen = f.len + (fl & 0x20 ? 1 + (size_t)fuzz_u8(&in) :
		    0);
		frags++;
		rc = ipreasm_add(r, &f, now, &out, &outlen, &proto, &nfrags);
		if (rc == 1) {
			if (outlen > 65535 || nfrags == 0 || nfrags > frags)
				fuzz_fail("datagram of %zu bytes from %u "
				    "fragments", outlen, nfrags);
			for (i = 0; i < outlen; i++)
				sum += out[i];
		} else if (rc != 0 && rc != -1)
			fuzz_fail("ipreasm_add returned %d", rc);
	}
	if (set & 0x10) {
		const struct ipreasm_stats *s = ipreasm_stats(r);

		ipreasm_flush(r);
		if (s->capped > s->incomplete || s->datagrams > frags ||
		    s->lostfrags > frags)
			fuzz_fail("counters do not add up");
	}
	ipreasm_free(r);
	fuzz_sink = sum;
	return 0;
}
