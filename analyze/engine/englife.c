/* SPDX-License-Identifier: ISC */
/*
 * englife.c: the lives of processes on a GPU (engstate.h): a process
 * listed starts a task or goes on, its end record sends it to wait for
 * its memory (engrelease.c); a process missing from polls and listed
 * again resumes, a pid listed with less memory may be a new process (its
 * identity in question until a judged sample tells); processes listed
 * with their memory N/A are lives of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "engstate.h"
#include "gpumap.h"
#include "recdir.h"

/* The key of a process of a GPU in e->nalive. */
static void
na_key(struct engine *e, const struct rec *r)
{
	gpu_key(&e->key, r->host, r->gpu);
	sbuf_add(&e->key, &r->pid, sizeof(r->pid));
}

/*
 * A listing with the memory N/A: a life starts, or goes on.  A life
 * ended (the stream's memory_used = 0 record) and listed again is a new
 * one (a pid reused).
 */
static void
na_listed(struct engine *e, const struct rec *r, uint64_t iv)
{
	void **v;
	struct nalife *l;

	na_key(e, r);
	if (e->nalive.n >= ENGINE_MAXLIVE && hmap_get(&e->nalive, e->key.buf,
	    e->key.len) == NULL) {
		e->st.capped++;
		return;
	}
	v = hmap_put(&e->nalive, e->key.buf, e->key.len, NULL);
	if (*v != NULL && e->na[(uintptr_t)*v - 1].end == 0) {
		l = &e->na[(uintptr_t)*v - 1];
		l->last = r->ts;
		if (iv != 0)
			l->iv = iv;
		return;
	}
	e->na = egrow(e->na, e->nna, sizeof(*e->na));
	l = &e->na[e->nna++];
	l->host = estrdup(r->host);
	l->name = estrdup(r->name);
	l->gpu = r->gpu;
	l->pid = r->pid;
	l->start = r->ts;
	l->end = 0;
	l->last = r->ts;
	l->iv = iv;
	*v = (void *)(uintptr_t)e->nna;
}

/* The memory_used = 0 record of a process listed N/A: its life ends. */
static int
na_ended(struct engine *e, const struct rec *r)
{
	void **v;

	if (e->nna == 0)
		return 0;
	na_key(e, r);
	v = hmap_get(&e->nalive, e->key.buf, e->key.len);
	if (v == NULL || e->na[(uintptr_t)*v - 1].end != 0)
		return 0;
	e->na[(uintptr_t)*v - 1].end = r->ts;
	return 1;
}

size_t
engine_unlisted(const struct engine *e, engine_life_fn *fn, void *ctx)
{
	size_t i;

	for (i = 0; fn != NULL && i < e->nna; i++) {
		const struct nalife *l = &e->na[i];

		/*
		 * It started after the poll before its first listing and
		 * ended after its last one (engine.h).
		 */
		fn(ctx, l->host, l->gpu, l->pid, l->name, l->start, l->end,
		    l->iv != 0 && l->iv < l->start ? l->start - l->iv + 1 :
		    l->start, l->end != 0 ? l->last + 1 : 0);
	}
	return e->nna;
}

/*
 * t is listed at ts with the value it has had since curts: the judged
 * samples in between saw its listing hold still.  The first of them is
 * its early level, unless another task came or went before it (then
 * there is none).  A context comes with a program's first allocation, so
 * the level there holds it; a rise later in its life is someone else's.
 */
static void
early_level(const struct gpu *g, struct ptask *t, uint64_t ts)
{
	const struct hist *first = NULL;
	size_t i;

	for (i = 0; i < g->nhist; i++) {
		const struct hist *h =
		    &g->hist[(g->hnext + NHIST - 1 - i) % NHIST];

		if (h->ts < t->curts)
			break;
		if (h->ts < ts)
			first = h;
	}
	if (first == NULL)
		return;
	t->early_done = 1;
	if (first->nev != t->nev)
		return;
	t->have_early = 1;
	t->uearly = first->unattr;
}

void
eng_ptask_free(void *p)
{
	struct ptask *t = p;

	if (t == NULL)
		return;
	free(t->name);
	free(t);
}

/* Take t off a list of task pointers (order kept). */
void
eng_list_del(struct ptask **v, size_t *n, const struct ptask *t)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (v[i] == t) {
			memmove(v + i, v + i + 1, (*n - i - 1) * sizeof(*v));
			(*n)--;
			return;
		}
}

void
eng_recent_del(struct gpu *g, struct ptask *t)
{
	size_t i;

	if (t->ridx == 0)
		return;
	i = t->ridx - 1;
	g->recent[i] = g->recent[--g->nrecent];
	g->recent[i]->ridx = i + 1;
	t->ridx = 0;
}

