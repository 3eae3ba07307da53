/* SPDX-License-Identifier: ISC */
/* run.c: a run for gpumem check: its tasks and GPUs collected (run.h). */
#include <stdlib.h>
#include <string.h>

#include "gatesint.h"
#include "gpumap.h"
#include "run.h"
#include "util.h"

/*
 * Room for one more: arrays double, so that a run of many tasks is not
 * copied over and over.
 */
void *
run_grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	return ereallocarray(p, *cap, size);
}

/* A copy of s, owned by the run's task list (freed with it). */
static const char *
keep_str(struct run *r, const char *s)
{
	struct tasklist *l = &r->tl;

	l->strs = run_grow(l->strs, l->nstrs, &r->capstrs, sizeof(*l->strs));
	l->strs[l->nstrs] = estrdup(s);
	return l->strs[l->nstrs++];
}

void
run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
}

void
run_task(struct run *r, const struct task *t)
{
	struct tasklist *l = &r->tl;
	struct task *c;

	l->t = run_grow(l->t, l->n, &r->captask, sizeof(*l->t));
	c = &l->t[l->n++];
	*c = *t;
	c->host = keep_str(r, t->host);
	c->name = keep_str(r, t->name);
}

static struct gpuinfo *
gpu_add(struct run *r, const char *host, uint32_t gpu)
{
	struct sbuf k = SBUF_INIT;
	struct gpuinfo *g;

	r->gpu = run_grow(r->gpu, r->ngpu, &r->capgpu, sizeof(*r->gpu));
	g = &r->gpu[r->ngpu++];
	memset(g, 0, sizeof(*g));
	g->host = keep_str(r, host);
	g->gpu = gpu;
	gpu_key(&k, host, gpu);
	*hmap_put(&r->index, k.buf, k.len, NULL) = (void *)(uintptr_t)r->ngpu;
	sbuf_release(&k);
	return g;
}

/*
 * Before run_done(): a run may have tens of thousands of GPUs, and every
 * sample asks for its own, so this is a hash lookup, not a scan.
 */
static struct gpuinfo *
gpu_find(struct run *r, const char *host, uint32_t gpu)
{
	struct sbuf k = SBUF_INIT;
	void **v;

	/* Samples come GPU after GPU: the last one is the likely one. */
	if (r->last < r->ngpu && r->gpu[r->last].gpu == gpu &&
	    strcmp(r->gpu[r->last].host, host) == 0)
		return &r->gpu[r->last];
	gpu_key(&k, host, gpu);
	v = hmap_get(&r->index, k.buf, k.len);
	sbuf_release(&k);
	if (v == NULL)
		return NULL;
	r->last = (size_t)(uintptr_t)*v - 1;
	return &r->gpu[r->last];
}

void
run_sample(struct run *r, const struct sample *s)
{
	struct gpuinfo *g = gpu_find(r, s->host, s->gpu);

	if (g == NULL) {
		g = gpu_add(r, s->host, s->gpu);
		r->last = r->ngpu - 1;
	}
	if (g->samples++ == 0) {
		g->first_ts = s->ts;
		g->first_unattr = s->unattributed;
	}
	g->last_ts = s->ts;
	g->last_unattr = s->unattributed;
	g->last_usage = s->usage;
}

static int
by_gpu(const void *a, const void *b)
{
	const struct gpuinfo *x = a, *y = b;

	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

static int
by_start(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	int c = gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

	if (c != 0)
		return c;
	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return strcmp(x->name, y->name);
}

void
run_done(struct run *r)
{
	size_t i;

	for (i = 0; i < r->tl.n; i++)
		if (gpu_find(r, r->tl.t[i].host, r->tl.t[i].gpu) == NULL)
			gpu_add(r, r->tl.t[i].host, r->tl.t[i].gpu);
	if (r->tl.n > 1)
		qsort(r->tl.t, r->tl.n, sizeof(*r->tl.t), by_start);
	if (r->ngpu > 1)
		qsort(r->gpu, r->ngpu, sizeof(*r->gpu), by_gpu);
	r->last = 0;
	hmap_release(&r->index, NULL);	/* the sort moved them */
}

void
run_release(struct run *r)
{
	tasktab_list_release(&r->tl);
	hmap_release(&r->index, NULL);
	free(r->gpu);
	memset(r, 0, sizeof(*r));
}
