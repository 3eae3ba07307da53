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
	switch (m) {
	case 0xa1b2c3d4:	/* microseconds */
	case 0xd4c3b2a1:
	case 0xa1b23c4d:	/* nanoseconds */
	case 0x4d3cb2a1:
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

/*
 * libpcap reads through here.  A pcapng file is given never more than the
 * rest of the block at hand: libpcap's stdio buffer then holds nothing
 * beyond what it has asked for, so that pcapng.c can read on from exactly
 * where libpcap stopped.  A pcap file needs no such care (nothing takes
 * over from libpcap), so it is read in large blocks; its watcher queues
 * the offsets of the records it sees pass, for messages.
 */
static ssize_t
cookie_read(void *cookie, char *buf, size_t n)
{
	struct capture *c = cookie;
	size_t lim = c->ng ? pcapng_want(c->png) : 0;
	ssize_t r;

	if (lim > 0 && n > lim)
		n = lim;
	r = input_read(c->in, buf, n);

	if (r < 0) {
		errno = EIO;
		return -1;
	}
	if (c->ng) {
		pcapng_unlimit(c->png, (unsigned char *)buf, (size_t)r);
		pcapng_watch(c->png, (unsigned char *)buf, (size_t)r);
	} else {
		pw_unlimit(c->given, (unsigned char *)buf, (size_t)r);
		pw_watch(&c->pw, (unsigned char *)buf, (size_t)r);
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
	c->s->what = c->what;
}

static void *
open_fn(struct source *s, const char *hint)
{
	static const struct tcp_limits lim = {
		MAX_CONNS, MAX_HELD, MAX_HELD_FLOW, HOLE_TIMEOUT, HOLE_PACKETS
	};
	cookie_io_functions_t io = { cookie_read, NULL, NULL, NULL };
	char errbuf[PCAP_ERRBUF_SIZE];
	const unsigned char *p;
	struct capture *c;

	(void)hint;
	c = ecalloc(1, sizeof(*c));
	c->s = s;
	c->in = s->in;
	c->ng = input_peek(c->in, &p, 4) == 4 && p[0] == 0x0a &&
	    p[1] == 0x0d && p[2] == 0x0d && p[3] == 0x0a;
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
		if (strcmp(input_error(c->in), "no error") != 0)
			source_fail(s, "%s", input_error(c->in));
		else
			source_fail(s, "%s", errbuf);
		fclose(c->fp);
		pcapng_free(c->png);
		free(c->pw.q);
		free(c);
		return NULL;
	}
	c->linktype = dlt_to_lt(pcap_datalink(c->pc));
	if (s->opt->filter != NULL) {
		if (pcap_compile(c->pc, &c->prog, s->opt->filter, 1,
		    PCAP_NETMASK_UNKNOWN) < 0) {
			source_fail(s, "--filter '%s': %s", s->opt->filter,
			    pcap_geterr(c->pc));
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
	c->tcp = tcpreasm_new(&lim, &flows_ops, c);
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

	if (c->s->opt->filter == NULL)
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
		    c->s->opt->filter, 1, PCAP_NETMASK_UNKNOWN) == 0;
		if (!lp->ok)
			source_warn(c->s, "--filter '%s' does not apply to "
			    "link type %d: its packets are passed over",
			    c->s->opt->filter, k->linktype);
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
		source_fail(c->s, "after packet %llu: %s",
		    (unsigned long long)c->npkt, pcapng_error(c->png));
		return -1;
	}
	c->npkt++;
	c->pktoff = k.offset;
	if (k.ts > c->now)
		c->now = k.ts;
	note_link(c, k.linktype);
	if (fallback_match(c, &k))
		cap_packet(c, k.linktype, k.data, k.caplen);
	capsum_check(c);
	return 1;
}

static int
step(void *st)
{
	struct capture *c = st;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t t;
	int rc;

	if (c->fallback)
		return step_fallback(c);
	rc = pcap_next_ex(c->pc, &h, &data);
	if (rc == 1) {
		c->npkt++;
		c->pktoff = c->ng ? pcapng_packet_offset(c->png) :
		    pw_pop(&c->pw);
		t = (uint64_t)h->ts.tv_sec * NS_PER_SEC +
		    (uint64_t)h->ts.tv_usec;
		if (t > c->now)
			c->now = t;
		if (!c->have_prog ||
		    pcap_offline_filter(&c->prog, h, data) != 0)
			cap_packet(c, c->linktype, data, h->caplen);
		capsum_check(c);
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	if (strcmp(input_error(c->in), "no error") != 0) {
		source_fail(c->s, "%s", input_error(c->in));
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
		c->refused_at = c->npkt;
		return 1;
	}
	source_fail(c->s, "after packet %llu: %s",
	    (unsigned long long)c->npkt, pcap_geterr(c->pc));
	return -1;
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
	pcap_close(c->pc);	/* closes c->fp */
	pcapng_free(c->png);
	hmap_release(&c->seqs, seq_free);
	free(c->pw.q);
	free(c->refused);
	free(c);
}

const struct format fmt_pcap = {
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
