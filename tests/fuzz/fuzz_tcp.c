/* SPDX-License-Identifier: ISC */
/*
 * fuzz_tcp.c: TCP stream reassembly (formats/capture/tcpreasm.c) under limits small
 * enough to be hit: connections pushed out, holes given up by time, by
 * packets and by the caps on held bytes.
 *
 * Input: a byte of settings (bits 0-1: connections, 2-3: bytes held, 4-5:
 * packets a hole waits, 6-7: time it waits), then segments: a byte for
 * the endpoints and flags (bit 0: direction; 1-2: which connection; 3:
 * IPv6; 4: SYN, 5: FIN, 6: RST, 7: ACK), a byte for the sequence number
 * and the clock (bits 0-1: in order, ahead by 16 bits, back by 16 bits, or
 * any 32 bits; 2-3: how much time passes; 4: cut by the snapshot length;
 * 5: a 16-bit length; 6: acknowledge ahead or back), the operands, then
 * the payload.  A payload delivered starting with 0xa5 makes the caller
 * ignore its direction from then on, as the reader does with a flow that
 * is not GMEM.
 *
 * Invariants: a direction gets no bytes or gaps once it has ended or once
 * the caller ignores it; every direction that got something is ended
 * exactly once (its state is freed there: ASan and LeakSanitizer check).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "netlayers.h"
#include "reasm.h"

struct flowck {
	uint64_t bytes, lost;
};

static struct flowck *
ck(struct tcpflow *f)
{
	if (f->user == NULL) {
		f->user = calloc(1, sizeof(struct flowck));
		if (f->user == NULL)
			fuzz_fail("out of memory");
	}
	return f->user;
}

static void
data_fn(void *arg, struct tcpflow *f, const unsigned char *p, size_t n)
{
	struct flowck *k = ck(f);
	uint64_t *sum = arg;
	size_t i;

	if (f->ignore)
		fuzz_fail("bytes for an ignored direction");
	for (i = 0; i < n; i++)
		*sum += p[i];
	k->bytes += n;
	if (p[0] == 0xa5)
		f->ignore = 1;	/* as the reader does with a non-GMEM flow */
}

static void
gap_fn(void *arg, struct tcpflow *f, uint64_t lost)
{
	(void)arg;
	if (f->ignore)
		fuzz_fail("a gap for an ignored direction");
	if (lost == 0)
		fuzz_fail("a gap of no bytes");
	ck(f)->lost += lost;
}

static void
end_fn(void *arg, struct tcpflow *f)
{
	(void)arg;
	free(f->user);
	f->user = NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t conns[4] = {1, 2, 4, 64};
	static const size_t held[4] = {0, 512, 4096, 1 << 20};
	static const uint64_t pkts[4] = {1, 4, 64, 200000};
	static const uint64_t wait[4] = {0, 1000000, 2000000000ULL,
	    UINT64_MAX};
	static const uint64_t step[4] = {0, 1000, 1000000000ULL,
	    3000000000ULL};
	static const unsigned char a[16] = {10, 0, 0, 7, [15] = 7};
	static const unsigned char b[16] = {10, 0, 0, 1, [15] = 1};
	static const struct tcp_ops ops = {data_fn, gap_fn, end_fn, NULL};
	struct fuzz_in in = {data, size, 0};
	struct tcp_limits lim;
	struct tcpreasm *t;
	struct tcpseg s;
	uint32_t cursor[2][4][2];	/* next seq per family, conn, dir */
	uint64_t now = 1, sum = 0;
	uint8_t set, e, m;
	unsigned fam, conn, dir;

	memset(cursor, 0, sizeof(cursor));
	set = fuzz_u8(&in);
	lim.max_conns = conns[set & 3];
	lim.max_held = held[(set >> 2) & 3];
	lim.max_held_flow = lim.max_held / 2;
	lim.hole_packets = pkts[(set >> 4) & 3];
	lim.hole_timeout = wait[set >> 6];
	t = tcpreasm_new(&lim, &ops, &sum);
	while (!fuzz_done(&in)) {
		memset(&s, 0, sizeof(s));
		e = fuzz_u8(&in);
		m = fuzz_u8(&in);
		dir = e & 1;
		conn = (e >> 1) & 3;
		fam = (e >> 3) & 1;
		s.family = fam ? 6 : 4;
		s.src = dir ? b : a;
		s.dst = dir ? a : b;
		s.sport = (uint16_t)(dir ? 9717 : 40000 + conn);
		s.dport = (uint16_t)(dir ? 40000 + conn : 9717);
		s.flags = (uint8_t)((e & 0x10 ? TCP_SYN : 0) |
		    (e & 0x20 ? TCP_FIN : 0) | (e & 0x40 ? TCP_RST : 0) |
		    (e & 0x80 ? TCP_ACK : 0));
		switch (m & 3) {
		case 0:
			s.seq = cursor[fam][conn][dir];
			break;
		case 1:
			s.seq = cursor[fam][conn][dir] + fuzz_u16(&in);
			break;
		case 2:
			s.seq = cursor[fam][conn][dir] - fuzz_u16(&in);
			break;
		default:
			s.seq = fuzz_u32(&in);
			break;
		}
		now += step[(m >> 2) & 3];
		if (s.flags & TCP_ACK)
			s.ack = cursor[fam][conn][!dir] + (m & 0x40 ?
			    (uint32_t)fuzz_u8(&in) : -(uint32_t)fuzz_u8(&in));
		s.data = fuzz_bytes(&in, m & 0x20 ? fuzz_u16(&in) :
		    fuzz_u8(&in), &s.len);
		s.wirelen = s.len + (m & 0x10 ? 1 + (size_t)fuzz_u8(&in) : 0);
		cursor[fam][conn][dir] = s.seq + (uint32_t)s.wirelen +
		    (s.flags & TCP_SYN ? 1 : 0);
		tcpreasm_segment(t, &s, now);
	}
	tcpreasm_free(t);
	fuzz_sink = sum;
	return 0;
}
