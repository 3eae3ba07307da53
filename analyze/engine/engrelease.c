/* SPDX-License-Identifier: ISC */
/*
 * engrelease.c: the tasks waiting for their memory on a GPU
 * (engstate.h), and at each judged sample whether memory came back and
 * whose: the likeliest set of waiting tasks that makes up a drop, a drop
 * confirmed by the next sample, and the bounds of a release's delay.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engstate.h"
#include "recdir.h"

/*
 * Whether p's end record came after polls that printed nothing (lost, or
 * empty: the reader then places it 1.25 intervals on at least, the very
 * next poll one on): it may have lived until the next poll that printed,
 * unknown here, or the loop died and it lived on.
 */
int
eng_silence_end(const struct gpu *g, const struct ptask *p)
{
	uint64_t iv = eng_proc_iv(g);

	if (p->notes & NOTE_EXACT)
		return 0;	/* its exit is known (recdir.h) */
	return iv != 0 && p->end - p->last > iv + iv / 8;
}

/*
 * Task t's memory came back by the judged sample at ts.  It ended between
 * its last listing and its end record; its memory came back after the
 * sample that last showed it out (lastnot) and by ts.  So the delay lies
 * in [lastnot - end, ts - last], and the sample at ts is the estimate.
 */
void
eng_release_waiting(struct engine *e, struct gpu *g, struct ptask *p,
    uint64_t ts, unsigned notes)
{
	struct task t;
	uint64_t lo, hi;

	eng_task_init(&t, p->name, p->pid, p->start, p->end, p->peak, p->held,
	    TASK_RELEASED);
	t.release = ts;
	lo = p->lastnot > p->end ? p->lastnot - p->end : 0;
	/* Polls missing before its end record: bounds from 0. */
	if (eng_silence_end(g, p)) {
		lo = 0;
		notes |= NOTE_GAP;
	}
	hi = recdir_held_until(p->notes & NOTE_EXACT, p->last, p->end, ts);
	if (hi < lo)
		hi = lo;
	t.delay = ts > p->end ? ts - p->end : 0;
	if (t.delay < lo)
		t.delay = lo;
	if (t.delay > hi)
		t.delay = hi;
	t.delay_lo = lo;
	t.delay_hi = hi;
	t.notes = p->notes | notes;
	if (hi - lo > 2 * (g->dev.median + eng_proc_iv(g)) &&
	    g->dev.median != 0)
		t.notes |= NOTE_GAP;
	eng_emit(e, g, &t);
	eng_list_del(g->wait, &g->nwait, p);
	eng_ptask_free(p);
}

/* Put p on the wait list, in order of ends. */
void
eng_wait_add(struct engine *e, struct gpu *g, struct ptask *p)
{
	size_t i;

	if (g->nwait == ENGINE_MAXWAIT) {
		/*
		 * Too many waiting (each device sample weighs them all): the
		 * one that ended first is given up, its memory not back.
		 */
		struct ptask *w = g->wait[0];

		eng_emit_ptask(e, g, w, TASK_LEAKED);
		/* Its memory, never back, is part of the level from now. */
		if (g->have_base)
			g->base += w->remaining;
		eng_ptask_free(w);
		memmove(g->wait, g->wait + 1, --g->nwait * sizeof(*g->wait));
		e->st.waitcapped++;
	}
	if (g->nwait == g->capwait) {
		g->capwait = g->capwait ? g->capwait * 2 : 8;
		g->wait = ereallocarray(g->wait, g->capwait, sizeof(*g->wait));
	}
	for (i = g->nwait; i > 0 && g->wait[i - 1]->end > p->end; i--)
		g->wait[i] = g->wait[i - 1];
	g->wait[i] = p;
	g->nwait++;
}

/*
 * Ended task t (a process gone, or the life before a reused pid) waits for
 * its memory.  The base is the level without it (level: the unattributed
 * level while it was listed): its context memory was part of the level
 * while it lived, if it lived when the base was taken.
 */