static void
recent_add(struct gpu *g, struct ptask *t)
{
	if (t->ridx != 0)
		return;
	g->recent = egrow(g->recent, g->nrecent, sizeof(*g->recent));
	g->recent[g->nrecent++] = t;
	t->ridx = g->nrecent;
}

/*
 * The last listing of a process listed N/A and still listed at the end
 * (this pass saw its listings too), or 0.
 */
uint64_t
eng_na_last(struct engine *e, const char *host, uint32_t gpu, uint32_t pid)
{
	struct rec r;
	void **v;

	rec_init(&r);
	r.host = host;
	r.gpu = gpu;
	r.pid = pid;
	na_key(e, &r);
	v = hmap_get(&e->nalive, e->key.buf, e->key.len);
	return v != NULL ? e->na[(uintptr_t)*v - 1].last : 0;
}

/*
 * A live task whose identity was in question, at a judged sample after
 * the listing that raised the question: when the memory it listed before
 * is still out besides what it lists now, the life before ended there
 * and the listing is a new process with the same pid.
 */
void
eng_settle_suspect(struct engine *e, struct gpu *g, struct ptask *t)
{
	int64_t tol = e->cfg->tolerance, out = g->unattr - t->sus_u0;
	struct ptask *o;
	size_t i;

	/*
	 * Tasks listed at the level's sample and waiting now (their polls
	 * lost with its own, often) moved their memory out of the listings
	 * since: it is not the life before still out.
	 */
	for (i = 0; i < g->nwait; i++)
		if (g->wait[i]->last >= t->sus_u0ts)
			out -= g->wait[i]->remaining;
	t->suspect = SUS_NONE;
	eng_list_del(g->sus, &g->nsus, t);
	if (t->sus_gone == 0 && (out <= tol || out < (int64_t)t->o_held / 2)) {
		if (t->o_end != 0)
			t->notes |= NOTE_RESUMED;
		return;
	}
	/* Two lives: the one before waits for its memory. */
	o = ecalloc(1, sizeof(*o));
	o->pid = t->pid;
	o->name = estrdup(t->name);
	o->start = t->o_start;
	o->last = t->o_last;
	o->end = t->o_end != 0 ? t->o_end : t->sus_ts;
	o->peak = t->o_peak;
	o->held = t->o_held;
	o->ctx = t->o_ctx;
	o->remaining = t->o_held + t->o_ctx;
	o->lastnot = o->last;
	o->notes = NOTE_PIDREUSE;
	o->pprev = o->start;
	o->chgprev = o->start;
	o->curts = o->start;
	t->start = t->sus_ts;
	t->peak = t->cur;
	t->ctx = 0;
	t->have_before = 0;
	t->have_early = t->early_done = 0;
	t->notes |= NOTE_PIDREUSE;
	e->st.splits++;
	if (t->sus_gone != 0) {
		/* Gone by that sample, its memory back there. */
		o->end = t->sus_gone;
		eng_wait_add(e, g, o);
		eng_release_waiting(e, g, o, t->sus_gone, 0);
		return;
	}
	eng_wait_ended(e, g, o, t->sus_u0);
}

/*
 * t, listed less at ts than it held, after polls that missed it: the
 * earliest judged sample since its last listing whose level lacks the
 * memory it listed (within tol) says it was gone there (sus_gone).
 */
static void
gone_between(const struct gpu *g, struct ptask *t, int64_t tol)
{
	size_t i;

	for (i = 0; i < g->nhist; i++) {
		const struct hist *h =
		    &g->hist[(g->hnext + NHIST - 1 - i) % NHIST];

		if (h->ts <= t->o_last)
			break;
		if (h->ts < t->sus_ts &&
		    h->unattr + (int64_t)t->o_held - t->sus_u0 <= tol)
			t->sus_gone = h->ts;
	}
}

/*
 * Question t's identity from its listing at ts on: keep its life so far
 * (ended at its end record when it was resumed, at ts when its listing
 * fell) and the level of unattributed memory while it was listed, to be
 * told apart at the next judged sample (eng_settle_suspect).
 */
static void
suspect(struct gpu *g, struct ptask *t, int why, uint64_t ts, int64_t tol)
{
	const struct hist *h;

	t->suspect = why;
	t->sus_ts = ts;
	t->o_start = t->start;
	t->o_last = t->last;
	t->o_end = why == SUS_RESUMED ? t->end : 0;
	t->o_peak = t->peak;
	t->o_held = why == SUS_RESUMED ? t->held : t->cur;
	t->o_ctx = t->ctx;
	t->sus_gone = 0;
	if ((h = eng_hist_before(g, eng_plus(t->last, 1))) != NULL) {
		t->sus_u0 = h->unattr;
		t->sus_u0ts = h->ts;
	} else {
		t->sus_u0 = g->unattr;
		t->sus_u0ts = ts;
	}
	if (why == SUS_DROP)
		gone_between(g, t, tol);
	g->sus = egrow(g->sus, g->nsus, sizeof(*g->sus));
	g->sus[g->nsus++] = t;
}

