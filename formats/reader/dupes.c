/* SPDX-License-Identifier: ISC */
/*
 * dupes.c: the checks of the merged stream per input and host: duplicate
 * samples (the same time and values again) and two recordings of one GPU
 * at the same times.
 */
#include <stdlib.h>
#include <string.h>

#include "gtime.h"
#include "streamstate.h"

/*
 * The inputs that gave device samples of one GPU (host, index), with the
 * times they span, to tell two recordings of "GPU 0" taken at the same
 * time (two machines, two jobs) from one recording split into files.
 */
#define SPAN_NSRC 4
struct span {
	unsigned src[SPAN_NSRC];
	uint64_t first[SPAN_NSRC], last[SPAN_NSRC];
	unsigned n;
};

/*
 * The last record of one GPU or process of an input (hashed by input,
 * host, GPU, process and name; a collision only forgets), to tell a
 * duplicate: the same time and values as the one before it.
 */
#define DUP_NSLOT 1024

struct dupslot {
	uint64_t ts, key;
	uint32_t used, free, total;
	unsigned has;		/* 0: empty */
};

/* What is kept of input src's last host, which becomes host if it was not. */
struct lasthost *
stream_last_host(struct stream *st, unsigned src, const char *host)
{
	struct lasthost *h;

	if (src >= st->n)
		BUG("a record of input %u of %zu", src, st->n);
	if (st->last == NULL)
		st->last = ecalloc(st->n, sizeof(*st->last));
	h = &st->last[src];
	/* Mostly the same host as before, often none: strcmp only when
	 * the first bytes agree. */
	if (h->host.buf == NULL || h->host.buf[0] != host[0] ||
	    (host[0] != '\0' && strcmp(h->host.buf, host) != 0)) {
		sbuf_set(&h->host, host, strlen(host));
		h->hash = hmap_hash(host, h->host.len);
		memset(h->span, 0, sizeof(h->span));
	}
	return h;
}

/*
 * Whether r repeats the record before it of its GPU or process from its
 * input: the same time and values.  Checked on the merged stream, in time
 * order, so that what is written reads back the same.
 */
int
stream_duplicate(struct stream *st, const struct rec *r,
    const struct lasthost *h)
{
	struct dupslot *sl;
	uint64_t key;
	unsigned has = r->has | 0x100;	/* never 0 */

	if (rec_is_mark(r))
		return 0;
	key = ((uint64_t)r->gpu << 32 | r->pid) * 0x9e3779b97f4a7c15ULL ^
	    (r->src & ~SRC_FLAGS);
	if (r->host[0] != '\0' || r->name[0] != '\0')
		key ^= h->hash * 31 + (r->name[0] == '\0' ? st->nonamehash :
		    hmap_hash(r->name, strlen(r->name)));
	if (st->dup == NULL)
		st->dup = ecalloc(DUP_NSLOT, sizeof(*st->dup));
	sl = &st->dup[(key ^ key >> 32) % DUP_NSLOT];
	if (sl->key == key && sl->ts == r->ts && sl->has == has &&
	    sl->used == r->used && sl->free == r->free &&
	    sl->total == r->total)
		return 1;
	sl->key = key;
	sl->ts = r->ts;
	sl->has = has;
	sl->used = r->used;
	sl->free = r->free;
	sl->total = r->total;
	return 0;
}

/* The span of r's GPU, added when new; h is its input's last host. */
static struct span *
span_of(struct stream *st, const struct rec *r, struct lasthost *h)
{
	struct span **sp = r->gpu < LAST_NGPU ? &h->span[r->gpu] : NULL;
	void **v;

	if (sp != NULL && *sp != NULL)
		return *sp;
	gpu_key(&st->sk, r->host, r->gpu);
	v = hmap_put(&st->seen, st->sk.buf, st->sk.len, NULL);
	if (*v == NULL)
		*v = ecalloc(1, sizeof(struct span));
	if (sp != NULL)
		*sp = *v;
	return *v;
}

/*
 * Device samples of one GPU from two inputs at the same times: two
 * recordings (the same "GPU 0" of two machines, or of two jobs) that no
 * bus id or UUID tells apart, read as one GPU, with usage and delays in
 * neither.  Said once a run even with -q (what is read is wrong), naming
 * both inputs, and remembered (stream_collided); --host-from-file keeps
 * them apart.
 */
void
stream_overlap_check(struct stream *st, const struct rec *r, struct lasthost *h)
{
	struct span *sp;
	unsigned src = r->src, i, k;
	char t[GTIME_BUFSZ];

	if (r->pid != 0 || rec_is_mark(r) || (src & SRC_ADDED) ||
	    st->overlap_said || st->n < 2 || st->seen.n >= GPUMAP_MAX)
		return;
	sp = span_of(st, r, h);
	for (k = 0; k < sp->n && sp->src[k] != src; k++)
		;
	if (k == sp->n) {
		if (k == SPAN_NSRC)
			return;
		sp->src[k] = src;
		sp->first[k] = r->ts;
		sp->n++;
	}
	sp->last[k] = r->ts;
	/* In time order: another input's samples after this one's first. */
	for (i = 0; i < sp->n; i++)
		if (i != k && sp->last[i] > sp->first[k] &&
		    sp->first[i] < r->ts) {
			st->overlap_said = 1;
			msg("%s and %s both have device samples of GPU "
			    "%u%s%s%s at the same times (at %s): two "
			    "recordings read as one GPU (give --host-from-file "
			    "to keep them apart)", st->src[sp->src[i]]->name,
			    st->src[src]->name, r->gpu, *r->host ?
			    " of host '" : "", r->host, *r->host ? "'" : "",
			    gtime_fmt(r->ts, 1, t));
			return;
		}
}