void
eng_wait_ended(struct engine *e, struct gpu *g, struct ptask *t, int64_t level)
{
	if (g->nwait == 0) {
		g->have_base = g->have_sample;
		g->base = level - t->ctx;
		g->base_ts = t->end;
		t->ctx_based = 1;
		g->tent = 0;
	} else if (t->start < g->base_ts) {
		g->base -= t->ctx;
		t->ctx_based = 1;
	}
	eng_wait_add(e, g, t);
}

/* Nothing waits any more: the next end takes a base of its own. */
void
eng_wait_emptied(struct gpu *g)
{
	if (g->nwait == 0) {
		g->have_base = 0;
		g->tent = 0;
	}
}

/*
 * How likely a waiting task is to be giving its memory back now: tasks
 * that ended a moment ago, far more than a leak from an hour ago (which
 * can still come back: a stuck process is killed at last).
 */
static double
recency(const struct ptask *t, uint64_t ts)
{
	double age = ts > t->end ? (double)(ts - t->end) / NS_PER_SEC : 0;

	return log(1.0 / (1.0 + age / RECENCY_S));
}

/* The search for the likeliest set of waiting tasks (explain_drop). */
struct subsets {
	struct ptask **c;	/* the candidates */
	size_t n;
	int64_t r, tol;
	const double *score;
	int64_t low[SUBSET_MAX + 1];	/* low[k]: what bits 0..k-1 hold */
	int found;
	double best;
	int64_t besterr;
	uint32_t set;
	int found2;
	double second;		/* the likeliest other set that fits */
};

/* A candidate set m whose memory makes up sum. */
static void
subset_leaf(struct subsets *x, uint32_t m, int64_t sum)
{
	int64_t err = sum > x->r ? sum - x->r : x->r - sum, slack;
	double sc = 0;
	size_t i;

	/*
	 * A set may give back more than its members listed, by what their
	 * contexts held beyond their listings: up to a quarter of it, and
	 * CTX_SLACK at most.
	 */
	slack = sum / 4 < CTX_SLACK ? sum / 4 : CTX_SLACK;
	if (m == 0 || (sum > x->r && err > x->tol) ||
	    (sum <= x->r && err > x->tol + slack))
		return;
	for (i = 0; i < x->n; i++)
		if (m & (1U << i))
			sc += x->score[i];
	if (!x->found || sc > x->best + 1e-9 || (sc > x->best - 1e-9 &&
	    (err < x->besterr || (err == x->besterr && m > x->set)))) {
		if (x->found && (!x->found2 || x->best > x->second)) {
			x->found2 = 1;
			x->second = x->best;
		}
		x->found = 1;
		x->best = sc;
		x->besterr = err;
		x->set = m;
	} else if (!x->found2 || sc > x->second) {
		x->found2 = 1;
		x->second = sc;
	}
}

/*
 * Bits above i are chosen (m, making up sum): choose bit i, leaving it
 * out first, so that sets are met in increasing order of m as a plain
 * count from 1 would meet them.  A branch whose sum is past r + tol, or
 * cannot reach r - tol with all the rest, holds no candidate: a hostile
 * log keeping many tasks waiting costs far less than 2^SUBSET_MAX a
 * sample.
 */
static void
subset_search(struct subsets *x, int i, uint32_t m, int64_t sum)
{
	if (sum > x->r + x->tol ||
	    sum + x->low[i + 1] < x->r - x->tol - CTX_SLACK)
		return;
	if (i < 0) {
		subset_leaf(x, m, sum);
		return;
	}
	subset_search(x, i - 1, m, sum);
	subset_search(x, i - 1, m | 1U << i, sum + x->c[i]->remaining);
}

/*
 * Who gave back r MiB at ts?  Candidates c[0, n) (in order of ends) are
 * sets of waiting tasks whose memory makes up r within the tolerance
 * (each wholly released), and any single task holding more than r
 * (released in part).  The likeliest wins: the sum of the members'
 * recency, a part counting for less than a whole (PARTIAL).  Ties go to
 * the closer set, then to the later tasks.  Return 1 with a set in *set
 * (bits over the last SUBSET_MAX candidates, *off the first of them), 2
 * with a partial giver in *part, or 0 when nothing explains the drop.
 * *tie says whether another set fitted about as likely (TIE_SCORE).
 */
