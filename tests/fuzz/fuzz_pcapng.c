/* SPDX-License-Identifier: ISC */
/*
 * fuzz_pcapng.c: the pcapng block reader (formats/capture/pcapng.c), the way the
 * capture reader uses it: watching another reader's bytes block by block
 * (pcapng_watch, pcapng_want), then reading on alone (pcapng_next).
 *
 * Input: a byte saying for how many reads the other reader goes first (0:
 * pcapng.c reads from the start), then the file.
 *
 * Invariants: a packet's captured bytes are all readable and no more than
 * its block could hold; a failure comes with a reason.
 */
#include "fuzz.h"
#include "input.h"
#include "pcapng.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char buf[4096];
	struct pcapng_pkt k;
	struct pcapng *g;
	struct input *in;
	uint64_t sum = 0;
	unsigned watched, i;
	size_t want, j;
	ssize_t r;
	int rc;

	if (size < 1)
		return 0;
	watched = data[0];
	in = input_open(fuzz_file(data + 1, size - 1));
	if (in == NULL)
		fuzz_fail("cannot open the memory file");
	g = pcapng_new();
	for (i = 0; i < watched; i++) {
		want = pcapng_want(g);
		if (want == 0)
			break;
		r = input_read(in, buf, want < sizeof(buf) ? want :
		    sizeof(buf));
		if (r <= 0)
			break;
		pcapng_watch(g, buf, (size_t)r);
	}
	if (watched == 0 || pcapng_can_take_over(g)) {
		while ((rc = pcapng_next(g, in, &k)) == 1) {
			if (k.caplen > (16U << 20))
				fuzz_fail("a packet of %zu bytes", k.caplen);
			for (j = 0; j < k.caplen; j++)
				sum += k.data[j];
			sum += k.ts + k.len + k.offset + (uint64_t)k.linktype +
			    k.ifid;
		}
		if (rc < 0 && pcapng_error(g)[0] == '\0')
			fuzz_fail("pcapng_next failed without a reason");
	}
	sum += pcapng_interfaces(g) + pcapng_sections(g) +
	    pcapng_packet_offset(g);
	pcapng_free(g);
	input_close(in);
	fuzz_sink = sum;
	return 0;
}
