/* SPDX-License-Identifier: ISC */
/*
 * pcapng.c: the pcapng block reader for what libpcap refuses (see
 * pcapng.h).  Follows draft-ietf-opsawg-pcapng (sections 4.1-4.4, 4.6).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "pcapng.h"
#include "util.h"

#define BT_SHB 0x0A0D0D0AU
#define BT_IDB 1U
#define BT_PB 2U
#define BT_SPB 3U
#define BT_EPB 6U
#define BOM 0x1A2B3C4DU
#define MAXBLOCK (16U << 20)	/* libpcap's limit too */
#define MAXIFACES 65536		/* per section */

enum { W_HDR, W_KEEP, W_SKIP, W_LOST };

struct iface {
	int linktype;
	uint32_t snaplen;
	int binary;		/* if_tsresol: 2^-res rather than 10^-res */
	unsigned res;
	int64_t offset;		/* if_tsoffset, seconds */
};

struct pcapng {
	int be;			/* byte order of the current section */
	int have_shb;
	struct iface *ifs;
	size_t nifs, cap;
	size_t sections, interfaces;
	unsigned char *blk;	/* the block being kept or read */
	size_t blkcap;
	uint64_t off;		/* bytes of the file consumed */
	uint64_t pktoff;	/* offset of the last packet block */
	uint32_t last;		/* type of the last whole block */
	int have_last;
	char err[160];

	/* Watching another reader. */
	int w;
	unsigned char whdr[12];
	size_t whave;
	uint32_t wtype;
	size_t wlen, wgot;	/* the block's length, bytes of it seen */
	unsigned char snap[4];	/* the IDB's snapshot length pcapng_unlimit */
	int unlimited;		/* set to 0 for the other reader, as read */
};

struct pcapng *
pcapng_new(void)
{
	return ecalloc(1, sizeof(struct pcapng));
}

void
pcapng_free(struct pcapng *g)
{
	if (g == NULL)
		return;
	free(g->ifs);
	free(g->blk);
	free(g);
}

const char *
pcapng_error(const struct pcapng *g)
{
	return g->err;
}

size_t
pcapng_interfaces(const struct pcapng *g)
{
	return g->interfaces;
}

size_t
pcapng_sections(const struct pcapng *g)
{
	return g->sections;
}

uint64_t
pcapng_packet_offset(const struct pcapng *g)
{
	return g->pktoff;
}

