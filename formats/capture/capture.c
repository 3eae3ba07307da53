/* SPDX-License-Identifier: ISC */
/*
 * capture.c: GMEM telemetry in pcap and pcapng captures (see capture.h),
 * following docs/wire-protocol.md.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "capstate.h"
#include "capsum.h"
#include "capture.h"
#include "demux.h"
#include "flows.h"
#include "netlayers.h"
#include "pcapwatch.h"
#include "seqtrack.h"

/* --- detection --- */

static int
sniff(const unsigned char *p, size_t n)
{
	struct bytes b = bytes_of(p, n);
	uint32_t m = get_be32(&b, 0);

	if (b.short_read)
		return 0;
	if (pcaprec_magic(p, NULL, NULL))
		return 100;
	switch (m) {
	case 0xa1b2cd34:	/* Kuznetzov's patched format */
	case 0x34cdb2a1:
		return 100;
	case 0x0a0d0d0a:	/* pcapng: a section header block */
		m = get_be32(&b, 8);
		return !b.short_read && (m == 0x1a2b3c4d || m == 0x4d3c2b1a) ?
		    100 : 0;
	default:
		return 0;
	}
}

/* Whether a file starting with magic is pcapng (its section header). */
static int
is_pcapng(const unsigned char magic[4])
{
	return memcmp(magic, "\n\r\r\n", 4) == 0;
}

/*
 * How much of n bytes libpcap may be given of a file it has been given
 * `given' of: a pcap file's 24-byte header alone first, so that pcaprec.c
 * can read the records where libpcap stopped.
 */
static size_t
header_first(int ng, uint64_t given, size_t n)
{
	if (!ng && given < 24 && n > 24 - given)
		return 24 - (size_t)given;
	return n;
}

/* A packet's time in nanoseconds (libpcap gives nanosecond precision). */
static uint64_t
pkt_time(const struct pcap_pkthdr *h)
{
	return (uint64_t)h->ts.tv_sec * NS_PER_SEC + (uint64_t)h->ts.tv_usec;
}

/*
 * libpcap reads through here.  A pcapng file is given never more than the
 * rest of the block at hand: libpcap's stdio buffer then holds nothing
 * beyond what it has asked for, so that pcapng.c can read on from exactly
 * where libpcap stopped.  A pcap file is given its 24-byte header alone
 * first, for pcaprec.c to read the records where libpcap stopped; when
 * libpcap reads them itself (pcaprec_can says no), they come in large
 * blocks, and the watcher queues the offsets of the records it sees
 * pass, for messages.
 */
static ssize_t
cookie_read(void *cookie, char *buf, size_t n)
{
	struct capture *c = cookie;
	size_t lim = c->ng ? pcapng_want(c->png) : 0;
	ssize_t r;

	if (lim > 0 && n > lim)
		n = lim;
	n = header_first(c->ng, c->given, n);
	r = input_read(c->in, buf, n);
	/* A block header or an SPB's length whole (pcapng_unlimit reads it). */
	while (c->ng && lim > 0 && lim <= 12 && r > 0 && (size_t)r < n) {
		ssize_t more = input_read(c->in, buf + r, n - (size_t)r);

		if (more < 0)
			r = more;
		if (more <= 0)
			break;
		r += more;
	}

	if (r < 0) {
		errno = EIO;
		return -1;
	}
	if (c->ng) {
		pcapng_unlimit(c->png, (unsigned char *)buf, (size_t)r);
		pcapng_watch(c->png, (unsigned char *)buf, (size_t)r);
	} else {
		pcapwatch_unlimit(c->given, (unsigned char *)buf, (size_t)r);
		pcapwatch_watch(&c->pw, (unsigned char *)buf, (size_t)r);
	}
	c->given += (uint64_t)r;
	return r;
}

/* --- the format --- */

/* libpcap's DLT_ numbers where they differ from the LINKTYPE_ ones. */
static int
dlt_to_lt(int dlt)
{
	if (dlt == DLT_RAW)
		return LT_RAW;
	if (dlt == DLT_LOOP)
		return LT_LOOP;
	return dlt;
}

static int
lt_to_dlt(int lt)
{
	if (lt == LT_RAW)
		return DLT_RAW;
	if (lt == LT_LOOP)
		return DLT_LOOP;
	return lt;
}

static void
set_what(struct capture *c)
{
	const char *name = net_linktype_name(c->linktype);
	char num[32];

	if (name == NULL) {
		snprintf(num, sizeof(num), "link type %d", c->linktype);
		name = num;
	}
	snprintf(c->what, sizeof(c->what), "%s capture, %s", c->ng ?
	    "pcapng" : "pcap", c->mixed ? "several link types" : name);
	source_set_what(c->s, c->what);
}

