/* SPDX-License-Identifier: ISC */
/*
 * pcapedit.c: damage a pcap file the way real captures are damaged, for
 * the capture tests (nothing here is part of gpumem).
 *
 *	pcapedit IN                 list the packets: "N caplen len"
 *	pcapedit IN OUT EDIT...     write IN with the edits applied
 *
 * Edits (packets numbered from 1 as in IN; applied in order):
 *	drop N[-M]      leave packets N to M out
 *	dup N           write packet N twice
 *	swap N M        exchange packets N and M
 *	cut N LEN       keep the first LEN captured bytes of packet N
 *	poke N OFF HEX  set byte OFF of packet N to HEX
 *	reverse N-M     write packets N to M in reverse order
 *	pairs N-M       swap each pair of N to M: N+1 first, then N, ...
 *	swapend         write the other byte order
 *
 * Only classic pcap files (16-byte record headers), either byte order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pkt {
	unsigned char hdr[16];
	unsigned char *data;
	uint32_t caplen;
	int copies;		/* 0: dropped */
};

static int be;			/* the input's byte order */

static uint32_t
get32(const unsigned char *p)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static void
put32(unsigned char *p, uint32_t v, int big)
{
	int i;

	for (i = 0; i < 4; i++)
		p[big ? i : 3 - i] = (unsigned char)(v >> (24 - 8 * i));
}

static void
swap16(unsigned char *p)
{
	unsigned char t = p[0];

	p[0] = p[1];
	p[1] = t;
}

static void
swap32(unsigned char *p)
{
	unsigned char t;

	t = p[0], p[0] = p[3], p[3] = t;
	t = p[1], p[1] = p[2], p[2] = t;
}

static void
usage(void)
{
	fprintf(stderr, "usage: pcapedit IN [OUT EDIT...]\n");
	exit(2);
}

static unsigned long
num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*s == '\0' || *end != '\0' || v > max) {
		fprintf(stderr, "pcapedit: '%s': bad number\n", s);
		exit(2);
	}
	return v;
}

int
main(int argc, char *argv[])
{
	unsigned char fh[24];
	struct pkt *v = NULL, t;
	size_t n = 0, cap = 0, i, k, *order;
	uint32_t m;
	FILE *in, *out;
	int swapend = 0, a;

	if (argc < 2 || argc == 3)
		usage();
	if ((in = fopen(argv[1], "rb")) == NULL || fread(fh, 1, 24, in) != 24) {
		fprintf(stderr, "pcapedit: %s: cannot read\n", argv[1]);
		return 2;
	}
	m = (uint32_t)fh[0] << 24 | (uint32_t)fh[1] << 16 | fh[2] << 8 | fh[3];
	be = m == 0xa1b2c3d4 || m == 0xa1b23c4d;
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
		}
		if (fread(v[n].hdr, 1, 16, in) != 16)
			break;
		v[n].caplen = get32(v[n].hdr + 8);
		v[n].data = malloc(v[n].caplen + 1);
		if (fread(v[n].data, 1, v[n].caplen, in) != v[n].caplen) {
			fprintf(stderr, "pcapedit: %s: truncated\n", argv[1]);
			return 2;
		}
		v[n].copies = 1;
		n++;
	}
	fclose(in);
	if (argc == 2) {
		for (i = 0; i < n; i++) {
			printf("%zu %u %u\n", i + 1, v[i].caplen,
			    get32(v[i].hdr + 12));
			free(v[i].data);
		}
		free(v);
		return 0;
	}
	order = malloc((n + 1) * sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = i;
	for (a = 3; a < argc; a++) {
		const char *e = argv[a];

		if (strcmp(e, "swapend") == 0) {
			swapend = 1;
			continue;
		}
		if (a + 1 >= argc)
			usage();
		if (strcmp(e, "drop") == 0) {
			char *dash = strchr(argv[++a], '-');
			unsigned long lo, hi;

			if (dash != NULL)
				*dash = '\0';
			lo = num(argv[a], n);
			hi = dash != NULL ? num(dash + 1, n) : lo;
			for (k = lo; k >= 1 && k <= hi; k++)
				v[k - 1].copies = 0;
		} else if (strcmp(e, "dup") == 0) {
			k = num(argv[++a], n);
			v[k - 1].copies++;
		} else if (strcmp(e, "swap") == 0 && a + 2 < argc) {
			size_t x = num(argv[a + 1], n) - 1;
			size_t y = num(argv[a + 2], n) - 1;
			size_t tmp = order[x];

			order[x] = order[y];
			order[y] = tmp;
			a += 2;
		} else if (strcmp(e, "reverse") == 0 ||
		    strcmp(e, "pairs") == 0) {
			/* Positions in the output, as swap moves them. */
			char *dash = strchr(argv[++a], '-');
			size_t lo, hi, tmp;

			if (dash == NULL)
				usage();
			*dash = '\0';
			lo = num(argv[a], n);
			hi = num(dash + 1, n);
			if (lo == 0 || hi < lo)
				usage();
			lo--;
			hi--;
			if (e[0] == 'r')
				for (; lo < hi; lo++, hi--) {
					tmp = order[lo];
					order[lo] = order[hi];
					order[hi] = tmp;
				}
			else
				for (; lo < hi; lo += 2) {
					tmp = order[lo];
					order[lo] = order[lo + 1];
					order[lo + 1] = tmp;
				}
		} else if (strcmp(e, "cut") == 0 && a + 2 < argc) {
			k = num(argv[a + 1], n) - 1;
			v[k].caplen = (uint32_t)num(argv[a + 2], v[k].caplen);
			put32(v[k].hdr + 8, v[k].caplen, be);
			a += 2;
		} else if (strcmp(e, "poke") == 0 && a + 3 < argc) {
			k = num(argv[a + 1], n) - 1;
			i = num(argv[a + 2], v[k].caplen - 1);
			v[k].data[i] = (unsigned char)num(argv[a + 3], 255);
			a += 3;
		} else
			usage();
	}
	if ((out = fopen(argv[2], "wb")) == NULL) {
		fprintf(stderr, "pcapedit: %s: cannot create\n", argv[2]);
		return 2;
	}
	if (swapend) {
		swap32(fh);
		swap16(fh + 4);
		swap16(fh + 6);
		for (i = 8; i < 24; i += 4)
			swap32(fh + i);
	}
	fwrite(fh, 1, 24, out);
	for (i = 0; i < n; i++) {
		t = v[order[i]];
		if (swapend)
			for (k = 0; k < 16; k += 4)
				swap32(t.hdr + k);
		for (k = 0; k < (size_t)t.copies; k++) {
			fwrite(t.hdr, 1, 16, out);
			fwrite(t.data, 1, t.caplen, out);
		}
	}
	if (fclose(out) != 0) {
		fprintf(stderr, "pcapedit: %s: write error\n", argv[2]);
		return 2;
	}
	for (i = 0; i < n; i++)
		free(v[i].data);
	free(v);
	free(order);
	return 0;
}
