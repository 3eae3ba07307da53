/* SPDX-License-Identifier: ISC */
/*
 * promscrape.c: a scrape of Prometheus text ended (promstate.h): the
 * samples it gathered written as records.  Its time (the samples' own,
 * a time line's, or --start and --interval), its GPUs in time order with
 * their index (a gpu label, or nvidia_smi_index by UUID) and memory, a
 * poll mark where it lists processes, then its processes: an exporter's,
 * or Kubernetes pods, whose memory is N/A when pods share a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "promstate.h"
#include "sclock.h"

void
prom_scrape_clear(struct prom *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		free(p->gpus[i].host);
		free(p->gpus[i].uuid);
		free(p->gpus[i].bus);
	}
	for (i = 0; i < p->nprocs; i++) {
		free(p->procs[i].host);
		free(p->procs[i].uuid);
		free(p->procs[i].name);
	}
	p->ngpus = p->nprocs = 0;
	hmap_release(&p->families, NULL);
	hmap_release(&p->gpuidx, NULL);
	hmap_release(&p->uuidx, NULL);
	sbuf_reset(&p->last);
	p->procs_here = 0;
	p->pending = 0;
}

static int
by_ts(const void *a, const void *b)
{
	const struct pgpu *x = a, *y = b;

	if (x->ts != y->ts)
		return (x->ts > y->ts) - (x->ts < y->ts);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The GPU index the scrape gives for uuid on host, or -1. */
int64_t
prom_uuid_index(struct prom *p, const char *host, const char *uuid)
{
	void **v;

	if (uuid == NULL)
		return -1;
	sbuf_reset(&p->key);
	sbuf_adds(&p->key, host);
	sbuf_addc(&p->key, '\0');
	sbuf_adds(&p->key, uuid);
	v = hmap_get(&p->uuidx, p->key.buf, p->key.len);
	return v != NULL ? (int64_t)(uintptr_t)*v - 1 : -1;
}

static void
set_gpu(struct prom *p, struct rec *r, const char *host, int64_t index,
    const char *uuid, const char *bus)
{
	if (index < 0)
		index = prom_uuid_index(p, host, uuid);
	if (index >= 0) {
		r->gpu = (uint32_t)index;
		source_learn(p->s, host, uuid, bus, index);
		return;
	}
	source_learn(p->s, host, uuid, bus, -1);
	sbuf_reset(&p->key);
	sbuf_adds(&p->key, uuid != NULL ? uuid : bus != NULL ? bus : "");
	r->gpukey = p->key.buf;
}

/* p->key = "host\0uuid\0", or "host\0#index\0" without a uuid. */
void
prom_series_gpu_key(struct prom *p, const char *host, const char *uuid,
    int64_t index)
{
	sbuf_reset(&p->key);
	sbuf_adds(&p->key, host);
	sbuf_addc(&p->key, '\0');
	if (uuid != NULL)
		sbuf_adds(&p->key, uuid);
	else
		sbuf_printf(&p->key, "#%lld", (long long)index);
	sbuf_addc(&p->key, '\0');
}

/*
 * Whether pod x's memory is unknown: another pod shares its GPU at its
 * time, or did earlier in its life.  dcgm-exporter gives each pod's series
 * the whole GPU's memory, which says nothing of how the pods split it;
 * a pod keeps its memory unknown for its whole life, so that its life is
 * one task (estimated), not one part estimated and one part measured.
 */
static int
pod_shares(struct prom *p, const struct pproc *x)
{
	size_t i;
	int isnew;

	prom_series_gpu_key(p, x->host, x->uuid, x->index);
	sbuf_add(&p->key, &x->pid, sizeof(x->pid));
	if (hmap_get(&p->sharers, p->key.buf, p->key.len) != NULL)
		return 1;
	for (i = 0; i < p->nprocs; i++) {
		const struct pproc *y = &p->procs[i];

		if (y != x && y->pod && y->ts == x->ts && y->index == x->index &&
		    strcmp(y->host, x->host) == 0 &&
		    (y->uuid == NULL) == (x->uuid == NULL) &&
		    (y->uuid == NULL || strcmp(y->uuid, x->uuid) == 0)) {
			hmap_put(&p->sharers, p->key.buf, p->key.len, &isnew);
			return 1;
		}
	}
	return 0;
}

