/* SPDX-License-Identifier: ISC */
/*
 * capsum.c: what each input lost, dropped and repeated: the caps
 * said once, the summary line (see capsum.h).
 */
#include <stdlib.h>
#include <string.h>

#include "capstate.h"
#include "capsum.h"
#include "demux.h"
#include "seqtrack.h"

#define SHOW_PAIRS 4			/* (sender, gpu) pairs named */

/* Say once (as a problem: even with -q) that a cap dropped something. */
static void
tell_cap(struct capture *c, unsigned bit, uint64_t hit, const char *what)
{
	struct sbuf w = SBUF_INIT;

	if (hit == 0 || (c->caps_told & bit))
		return;
	c->caps_told |= bit;
	cap_where(c, &w);
	msg("%s: %s: %s (counted in the summary line)", source_name(c->s),
	    w.buf, what);
	sbuf_release(&w);
}

void
capsum_check(struct capture *c)
{
	const struct ipreasm_stats *is = c->ipst;
	const struct tcpreasm_stats *ts = c->tcpst;
	uint64_t sum = ts->evicted + ts->capped + ts->dropped + is->capped +
	    c->budget.dropped + c->untracked;

	/* Nothing new dropped since the last packet: the usual case. */
	if (sum == c->capsum)
		return;
	c->capsum = sum;
	tell_cap(c, 1, ts->evicted, "more than " STR(MAX_CONNS) " TCP "
	    "connections at once: the least recently active ones are ended "
	    "early");
	tell_cap(c, 2, ts->capped + ts->dropped, "more than "
	    STR(MAX_HELD_MIB) " MiB of out-of-order TCP data: holes are "
	    "given up early");
	tell_cap(c, 4, is->capped, "more than " STR(MAX_FRAGS) " IP "
	    "datagrams in pieces at once: the oldest are dropped");
	tell_cap(c, 8, c->budget.dropped, "more than " STR(MAX_PARTIAL_MIB)
	    " MiB of partial GMEM frames: frames are dropped");
	tell_cap(c, 16, c->untracked, "more than " STR(MAX_SEQS) " sender/GPU "
	    "pairs: the sequence numbers of the others are not checked");
}

static int
by_order(const void *a, const void *b)
{
	const struct seqst *x = *(struct seqst *const *)a;
	const struct seqst *y = *(struct seqst *const *)b;

	return (x->order > y->order) - (x->order < y->order);
}

/* The (sender, gpu) pairs in order of appearance. */
static struct seqst **
pairs(const struct capture *c)
{
	struct seqst **v = ecalloc(c->nseqs + 1, sizeof(*v));
	struct hent *e;
	size_t i = 0, n = 0;

	while ((e = hmap_next(&c->seqs, &i)) != NULL)
		v[n++] = e->val;
	qsort(v, n, sizeof(*v), by_order);
	return v;
}

static void
per_pair(struct sbuf *sb, struct seqst **v, size_t n, size_t field)
{
	size_t i, shown = 0;
	const char *sep = " (";

	for (i = 0; i < n; i++) {
		uint64_t k = field == 0 ? v[i]->lost : field == 1 ?
		    v[i]->dups : v[i]->restarts;

		if (k == 0)
			continue;
		if (shown++ == SHOW_PAIRS) {
			sbuf_adds(sb, ", ...");
			break;
		}
		sbuf_printf(sb, "%s%s gpu %u: %llu", sep, v[i]->host,
		    v[i]->gpu, (unsigned long long)k);
		sep = ", ";
	}
	sbuf_addc(sb, ')');
}

static int
by_host(const void *a, const void *b)
{
	const struct seqst *x = *(struct seqst *const *)a;
	const struct seqst *y = *(struct seqst *const *)b;

	return strcmp(x->host, y->host);
}

/* Distinct senders among the n pairs of v (which is left in order). */
static size_t
count_senders(struct seqst **v, size_t n)
{
	struct seqst **w;
	size_t i, k = 0;

	if (n == 0)
		return 0;
	w = ereallocarray(NULL, n, sizeof(*w));
	memcpy(w, v, n * sizeof(*w));
	qsort(w, n, sizeof(*w), by_host);
	for (i = 0; i < n; i++)
		k += i == 0 || strcmp(w[i]->host, w[i - 1]->host) != 0;
	free(w);
	return k;
}

