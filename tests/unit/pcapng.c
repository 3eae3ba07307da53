/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: the pcapng block reader (formats/capture/pcapng.c): sections of
 * both byte orders, interfaces with their own link types and time
 * resolutions, EPB/SPB/PB, blocks passed over, watching another reader
 * block by block and reading on after it, and broken files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "pcapng.h"
#include "test.h"

#define TMP "pcapng-unit.tmp"

static unsigned char file[4096];
static size_t flen;
static int be;			/* byte order of the blocks being written */
static size_t ends[32];		/* where blocks end */
static uint32_t types[32];	/* and their types */
static size_t nends;
static uint32_t cur_type;

static void
p8(unsigned v)
{
	file[flen++] = (unsigned char)v;
}

static void
p16(unsigned v)
{
	if (be) {
		p8(v >> 8);
		p8(v & 0xff);
	} else {
		p8(v & 0xff);
		p8(v >> 8);
	}
}

static void
p32(uint32_t v)
{
	if (be) {
		p16(v >> 16);
		p16(v & 0xffff);
	} else {
		p16(v & 0xffff);
		p16(v >> 16);
	}
}

static void
pbytes(const void *p, size_t n)
{
	memcpy(file + flen, p, n);
	flen += n;
	while (flen % 4 != 0)
		file[flen++] = 0;
}

/* Start a block; end() writes both lengths. */
static size_t
begin(uint32_t type)
{
	size_t at = flen;

	cur_type = type;
	p32(type);
	p32(0);
	return at;
}

static void
end(size_t at)
{
	uint32_t len = (uint32_t)(flen - at + 4);
	size_t save = flen;

	flen = at + 4;
	p32(len);
	flen = save;
	p32(len);
	if (nends < 32) {
		types[nends] = cur_type;
		ends[nends++] = flen;
	}
}

/* Whether an SHB or IDB ends at off, or a section header is 8 bytes in. */
static int
after_shb_idb(size_t off)
{
	size_t i;

	for (i = 0; i < nends; i++)
		if (ends[i] == off)
			return types[i] == 0x0a0d0d0a || types[i] == 1;
	/* Or 8 bytes into a section header (its byte order may differ). */
	for (i = 1; i < nends; i++)
		if (ends[i - 1] + 8 == off && types[i] == 0x0a0d0d0a)
			return 1;
	return 0;
}

static int
at_end(size_t off)
{
	size_t i;

	for (i = 0; i < nends; i++)
		if (ends[i] == off)
			return 1;
	return 0;
}

static void
shb(int bigendian)
{
	size_t at;

	be = bigendian;
	at = begin(0x0a0d0d0a);
	p32(0x1a2b3c4d);
	p16(1);
	p16(0);
	p32(0xffffffff);
	p32(0xffffffff);
	end(at);
}

/* An interface; tsresol < 0: none given (microseconds). */
static void
idb(unsigned linktype, uint32_t snaplen, int tsresol)
{
	size_t at = begin(1);

	p16(linktype);
	p16(0);
	p32(snaplen);
	p16(2);			/* if_name, passed over */
	p16(3);
	pbytes("eth", 3);
	if (tsresol >= 0) {
		p16(9);
		p16(1);
		p8((unsigned)tsresol);
		p8(0);
		p8(0);
		p8(0);
	}
	p16(0);
	p16(0);
	end(at);
}

static void
epb(uint32_t ifid, uint64_t ts, const char *data, uint32_t wirelen)
{
	size_t at = begin(6), n = strlen(data);

	p32(ifid);
	p32((uint32_t)(ts >> 32));
	p32((uint32_t)ts);
	p32((uint32_t)n);
	p32(wirelen);
	pbytes(data, n);
	end(at);
}

static void
spb(const char *data)
{
	size_t at = begin(3), n = strlen(data);

	p32((uint32_t)n);
	pbytes(data, n);
	end(at);
}

static void
custom(void)
{
	size_t at = begin(0x00000bad);

	p32(32473);
	pbytes("ignore me", 9);
	end(at);
}

static void
save(size_t n)
{
	FILE *f = fopen(TMP, "wb");

	fwrite(file, 1, n, f);
	fclose(f);
}

/* Read every packet of the first n bytes of file: how many, last rc. */
static int
read_all(size_t n, struct pcapng_pkt *out, int max, int *rc)
{
	struct input *in;
	struct pcapng *g = pcapng_new();
	struct pcapng_pkt k;
	int count = 0;

	save(n);
	in = input_open(TMP);
	while ((*rc = pcapng_next(g, in, &k)) == 1) {
		if (count < max) {
			out[count] = k;
			/* Keep a copy: the data is valid until the next call. */
			out[count].data = (const unsigned char *)strndup(
			    (const char *)k.data, k.caplen);
		}
		count++;
	}
	input_close(in);
	pcapng_free(g);
	return count;
}

static void
free_pkts(struct pcapng_pkt *k, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free((void *)k[i].data);
}