/* The scrape has ended: write what it gathered. */
void
prom_flush(struct prom *p)
{
	uint64_t ts = 0, last_mark = 0;
	int need_clock = 0, marked = 0;
	size_t i;
	struct rec r;

	if (p->ngpus == 0 && p->nprocs == 0) {
		prom_scrape_clear(p);
		return;
	}
	p->scrapes++;
	for (i = 0; i < p->ngpus; i++)
		if (!p->gpus[i].have_ts)
			need_clock = 1;
	for (i = 0; i < p->nprocs; i++)
		if (!p->procs[i].have_ts)
			need_clock = 1;
	if (need_clock) {
		if (p->pending)
			ts = p->pending_ts;
		else if (sclock_next(&p->clock, source_opts(p->s), &ts) < 0) {
			if (p->nrec == 0 && p->scrapes == 1)
				source_refuse(p->s, "samples carry no "
				    "timestamps and no line gives the scrape's "
				    "time: give --start (and --interval for a "
				    "file of many scrapes)");
			else {
				if (!p->clock_said) {
					p->clock_said = 1;
					source_bad(p->s, "a scrape without a "
					    "time, and no --interval to place "
					    "it: skipped (give --interval)");
				}
				source_skip(p->s, "scrapes without a time");
			}
			prom_scrape_clear(p);
			return;
		}
		for (i = 0; i < p->ngpus; i++)
			if (!p->gpus[i].have_ts)
				p->gpus[i].ts = ts;
		for (i = 0; i < p->nprocs; i++)
			if (!p->procs[i].have_ts)
				p->procs[i].ts = ts;
	}
	if (p->ngpus > 1)
		qsort(p->gpus, p->ngpus, sizeof(*p->gpus), by_ts);
	for (i = 0; i < p->ngpus; i++) {
		struct pgpu *g = &p->gpus[i];

		if (p->procs_here && (!marked || g->ts != last_mark)) {
			rec_init(&r);
			r.ts = last_mark = g->ts;
			r.host = g->host;
			r.origin = REC_SNAP_PROM;
			source_emit(p->s, &r);		/* the poll mark */
			marked = 1;
		}
		rec_init(&r);
		r.ts = g->ts;
		r.host = g->host;
		set_gpu(p, &r, g->host, g->index, g->uuid, g->bus);
		r.has = g->has & (REC_USED | REC_FREE | REC_TOTAL);
		r.used = g->used;
		r.free = g->free;
		r.total = g->total;
		if (!(r.has & REC_TOTAL) && (r.has & REC_USED) &&
		    (r.has & REC_FREE)) {
			uint64_t t = (uint64_t)g->used + g->free +
			    ((g->has & HAS_RESERVED) ? g->reserved : 0);

			if (t <= UINT32_MAX) {
				r.total = (uint32_t)t;
				r.has |= REC_TOTAL;
			}
		}
		if (r.has & (REC_USED | REC_FREE)) {
			source_emit(p->s, &r);
			p->nrec++;
		} else {
			p->nomem++;
			source_skip(p->s, "GPU samples without used or free "
			    "memory");
		}
	}
	if (p->procs_here && !marked) {
		rec_init(&r);
		r.ts = p->nprocs > 0 ? p->procs[0].ts : ts;
		r.host = p->nprocs > 0 ? p->procs[0].host :
		    source_host(p->s, NULL);
		r.origin = REC_SNAP_PROM;
		source_emit(p->s, &r);
	}
	for (i = 0; i < p->nprocs; i++) {
		struct pproc *x = &p->procs[i];

		rec_init(&r);
		r.ts = x->ts;
		r.host = x->host;
		set_gpu(p, &r, x->host, x->index, x->uuid, NULL);
		r.pid = x->pid;
		if (x->has_used && !(x->pod && pod_shares(p, x))) {
			r.used = x->used;
			r.has = REC_USED;
		}
		if (x->pod) {
			p->pods++;
			p->shared += !(r.has & REC_USED);
		}
		r.name = x->name != NULL ? x->name : "";
		r.origin = REC_SNAP_PROM;
		source_emit(p->s, &r);
		p->nrec++;
	}
	prom_scrape_clear(p);
}