static int
explain_drop(struct ptask **c, size_t nc, int64_t r, int64_t tol,
    uint64_t ts, uint32_t *set, size_t *off, size_t *part, int *tie)
{
	size_t n = nc < SUBSET_MAX ? nc : SUBSET_MAX;
	double score[SUBSET_MAX], bestpart = 0;
	struct subsets x;
	int foundpart = 0;
	size_t i;

	memset(&x, 0, sizeof(x));
	*off = nc - n;
	x.c = c + *off;
	x.n = n;
	x.r = r;
	x.tol = tol;
	x.score = score;
	for (i = 0; i < n; i++) {
		score[i] = recency(x.c[i], ts);
		x.low[i + 1] = x.low[i] + x.c[i]->remaining;
	}
	subset_search(&x, (int)n - 1, 0, 0);
	/* Another set about as likely: the log cannot tell which. */
	*tie = x.found2 && x.second > x.best - TIE_SCORE;
	if (x.found)
		*set = x.set;
	for (i = 0; i < nc; i++) {
		const struct ptask *t = c[i];
		double sc;

		if ((int64_t)t->remaining <= r + tol)
			continue;
		sc = recency(t, ts) + log(PARTIAL);
		if (!foundpart || sc >= bestpart) {
			foundpart = 1;
			bestpart = sc;
			*part = i;
		}
	}
	if (x.found && (!foundpart || x.best >= bestpart))
		return 1;
	return foundpart ? 2 : 0;
}

/*
 * Whether waiting task t may have been gone at the device sample at ts:
 * its end record came at ts or before, or its last listing came before
 * ts (a task listed at or after ts was alive then).
 */
int
eng_gone_by(const struct ptask *t, uint64_t ts)
{
	return t->end <= ts || t->last < ts;
}

/* Whether t may have given memory back at ts: gone, and started by then. */
static int
may_give(const struct gpu *g, const struct ptask *t, uint64_t ts)
{
	return eng_gone_by(t, ts) && t->start <= eng_plus(ts, eng_same_poll(g));
}

/*
 * The waiting tasks that may have given memory back at ts (may_give).
 * Return how many, in *c (in order of ends).
 */
static size_t
candidates(struct gpu *g, uint64_t ts, struct ptask ***c)
{
	size_t i, n = 0;

	*c = NULL;
	for (i = 0; i < g->nwait; i++) {
		struct ptask *t = g->wait[i];

		if (may_give(g, t, ts)) {
			*c = egrow(*c, n, sizeof(**c));
			(*c)[n++] = t;
		}
	}
	return n;
}

/* Whether one of the candidates c[0, n) holds r MiB (within tol). */
static int
fits_one(struct ptask **c, size_t n, int64_t r, int64_t tol)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (llabs((int64_t)c[i]->remaining - r) <= tol)
			return 1;
	return 0;
}

