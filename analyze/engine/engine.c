/* SPDX-License-Identifier: ISC */
/*
 * engine.c: usage samples and tasks from the record stream (engine.h):
 * the engine made and freed, the GPUs it knows, declared tasks handed to
 * declared.c, each record sent on (a device sample to engsample.c, a
 * process listing to englife.c), and the end of the stream.
 */
#include <stdlib.h>
#include <string.h>

#include "engstate.h"
#include "gpumap.h"

struct engine *
engine_new(const struct config *cfg, const struct engine_cb *cb)
{
	struct engine *e = ecalloc(1, sizeof(*e));

	e->cfg = cfg;
	e->cb = *cb;
	return e;
}

void
engine_recdir(struct engine *e, const struct recdir *rd)
{
	e->rd = rd;
}

/* The GPU's state, or NULL when it is new and ENGINE_MAXGPUS are known. */
static struct gpu *
gpu_of(struct engine *e, const char *host, uint32_t gpu)
{
	struct hostgpus *h = e->chost;
	void **v;
	struct gpu *g;

	if (h == NULL || strcmp(h->host, host) != 0) {
		/*
		 * Hosts are remembered only while GPUs are (a host has one
		 * at least), so they are bounded by ENGINE_MAXGPUS too.
		 */
		v = e->gpus.n < ENGINE_MAXGPUS ?
		    hmap_put(&e->hosts, host, strlen(host), NULL) :
		    hmap_get(&e->hosts, host, strlen(host));
		if (v != NULL && *v == NULL) {
			h = ecalloc(1, sizeof(*h));
			h->host = estrdup(host);
			*v = h;
		}
		h = e->chost = v != NULL ? *v : NULL;
	}
	if (h != NULL && gpu < NGCACHE && h->g[gpu] != NULL)
		return h->g[gpu];
	gpu_key(&e->key, host, gpu);
	if (e->gpus.n >= ENGINE_MAXGPUS) {
		v = hmap_get(&e->gpus, e->key.buf, e->key.len);
		return v != NULL ? *v : NULL;
	}
	v = hmap_put(&e->gpus, e->key.buf, e->key.len, NULL);
	if (*v == NULL) {
		g = ecalloc(1, sizeof(*g));
		g->host = estrdup(host);
		g->gpu = gpu;
		*v = g;
	}
	/* GPUs are never forgotten: what is remembered stays true. */
	if (h != NULL && gpu < NGCACHE)
		h->g[gpu] = *v;
	return *v;
}

/* Declare a task (pid 0) or an estimated one on (host, gpu). */
static void
declare(struct engine *e, const char *host, uint32_t gpu, uint32_t pid,
    const char *name, uint64_t start, uint64_t end, uint64_t from,
    uint64_t until)
{
	struct gpu *g = gpu_of(e, host, gpu);

	if (g == NULL) {
		e->st.gpucapped++;
		return;
	}
	if (declared_count(g->decl) >= ENGINE_MAXWAIT) {
		e->st.declcapped++;
		return;
	}
	declared_add(&e->decl, &g->decl, host, gpu, pid, name, start, end,
	    from, until);
}

void
engine_declare(struct engine *e, const char *host, uint32_t gpu,
    const char *name, uint64_t start, uint64_t end)
{
	declare(e, host, gpu, 0, name, start, end, start, end);
}

void
engine_declare_estimated(struct engine *e, const char *host, uint32_t gpu,
    uint32_t pid, const char *name, uint64_t start, uint64_t end,
    uint64_t from, uint64_t until)
{
	/* Still listed at the end: past any sample, so it runs. */
	declare(e, host, gpu, pid, name, start, end != 0 ? end : UINT64_MAX,
	    from, end != 0 ? until : UINT64_MAX);
}

void
engine_put(struct engine *e, const struct rec *r)
{
	struct gpu *g;

	e->st.records++;
	eng_flush(e, r->ts, 0);
	g = gpu_of(e, r->host, r->gpu);
	if (g == NULL) {
		e->st.gpucapped++;
		return;
	}
	if (r->pid == 0)
		eng_push_pending(e, g, r);
	else {
		if (!g->procs) {
			/* Its processes say who held the memory. */
			g->procs = 1;
			episodes_free(g->ep);
			g->ep = NULL;
		}
		eng_process(e, g, r);
	}
}

static int
by_gpu(const void *a, const void *b)
{
	const struct gpu *x = *(struct gpu *const *)a;
	const struct gpu *y = *(struct gpu *const *)b;
	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

void
engine_end(struct engine *e)
{
	struct gpu **v = NULL;
	struct hent *h;
	size_t it = 0, n = 0, i;

	eng_flush(e, 0, 1);
	while ((h = hmap_next(&e->gpus, &it)) != NULL) {
		v = egrow(v, n, sizeof(*v));
		v[n++] = h->val;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_gpu);
	for (i = 0; i < n; i++)
		eng_finish_gpu(e, v[i]);
	free(v);
}

static void
gpu_free(void *p)
{
	struct gpu *g = p;
	size_t i;

	hmap_release(&g->live, eng_ptask_free);
	for (i = 0; i < g->nwait; i++)
		eng_ptask_free(g->wait[i]);
	free(g->wait);
	free(g->recent);
	free(g->sus);
	declared_free_gpu(g->decl);
	episodes_free(g->ep);
	free(g->host);
	free(g);
}

static void
hostgpus_free(void *p)
{
	struct hostgpus *h = p;

	free(h->host);
	free(h);
}

void
engine_free(struct engine *e)
{
	size_t i;

	if (e == NULL)
		return;
	hmap_release(&e->gpus, gpu_free);
	hmap_release(&e->hosts, hostgpus_free);
	declared_free(e->decl);
	for (i = 0; i < e->nna; i++) {
		free(e->na[i].host);
		free(e->na[i].name);
	}
	free(e->na);
	hmap_release(&e->nalive, NULL);
	free(e->pend);
	free(e->held1);
	sbuf_release(&e->key);
	free(e);
}
