/* SPDX-License-Identifier: ISC */
/* collect.c: read inputs for the charts: curves, markers, tasks (collect.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "gpumap.h"
#include "hmap.h"
#include "input.h"
#include "rec.h"
#include "recdir.h"
#include "stream.h"
#include "usagecsv.h"
#include "util.h"

#define NCACHE 8		/* GPUs remembered by their engine host pointer */

/* The state of one collect_read(). */
struct run {
	struct collection *c;
	const struct collect_opts *o;
	struct hmap views;	/* "host\0gpu" -> struct gpuview */
	struct hmap others;	/* the same keys of GPUs not charted */
	struct sbuf key;
	struct {
		const char *host;
		uint32_t gpu;
		struct gpuview *v;
	} cache[NCACHE];
	size_t cnext;
	size_t tcap, scap;	/* room in c->tasks.t and c->tasks.strs */
	uint64_t every;		/* the bucket width of the usage curves */
	const char *every_path;	/* the first usage curve read */
	int mixed;		/* curves of different --every: refused */
};

static int
kind_rank(const struct task *t)
{
	return t->status == TASK_LEAKED ? 0 : t->status == TASK_RELEASED ? 1 :
	    2;
}

int
collect_task_interest(const struct task *a, const struct task *b)
{
	int ra = kind_rank(a), rb = kind_rank(b);

	if (ra != rb)
		return ra - rb;
	if (ra == 0) {
		uint32_t la = a->has_leaked ? a->leaked : a->held;
		uint32_t lb = b->has_leaked ? b->leaked : b->held;

		if (la != lb)
			return la > lb ? -1 : 1;
	} else if (ra == 1 && a->delay != b->delay)
		return a->delay > b->delay ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* The GPU's view, or NULL when it is new and the most are charted. */
static struct gpuview *
view_of(struct run *rn, const char *host, uint32_t gpu)
{
	struct gpuview *v;
	void **slot;
	size_t i;

	/*
	 * The engine hands out one host pointer per GPU: a cheap first try.
	 * Other callers pass strings in buffers that are reused, so the
	 * pointer alone does not say the host is the same.
	 */
	for (i = 0; i < NCACHE; i++)
		if (rn->cache[i].host == host && rn->cache[i].v != NULL &&
		    rn->cache[i].gpu == gpu &&
		    strcmp(rn->cache[i].v->host, host) == 0)
			return rn->cache[i].v;
	gpu_key(&rn->key, host, gpu);
	if (rn->views.n >= (rn->o->maxgpus > 0 ? rn->o->maxgpus :
	    COLLECT_MAXGPUS)) {
		slot = hmap_get(&rn->views, rn->key.buf, rn->key.len);
		if (slot == NULL)
			return NULL;
	} else
		slot = hmap_put(&rn->views, rn->key.buf, rn->key.len, NULL);
	if (*slot == NULL) {
		v = ecalloc(1, sizeof(*v));
		v->host = estrdup(host);
		v->gpu = gpu;
		if (rn->o->width > 0)
			series_init(&v->ser, rn->o->width);
		*slot = v;
	}
	v = *slot;
	rn->cache[rn->cnext].host = host;
	rn->cache[rn->cnext].gpu = gpu;
	rn->cache[rn->cnext].v = v;
	rn->cnext = (rn->cnext + 1) % NCACHE;
	return v;
}

static void
span(struct collection *c, uint64_t t)
{
	if (!c->have_range || t < c->first)
		c->first = t;
	if (!c->have_range || t > c->last)
		c->last = t;
	c->have_range = 1;
}

/* One sample of a GPU's curves (from the engine or a usage CSV). */
static void
put_sample(struct run *rn, const char *host, uint32_t gpu, uint64_t ts,
    const int64_t *val, unsigned has)
{
	struct gpuview *v = view_of(rn, host, gpu);

	span(rn->c, ts);
	if (v == NULL) {
		/* view_of left the GPU's key in rn->key. */
		if (rn->others.n < COLLECT_MAXCOUNT) {
			int isnew = 0;

			hmap_put(&rn->others, rn->key.buf, rn->key.len,
			    &isnew);
			rn->c->ng_uncharted += isnew != 0;
		} else if (hmap_get(&rn->others, rn->key.buf,
		    rn->key.len) == NULL)
			rn->c->uncounted = 1;
		rn->c->uncharted++;
		return;
	}
	if (rn->o->width > 0)
		series_put(&v->ser, ts, val, has);
	if (v->nsamples == 0 || ts < v->first) {
		v->first = ts;
		if (has & (1U << SER_UNATTR))
			v->unattr_first = val[SER_UNATTR];
	}
	if (v->nsamples == 0 || ts >= v->last) {
		v->last = ts;
		if (has & (1U << SER_UNATTR))
			v->unattr_last = val[SER_UNATTR];
	}
	v->nsamples++;
	if ((has & (1U << SER_USAGE)) && val[SER_USAGE] > v->umax)
		v->umax = val[SER_USAGE];
	if (v->umax > v->ymax)
		v->ymax = v->umax;
	if (has & (1U << SER_TOTAL)) {
		if (val[SER_TOTAL] > v->ymax)
			v->ymax = val[SER_TOTAL];
		v->total = (uint32_t)val[SER_TOTAL];
	}
}

static void
on_sample(void *p, const struct sample *s)
{
	struct run *rn = p;
	int64_t val[SER_NCURVES];
	unsigned has = (1U << SER_USAGE) | (1U << SER_ATTR) |
	    (1U << SER_UNATTR);

	val[SER_USAGE] = s->usage;
	val[SER_ATTR] = s->attributed;
	/* As gpumem usage shows it: logs whose clocks disagree dip below 0. */
	val[SER_UNATTR] = s->unattributed < 0 ? 0 : s->unattributed;
	val[SER_TOTAL] = s->total;
	if (s->has_total)
		has |= 1U << SER_TOTAL;
	put_sample(rn, s->host, s->gpu, s->ts, val, has);
}

static const char *
keep_str(struct run *rn, const char *s)
{
	struct tasklist *l = &rn->c->tasks;

	if (l->nstrs == rn->scap) {
		rn->scap = rn->scap ? 2 * rn->scap : 64;
		l->strs = ereallocarray(l->strs, rn->scap, sizeof(*l->strs));
	}
	l->strs[l->nstrs] = estrdup(s);
	return l->strs[l->nstrs++];
}

static void
mark_free(struct task *t)
{
	free((char *)t->host);
	free((char *)t->name);
}

static void
mark_copy(struct task *dst, const struct task *t)
{
	*dst = *t;
	dst->host = estrdup(t->host);
	dst->name = estrdup(t->name);
}

/*
 * Keep the task among the most interesting of its GPU (a bounded set: a
 * log of a million tasks costs no more than a log of ten).
 */
static void
mark(struct run *rn, struct gpuview *v, const struct task *t)
{
	size_t i, worst = 0;

	if (rn->o->marks == 0 || t->status == TASK_RUNNING)
		return;
	if (v->nmarks < rn->o->marks) {
		v->marks = ereallocarray(v->marks, v->nmarks + 1,
		    sizeof(*v->marks));
		mark_copy(&v->marks[v->nmarks++], t);
		return;
	}
	for (i = 1; i < v->nmarks; i++)
		if (collect_task_interest(&v->marks[i], &v->marks[worst]) > 0)
			worst = i;
	if (collect_task_interest(t, &v->marks[worst]) < 0) {
		mark_free(&v->marks[worst]);
		mark_copy(&v->marks[worst], t);
	}
}

static void
add_task(struct run *rn, const struct task *t)
{
	struct collection *c = rn->c;
	struct gpuview *v = view_of(rn, t->host, t->gpu);
	struct gpuview none;

	if (v == NULL) {
		/* Not charted: counted all the same, marked nowhere. */
		memset(&none, 0, sizeof(none));
		v = &none;
	}
	v->ntasks++;
	c->ntasks++;
	switch (t->status) {
	case TASK_RELEASED:
		v->nreleased++;
		c->nreleased++;
		break;
	case TASK_LEAKED:
		v->nleaked++;
		c->nleaked++;
		if (t->has_leaked)
			c->leaked_mib += t->leaked;
		else
			c->nleaked_unknown++;
		break;
	case TASK_RUNNING:
		v->nrunning++;
		c->nrunning++;
		break;
	}
	if (t->interval > v->interval)
		v->interval = t->interval;
	if (t->interval > c->interval)
		c->interval = t->interval;
	span(c, t->start);
	span(c, t->end);
	if (t->status == TASK_RELEASED)
		span(c, t->release);
	if (v != &none)
		mark(rn, v, t);
	if (rn->o->keep_tasks) {
		struct tasklist *l = &c->tasks;
		struct task *k;

		if (l->n == rn->tcap) {
			rn->tcap = rn->tcap ? 2 * rn->tcap : 64;
			l->t = ereallocarray(l->t, rn->tcap, sizeof(*l->t));
		}
		k = &l->t[l->n++];
		*k = *t;
		k->host = keep_str(rn, t->host);
		k->name = keep_str(rn, t->name);
	}
}

static void
on_task(void *p, const struct task *t)
{
	add_task(p, t);
}

/* An input's name in messages. */
static const char *
iname(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/*
 * What path holds, from its first bytes; -1 when it cannot be opened
 * (said).  Standard input is given back for whoever reads it next.  A
 * directory (what gpumem record writes) holds logs: the record reader
 * reads the files in it.
 */
static int
sniff(const char *path)
{
	struct input *in;
	const unsigned char *p;
	size_t n;
	int kind;

	if (stream_is_dir(path))
		return COLLECT_RECORDS;
	in = input_open(path);
	if (in == NULL) {
		msg("%s: cannot open:", iname(path));
		return -1;
	}
	n = input_peek(in, &p, 4096);
	if (tasktab_sniff(p, n))
		kind = COLLECT_TASKTAB;
	else if (usagecsv_sniff(p, n))
		kind = COLLECT_USAGE;
	else
		kind = COLLECT_RECORDS;
	if (strcmp(path, "-") == 0)
		input_keep(in);
	else
		input_close(in);
	return kind;
}

static const char *
kind_name(int kind)
{
	return kind == COLLECT_TASKTAB ? "a task table (gpumem tasks)" :
	    kind == COLLECT_USAGE ? "a usage curve (gpumem usage)" :
	    "a record stream or log";
}

/* A row of a usage curve that passes --gpu, --since and --until. */
static void
on_usage_row(void *p, const struct usagerow *u)
{
	struct run *rn = p;
	const struct readopts *ro = rn->o->ro;
	int64_t val[SER_NCURVES];
	unsigned has = 7 | (u->has_total ? 1U << SER_TOTAL : 0);
	struct gpuview *v;
	int k;

	if ((ro->gpus.n > 0 && !num_idset_has(&ro->gpus, u->gpu)) ||
	    u->ts < ro->since || u->ts > ro->until)
		return;
	val[SER_TOTAL] = u->total;
	/*
	 * A bucket is drawn as its range at its start, then its mean until
	 * the next one: min, max and mean at the same time.  It counts as
	 * the samples it stands for.
	 */
	for (k = 0; k < 3; k++)
		val[k] = u->lo[k];
	put_sample(rn, u->host, u->gpu, u->ts, val, has);
	if (u->bucket) {
		for (k = 0; k < 3; k++)
			val[k] = u->hi[k];
		put_sample(rn, u->host, u->gpu, u->ts, val, has);
		for (k = 0; k < 3; k++)
			val[k] = u->mean[k];
		put_sample(rn, u->host, u->gpu, u->ts, val, has);
		if ((v = view_of(rn, u->host, u->gpu)) != NULL) {
			v->nsamples = v->nsamples - 3 + u->samples;
			/*
			 * Memory at the end above the start is told from
			 * buckets only as far as they are sure: the first
			 * bucket's most and the last one's least.
			 */
			if (v->first == u->ts)
				v->unattr_first = u->hi[SER_UNATTR];
			if (v->last == u->ts)
				v->unattr_last = u->lo[SER_UNATTR];
		}
	}
}

/*
 * A usage curve CSV (either shape); bad rows are named and skipped.  The
 * curves of one run are all of single samples or all of one --every:
 * charts of buckets of different widths would not say the same thing.
 */
static int
read_usage(struct run *rn, const char *path)
{
	char a[48], b[48];
	uint64_t every;

	if (usagecsv_read(path, rn->o->ro->strict, on_usage_row, rn,
	    &every) < 0)
		return EXIT_TROUBLE;
	if (every == UINT64_MAX) {
		msg("%s: single samples and buckets of --every in one curve: "
		    "give curves of one kind", iname(path));
		rn->mixed = 1;
		return EXIT_TROUBLE;
	}
	if (rn->every_path == NULL) {
		rn->every = every;
		rn->every_path = path;
	} else if (every != rn->every) {
		msg("%s: %s, but %s has %s: give usage curves written with "
		    "the same --every", iname(path), usagecsv_every_str(every,
		    a), iname(rn->every_path), usagecsv_every_str(rn->every,
		    b));
		rn->mixed = 1;
		return EXIT_TROUBLE;
	}
	return EXIT_OK;
}

/* Task tables: every row that passes --gpu, --since and --until. */
static int
read_tasktab(struct run *rn, const char *path)
{
	const struct readopts *ro = rn->o->ro;
	struct tasklist l;
	size_t i;

	if (tasktab_read(path, &l, ro->strict) < 0)
		return EXIT_TROUBLE;
	for (i = 0; i < l.n; i++) {
		const struct task *t = &l.t[i];
		uint64_t to = t->status == TASK_RELEASED ? t->release : t->end;

		if (ro->gpus.n > 0 && !num_idset_has(&ro->gpus, t->gpu))
			continue;
		if (to < ro->since || t->start > ro->until)
			continue;
		add_task(rn, t);
	}
	tasktab_list_release(&l);
	return EXIT_OK;
}

static int
read_records(struct run *rn, char *const *paths, size_t n)
{
	const struct collect_opts *o = rn->o;
	struct engine_cb cb;
	struct engine *e;
	struct stream *st;
	const struct rec *r;
	int status, rdstatus = EXIT_OK;
	struct recdir *rd = recdir_load(paths, n, &rdstatus);

	cb.sample = on_sample;
	cb.task = on_task;
	cb.ctx = rn;
	e = engine_new(o->cfg, &cb);
	engine_recdir(e, rd);
	if (o->declared != NULL && tasktab_declare(o->declared, e) < 0) {
		engine_free(e);
		recdir_free(rd);
		return EXIT_TROUBLE;
	}
	st = stream_open(paths, n, o->ro);
	while ((r = stream_next(st)) != NULL)
		engine_put(e, r);
	engine_end(e);
	status = stream_close(st);
	engine_warnings(e);
	engine_free(e);
	recdir_free(rd);
	return exit_worst(status, rdstatus);
}

static int
by_gpu(const void *a, const void *b)
{
	const struct gpuview *x = *(struct gpuview *const *)a;
	const struct gpuview *y = *(struct gpuview *const *)b;
	return gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);
}

static void
view_free(struct gpuview *v)
{
	size_t i;

	for (i = 0; i < v->nmarks; i++)
		mark_free(&v->marks[i]);
	free(v->marks);
	if (v->ser.b != NULL)
		series_release(&v->ser);
	free(v->host);
	free(v);
}

int
collect_read(struct collection *c, char *const *paths, size_t n,
    const struct collect_opts *o)
{
	static char dash[] = "-";
	static char *const stdin_only[] = {dash};
	struct run rn;
	struct hent *h;
	char **ok;
	int *kinds;
	size_t i, nok = 0, it = 0;
	int status = EXIT_OK, kind = 0, kept = 0;

	memset(c, 0, sizeof(*c));
	memset(&rn, 0, sizeof(rn));
	rn.c = c;
	rn.o = o;
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	/*
	 * Look at every input first: records alone, or task tables and
	 * usage curves (what per-node runs wrote: the reduce of a fleet).
	 */
	ok = ecalloc(n, sizeof(*ok));
	kinds = ecalloc(n, sizeof(*kinds));
	for (i = 0; i < n; i++) {
		int k = sniff(paths[i]);

		if (k < 0) {
			status = EXIT_TROUBLE;
			continue;
		}
		if (strcmp(paths[i], "-") == 0)
			kept = 1;
		/* A tool of task tables takes curves beside them (below). */
		if (!(o->accept & (unsigned)k) && !(k == COLLECT_USAGE &&
		    (o->accept & COLLECT_TASKTAB))) {
			msg("%s: %s: expected %s", iname(paths[i]),
			    kind_name(k), o->needs);
			status = EXIT_TROUBLE;
			kind = -1;
			break;
		}
		if (kind != 0 && (k | kind) != kind &&
		    ((k | kind) & COLLECT_RECORDS)) {
			msg("%s: %s, but %s is %s: give logs, or task tables "
			    "and usage curves, not both", iname(paths[i]),
			    kind_name(k), iname(ok[0]), kind_name(kinds[0]));
			status = EXIT_TROUBLE;
			kind = -1;
			break;
		}
		kind |= k;
		kinds[nok] = k;
		ok[nok++] = paths[i];
	}
	if (kind == COLLECT_USAGE && !(o->accept & COLLECT_USAGE)) {
		msg("%s: %s: expected %s", iname(ok[0]), kind_name(kind),
		    o->needs);
		status = EXIT_TROUBLE;
		kind = -1;
	}
	if (kind > 0 && nok > 0) {
		c->kind = (enum collect_kind)kind;
		if (kind == COLLECT_RECORDS)
			status = exit_worst(status, read_records(&rn, ok, nok));
		else
			for (i = 0; i < nok; i++)
				status = exit_worst(status,
				    kinds[i] == COLLECT_USAGE ?
				    read_usage(&rn, ok[i]) :
				    read_tasktab(&rn, ok[i]));
	} else if (kept)
		/* Standard input was kept for a reader that never came. */
		input_close(input_open("-"));
	free(ok);
	free(kinds);
	while ((h = hmap_next(&rn.views, &it)) != NULL) {
		c->g = ereallocarray(c->g, c->ng + 1, sizeof(*c->g));
		c->g[c->ng++] = h->val;
	}
	if (c->ng > 1)
		qsort(c->g, c->ng, sizeof(*c->g), by_gpu);
	for (i = 0; i < c->ng; i++)
		if (i == 0 || strcmp(c->g[i]->host, c->g[i - 1]->host) != 0)
			c->nhosts++;
	hmap_release(&rn.views, NULL);
	/* The GPUs past the cap, for a page that names every GPU. */
	c->others = ereallocarray(NULL, rn.others.n + 1, sizeof(*c->others));
	it = 0;
	while ((h = hmap_next(&rn.others, &it)) != NULL) {
		struct gpuid *id = &c->others[c->nothers++];

		id->host = estrdup(h->key);
		memcpy(&id->gpu, h->key + strlen(h->key) + 1, sizeof(id->gpu));
	}
	hmap_release(&rn.others, NULL);
	sbuf_release(&rn.key);
	/* A cut of what is shown: said even with -q. */
	if (c->uncharted > 0)
		msg("%s%zu GPUs: the charts show the first %d seen; %llu "
		    "samples of the other %s%zu are left out (their tasks are "
		    "counted and listed)", c->uncounted ? "more than " : "",
		    c->ng + c->ng_uncharted, (int)c->ng,
		    (unsigned long long)c->uncharted, c->uncounted ?
		    "more than " : "", c->ng_uncharted);
	if (rn.mixed)
		collection_release(c);	/* no chart of what does not fit */
	return status;
}

void
collection_release(struct collection *c)
{
	size_t i;

	for (i = 0; i < c->ng; i++)
		view_free(c->g[i]);
	free(c->g);
	for (i = 0; i < c->nothers; i++)
		free(c->others[i].host);
	free(c->others);
	tasktab_list_release(&c->tasks);
	memset(c, 0, sizeof(*c));
}
