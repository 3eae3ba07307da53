/* SPDX-License-Identifier: ISC */
/* framer.c: records in time order to GMEM frames (docs/wire-protocol.md). */
#include <stdlib.h>
#include <string.h>

#include "framer.h"

void
framer_init(struct framer *f, size_t maxrec, framer_emit_fn *emit, void *arg)
{
	if (maxrec < 1 || maxrec > GMEM_MAXCOUNT)
		BUG("framer_init: %zu records a frame", maxrec);
	memset(f, 0, sizeof(*f));
	f->maxrec = maxrec;
	f->emit = emit;
	f->arg = arg;
}

/* Encode and emit one frame of n records (n may be 0). */
static void
emit_frame(struct framer *f, struct framer_gpu *g, const struct gmem_rec *r,
    size_t n, int flags)
{
	struct gmem_hdr h;
	size_t i, len = GMEM_HDRLEN + GMEM_RECLEN * n;

	if (len > f->framecap) {
		f->framecap = len;
		f->frame = erealloc(f->frame, len);
	}
	h.version = GMEM_VERSION;
	h.flags = (uint8_t)flags;
	h.gpu = g->gpu;
	h.seq = g->seq++;
	h.count = (uint16_t)n;
	h.reserved = 0;
	h.total = g->total;
	gmem_hdr_encode(f->frame, &h);
	for (i = 0; i < n; i++)
		gmem_rec_encode(f->frame + GMEM_HDRLEN + GMEM_RECLEN * i, &r[i]);
	f->frames++;
	g->frames++;
	f->emit(f->arg, g, f->ts, f->frame, len, n);
}

/* Emit the held records; with last, flag each GPU's final frame. */
static void
flush(struct framer *f, int last)
{
	struct framer_gpu *g;
	size_t i, k;

	for (g = f->batch; g != NULL; g = g->next) {
		for (i = 0; i < g->n; i += k) {
			k = g->n - i < f->maxrec ? g->n - i : f->maxrec;
			emit_frame(f, g, g->recs + i, k,
			    last && i + k == g->n ? GMEM_FLAG_LAST : 0);
		}
		g->n = 0;
		g->inbatch = 0;
	}
	f->batch = f->btail = NULL;
	f->nbatch = 0;
}

void
framer_flush(struct framer *f)
{
	flush(f, 0);
}

void
framer_end(struct framer *f, int last)
{
	struct framer_gpu *g;

	if (!last) {
		flush(f, 0);
		return;
	}
	/* The GPUs with held records end with them; the others after. */
	for (g = f->batch; g != NULL; g = g->next)
		g->ended = 1;
	flush(f, 1);
	f->ts = f->lastts;
	for (g = f->all; g != NULL; g = g->all)
		if (!g->ended) {
			emit_frame(f, g, NULL, 0, GMEM_FLAG_LAST);
			g->ended = 1;
		}
}

static struct framer_gpu *
gpu_of(struct framer *f, const void *key, size_t klen, uint16_t gpu)
{
	unsigned char k[FRAMER_KEYMAX + 2];
	struct framer_gpu *g;
	void **v;
	int isnew;

	if (klen > FRAMER_KEYMAX)
		BUG("framer: a sender key of %zu bytes", klen);
	if (klen > 0)		/* key may be NULL then */
		memcpy(k, key, klen);
	memcpy(k + klen, &gpu, 2);
	v = hmap_put(&f->gpus, k, klen + 2, &isnew);
	if (!isnew)
		return *v;
	g = ecalloc(1, sizeof(*g));
	if (klen > 0)
		memcpy(g->sender, key, klen);
	g->senderlen = klen;
	g->gpu = gpu;
	if (f->alltail != NULL)
		f->alltail->all = g;
	else
		f->all = g;
	f->alltail = g;
	f->ngpus++;
	*v = g;
	return g;
}

int
framer_add(struct framer *f, const struct rec *r, const void *key,
    size_t klen)
{
	struct framer_gpu *g;
	struct gmem_rec *q;
	uint32_t total;

	if (r->gpu > 65535) {
		f->bigpu++;
		return -1;
	}
	if (f->nbatch > 0 && (r->ts != f->ts || f->nbatch >= FRAMER_BATCH_CAP))
		flush(f, 0);
	f->ts = r->ts;
	f->lastts = r->ts;
	g = gpu_of(f, key, klen, (uint16_t)r->gpu);
	total = (r->has & REC_TOTAL) ? r->total : 0;
	if (!g->inbatch) {
		g->inbatch = 1;
		g->total = total;
		g->next = NULL;
		if (f->btail != NULL)
			f->btail->next = g;
		else
			f->batch = g;
		f->btail = g;
	} else if (total != g->total)
		f->totals++;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->recs = ereallocarray(g->recs, g->cap, sizeof(*g->recs));
	}
	q = &g->recs[g->n++];
	f->nbatch++;
	q->ts = r->ts;
	q->pid = r->pid;
	q->used = (r->has & REC_USED) ? r->used : 0;
	q->free = (r->has & REC_FREE) ? r->free : 0;
	f->recs++;
	if (*r->name != '\0')
		f->names++;
	if (!(r->has & REC_USED))
		f->noused++;
	if (!(r->has & REC_FREE))
		f->nofree++;
	return 0;
}

static const char *
pl(uint64_t n)
{
	return n == 1 ? "" : "s";
}

int
framer_inexact(const struct framer *f, const char *verb, struct sbuf *sb)
{
	const char *sep = "";
	uint64_t n = f->names + f->noused + f->nofree + f->totals;

	if (n == 0 && f->bigpu == 0)
		return 0;
	if (n > 0) {
		sbuf_printf(sb, "records GMEM cannot carry exactly, %s as well "
		    "as it can: ", verb);
		if (f->names > 0) {
			sbuf_printf(sb, "%llu process name%s dropped",
			    (unsigned long long)f->names, pl(f->names));
			sep = ", ";
		}
		if (f->noused > 0) {
			sbuf_printf(sb, "%s%llu missing memory_used %s as 0",
			    sep, (unsigned long long)f->noused, verb);
			sep = ", ";
		}
		if (f->nofree > 0) {
			sbuf_printf(sb, "%s%llu missing memory_free %s as 0",
			    sep, (unsigned long long)f->nofree, verb);
			sep = ", ";
		}
		if (f->totals > 0)
			sbuf_printf(sb, "%s%llu memory_total other than their "
			    "frame's", sep, (unsigned long long)f->totals);
	}
	if (f->bigpu > 0)
		sbuf_printf(sb, "%s%llu record%s of GPUs above 65535 dropped",
		    n > 0 ? "; " : "", (unsigned long long)f->bigpu,
		    pl(f->bigpu));
	return 1;
}

void
framer_release(struct framer *f, void (*free_udata)(void *))
{
	struct framer_gpu *g, *next;

	for (g = f->all; g != NULL; g = next) {
		next = g->all;
		if (free_udata != NULL && g->udata != NULL)
			free_udata(g->udata);
		free(g->recs);
		free(g);
	}
	hmap_release(&f->gpus, NULL);
	free(f->frame);
	memset(f, 0, sizeof(*f));
}
