/* SPDX-License-Identifier: ISC */
/* snapdoc.c: the GPUs and processes of one nvidia-smi -q report. */
#include <stdlib.h>
#include <string.h>

#include "snapdoc.h"

void
snapdoc_init(struct snapdoc *d)
{
	memset(d, 0, sizeof(*d));
	d->attached = -1;
}

void
snapdoc_reset(struct snapdoc *d)
{
	size_t i, j;

	for (i = 0; i < d->ngpus; i++) {
		struct snapgpu *g = &d->gpus[i];

		for (j = 0; j < g->nprocs; j++)
			free(g->procs[j].name);
		free(g->procs);
		free(g->bus);
		free(g->uuid);
	}
	d->ngpus = 0;
	d->attached = -1;
}

void
snapdoc_release(struct snapdoc *d)
{
	snapdoc_reset(d);
	free(d->gpus);
	sbuf_release(&d->key);
}

struct snapgpu *
snapdoc_gpu(struct snapdoc *d, const char *bus)
{
	struct snapgpu *g;

	if (d->ngpus == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 8;
		d->gpus = ereallocarray(d->gpus, d->cap, sizeof(*d->gpus));
	}
	g = &d->gpus[d->ngpus++];
	memset(g, 0, sizeof(*g));
	if (bus != NULL && *bus != '\0')
		g->bus = estrdup(bus);
	return g;
}

struct snapgpu *
snapdoc_cur(struct snapdoc *d)
{
	return d->ngpus > 0 ? &d->gpus[d->ngpus - 1] : NULL;
}

struct snapproc *
snapdoc_proc(struct snapdoc *d)
{
	struct snapgpu *g = snapdoc_cur(d);

	if (g == NULL)
		BUG("a process before any GPU");
	if (g->nprocs == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 8;
		g->procs = ereallocarray(g->procs, g->cap, sizeof(*g->procs));
	}
	memset(&g->procs[g->nprocs], 0, sizeof(g->procs[0]));
	return &g->procs[g->nprocs++];
}

struct snapproc *
snapdoc_curproc(struct snapdoc *d)
{
	struct snapgpu *g = snapdoc_cur(d);

	return g != NULL && g->nprocs > 0 ? &g->procs[g->nprocs - 1] : NULL;
}

size_t
snapdoc_complete(const struct snapdoc *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->ngpus; i++)
		if (d->gpus[i].complete)
			n++;
	return n;
}

size_t
snapdoc_emit(struct snapdoc *d, struct source *s, uint64_t ts,
    unsigned origin)
{
	const char *host = source_host(s, NULL);
	struct rec r;
	size_t i, j, n = 0;
	int byindex;

	byindex = d->attached >= 0 && (size_t)d->attached == d->ngpus &&
	    snapdoc_complete(d) == d->ngpus;
	rec_init(&r);
	r.ts = ts;
	r.host = host;
	r.origin = origin;
	source_emit(s, &r);		/* the poll mark */
	for (i = 0; i < d->ngpus; i++) {
		struct snapgpu *g = &d->gpus[i];

		if (!g->complete)
			continue;
		source_learn(s, host, g->uuid, g->bus,
		    byindex ? (int64_t)i : -1);
		rec_init(&r);
		r.ts = ts;
		r.host = host;
		if (byindex)
			r.gpu = (uint32_t)i;
		else {
			sbuf_reset(&d->key);
			sbuf_adds(&d->key, g->bus != NULL ? g->bus :
			    g->uuid != NULL ? g->uuid : "");
			r.gpukey = d->key.buf;
		}
		r.has = g->has & (REC_USED | REC_FREE | REC_TOTAL);
		r.used = g->used;
		r.free = g->free;
		r.total = g->total;
		if (!(r.has & REC_TOTAL) && (r.has & REC_USED) &&
		    (r.has & REC_FREE)) {
			/* R510+: total = reserved + used + free. */
			uint64_t t = (uint64_t)g->used + g->free +
			    ((g->has & SNAP_RESERVED) ? g->reserved : 0);

			if (t <= UINT32_MAX) {
				r.total = (uint32_t)t;
				r.has |= REC_TOTAL;
			}
		}
		if (r.has & (REC_USED | REC_FREE)) {
			source_emit(s, &r);
			n++;
		} else
			source_skip(s, "GPUs without memory values");
		for (j = 0; j < g->nprocs; j++) {
			struct snapproc *x = &g->procs[j];

			if (x->pid == 0)
				continue;
			r.pid = x->pid;
			r.has = x->has_used ? REC_USED : 0;
			r.used = x->used;
			r.free = r.total = 0;
			r.name = x->name != NULL ? x->name : "";
			r.origin = origin;
			source_emit(s, &r);
			n++;
		}
	}
	return n;
}

int
snapdoc_time(struct source *s, struct sclock *clock,
    const struct snapdoc_words *w, uint64_t n, uint64_t nrec, int *said,
    uint64_t *ts)
{
	if (sclock_next(clock, source_opts(s), ts) == 0)
		return 0;
	if (nrec == 0 && n == 1) {
		source_refuse(s, "the %s %s: give --start (and --interval for a "
		    "log of many %ss)", w->doc, w->has_no, w->doc);
		return -1;
	}
	if (!*said) {
		*said = 1;
		source_bad(s, "a %s %s, and no --interval to place it: skipped "
		    "(give --interval)", w->doc, w->without);
	}
	source_skip(s, w->skipped);
	return -1;
}
