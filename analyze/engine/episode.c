/* SPDX-License-Identifier: ISC */
/* episode.c: memory episodes found from the usage curve (episode.h). */
#include <stdlib.h>
#include <string.h>

#include "episode.h"
#include "util.h"

/* An episode still open: memory risen and not back. */
struct ep {
	uint64_t lo;		/* the sample before its rise */
	uint64_t start;		/* its first sample above */
	uint64_t seen;		/* the latest sample that showed it */
	int64_t held, peak;
	uint64_t rose;		/* its latest rise */
	unsigned notes;
};

struct episodes {
	int have;		/* base is known */
	int started;		/* a sample was seen */
	int64_t tol;		/* the tolerance of the latest sample */
	uint64_t first, prev;	/* the first and the latest sample's time */
	int64_t base;		/* the idle level */
	int any;		/* an episode opened or was found before */
	struct ep open[EPISODE_OPEN];
	size_t nopen;
	int tent;		/* a drop seen once, awaiting the next sample */
	uint64_t tent_ts, tent_before;
	int64_t tent_u;
	struct task *done;
	size_t ndone;
	uint64_t merged;
};

struct episodes *
episodes_new(int has_idle, uint32_t idle)
{
	struct episodes *ep = ecalloc(1, sizeof(*ep));

	if (has_idle) {
		ep->have = 1;
		ep->base = idle;
	}
	return ep;
}

/* The level with every open episode's memory out. */
static int64_t
level(const struct episodes *ep)
{
	int64_t l = ep->base;
	size_t i;

	for (i = 0; i < ep->nopen; i++)
		l += ep->open[i].held;
	return l;
}

static void
done_add(struct episodes *ep, const struct task *t)
{
	if (ep->ndone == EPISODE_MAX) {
		ep->merged++;
		return;
	}
	ep->done = egrow(ep->done, ep->ndone, sizeof(*ep->done));
	ep->done[ep->ndone++] = *t;
}

static void
task_of(struct task *t, const struct ep *o, enum task_status status)
{
	memset(t, 0, sizeof(*t));
	t->name = EPISODE_NAME;
	t->start = o->start;
	t->end = o->seen;
	t->peak = (uint32_t)(o->peak > 0 ? o->peak : 0);
	t->held = (uint32_t)(o->held > 0 ? o->held : 0);
	t->status = status;
	t->notes = o->notes | NOTE_DEVONLY;
	t->declared = 1;
	t->has_leaked = 1;
	if (status == TASK_LEAKED)
		t->leaked = t->held;
}

/* Open episode i came back at ts. */
static void
release(struct episodes *ep, size_t i, uint64_t ts, unsigned notes)
{
	struct task t;

	task_of(&t, &ep->open[i], TASK_RELEASED);
	t.notes |= notes;
	t.release = ts;
	t.delay = ts > t.end ? ts - t.end : 0;
	t.delay_lo = 0;
	t.delay_hi = ts - ep->open[i].lo;
	done_add(ep, &t);
	memmove(&ep->open[i], &ep->open[i + 1],
	    (ep->nopen - i - 1) * sizeof(ep->open[0]));
	ep->nopen--;
}

/* A drop to u at ts (the sample before it: before), now confirmed. */
static void
drop(struct episodes *ep, uint64_t ts, uint64_t before, int64_t u,
    int64_t tol, unsigned notes)
{
	int64_t d = level(ep) - u;
	size_t i, match = 0, nmatch = 0;

	if (ep->nopen == 0) {
		if (!ep->any) {
			/* Memory out since before the log's first sample. */
			struct ep o = {ep->first, ep->first, before,
			    ep->base - u, ep->base - u, ep->first, NOTE_GAP};

			ep->open[ep->nopen++] = o;
			release(ep, 0, ts, notes);
		}
		ep->any = 1;
		ep->base = u;
		return;
	}
	for (i = 0; i < ep->nopen; i++)
		if (llabs(ep->open[i].held - d) <= tol) {
			match = i;
			nmatch++;
		}
	if (nmatch > 0) {
		if (nmatch > 1)
			for (i = 0; i < ep->nopen; i++)
				if (llabs(ep->open[i].held - d) <= tol)
					ep->open[i].notes |= NOTE_AMBIGUOUS;
		release(ep, match, ts, notes);
		return;
	}
	if (u <= ep->base + tol) {
		while (ep->nopen > 0)
			release(ep, ep->nopen - 1, ts, notes);
		if (u < ep->base)
			ep->base = u;
		return;
	}
	while (ep->nopen > 0 && ep->open[ep->nopen - 1].held <= d + tol) {
		d -= ep->open[ep->nopen - 1].held;
		release(ep, ep->nopen - 1, ts, notes);
	}
	if (ep->nopen > 0 && d > 0)
		ep->open[ep->nopen - 1].held -= d;
}

void
episodes_sample(struct episodes *ep, uint64_t ts, int64_t u, int64_t tol)
{
	int64_t cur;
	size_t i;

	ep->tol = tol;
	if (!ep->started) {
		if (!ep->have)
			ep->base = u;
		ep->have = 1;
		ep->started = 1;
		ep->first = ts;
		ep->prev = ts;
		if (u <= ep->base + tol)
			return;
		/* Above the configured idle level from the start. */
		ep->open[0] = (struct ep){ts, ts, ts, u - ep->base,
		    u - ep->base, ts, NOTE_GAP};
		ep->nopen = 1;
		ep->any = 1;
		return;
	}
	if (ep->tent) {
		ep->tent = 0;
		if (u <= ep->tent_u + tol)
			drop(ep, ep->tent_ts, ep->tent_before, ep->tent_u,
			    tol, 0);
	}
	cur = level(ep);
	if (u > cur + tol) {
		struct ep *top = ep->nopen > 0 ? &ep->open[ep->nopen - 1] :
		    NULL;

		if (top != NULL && (ts - top->rose <= EPISODE_RAMP ||
		    ep->nopen == EPISODE_OPEN)) {
			if (ts - top->rose > EPISODE_RAMP)
				ep->merged++;
			top->held += u - cur;
			top->rose = ts;
		} else {
			ep->open[ep->nopen++] = (struct ep){ep->prev, ts, ts,
			    u - cur, u - cur, ts, 0};
			ep->any = 1;
		}
	} else if (u < cur - tol) {
		ep->tent = 1;
		ep->tent_ts = ts;
		ep->tent_before = ep->prev;
		ep->tent_u = u;
		ep->prev = ts;
		return;
	}
	for (i = 0; i < ep->nopen; i++) {
		ep->open[i].seen = ts;
		if (ep->open[i].held > ep->open[i].peak)
			ep->open[i].peak = ep->open[i].held;
	}
	ep->prev = ts;
}

uint64_t
episodes_finish(struct episodes *ep, void (*fn)(void *ctx, struct task *t),
    void *ctx)
{
	size_t i;

	if (ep->tent) {
		/* A drop in the last sample: nothing after it confirms it. */
		ep->tent = 0;
		drop(ep, ep->tent_ts, ep->tent_before, ep->tent_u, ep->tol,
		    NOTE_LASTSAMPLE);
	}
	for (i = 0; i < ep->nopen; i++) {
		struct task t;

		task_of(&t, &ep->open[i], TASK_LEAKED);
		done_add(ep, &t);
	}
	ep->nopen = 0;
	for (i = 0; i < ep->ndone; i++)
		fn(ctx, &ep->done[i]);
	return ep->merged;
}

void
episodes_free(struct episodes *ep)
{
	if (ep == NULL)
		return;
	free(ep->done);
	free(ep);
}