int
main(void)
{
	struct pcapng_pkt k[8];
	struct pcapng *g;
	struct input *in;
	size_t s2, idb2_end, epb1, i;
	int n, rc;

	/* Section 1 (LE): Ethernet in ns; section 2 (BE): raw IP, us. */
	shb(0);
	idb(1, 0, 9);
	epb1 = flen;
	epb(0, 1767225600123456789ULL, "first", 60);
	custom();
	s2 = flen;
	shb(1);
	idb(101, 65535, -1);
	idb(0, 128, 0x80 | 10);	/* 2^-10 s */
	idb2_end = flen;
	spb("simple");
	epb(1, 3 * 1024 + 512, "binary", 6);
	epb(0, 1767225600000001ULL, "third", 5);

	n = read_all(flen, k, 8, &rc);
	CHECK_U64(n, 4);
	CHECK_U64(rc, 0);
	CHECK_U64(k[0].linktype, 1);
	CHECK_STR((const char *)k[0].data, "first");
	CHECK_U64(k[0].caplen, 5);
	CHECK_U64(k[0].len, 60);
	CHECK_U64(k[0].ts, 1767225600123456789ULL);
	CHECK_U64(k[0].offset, epb1);
	CHECK_U64(k[1].linktype, 101);	/* the SPB: the section's first */
	CHECK_STR((const char *)k[1].data, "simple");
	CHECK_U64(k[1].offset, idb2_end);
	CHECK_U64(k[2].linktype, 0);
	CHECK_U64(k[2].ts, 3500000000ULL);	/* 3.5 s in 2^-10 units */
	CHECK_U64(k[3].ts, 1767225600000001000ULL);
	free_pkts(k, n);

	/*
	 * Watch another reader up to the second section's interfaces,
	 * block by block as pcapng_want() allows, then read on.
	 */
	g = pcapng_new();
	save(flen);
	in = input_open(TMP);
	for (i = 0; i < idb2_end;) {
		unsigned char buf[64];
		size_t want = pcapng_want(g), got;

		CHECK(want > 0);
		if (want > sizeof(buf))
			want = sizeof(buf);
		got = (size_t)input_read(in, buf, want);
		pcapng_watch(g, buf, got);
		i += got;
		/* Right after a section or interface, and only there. */
		CHECK(pcapng_can_take_over(g) == after_shb_idb(i));
	}
	CHECK(pcapng_can_take_over(g));
	CHECK_U64(pcapng_packet_offset(g), epb1);
	CHECK_U64(pcapng_sections(g), 2);
	CHECK_U64(pcapng_interfaces(g), 3);
	CHECK(pcapng_next(g, in, &k[0]) == 1);
	CHECK_U64(k[0].linktype, 101);
	CHECK_U64(k[0].offset, idb2_end);
	CHECK(pcapng_next(g, in, &k[0]) == 1);
	CHECK(pcapng_next(g, in, &k[0]) == 1);
	CHECK(pcapng_next(g, in, &k[0]) == 0);
	input_close(in);
	pcapng_free(g);

	/*
	 * The watched reader gives up 8 bytes into the big-endian section
	 * header (libpcap, reading its length in the old byte order): read
	 * on from there, the section's interfaces and packets.
	 */
	g = pcapng_new();
	in = input_open(TMP);
	for (i = 0; i < s2 + 8;) {
		unsigned char buf[64];
		size_t want = pcapng_want(g), got;

		if (want > sizeof(buf))
			want = sizeof(buf);
		got = (size_t)input_read(in, buf, want);
		pcapng_watch(g, buf, got);
		i += got;
	}
	CHECK_U64(i, s2 + 8);
	CHECK(pcapng_can_take_over(g));
	CHECK(pcapng_next(g, in, &k[0]) == 1);
	CHECK_U64(k[0].linktype, 101);
	CHECK_U64(k[0].offset, idb2_end);
	CHECK_U64(pcapng_sections(g), 2);
	CHECK(pcapng_next(g, in, &k[0]) == 1);
	CHECK(pcapng_next(g, in, &k[0]) == 1);
	CHECK_U64(k[0].ts, 1767225600000001000ULL);
	CHECK(pcapng_next(g, in, &k[0]) == 0);
	input_close(in);
	pcapng_free(g);

	/* Cut anywhere: at a block's end it is the end, else an error. */
	{
		int ok = 1;

		for (i = 1; i < flen; i++) {
			n = read_all(i, k, 8, &rc);
			free_pkts(k, n < 8 ? n : 8);
			ok &= rc == (at_end(i) ? 0 : -1) && n <= 4;
		}
		CHECK(ok);
	}
	/* A trailer that disagrees. */
	file[s2 - 1] ^= 1;
	n = read_all(flen, k, 8, &rc);
	free_pkts(k, n);
	CHECK_U64(n, 1);
	CHECK(rc < 0);
	file[s2 - 1] ^= 1;
	/* A packet on an interface no block describes. */
	flen = 0;
	shb(0);
	idb(1, 0, -1);
	epb(3, 0, "x", 1);
	n = read_all(flen, k, 8, &rc);
	CHECK_U64(n, 0);
	CHECK(rc < 0);
	/* A length that is not a multiple of 4. */
	flen = 0;
	shb(0);
	file[4] = 29;
	n = read_all(flen, k, 8, &rc);
	CHECK(rc < 0);
	/* A block before any section header. */
	flen = 0;
	be = 0;
	idb(1, 0, -1);
	n = read_all(flen, k, 8, &rc);
	CHECK(rc < 0);
	unlink(TMP);
	TEST_END("pcapng");
}
