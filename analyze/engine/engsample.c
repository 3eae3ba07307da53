/* SPDX-License-Identifier: ISC */
/*
 * engsample.c: the device samples of a GPU (engstate.h): each held until
 * the process polls around it are in (the lag), then judged: the
 * processes' memory as it was at the sample, the sample given to the
 * caller, to declared tasks and to the episodes, and the level without
 * the processes handed to engrelease.c.
 */
#include <string.h>

#include "engstate.h"

/* What t listed at ts: its value then (eps: eng_same_poll()). */
static uint32_t
value_at(const struct ptask *t, uint64_t ts, uint64_t eps)
{
	uint64_t at = eng_plus(ts, eps);

	if (t->start > at)
		return 0;
	return t->curts > at ? t->prev : t->end != 0 ? t->held : t->cur;
}

/*
 * Whether a listing change of t by more than tol falls around ts: the
 * poll before ts did not show it, the one after did.  The device sample
 * may or may not hold the change then.
 */
static int
straddles(const struct ptask *t, uint64_t ts, uint64_t eps, int64_t tol)
{
	int64_t d = (int64_t)t->cur - t->prev;

	if (t->end != 0)
		d = (int64_t)t->held - t->prev;
	if (d < 0)
		d = -d;
	return d > tol && eng_plus(t->chgprev, eps) < ts &&
	    t->curts > eng_plus(ts, eps);
}

/*
 * How much value_at(t) may exceed what t held at ts when its listing
 * changed between the polls around ts: the sample may hold either value.
 */
static int64_t
straddle_slack(const struct ptask *t, uint64_t ts, uint64_t eps)
{
	int64_t v = value_at(t, ts, eps);
	int64_t after = t->end != 0 ? t->held : t->cur;
	int64_t lo = after < (int64_t)t->prev ? after : t->prev;

	return v > lo ? v - lo : 0;
}

/*
 * A sample left unjudged (a listing changed between the polls around it)
 * whose unattributed memory, with every such change taken at its least,
 * is at the level without the waiting tasks (within the tolerance): no
 * waiting task's memory can be out there, whatever the changes were, so
 * every task that may have ended by then is back by it.  In a burst of
 * one-poll jobs every sample is such a one; the idle ones settle them.
 */
static void
settle_idle(struct engine *e, struct gpu *g, uint64_t ts, int64_t unattr)
{
	size_t i;

	if (g->nwait == 0 || !g->have_base || unattr - g->base >
	    (int64_t)e->cfg->tolerance)
		return;
	for (i = g->nwait; i > 0; i--) {
		struct ptask *t = g->wait[i - 1];

		if (eng_gone_by(t, ts) && t->start <= ts)
			eng_release_waiting(e, g, t, ts, 0);
	}
	eng_wait_emptied(g);
	/* The level there is known: the next ends measure from it. */
	eng_hist_add(g, ts, unattr);
}