/*
 * A process listed again after its end: the end was made up from polls
 * that missed it, when none of its memory has come back and it is listed
 * again within a few polls with about what it held.  It lives on, its
 * identity in question until a judged sample tells (eng_settle_suspect).
 */
static struct ptask *
resume(struct engine *e, struct gpu *g, const struct rec *r)
{
	int64_t tol = e->cfg->tolerance;
	uint64_t iv = g->proc.median;
	size_t i;

	if (iv == 0)
		return NULL;
	for (i = g->nwait; i > 0; i--) {
		struct ptask *t = g->wait[i - 1];
		int64_t d = (int64_t)r->used - t->held;

		if (t->pid != r->pid || t->remaining != t->held + t->ctx ||
		    r->ts - t->last > RESUME_POLLS * iv || d > tol ||
		    d < -tol || (r->name[0] != '\0' && t->name[0] != '\0' &&
		    strcmp(r->name, t->name) != 0))
			continue;
		eng_list_del(g->wait, &g->nwait, t);
		if (g->nwait > 0 && t->ctx_based)
			g->base += t->ctx;
		eng_wait_emptied(g);
		t->ctx_based = 0;
		suspect(g, t, SUS_RESUMED, r->ts, tol);
		t->end = 0;
		t->cur = t->held;
		g->attributed += t->held;
		e->st.resumed++;
		return t;
	}
	return NULL;
}

enum { DEAD_NOT, DEAD_NOW, DEAD_STILL_OUT };

/*
 * A listing r of live task t (or NULL) with the name "[Not Found]":
 * nvidia-smi lists so a process killed before its context was torn down,
 * until the driver lets its memory go.  The first such listing of a task
 * with a name of its own is its death (DEAD_NOW: it ended there, the
 * poll before was its last, its name kept); later ones of the task,
 * waiting for its memory, are no new process (DEAD_STILL_OUT: the device
 * samples say when the memory goes).
 * DEAD_NOT: an ordinary listing (a process first seen dead is known by
 * that name).
 */
static int
dead_listed(struct gpu *g, struct ptask *t, const struct rec *r)
{
	size_t i;

	if (t != NULL) {
		if (strcmp(t->name, REC_NOT_FOUND) == 0)
			return DEAD_NOT;
		t->notes |= NOTE_NOTFOUND;
		return DEAD_NOW;
	}
	for (i = g->nwait; i > 0; i--) {
		struct ptask *w = g->wait[i - 1];

		if (w->pid == r->pid && (w->notes & NOTE_NOTFOUND))
			return DEAD_STILL_OUT;
	}
	return DEAD_NOT;
}

/*
 * The live task of pid on g, or NULL.  A GPU's polls list the same few
 * processes again and again, so the one found last is tried first: at
 * hundreds of hosts the map's lookup was a fifth of the engine.
 */
static struct ptask *
live_get(struct gpu *g, uint32_t pid)
{
	void **v;

	if (g->hot != NULL && g->hot->pid == pid)
		return g->hot;
	if ((v = hmap_get(&g->live, &pid, sizeof(pid))) == NULL)
		return NULL;
	return g->hot = *v;
}

