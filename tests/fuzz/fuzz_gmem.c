/* SPDX-License-Identifier: ISC */
/*
 * fuzz_gmem.c: the GMEM frame decoder (formats/wire/gmem.c): a datagram checked
 * as one frame, and two TCP byte streams sharing a memory budget, fed in
 * chunks with gaps, as the capture reader feeds them.
 *
 * Input: a byte of settings (bit 0, 1: stream 0, 1 starts synced; bits
 * 2-3: the budget), then operations: a byte (bit 0: which stream; bits
 * 1-2: feed up to 255 bytes, feed up to 65535, a short gap, a long gap)
 * and its operands.  The whole input is also checked as one datagram.
 *
 * Invariants: every frame handed over passes gmem_frame_check() and has
 * the length its header gives; every bad header comes with a reason; the
 * budget is back to nothing once the streams are released.
 */
#include <string.h>

#include "fuzz.h"
#include "gmem.h"

static void
frame(void *arg, const unsigned char *p, size_t n, const struct gmem_hdr *h)
{
	struct gmem_hdr h2;
	struct gmem_rec r;
	char why[GMEM_WHYSZ];
	uint64_t *sum = arg;
	size_t i;

	if (gmem_frame_check(p, n, &h2, why) < 0)
		fuzz_fail("a frame handed over fails its check: %s", why);
	if (memcmp(h, &h2, sizeof(h2)) != 0 || n != gmem_frame_len(h))
		fuzz_fail("a frame handed over with the wrong header");
	for (i = 0; i < h->count; i++) {
		gmem_rec_decode(p, i, &r);
		*sum += r.ts + r.used + r.free + r.pid;
	}
}

static void
bad(void *arg, const unsigned char *hdr, const char *why)
{
	uint64_t *sum = arg;

	if (why[0] == '\0')
		fuzz_fail("a bad header without a reason");
	*sum += hdr[0] + hdr[GMEM_HDRLEN - 1];
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t caps[4] = {0, 1024, 70000, GMEM_MAXFRAME};
	struct fuzz_in in = {data, size, 0};
	struct gmem_budget budget = {0, 0, 0};
	struct gmem_stream g[2];
	struct gmem_hdr h;
	char why[GMEM_WHYSZ];
	uint64_t sum = 0;
	uint8_t set, op;
	size_t n, got, i;
	const uint8_t *p;

	/* The whole input as a UDP payload. */
	if (gmem_frame_check(data, size, &h, why) == 0) {
		frame(&sum, data, size, &h);
	} else if (why[0] == '\0')
		fuzz_fail("a datagram refused without a reason");

	set = fuzz_u8(&in);
	budget.cap = caps[(set >> 2) & 3];
	for (i = 0; i < 2; i++)
		gmem_stream_init(&g[i], (set >> i) & 1,
		    budget.cap > 0 ? &budget : NULL);
	while (!fuzz_done(&in)) {
		op = fuzz_u8(&in);
		i = op & 1;
		switch ((op >> 1) & 3) {
		case 0:
			n = fuzz_u8(&in);
			break;
		case 1:
			n = fuzz_u16(&in);
			break;
		case 2:
			gmem_stream_gap(&g[i], fuzz_u8(&in));
			continue;
		default:
			gmem_stream_gap(&g[i], fuzz_u32(&in));
			continue;
		}
		p = fuzz_bytes(&in, n, &got);
		gmem_stream_feed(&g[i], p, got, frame, bad, &sum);
	}
	for (i = 0; i < 2; i++) {
		gmem_stream_end(&g[i]);
		gmem_stream_release(&g[i]);
	}
	if (budget.used != 0)
		fuzz_fail("%zu bytes of the budget still in use", budget.used);
	fuzz_sink = sum;
	return 0;
}