/* A device sample, now that the process polls around it are in. */
static void
evaluate(struct engine *e, const struct pending *p)
{
	struct gpu *g = p->g;
	const struct cfg_device *dev;
	int64_t tol = e->cfg->tolerance, usage, attr, shown;
	uint64_t eps;
	int ambiguous = 0;
	int64_t slack = 0;	/* what straddling listings may overstate */
	struct sample s;
	size_t i;

	memset(&s, 0, sizeof(s));
	s.ts = p->ts;
	s.host = g->host;
	s.gpu = g->gpu;
	s.has_total = (p->has & REC_TOTAL) != 0;
	s.has_free = (p->has & REC_FREE) != 0;
	s.total = p->total;
	s.free = p->free;
	if (!s.has_total && (dev = config_device(e->cfg, g->host,
	    g->gpu)) != NULL && dev->has_total) {
		s.has_total = 1;
		s.total = dev->total;
	}
	if (s.has_total && s.has_free && s.total >= s.free)
		usage = (int64_t)s.total - s.free;
	else if (p->has & REC_USED)
		usage = p->used;
	else {
		e->st.nousage++;
		return;
	}
	e->st.samples++;
	eng_cadence_add(&g->dev, p->ts);
	eps = eng_same_poll(g);
	/*
	 * The processes as they were at the sample: listings that came
	 * after it are taken back, tasks that ended since count while they
	 * were still listed.  A change that falls between the polls around
	 * the sample leaves it unknown whether the sample holds it.
	 */
	attr = g->attributed;
	for (i = 0; i < g->nrecent; i++) {
		const struct ptask *t = g->recent[i];

		attr -= (int64_t)t->cur - value_at(t, p->ts, eps);
		if (straddles(t, p->ts, eps, tol)) {
			ambiguous = 1;
			slack += straddle_slack(t, p->ts, eps);
		}
	}
	shown = 0;
	for (i = 0; i < g->nwait; i++) {
		const struct ptask *t = g->wait[i];
		int st = straddles(t, p->ts, eps, tol);

		if (st)
			ambiguous = 1;
		if (t->start > eng_plus(p->ts, eps))
			continue;
		if (!eng_gone_by(t, p->ts) && st)
			slack += straddle_slack(t, p->ts, eps);
		if (!eng_gone_by(t, p->ts))
			attr += value_at(t, p->ts, eps);
		else if (t->end > p->ts)
			shown += t->held;	/* the log lists it until then */
	}
	/*
	 * A pid listed again with less after polls that missed it: a sample
	 * between its two listings at the level without it (within the
	 * tolerance) says the process before was gone, and the new listing
	 * is another process under its pid.
	 */
	for (i = 0; i < g->nsus; i++) {
		struct ptask *t = g->sus[i];

		if (t->suspect == SUS_DROP && t->sus_gone == 0 &&
		    p->ts > t->o_last && p->ts < t->sus_ts &&
		    usage - (attr - (int64_t)value_at(t, p->ts, eps)) -
		    t->sus_u0 <= tol)
			t->sus_gone = p->ts;
	}
	shown += attr;
	s.usage = (uint32_t)usage;
	s.attributed = (uint32_t)(shown < 0 ? 0 : shown > UINT32_MAX ?
	    UINT32_MAX : shown);
	s.unattributed = usage - shown;
	if (s.unattributed < 0)
		e->negative++;
	if (e->cb.sample != NULL)
		e->cb.sample(e->cb.ctx, &s);
	declared_sample(e->decl, &g->decl, g->host, g->gpu, p->ts, usage,
	    e->cfg, eng_emit_declared, e, g);
	if (!g->procs && e->decl == NULL && e->cb.task != NULL) {
		if (g->ep == NULL) {
			dev = config_device(e->cfg, g->host, g->gpu);
			g->ep = episodes_new(dev != NULL && dev->has_idle,
			    dev != NULL ? dev->idle : 0);
		}
		episodes_sample(g->ep, p->ts, usage, tol);
	}
	/* The listings changed long enough ago are known from now on. */
	for (i = 0; i < g->nrecent;)
		if (g->recent[i]->curts <= eng_plus(p->ts, eps))
			eng_recent_del(g, g->recent[i]);
		else
			i++;
	if (ambiguous) {
		e->st.ambiguous++;
		settle_idle(e, g, p->ts, usage - (attr - slack));
		return;
	}
	/*
	 * Memory that rose while live tasks ran and none came or went is no
	 * task's (their context came with their start): a desktop's, a
	 * container's the log cannot see.  A fall while nothing waits gives
	 * it back.
	 */
	if (g->have_sample && g->nwait == 0 && g->nev == g->unowned_nev) {
		int64_t d = usage - attr - g->unattr;

		if (d > tol && g->live.n > 0)
			g->unowned += d;
		else if (d < -tol)
			g->unowned = g->unowned + d > 0 ? g->unowned + d : 0;
	}
	g->unowned_nev = g->nev;
	g->have_sample = 1;
	g->unattr = usage - attr;
	if (!g->have_first) {
		g->have_first = 1;
		g->first_unattr = g->unattr;
		g->first_ts = p->ts;
	}
	eng_hist_add(g, p->ts, g->unattr);
	for (i = 0; i < g->nsus;) {
		struct ptask *t = g->sus[i];

		if (t->sus_ts < p->ts)
			eng_settle_suspect(e, g, t);
		else
			i++;
	}
	if (g->nwait == 0)
		return;
	for (i = 0; i < g->nwait; i++)
		if (eng_gone_by(g->wait[i], p->ts))
			g->wait[i]->after++;
	if (!g->have_base) {
		/* No sample before the ends: take what is out as pending. */
		g->base = g->unattr - eng_pending_at(g, p->ts);
		g->base_ts = p->ts;
		g->have_base = 1;
		return;
	}
	eng_judge(e, g, p->ts);
}

/* Judge the device samples whose polls are in by now (all at the end). */
void
eng_flush(struct engine *e, uint64_t now, int all)
{
	while (e->pcount > 0) {
		struct pending *p = &e->pend[e->phead];

		if (!all && (now <= p->ts || now - p->ts <= eng_lag(p->g)))
			break;
		e->phead = ring_at(e->phead, 1, e->pcap);
		e->pcount--;
		evaluate(e, p);
	}
}

void
eng_push_pending(struct engine *e, struct gpu *g, const struct rec *r)
{
	struct pending *p;

	if (e->pcount == ENGINE_MAXPENDING) {
		/* Too many samples in one lag: judge the oldest now. */
		struct pending old = e->pend[e->phead];

		e->phead = ring_at(e->phead, 1, e->pcap);
		e->pcount--;
		e->st.early++;
		evaluate(e, &old);
	}
	if (e->pcount == e->pcap) {
		size_t ncap = e->pcap ? e->pcap * 2 : 64;

		e->pend = ering_grow(e->pend, e->phead, e->pcount, e->pcap,
		    ncap, sizeof(*e->pend));
		e->pcap = ncap;
		e->phead = 0;
	}
	p = &e->pend[ring_at(e->phead, e->pcount, e->pcap)];
	e->pcount++;
	p->g = g;
	p->ts = r->ts;
	p->has = r->has;
	p->used = r->used;
	p->free = r->free;
	p->total = r->total;
}