void
eng_process(struct engine *e, struct gpu *g, const struct rec *r)
{
	struct ptask *t = live_get(g, r->pid);
	int64_t tol = e->cfg->tolerance, u;
	uint64_t pollbefore, nev;
	int dead = DEAD_NOT;

	if (r->used > 0 || !(r->has & REC_USED))
		eng_cadence_add(&g->proc, r->ts);
	pollbefore = g->proc.last == r->ts ? g->proc.prev : g->proc.last;
	if (!(r->has & REC_USED)) {
		/* Listed, memory unknown (WDDM): alive, nothing to count. */
		if (t != NULL)
			t->last = r->ts;
		else
			na_listed(e, r, eng_proc_iv(g));
		return;
	}
	if (r->used == 0 && t == NULL && na_ended(e, r))
		return;
	if (r->used > 0 && strcmp(r->name, REC_NOT_FOUND) == 0)
		dead = dead_listed(g, t, r);
	if (dead == DEAD_STILL_OUT)
		return;
	if (r->used > 0 && dead != DEAD_NOW) {
		if (t == NULL && (t = resume(e, g, r)) != NULL) {
			*hmap_put(&g->live, &r->pid, sizeof(r->pid), NULL) = t;
			e->nlive++;
		} else if (t == NULL) {
			uint64_t iv = eng_proc_iv(g);

			if (e->nlive >= ENGINE_MAXLIVE) {
				e->st.capped++;
				return;
			}
			t = ecalloc(1, sizeof(*t));
			t->pid = r->pid;
			t->name = estrdup(r->name);
			t->start = r->ts;
			/*
			 * The poll before, where it was not listed yet: the
			 * loop's last one when it printed, else about one
			 * interval back (two device intervals when the loop's
			 * own is not known yet: it printed nothing so far).
			 */
			if (iv == 0)
				iv = 2 * g->dev.median;
			t->pprev = pollbefore != 0 && pollbefore < r->ts &&
			    r->ts - pollbefore <= iv + iv / 2 ? pollbefore :
			    r->ts > iv ? r->ts - iv : 0;
			t->chgprev = t->pprev;
			t->curts = r->ts;
			eng_ev_add(g, t->pprev);
			t->nev = g->nev;
			/* The level before it, if no other task came or went
			 * between that sample and its start. */
			t->have_before = eng_level_before(g, eng_plus(t->pprev, 1),
			    &t->ubefore, &nev) && nev + 1 == t->nev;
			*hmap_put(&g->live, &r->pid, sizeof(r->pid), NULL) = t;
			e->nlive++;
		} else if (r->name[0] != '\0' && strcmp(t->name, r->name) != 0) {
			free(t->name);
			t->name = estrdup(r->name);
		}
		if (t->cur > 0 && t->suspect == SUS_NONE &&
		    (int64_t)r->used + tol < (int64_t)t->cur) {
			/*
			 * It lists less than it held: a process that freed
			 * memory, or a new one under the same pid, which the
			 * next judged sample tells.
			 */
			suspect(g, t, SUS_DROP, r->ts, tol);
		}
		if (t->last != 0 && r->ts > t->last && t->end == 0)
			eng_cadence_gap(&g->cont, r->ts - t->last);
		if (r->used != t->cur) {
			t->prev = t->cur;
			t->chgprev = t->cur == 0 && t->last == 0 ? t->pprev :
			    t->last;
			t->curts = r->ts;
			recent_add(g, t);
		}
		g->attributed += (int64_t)r->used - t->cur;
		t->cur = r->used;
		t->held = r->used;
		if (!t->early_done)
			early_level(g, t, r->ts);
		if (r->used > t->peak)
			t->peak = r->used;
		t->last = r->ts;
		return;
	}
	if (t == NULL)
		return;		/* gone, and never seen holding memory */
	/* The process has gone: its memory waits to come back. */
	g->attributed -= t->cur;
	eng_recent_del(g, t);
	if (t->suspect != SUS_NONE) {
		eng_list_del(g->sus, &g->nsus, t);
		t->suspect = SUS_NONE;
	}
	t->end = r->ts;
	t->lastnot = t->last;
	t->notes |= recdir_end(e->rd, r->pid, t->last, &t->end);
	hmap_del(&g->live, &r->pid, sizeof(r->pid));
	if (g->hot == t)
		g->hot = NULL;
	e->nlive--;
	/* The level while it was listed: the judged sample at its last. */
	if (!eng_level_before(g, eng_plus(t->last, 1), &u, &nev)) {
		u = g->unattr;
		nev = g->nev + 1;	/* unknown: no context measured */
	}
	/*
	 * Context memory: what the device held for it beyond its listing,
	 * the rise of unattributed memory from before its start to the
	 * first judged sample its listing held still around (its early
	 * level), no more than the rise to its last listing when no other
	 * task came or went meanwhile (the context shrank or went first).
	 * A rise later in its life is someone else's: a desktop, a container
	 * the log cannot see.  Without an early level, the rise to its last
	 * listing while no other task came or went.
	 */
	if (t->have_before && t->have_early) {
		int64_t c = t->uearly - t->ubefore;

		if (nev == t->nev && g->nev == t->nev && u - t->ubefore < c)
			c = u - t->ubefore;
		if (c > tol && c <= CTX_MAX)
			t->ctx = (uint32_t)c;
	} else if (t->have_before && nev == t->nev && g->nev == t->nev &&
	    u - t->ubefore > tol && u - t->ubefore <= CTX_MAX)
		t->ctx = (uint32_t)(u - t->ubefore);
	eng_ev_add(g, t->last);
	t->remaining = t->held + t->ctx;
	eng_wait_ended(e, g, t, u);
}