/* r MiB came back at ts (judged there): who gave it back. */
void
eng_give_back(struct engine *e, struct gpu *g, int64_t r, uint64_t ts)
{
	int64_t tol = e->cfg->tolerance;
	struct ptask **c;
	size_t nc = candidates(g, ts, &c), i, off = 0, part = 0;
	uint32_t m = 0;
	int tie = 0;

	if (nc == 0) {
		free(c);
		return;
	}
	if (g->unowned > tol && llabs(r - g->unowned) <= tol &&
	    !fits_one(c, nc, r, tol)) {
		/* That memory left, not theirs: the level is lower now. */
		g->base -= r;
		g->unowned = 0;
		e->st.unowned_drops++;
		free(c);
		return;
	}
	switch (explain_drop(c, nc, r, tol, ts, &m, &off, &part, &tie)) {
	case 1:
		/*
		 * Another set fitted as well: the ones left waiting may be
		 * the ones that gave back, so they are noted too (a leak
		 * among them is not known to be theirs).
		 */
		for (i = off; tie && i < nc; i++)
			c[i]->notes |= NOTE_AMBIGUOUS;
		for (i = nc - off; i > 0; i--)
			if (m & (1U << (i - 1))) {
				eng_release_waiting(e, g, c[off + i - 1], ts,
				    tie ? NOTE_AMBIGUOUS : 0);
				c[off + i - 1] = NULL;
			}
		break;
	case 2:
		c[part]->remaining -= (uint32_t)r;
		break;
	default:
		/* More than any task holds and no set matches: spread it,
		 * the most recently ended first. */
		for (i = nc; i > 0 && r > 0; i--) {
			struct ptask *t = c[i - 1];
			int64_t take = r < t->remaining ? r : t->remaining;

			t->remaining -= (uint32_t)take;
			r -= take;
			if (t->remaining <= tol) {
				eng_release_waiting(e, g, t, ts, NOTE_AMBIGUOUS);
				c[i - 1] = NULL;
			}
		}
		break;
	}
	/*
	 * What is left of the others was still out at ts, unless another
	 * set fitted as well: then they may be the ones that gave back.
	 */
	for (i = 0; i < nc; i++)
		if (c[i] != NULL && c[i]->lastnot < ts && !c[i]->dipped &&
		    !(tie && i >= off))
			c[i]->lastnot = ts;
	free(c);
	eng_wait_emptied(g);
}

/* The memory of the tasks that may have given it back at ts. */
int64_t
eng_pending_at(const struct gpu *g, uint64_t ts)
{
	int64_t pending = 0;
	size_t i;

	for (i = 0; i < g->nwait; i++) {
		const struct ptask *t = g->wait[i];

		if (may_give(g, t, ts))
			pending += t->remaining;
	}
	return pending;
}

/* What has come back at a judged sample: pending minus what is out. */
static int64_t
returned(const struct gpu *g, uint64_t ts)
{
	return eng_pending_at(g, ts) - (g->unattr - g->base);
}

/*
 * A judged device sample with tasks waiting: has memory come back?  A
 * drop counts once the next judged sample shows it too (a one-sample dip
 * gives nothing back), and then from the sample where it was first seen.
 */
void
eng_judge(struct engine *e, struct gpu *g, uint64_t ts)
{
	int64_t tol = e->cfg->tolerance, r = returned(g, ts);
	size_t i;

	if (g->tent) {
		g->tent = 0;
		if (r >= g->tent_r - tol) {
			eng_give_back(e, g, g->tent_r, g->tent_ts);
			if (g->nwait == 0)
				return;
			r = returned(g, ts);
		} else {
			/*
			 * A dip: the memory out again may be another's that
			 * came meanwhile, so those that may have given back
			 * there may have: their bounds keep that sample.
			 */
			e->st.dips++;
			for (i = 0; i < g->nwait; i++)
				if (may_give(g, g->wait[i], g->tent_ts) &&
				    (int64_t)g->wait[i]->remaining <=
				    g->tent_r + tol) {
					g->wait[i]->dipped = 1;
					g->wait[i]->notes |= NOTE_AMBIGUOUS;
				}
		}
	}
	if (r > tol) {
		g->tent = 1;
		g->tent_ts = ts;
		g->tent_r = r;
		return;
	}
	/*
	 * Nothing came back, as far as the tolerance tells: every task that
	 * could have was out at ts, but one that holds no more than the
	 * tolerance is back within it by definition.  Its memory, back or
	 * not, is part of the level from now (what has come back is the
	 * same either way: many such tasks must not add up to a phantom).
	 */
	for (i = g->nwait; i > 0; i--) {
		struct ptask *t = g->wait[i - 1];

		if (!eng_gone_by(t, ts))
			continue;
		if (t->remaining <= tol) {
			g->base += t->remaining;
			eng_release_waiting(e, g, t, ts, 0);
		} else if (t->lastnot < ts && !t->dipped)
			t->lastnot = ts;
	}
	eng_wait_emptied(g);
}