/* The plural ending for n things. */
static const char *
pl(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* The tunnels decapsulated, of each kind (netlayers.h). */
static void
tunnels(struct sbuf *sb, const uint64_t *n)
{
	const char *sep = ", tunnels decapsulated: ";
	int k;

	for (k = 0; k < TUN_KINDS; k++) {
		if (n[k] == 0)
			continue;
		sbuf_printf(sb, "%s%llu %s", sep, (unsigned long long)n[k],
		    net_tunnel_name(k));
		sep = ", ";
	}
}

void
capsum_line(void *st, struct sbuf *sb)
{
	struct capture *c = st;
	const struct ipreasm_stats *is = ipreasm_stats(c->ipr);
	const struct tcpreasm_stats *ts = tcpreasm_stats(c->tcp);
	struct seqst **v = pairs(c);
	size_t senders = count_senders(v, c->nseqs);

	sbuf_printf(sb, ": %llu packet%s, %llu GMEM frame%s",
	    (unsigned long long)c->npkt, pl(c->npkt),
	    (unsigned long long)c->frames, pl(c->frames));
	if (c->frames > 0)
		sbuf_printf(sb, " from %zu sender%s", senders, pl(senders));
	else
		sbuf_adds(sb, ": no GMEM telemetry found");
	if (c->lost > 0) {
		sbuf_printf(sb, ", %llu frame%s lost in sequence gaps",
		    (unsigned long long)c->lost, pl(c->lost));
		per_pair(sb, v, c->nseqs, 0);
	}
	if (c->dups > 0) {
		sbuf_printf(sb, ", %llu duplicate frame%s dropped",
		    (unsigned long long)c->dups, pl(c->dups));
		per_pair(sb, v, c->nseqs, 1);
	}
	if (c->restarts > 0) {
		sbuf_printf(sb, ", %llu sequence restart%s",
		    (unsigned long long)c->restarts, pl(c->restarts));
		per_pair(sb, v, c->nseqs, 2);
	}
	if (c->snapcut > 0)
		sbuf_printf(sb, ", %llu frame%s cut by the snapshot length",
		    (unsigned long long)c->snapcut, pl(c->snapcut));
	tunnels(sb, c->tunnels);
	if (c->tcp_lost > 0 || c->tcp_cut > 0)
		sbuf_printf(sb, ", %llu TCP byte%s lost to gaps (%llu frame%s "
		    "cut)", (unsigned long long)c->tcp_lost, pl(c->tcp_lost),
		    (unsigned long long)c->tcp_cut, pl(c->tcp_cut));
	if (is->incomplete > 0)
		sbuf_printf(sb, ", %llu IP datagram%s never complete (%llu "
		    "fragment%s)", (unsigned long long)is->incomplete,
		    pl(is->incomplete), (unsigned long long)is->lostfrags,
		    pl(is->lostfrags));
	if (is->dupfrags > 0)
		sbuf_printf(sb, ", %llu duplicate IP fragment%s dropped",
		    (unsigned long long)is->dupfrags, pl(is->dupfrags));
	if (is->bad > 0)
		sbuf_printf(sb, ", %llu impossible IP fragment%s",
		    (unsigned long long)is->bad, pl(is->bad));
	/* The caps, each with what it dropped. */
	if (ts->evicted > 0)
		sbuf_printf(sb, ", %llu TCP connection%s ended early (over %d "
		    "at once)", (unsigned long long)ts->evicted,
		    pl(ts->evicted), MAX_CONNS);
	if (ts->capped > 0 || ts->dropped > 0)
		sbuf_printf(sb, ", %llu TCP hole%s given up and %llu byte%s "
		    "dropped for room (over %d MiB held)",
		    (unsigned long long)ts->capped, pl(ts->capped),
		    (unsigned long long)ts->dropped, pl(ts->dropped),
		    MAX_HELD_MIB);
	if (is->capped > 0)
		sbuf_printf(sb, ", %llu IP datagram%s dropped for room (over "
		    "%d in pieces)", (unsigned long long)is->capped,
		    pl(is->capped), MAX_FRAGS);
	if (c->budget.dropped > 0)
		sbuf_printf(sb, ", %llu frame%s dropped for room (over %d MiB "
		    "of partial frames)", (unsigned long long)c->budget.dropped,
		    pl(c->budget.dropped), MAX_PARTIAL_MIB);
	if (c->untracked > 0)
		sbuf_printf(sb, ", %llu frame%s without sequence checks (over "
		    "%d sender/GPU pairs)", (unsigned long long)c->untracked,
		    pl(c->untracked), MAX_SEQS);
	if (c->fallback)
		sbuf_printf(sb, "; libpcap stopped after packet %llu (%s), "
		    "gpumem's pcapng reader read on",
		    (unsigned long long)c->refused_at, c->refused);
	free(v);
}
