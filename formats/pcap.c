/* SPDX-License-Identifier: ISC */
/*
 * pcap.c: gpumem-pcap, a record stream in, a capture of GMEM telemetry out
 * (pcap or pcapng; docs/wire-protocol.md).  The capture is built by
 * wire/capwrite.h; this is the command's policy: its options, no binary
 * capture onto a terminal unless forced.
 *
 * gpumem read of the output gives the input back, byte for byte, for
 * every stream GMEM can carry (what gpumem synth --gmem writes, for one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capwrite.h"
#include "cmd.h"
#include "netlayers.h"
#include "stream.h"
#include "util.h"

enum {
	OPT_PCAPNG = OPT_READ_LAST,
	OPT_TCP,
	OPT_SEGMENT,
	OPT_MTU,
	OPT_SRC,
	OPT_DST,
	OPT_DPORT,
	OPT_LINK,
	OPT_VLAN,
	OPT_USEC
};

static const struct cmd_opt opts[] = {
	{OPT_PCAPNG, "pcapng", NULL, "write pcapng (default: pcap)"},
	{OPT_TCP, "tcp", NULL, "one TCP connection per GPU (default: UDP)"},
	{OPT_SEGMENT, "segment", "N", "TCP payload bytes per segment (1448)"},
	{OPT_MTU, "mtu", "N", "fragment UDP datagrams above N bytes (1500; 0: "
	    "never)"},
	{OPT_SRC, "src", "ADDR", "sender of records whose host is not an "
	    "address (192.0.2.1)"},
	{OPT_DST, "dst", "ADDR", "the collector (192.0.2.100, 2001:db8::100); "
	    "once per family"},
	{OPT_DPORT, "dport", "N", "the collector's port (9717)"},
	{OPT_LINK, "link", "TYPE", "ethernet, sll, sll2, raw, null, loop "
	    "(ethernet)"},
	{OPT_VLAN, "vlan", "ID[,ID]", "802.1Q tag, or 802.1ad and 802.1Q tags "
	    "(ethernet)"},
	{OPT_USEC, "usec", NULL, "microsecond packet times (default: "
	    "nanoseconds)"},
	{'f', "force", NULL, "write a capture to a terminal"},
	{'v', "verbose", NULL, "say more (records, frames and packets "
	    "written)"},
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct capwriter w;
	int force, ndst;
};

static void
addr_arg(const char *opt, const char *arg, struct capaddr *a)
{
	if (capw_addr(arg, a) < 0)
		die("%s: '%s': expected an IPv4 or IPv6 address", opt, arg);
}

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;
	struct capwriter *w = &o->w;
	struct capaddr a;

	switch (val) {
	case 'f':
		o->force = 1;
		break;
	case OPT_DPORT:
		w->dport = (uint16_t)num_opt_u64("--dport", arg, 1, 65535);
		break;
	case OPT_DST:
		addr_arg("--dst", arg, &a);
		if (a.family == 4)
			w->dst4 = a;
		else
			w->dst6 = a;
		if (++o->ndst > 2)
			die("--dst: given more than twice");
		break;
	case OPT_LINK:
		if ((w->linktype = capw_linktype(arg)) < 0)
			die("--link: '%s': expected ethernet, sll, sll2, raw, "
			    "null or loop", arg);
		break;
	case OPT_MTU:
		w->mtu = (size_t)num_opt_u64("--mtu", arg, 0, 65535);
		if (w->mtu != 0 && w->mtu < 128)
			die("--mtu: '%s': expected 0 (never fragment) or "
			    "128-65535", arg);
		break;
	case OPT_PCAPNG:
		w->pcapng = 1;
		break;
	case OPT_SEGMENT:
		w->segment = (size_t)num_opt_u64("--segment", arg, 1, 65495);
		break;
	case OPT_SRC:
		addr_arg("--src", arg, &w->src);
		break;
	case OPT_TCP:
		w->tcp = 1;
		break;
	case OPT_USEC:
		w->usec = 1;
		break;
	case OPT_VLAN:
		if (capw_vlan(w, arg) < 0)
			die("--vlan: '%s': expected one or two VLAN ids "
			    "(0-4095), outer first", arg);
		break;
	default:
		return 0;
	}
	return 1;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-fqv] [--pcapng] [--tcp] [--segment N] [--mtu N] "
	    "[--src ADDR]\n[--dst ADDR] [--dport N] [--link TYPE] "
	    "[--vlan ID[,ID]] [--usec]\n[read options] [-o FILE] [FILE ...]",
	.about = "Read GPU memory telemetry (anything gpumem read reads) and "
	    "write a capture of\nthe GMEM frames that would carry it.  With no "
	    "FILE, or when FILE is -, read\nstandard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, write error)",
	.flags = CMD_OUTPUT | CMD_READ | CMD_READHELP,
	.option = option,
	.run = run,
};

/* The inputs out as a capture (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct stream *st;
	const struct rec *r;
	FILE *f;
	int status;

	if (o->w.nvlan > 0 && o->w.linktype != LT_ETHERNET)
		die("--vlan: tags need --link ethernet");
	if ((f = cmd_output(c)) == NULL) {
		c->how = CMD_DISCARD;
		return EXIT_TROUBLE;
	}
	if (c->output == NULL && !o->force && isatty(fileno(f)))
		die("standard output is a terminal: a capture is binary "
		    "(use -o FILE, a pipe, or -f)");
	capw_start(&o->w, f);
	st = stream_open(c->argv, (size_t)c->argc, &c->ro);
	while ((r = stream_next(st)) != NULL && !o->w.failed)
		capw_add(&o->w, r);
	capw_end(&o->w);
	status = stream_close(st);
	capw_release(&o->w);
	if (o->w.failed)
		c->how = CMD_WRITE_ERROR;
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;

	capw_init(&o.w);
	o.force = o.ndst = 0;
	cmd.ctx = &o;
	return cmd_main(&cmd, argc, argv);
}