/*
 * Hand c->in to libpcap (through cookie_read), from its first byte.
 * Return 0, or -1 after source_fail().
 */
static int
attach(struct capture *c)
{
	cookie_io_functions_t io = { cookie_read, NULL, NULL, NULL };
	char errbuf[PCAP_ERRBUF_SIZE];
	const unsigned char *p;

	memset(c->magic, 0, sizeof(c->magic));
	if (input_peek(c->in, &p, 4) == 4)
		memcpy(c->magic, p, 4);
	c->ng = is_pcapng(c->magic);
	if (c->ng)
		c->png = pcapng_new();
	c->fp = fopencookie(c, "r", io);
	if (c->fp == NULL)
		die("fopencookie:");
	setvbuf(c->fp, NULL, _IOFBF, 256 * 1024);
	errbuf[0] = '\0';
	c->pc = pcap_fopen_offline_with_tstamp_precision(c->fp,
	    PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (c->pc == NULL) {
		if (input_failed(c->in))
			source_fail(c->s, "%s%s", c->file, input_error(c->in));
		else
			source_fail(c->s, "%s%s", c->file, errbuf);
		fclose(c->fp);
		pcapng_free(c->png);
		c->png = NULL;
		return -1;
	}
	c->linktype = dlt_to_lt(pcap_datalink(c->pc));
	/*
	 * libpcap has read the file header and nothing more: pcaprec.c
	 * reads on, with this file's byte order, time unit and snapshot
	 * length (each file of a chain has its own).
	 */
	if (!c->ng && c->given == 24 && pcaprec_can(c->pc, c->magic)) {
		c->own = 1;
		pcaprec_init(&c->rec, c->magic);
	}
	return 0;
}

static const struct tcp_limits tcp_lim = {
	MAX_CONNS, MAX_HELD, MAX_HELD_FLOW, HOLE_TIMEOUT, HOLE_PACKETS
};

static void *
open_fn(struct source *s, const char *hint)
{
	struct capture *c;

	(void)hint;
	c = ecalloc(1, sizeof(*c));
	c->s = s;
	c->in = source_input(s);
	c->file = "";
	if (attach(c) < 0) {
		free(c->pw.q);
		free(c);
		return NULL;
	}
	if (source_opts(s)->filter != NULL) {
		if (pcap_compile(c->pc, &c->prog, source_opts(s)->filter, 1,
		    PCAP_NETMASK_UNKNOWN) < 0) {
			source_fail(s, "--filter '%s': %s",
			    source_opts(s)->filter, pcap_geterr(c->pc));
			pcap_close(c->pc);
			pcapng_free(c->png);
			free(c->pw.q);
			free(c);
			return NULL;
		}
		c->have_prog = 1;
	}
	c->budget.cap = MAX_PARTIAL;
	c->ipr = ipreasm_new(MAX_FRAGS, MAX_FRAG_BYTES, FRAG_TIMEOUT);
	c->tcp = tcpreasm_new(&tcp_lim, &flows_ops, c);
	c->ipst = ipreasm_stats(c->ipr);
	c->tcpst = tcpreasm_stats(c->tcp);
	set_what(c);
	return c;
}

/* --filter for a link type the fallback reader met (compiled once). */
static int
fallback_match(struct capture *c, const struct pcapng_pkt *k)
{
	struct pcap_pkthdr h;
	struct ltprog *lp = NULL;
	size_t i;

	if (source_opts(c->s)->filter == NULL)
		return 1;
	for (i = 0; i < c->nprogs; i++)
		if (c->progs[i].linktype == k->linktype)
			lp = &c->progs[i];
	if (lp == NULL) {
		pcap_t *dead = pcap_open_dead(lt_to_dlt(k->linktype), 262144);

		c->progs = ereallocarray(c->progs, c->nprogs + 1,
		    sizeof(*c->progs));
		lp = &c->progs[c->nprogs++];
		lp->linktype = k->linktype;
		lp->ok = dead != NULL && pcap_compile(dead, &lp->prog,
		    source_opts(c->s)->filter, 1, PCAP_NETMASK_UNKNOWN) == 0;
		if (!lp->ok)
			source_warn(c->s, "--filter '%s' does not apply to "
			    "link type %d: its packets are passed over",
			    source_opts(c->s)->filter, k->linktype);
		if (dead != NULL)
			pcap_close(dead);
	}
	if (!lp->ok)
		return 0;
	memset(&h, 0, sizeof(h));
	h.caplen = (bpf_u_int32)k->caplen;
	h.len = (bpf_u_int32)k->len;
	return pcap_offline_filter(&lp->prog, &h, k->data) != 0;
}

static void
note_link(struct capture *c, int lt)
{
	if (lt != c->linktype && !c->mixed) {
		c->mixed = 1;
		set_what(c);
	}
}

static int
step_fallback(struct capture *c)
{
	struct pcapng_pkt k;
	int rc;

	rc = pcapng_next(c->png, c->in, &k);
	if (rc == 0)
		return 0;
	if (rc < 0) {
		source_fail(c->s, "%safter packet %llu: %s", c->file,
		    (unsigned long long)c->fpkt, pcapng_error(c->png));
		return -1;
	}
	c->npkt++;
	c->fpkt++;
	c->pktoff = k.offset;
	if (k.ts > c->now)
		c->now = k.ts;
	note_link(c, k.linktype);
	if (fallback_match(c, &k))
		cap_packet(c, k.linktype, k.data, k.caplen);
	capsum_check(c);
	return 1;
}

/* A packet libpcap or pcaprec.c read, its record at offset off. */
static void
packet(struct capture *c, const struct pcap_pkthdr *h, const u_char *data,
    uint64_t off)
{
	uint64_t t = pkt_time(h);

	c->npkt++;
	c->fpkt++;
	c->pktoff = off;
	if (t > c->now)
		c->now = t;
	if (!c->have_prog || pcap_offline_filter(&c->prog, h, data) != 0)
		cap_packet(c, c->linktype, data, h->caplen);
	capsum_check(c);
}

static int
step_own(struct capture *c)
{
	struct pcap_pkthdr h;
	const unsigned char *data;
	uint64_t off;

	switch (pcaprec_next(&c->rec, c->in, &h, &data, &off)) {
	case 1:
		packet(c, &h, data, off);
		return 1;
	case 0:
		return 0;
	case -2:
		source_fail(c->s, "%s%s", c->file, input_error(c->in));
		return -1;
	default:
		source_fail(c->s, "%safter packet %llu: %s", c->file,
		    (unsigned long long)c->fpkt, c->rec.err);
		return -1;
	}
}

static int
step_pcap(struct capture *c)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc;

	rc = pcap_next_ex(c->pc, &h, &data);
	if (rc == 1) {
		packet(c, h, data, c->ng ? pcapng_packet_offset(c->png) :
		    pcapwatch_pop(&c->pw));
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	if (input_failed(c->in)) {
		source_fail(c->s, "%s%s", c->file, input_error(c->in));
		return -1;
	}
	if (c->ng && pcapng_can_take_over(c->png)) {
		/*
		 * libpcap stopped right after a section or interface it
		 * does not accept (another link type, snapshot length or
		 * byte order): read on with our own reader.
		 */
		c->fallback = 1;
		c->refused = estrdup(pcap_geterr(c->pc));
		c->refused_at = c->fpkt;
		return 1;
	}
	source_fail(c->s, "%safter packet %llu: %s", c->file,
	    (unsigned long long)c->fpkt, pcap_geterr(c->pc));
	return -1;
}

/* "NAME: ", for messages about the file being read of a chain. */
static void
set_file(struct capture *c, const char *name)
{
	size_t n = strlen(name) + 3;

	free(c->filebuf);
	c->filebuf = emalloc(n);
	snprintf(c->filebuf, n, "%s: ", name);
	c->file = c->filebuf;
}

/*
 * The file read so far has ended: go on with the next one of the chain
 * (capture_chain) as with more packets of the same capture.  The
 * reassembly state (IP fragments, TCP streams, sequence numbers) and the
 * counts go on; only libpcap and its watchers start afresh.  The chain's
 * first input is the source's own and stays open until the end.
 */
static int
next_file(struct capture *c)
{
	const char *path = c->chain[c->ichain++];
	struct input *in;

	pcap_close(c->pc);	/* closes c->fp */
	c->pc = NULL;
	pcapng_free(c->png);
	c->png = NULL;
	free(c->pw.q);
	memset(&c->pw, 0, sizeof(c->pw));
	c->given = 0;
	c->fallback = 0;
	c->own = 0;
	c->fpkt = 0;
	c->pktoff = 0;
	if (c->in != source_input(c->s))
		input_close(c->in);
	c->in = source_input(c->s);
	set_file(c, path);
	if ((in = input_open(path)) == NULL) {
		source_fail(c->s, "%scannot open: %s", c->file,
		    strerror(errno));
		return -1;
	}
	c->in = in;
	if (attach(c) < 0)
		return -1;
	note_link(c, c->linktype);
	return 1;
}

static int
step(void *st)
{
	struct capture *c = st;
	int rc;

	if (c->fallback)
		rc = step_fallback(c);
	else if (c->own)
		rc = step_own(c);
	else
		rc = step_pcap(c);
	if (rc == 0 && c->ichain < c->nchain)
		return next_file(c);
	return rc;
}

void
capture_chain(void *st, const char *first, char *const *paths, size_t n)
{
	struct capture *c = st;

	set_file(c, first);
	c->chain = paths;
	c->nchain = n;
}

static void
end_fn(void *st)
{
	struct capture *c = st;

	/* What is still held is given up or delivered now. */
	ipreasm_flush(c->ipr);
	tcpreasm_flush(c->tcp);
	capsum_check(c);
}

static void
free_fn(void *st)
{
	struct capture *c = st;
	size_t i;

	tcpreasm_free(c->tcp);
	ipreasm_free(c->ipr);
	if (c->have_prog)
		pcap_freecode(&c->prog);
	for (i = 0; i < c->nprogs; i++)
		if (c->progs[i].ok)
			pcap_freecode(&c->progs[i].prog);
	free(c->progs);
	if (c->pc != NULL)
		pcap_close(c->pc);	/* closes c->fp */
	if (c->in != source_input(c->s))
		input_close(c->in);
	pcapng_free(c->png);
	free(c->filebuf);
	hmap_release(&c->seqs, seq_free);
	free(c->pw.q);
	free(c->refused);
	free(c);
}

/* A file being scanned for its span (capture_span). */
struct scan {
	struct input *in;
	uint64_t given;		/* bytes handed to libpcap */
	int ng;
};

/*
 * libpcap reads a file being scanned through here; a pcap file's header
 * alone first, as cookie_read does, for pcaprec.c to read on.
 */
static ssize_t
scan_read(void *cookie, char *buf, size_t n)
{
	struct scan *sc = cookie;
	ssize_t r;

	r = input_read(sc->in, buf, header_first(sc->ng, sc->given, n));
	if (r < 0)
		errno = EIO;
	else
		sc->given += (uint64_t)r;
	return r;
}

/* One packet's time into *sp. */
static void
span_add(struct capspan *sp, const struct pcap_pkthdr *h)
{
	uint64_t t = pkt_time(h);

	if (sp->npkt == 0 || t < sp->first)
		sp->first = t;
	if (t > sp->last)
		sp->last = t;
	sp->npkt++;
}

int
capture_span(const char *path, struct capspan *sp)
{
	cookie_io_functions_t io = { scan_read, NULL, NULL, NULL };
	char errbuf[PCAP_ERRBUF_SIZE];
	unsigned char magic[4] = { 0, 0, 0, 0 };
	struct pcap_pkthdr *h, hh;
	struct pcaprec rec;
	struct scan sc;
	const unsigned char *p;
	const u_char *data;
	uint64_t off;
	pcap_t *pc;
	FILE *fp;
	int rc;

	memset(sp, 0, sizeof(*sp));
	memset(&sc, 0, sizeof(sc));
	if ((sc.in = input_open(path)) == NULL)
		return -1;
	if (input_peek(sc.in, &p, 4) == 4)
		memcpy(magic, p, 4);
	sp->ng = sc.ng = is_pcapng(magic);
	if ((fp = fopencookie(&sc, "r", io)) == NULL)
		die("fopencookie:");
	pc = pcap_fopen_offline_with_tstamp_precision(fp,
	    PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (pc == NULL) {
		fclose(fp);
		input_close(sc.in);
		return -1;
	}
	sp->linktype = dlt_to_lt(pcap_datalink(pc));
	sp->snaplen = pcap_snapshot(pc);
	if (!sc.ng && sc.given == 24 && pcaprec_can(pc, magic)) {
		/*
		 * The record headers only, as the reader reads them: a
		 * fifth of the instructions of libpcap's reads.
		 */
		pcaprec_init(&rec, magic);
		while ((rc = pcaprec_next(&rec, sc.in, &hh, &data,
		    &off)) == 1)
			span_add(sp, &hh);
	} else {
		while ((rc = pcap_next_ex(pc, &h, &data)) == 1)
			span_add(sp, h);
		rc = rc == PCAP_ERROR_BREAK ? 0 : -1;
	}
	pcap_close(pc);		/* closes fp */
	input_close(sc.in);
	return rc == 0 ? 0 : -1;
}

const struct format capture_format = {
	.name = "pcap",
	.what = "pcap capture",
	.sniff_bytes = sniff,
	.open = open_fn,
	.step = step,
	.end = end_fn,
	.summary = capsum_line,
	.free = free_fn,
	.where = cap_where,
};