static int
fail(struct pcapng *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct pcapng *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->err, sizeof(g->err), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The type and total length of a block from its first bytes (8, or 12 for
 * an SHB, whose byte order is in them).  Return the header bytes needed
 * (8 or 12) when p has them and the length is sane, 0 when more bytes are
 * needed, -1 for a broken header (err set).
 */
static int
header(struct pcapng *g, const unsigned char *p, size_t n, uint32_t *type,
    size_t *len, int *be)
{
	struct bytes b = bytes_of(p, n);
	uint32_t t, l, bom;

	if (n < 8)
		return 0;
	t = get_32(&b, 0, g->be);
	*be = g->be;
	if (t == BT_SHB) {
		if (n < 12)
			return 0;
		bom = get_be32(&b, 8);
		if (bom == BOM)
			*be = 1;
		else if (bom == 0x4D3C2B1AU)
			*be = 0;
		else
			return fail(g, "section header at offset 0x%llx has a "
			    "bad byte-order magic 0x%08x",
			    (unsigned long long)g->off, bom);
	} else if (!g->have_shb)
		return fail(g, "block at offset 0x%llx before any section "
		    "header", (unsigned long long)g->off);
	l = get_32(&b, 4, *be);
	if (l < 12 || l % 4 != 0 || l > MAXBLOCK ||
	    (t == BT_SHB && l < 28) || (t == BT_IDB && l < 20))
		return fail(g, "block of type 0x%x at offset 0x%llx has a "
		    "bad length %u", t, (unsigned long long)g->off, l);
	*type = t;
	*len = l;
	return t == BT_SHB ? 12 : 8;
}

static int
parse_shb(struct pcapng *g, struct bytes *b, int be)
{
	uint16_t major = get_16(b, 12, be), minor = get_16(b, 14, be);

	if (major != 1)
		return fail(g, "section header at offset 0x%llx: pcapng "
		    "version %u.%u is not 1.x", (unsigned long long)g->off,
		    major, minor);
	g->be = be;
	g->have_shb = 1;
	g->nifs = 0;		/* a section has its own interfaces */
	g->sections++;
	return 0;
}

static int
parse_idb(struct pcapng *g, struct bytes *b, size_t len)
{
	struct iface f;
	size_t off = 16;

	memset(&f, 0, sizeof(f));
	f.linktype = get_16(b, 8, g->be);
	f.snaplen = get_32(b, 12, g->be);
	f.res = 6;
	/* Options, up to the trailer; a broken option list ends them. */
	while (off + 4 <= len - 4) {
		uint16_t code = get_16(b, off, g->be);
		uint16_t olen = get_16(b, off + 2, g->be);
		size_t padded = ((size_t)olen + 3) & ~(size_t)3;

		if (code == 0 || off + 4 + padded > len - 4)
			break;
		if (code == 9 && olen >= 1) {
			uint8_t r = get_u8(b, off + 4);

			f.binary = (r & 0x80) != 0;
			f.res = r & 0x7f;
		} else if (code == 14 && olen >= 8) {
			uint32_t hi = get_32(b, off + 4, g->be);
			uint32_t lo = get_32(b, off + 8, g->be);

			f.offset = (int64_t)((uint64_t)hi << 32 | lo);
		}
		off += 4 + padded;
	}
	if (g->nifs == MAXIFACES)
		return fail(g, "more than %d interfaces in a section",
		    MAXIFACES);
	if (g->nifs == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 8;
		g->ifs = ereallocarray(g->ifs, g->cap, sizeof(*g->ifs));
	}
	g->ifs[g->nifs++] = f;
	g->interfaces++;
	return 0;
}

/*
 * The bytes an SPB holds of a packet of orig bytes, in room bytes: the
 * smaller of orig and the snapshot length of the section's first
 * interface (the SPB's), 0 meaning none.
 */
static uint32_t
spb_caplen(const struct pcapng *g, uint32_t orig, size_t room)
{
	uint32_t n = orig;

	if (g->nifs > 0 && g->ifs[0].snaplen != 0 && n > g->ifs[0].snaplen)
		n = g->ifs[0].snaplen;
	if (n > room)
		n = (uint32_t)room;
	return n;
}

/* Parse an SHB or IDB held whole in g->blk. */
static int
parse_kept(struct pcapng *g, uint32_t type, size_t len, int be)
{
	struct bytes b = bytes_of(g->blk, len);

	if (get_32(&b, len - 4, be) != len)
		return fail(g, "block at offset 0x%llx: the length in its "
		    "trailer (%u) is not the one in its header (%zu)",
		    (unsigned long long)g->off, get_32(&b, len - 4, be), len);
	if (type == BT_SHB)
		return parse_shb(g, &b, be);
	return parse_idb(g, &b, len);
}

static void
keep_room(struct pcapng *g, size_t len)
{
	if (g->blkcap < len) {
		g->blkcap = len < 4096 ? 4096 : len;
		g->blk = erealloc(g->blk, g->blkcap);
	}
}

void
pcapng_watch(struct pcapng *g, const unsigned char *p, size_t n)
{
	size_t k;
	int hl, be;

	while (n > 0 && g->w != W_LOST) {
		switch (g->w) {
		case W_HDR:
			k = sizeof(g->whdr) - g->whave;
			if (k > n)
				k = n;
			/* Take only what the header needs (8 bytes or 12). */
			if (g->whave < 8 && g->whave + k > 8)
				k = 8 - g->whave;
			memcpy(g->whdr + g->whave, p, k);
			g->whave += k;
			p += k;
			n -= k;
			hl = header(g, g->whdr, g->whave, &g->wtype, &g->wlen,
			    &be);
			if (hl < 0) {
				g->w = W_LOST;
				break;
			}
			if (hl == 0)
				break;
			if (g->wtype == BT_EPB || g->wtype == BT_SPB ||
			    g->wtype == BT_PB)
				g->pktoff = g->off;
			g->wgot = g->whave;
			if (g->wtype == BT_SHB || g->wtype == BT_IDB) {
				keep_room(g, g->wlen);
				memcpy(g->blk, g->whdr, g->whave);
				g->w = W_KEEP;
			} else
				g->w = W_SKIP;
			g->whave = 0;
			break;
		case W_KEEP:
		case W_SKIP:
			k = g->wlen - g->wgot;
			if (k > n)
				k = n;
			if (g->w == W_KEEP)
				memcpy(g->blk + g->wgot, p, k);
			g->wgot += k;
			p += k;
			n -= k;
			if (g->wgot < g->wlen)
				break;
			if (g->w == W_KEEP) {
				be = g->be;
				if (g->wtype == BT_SHB) {
					struct bytes b = bytes_of(g->blk, 12);

					be = get_be32(&b, 8) == BOM;
				} else if (g->unlimited)
					/* This reader's SPBs need it. */
					memcpy(g->blk + 12, g->snap, 4);
				g->unlimited = 0;
				if (parse_kept(g, g->wtype, g->wlen, be) < 0) {
					g->w = W_LOST;
					break;
				}
			}
			g->off += g->wlen;
			g->last = g->wtype;
			g->have_last = 1;
			g->w = W_HDR;
			break;
		}
	}
}

void
pcapng_unlimit(struct pcapng *g, unsigned char *p, size_t n)
{
	struct bytes b;
	uint32_t orig;
	size_t i;

	/* An IDB's snapshot length is at bytes 12-15 of the block. */
	if (g->w == W_KEEP && g->wtype == BT_IDB) {
		for (i = g->wgot; i < g->wgot + n && i < 16; i++)
			if (i >= 12) {
				g->snap[i - 12] = p[i - g->wgot];
				p[i - g->wgot] = 0;
				g->unlimited = 1;
			}
		return;
	}
	/*
	 * An SPB's original length, at bytes 8-11 (given alone, see
	 * pcapng_want): the other reader, without the snapshot length,
	 * would take it for the bytes the block holds.
	 */
	if (g->w == W_SKIP && g->wtype == BT_SPB && g->wgot == 8 && n >= 4) {
		b = bytes_of(p, 4);
		orig = get_32(&b, 0, g->be);
		orig = spb_caplen(g, orig, g->wlen - 16);
		if (g->be)
			put_be32(p, orig);
		else
			put_le32(p, orig);
	}
}

size_t
pcapng_want(const struct pcapng *g)
{
	switch (g->w) {
	case W_HDR:
		return (g->whave < 8 ? 8 : 12) - g->whave;
	case W_KEEP:
	case W_SKIP:
		/* An SPB's original length alone (pcapng_unlimit). */
		if (g->wtype == BT_SPB && g->wgot < 12)
			return 12 - g->wgot;
		return g->wlen - g->wgot;
	default:
		return 0;
	}
}

int
pcapng_can_take_over(const struct pcapng *g)
{
	if (g->w != W_HDR)
		return 0;
	/*
	 * In the header of a section: libpcap read it in the byte order
	 * of the section before (the type reads the same in both).
	 */
	if (g->whave >= 8)
		return g->have_shb && g->whdr[0] == 0x0a && g->whdr[1] == 0x0d &&
		    g->whdr[2] == 0x0d && g->whdr[3] == 0x0a;
	return g->whave == 0 && g->have_last &&
	    (g->last == BT_SHB || g->last == BT_IDB);
}

/* Read exactly n bytes; return the count read (less at the end). */
static size_t
read_full(struct input *in, unsigned char *p, size_t n, int *err)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = input_read(in, p + got, n - got);
		if (r < 0) {
			*err = 1;
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* A timestamp in the units of f to nanoseconds since the epoch. */
static uint64_t
ts_ns(const struct iface *f, uint64_t t)
{
	uint64_t ns, div = 1;
	unsigned i;

	if (f->binary) {
		if (f->res >= 64)
			ns = 0;
		else if (f->res <= 30)
			ns = (t >> f->res) * 1000000000ULL +
			    ((t & ((1ULL << f->res) - 1)) * 1000000000ULL >>
			    f->res);
		else
			ns = (t >> f->res) * 1000000000ULL;
	} else if (f->res <= 9) {
		for (i = f->res; i < 9; i++)
			div *= 10;
		ns = t * div;
	} else {
		for (i = 9; i < f->res && i < 28; i++)
			div *= 10;
		ns = t / div;
	}
	return ns + (uint64_t)f->offset * 1000000000ULL;
}

int
pcapng_next(struct pcapng *g, struct input *in, struct pcapng_pkt *pkt)
{
	unsigned char hdr[12];
	uint32_t type, ifid = 0, caplen = 0, wirelen = 0, hi = 0, lo = 0;
	size_t len, got, doff = 0, room, pre = 0;
	int hl, be, err = 0;
	struct bytes b;

	if (g->w == W_HDR && g->whave > 0) {
		/* The header of a section the watched reader gave up in. */
		pre = g->whave;
		memcpy(hdr, g->whdr, pre);
		g->whave = 0;
	}
	for (;;) {
		got = pre >= 8 ? pre : pre + read_full(in, hdr + pre, 8 - pre,
		    &err);
		if (err)
			return fail(g, "%s", input_error(in));
		if (got == 0)
			return 0;
		if (got < 8)
			return fail(g, "block header at offset 0x%llx cut "
			    "short (%zu of 8 bytes)", (unsigned long long)g->off,
			    got);
		{
			struct bytes h = bytes_of(hdr, 8);

			if (get_32(&h, 0, g->be) == BT_SHB) {
				got += read_full(in, hdr + got, 12 - got, &err);
				if (err)
					return fail(g, "%s", input_error(in));
				if (got < 12)
					return fail(g, "section header at "
					    "offset 0x%llx cut short",
					    (unsigned long long)g->off);
				got = 12;
			}
		}
		pre = 0;
		hl = header(g, hdr, got, &type, &len, &be);
		if (hl < 0)
			return -1;
		keep_room(g, len);
		memcpy(g->blk, hdr, (size_t)hl);
		got = read_full(in, g->blk + hl, len - (size_t)hl, &err);
		if (err)
			return fail(g, "%s", input_error(in));
		if (got < len - (size_t)hl)
			return fail(g, "block at offset 0x%llx cut short (%zu "
			    "of %zu bytes)", (unsigned long long)g->off,
			    got + (size_t)hl, len);
		b = bytes_of(g->blk, len);
		if (get_32(&b, len - 4, be) != len)
			return fail(g, "block at offset 0x%llx: the length in "
			    "its trailer (%u) is not the one in its header "
			    "(%zu)", (unsigned long long)g->off,
			    get_32(&b, len - 4, be), len);
		if (type == BT_SHB || type == BT_IDB) {
			if (parse_kept(g, type, len, be) < 0)
				return -1;
			g->off += len;
			continue;
		}
		if (type == BT_EPB) {
			ifid = get_32(&b, 8, be);
			hi = get_32(&b, 12, be);
			lo = get_32(&b, 16, be);
			caplen = get_32(&b, 20, be);
			wirelen = get_32(&b, 24, be);
			doff = 28;
		} else if (type == BT_PB) {
			ifid = get_16(&b, 8, be);
			hi = get_32(&b, 12, be);
			lo = get_32(&b, 16, be);
			caplen = get_32(&b, 20, be);
			wirelen = get_32(&b, 24, be);
			doff = 28;
		} else if (type == BT_SPB) {
			ifid = 0;
			wirelen = get_32(&b, 8, be);
			doff = 12;
			caplen = spb_caplen(g, wirelen, len - 4 - doff);
		} else {
			g->off += len;
			continue;	/* a block we have no use for */
		}
		if (b.short_read)
			return fail(g, "packet block at offset 0x%llx is too "
			    "short (%zu bytes)", (unsigned long long)g->off, len);
		room = len - 4 - doff;
		if (caplen > room)
			return fail(g, "packet block at offset 0x%llx: %u bytes "
			    "captured do not fit its %zu bytes",
			    (unsigned long long)g->off, caplen, len);
		if (ifid >= g->nifs)
			return fail(g, "packet block at offset 0x%llx is on "
			    "interface %u, which no block describes",
			    (unsigned long long)g->off, ifid);
		pkt->linktype = g->ifs[ifid].linktype;
		pkt->ifid = ifid;
		pkt->data = g->blk + doff;
		pkt->caplen = caplen;
		pkt->len = wirelen < caplen ? caplen : wirelen;
		pkt->ts = type == BT_SPB ? 0 :
		    ts_ns(&g->ifs[ifid], (uint64_t)hi << 32 | lo);
		pkt->offset = g->off;
		g->pktoff = g->off;
		g->off += len;
		return 1;
	}
}
