/* SPDX-License-Identifier: ISC */
/*
 * stream.c: the stream of many inputs: opened, read in time order (merged
 * by merge.c, its inputs opened by inputs.c), processes that vanish ended,
 * duplicates skipped (dupes.c), filtered, closed.
 */
#include <stdlib.h>
#include <string.h>

#include "gtime.h"
#include "input.h"
#include "rotate.h"
#include "runs.h"
#include "stream.h"
#include "streamstate.h"
#include "workers.h"

#define DELAY_CAP 65536		/* records held back at most */
#define DEVRING 64		/* recent device sample times per GPU */
#define LIVE_CAP 65536		/* processes tracked at most */
#define DEV_CAP 65536		/* GPUs whose device sample times are kept */

/* A process listed by a snapshot source, until it stops being listed. */
struct live {
	char *key;		/* its key in struct resolver's map */
	size_t klen;
	size_t chan;		/* index into resolver.ch */
	size_t slot;		/* index in its channel's list */
	uint64_t first;		/* first poll that listed it */
	uint64_t seen;		/* last poll that listed it */
	uint32_t gpu, pid;
	char *host, *name;
};

/*
 * One snapshot listing: one kind of listing of one input.  Its interval
 * is the smallest gap between two polls that printed; a poll that finds
 * no process prints nothing (compute-apps), so in a log of short jobs,
 * each listed once, every gap may span polls.  A process listed at two
 * polls in a row (steady) shows the gap is the loop's; until then an end
 * is placed on the interval of the GPU's device samples when shorter
 * (gpumem record's two loops share one, as a user's two loops with one -l
 * do), but silence is judged on the channel's own (check_gap): a loop
 * slower than the device's does not end what it lists at its next poll.
 */
struct chan {
	unsigned src, origin;
	int open;		/* a poll at cur is being read */
	int unread;		/* it held rows that could not be read */
	uint64_t cur;		/* time of the latest poll */
	uint64_t prev;		/* time of the poll before, 0 none */
	int have;		/* any poll seen */
	int steady;		/* a process was listed at two polls in a row */
	uint64_t interval;	/* smallest gap between polls, 0 unknown */
	struct live **live;
	size_t nlive, cap;
};

struct devtimes {
	uint64_t t[DEVRING];
	size_t n, next;
};

struct resolver {
	struct window delay;
	struct hmap live;	/* key -> struct live */
	struct chan *ch;
	size_t nch;
	struct hmap dev;	/* "host\0gpu" -> struct devtimes */
	uint64_t now;
	uint64_t added;
	uint64_t placed;	/* of them, at a time no input had */
	int live_input;		/* hold back one poll interval, not three */
	int cap_said;
	struct sbuf key;
};

/* --- ending vanished processes --- */

static void
live_key(struct sbuf *k, unsigned src, unsigned origin, const char *host,
    uint32_t gpu, uint32_t pid)
{
	sbuf_reset(k);
	sbuf_add(k, &src, sizeof(src));
	sbuf_add(k, &origin, sizeof(origin));
	sbuf_add(k, &gpu, sizeof(gpu));
	sbuf_add(k, &pid, sizeof(pid));
	sbuf_adds(k, host);
}

static struct chan *
chan_of(struct resolver *rs, unsigned src, unsigned origin)
{
	size_t i;

	for (i = 0; i < rs->nch; i++)
		if (rs->ch[i].src == src && rs->ch[i].origin == origin)
			return &rs->ch[i];
	rs->ch = ereallocarray(rs->ch, rs->nch + 1, sizeof(*rs->ch));
	memset(&rs->ch[rs->nch], 0, sizeof(*rs->ch));
	rs->ch[rs->nch].src = src;
	rs->ch[rs->nch].origin = origin;
	return &rs->ch[rs->nch++];
}

static struct devtimes *
devtimes_of(struct resolver *rs, const char *host, uint32_t gpu, int add)
{
	void **v;

	gpu_key(&rs->key, host, gpu);
	if (!add) {
		v = hmap_get(&rs->dev, rs->key.buf, rs->key.len);
		return v != NULL ? *v : NULL;
	}
	if (rs->dev.n >= DEV_CAP) {
		/* Beyond: ends are placed without the GPU's samples. */
		v = hmap_get(&rs->dev, rs->key.buf, rs->key.len);
		return v != NULL ? *v : NULL;
	}
	v = hmap_put(&rs->dev, rs->key.buf, rs->key.len, NULL);
	if (*v == NULL)
		*v = ecalloc(1, sizeof(struct devtimes));
	return *v;
}

/* The first device sample of the GPU in [lo, hi), or 0 when none. */
static uint64_t
first_sample(struct resolver *rs, const char *host, uint32_t gpu,
    uint64_t lo, uint64_t hi)
{
	struct devtimes *d = devtimes_of(rs, host, gpu, 0);
	uint64_t best = 0;
	size_t i;

	if (d == NULL)
		return 0;
	for (i = 0; i < d->n; i++)
		if (d->t[i] >= lo && d->t[i] < hi && (best == 0 ||
		    d->t[i] < best))
			best = d->t[i];
	return best;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The GPU's device interval: the median gap between its recent samples
 * (a lost sample or two, or a second file of the same GPU, move it
 * little), 0 while fewer than three are known.
 */
static uint64_t
dev_iv(const struct devtimes *d)
{
	uint64_t t[DEVRING], gap[DEVRING];
	size_t i, n = 0;

	if (d == NULL || d->n < 3)
		return 0;
	memcpy(t, d->t, d->n * sizeof(*t));
	qsort(t, d->n, sizeof(*t), u64_cmp);
	for (i = 1; i < d->n; i++)
		if (t[i] > t[i - 1])
			gap[n++] = t[i] - t[i - 1];
	if (n == 0)
		return 0;
	qsort(gap, n, sizeof(*gap), u64_cmp);
	return gap[n / 2];
}

/*
 * The interval of c's loop for its process l: its own once steady (see
 * struct chan), else the shorter of it and the device interval of l's GPU.
 */
static uint64_t
live_iv(struct resolver *rs, const struct chan *c, const struct live *l)
{
	uint64_t iv = c->interval, div;

	if (c->steady)
		return iv;
	div = dev_iv(devtimes_of(rs, l->host, l->gpu, 0));
	return div != 0 && (iv == 0 || div < iv) ? div : iv;
}

static void
live_free(void *p)
{
	struct live *l = p;

	free(l->key);
	free(l->host);
	free(l->name);
	free(l);
}

/*
 * Emit the memory_used = 0 record of l at time t and forget l; placed: t
 * is a time no input had (the end was placed between polls).
 */
static void
end_live(struct resolver *rs, struct live *l, uint64_t t, int placed)
{
	struct chan *c = &rs->ch[l->chan];
	struct rec r;

	rec_init(&r);
	r.ts = t;
	r.host = l->host;
	r.gpu = l->gpu;
	r.pid = l->pid;
	r.used = 0;
	r.has = REC_USED;
	r.name = l->name;
	r.src = c->src | SRC_ADDED | (placed ? SRC_PLACED : 0);
	if (window_push(&rs->delay, &r) < 0) {
		/* Held back too little (the cap was hit): as early as we can. */
		r.ts = rs->delay.last_out;
		r.src &= ~SRC_PLACED;
		window_push(&rs->delay, &r);
	}
	rs->added++;
	if (r.src & SRC_PLACED)
		rs->placed++;
	c->live[l->slot] = c->live[--c->nlive];
	c->live[l->slot]->slot = l->slot;
	hmap_del(&rs->live, l->key, l->klen);
	live_free(l);
}

/*
 * Whether the polls of c between t1 and next were lost rather than empty:
 * a process listed at both lived through them, and a poll that lists
 * anything prints it.
 */
static int
polls_lost(const struct chan *c, uint64_t t1, uint64_t next)
{
	size_t i;

	for (i = 0; i < c->nlive; i++)
		if (c->live[i]->first <= t1 && c->live[i]->seen == next)
			return 1;
	return 0;
}

/*
 * The time a process last listed at t1 went missing, when the channel's
 * next listing (at next, or none) did not list it.  *placed is set when
 * that time is none of a poll or a device sample (placed between them).
 */
static uint64_t
end_time(struct resolver *rs, struct chan *c, struct live *l, uint64_t next,
    uint64_t now, uint64_t iv, int *placed)
{
	uint64_t t1 = l->seen, q, late;

	*placed = 0;
	if (next != 0 && (iv == 0 || next - t1 <= iv + iv / 2))
		return next;	/* the very next poll missed it */
	if (next != 0 && polls_lost(c, t1, next))
		return next;
	/*
	 * Polls in between printed nothing: the one after t1, about one
	 * interval later, missed it.  When one loop took the device samples
	 * and the process lists (the device has a sample at t1 itself), its
	 * time is the first device sample from half an interval on.  When
	 * the device has a loop of its own, out of step, the process may
	 * have lived until the next poll of its loop: never before the time
	 * that poll can have had, jitter and all (t1 + 1.25 iv; iv is the
	 * smallest gap the loop has shown).
	 */
	q = first_sample(rs, l->host, l->gpu, t1 + iv / 2,
	    next != 0 ? next : now + 1);
	late = first_sample(rs, l->host, l->gpu, t1, t1 + 1) != 0 ? 0 :
	    t1 + iv + iv / 4;
	if (q != 0 && (q > late || (next != 0 && next < late)))
		return q;
	if (q == 0 && next != 0)
		return next;
	late = q != 0 || late > t1 ? late : t1 + iv;
	/* A device sample may have that time all the same. */
	*placed = first_sample(rs, l->host, l->gpu, late, late + 1) == 0;
	return late;
}

static int
live_order(const void *a, const void *b)
{
	const struct live *x = *(struct live *const *)a;
	const struct live *y = *(struct live *const *)b;
	int c = gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

	if (c != 0)
		return c;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * End the processes of c that were last listed before the poll at next (0:
 * all of them, no poll came), in (host, gpu, pid) order so that the added
 * records come out in the same order every time.
 */
static void
end_unlisted(struct resolver *rs, struct chan *c, uint64_t next)
{
	struct live **v = NULL;
	size_t n = 0, i;

	for (i = 0; i < c->nlive; i++)
		if (next == 0 || c->live[i]->seen < next) {
			v = egrow(v, n, sizeof(*v));
			v[n++] = c->live[i];
		}
	if (n > 1)
		qsort(v, n, sizeof(*v), live_order);
	for (i = 0; i < n; i++) {
		int placed;
		uint64_t t = end_time(rs, c, v[i], next, rs->now,
		    live_iv(rs, c, v[i]), &placed);

		end_live(rs, v[i], t, placed);
	}
	free(v);
}

/*
 * The poll at c->cur is complete: end what it did not list.  When it held
 * rows that could not be read, a process it did not list may have been
 * one of them: it ends nothing, and every process is taken as seen there.
 */
static void
close_poll(struct resolver *rs, struct chan *c)
{
	size_t i;

	c->open = 0;
	if (c->unread) {
		c->unread = 0;
		for (i = 0; i < c->nlive; i++)
			if (c->live[i]->seen < c->cur)
				c->live[i]->seen = c->cur;
		return;
	}
	end_unlisted(rs, c, c->cur);
}

/*
 * No poll for a long time: the polls in between found nothing.  factor2
 * is in halves of an interval (7 while reading a file, 3 at the end): two
 * polls lost in a row (a poll three intervals on, give or take the loop's
 * jitter) still come in before, and end only the processes they miss.
 * Live, records are held one interval only: 5, as soon as it can be
 * told.
 */
static void
check_gap(struct resolver *rs, struct chan *c, uint64_t factor2)
{
	if (c->open || c->nlive == 0 || c->interval == 0)
		return;
	if (rs->now <= c->cur + c->interval * factor2 / 2)
		return;
	end_unlisted(rs, c, 0);
}

static void
listed(struct resolver *rs, const struct rec *r)
{
	struct chan *c = chan_of(rs, r->src, r->origin);
	struct live *l;
	void **v;
	int isnew;

	if (!c->open || r->ts != c->cur) {
		if (c->have && r->ts > c->cur &&
		    (c->interval == 0 || r->ts - c->cur < c->interval))
			c->interval = r->ts - c->cur;
		c->prev = c->have && r->ts > c->cur ? c->cur : c->prev;
		c->cur = r->ts;
		c->have = 1;
		c->open = 1;
	}
	if (rec_is_mark(r)) {
		if (r->unread)
			c->unread = 1;
		if (r->restart) {
			/* A new loop: its interval and steadiness anew. */
			c->interval = 0;
			c->steady = 0;
		}
		return;		/* the poll is open: that is all it says */
	}
	live_key(&rs->key, r->src, r->origin, r->host, r->gpu, r->pid);
	v = hmap_get(&rs->live, rs->key.buf, rs->key.len);
	if (v != NULL) {
		l = *v;
		if (l->seen == c->prev && r->ts > l->seen)
			c->steady = 1;
		l->seen = r->ts;
		if (strcmp(l->name, r->name) != 0) {
			free(l->name);
			l->name = estrdup(r->name);
		}
		return;
	}
	if (rs->live.n >= LIVE_CAP) {
		if (!rs->cap_said) {
			rs->cap_said = 1;
			msg("more than %d processes listed at once: the ones "
			    "beyond are not tracked for their end", LIVE_CAP);
		}
		return;
	}
	v = hmap_put(&rs->live, rs->key.buf, rs->key.len, &isnew);
	l = ecalloc(1, sizeof(*l));
	l->key = estrndup(rs->key.buf, rs->key.len);
	l->klen = rs->key.len;
	l->chan = (size_t)(c - rs->ch);
	l->first = l->seen = r->ts;
	l->gpu = r->gpu;
	l->pid = r->pid;
	l->host = estrdup(r->host);
	l->name = estrdup(r->name);
	*v = l;
	if (c->nlive == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->live = ereallocarray(c->live, c->cap, sizeof(*c->live));
	}
	l->slot = c->nlive;
	c->live[c->nlive++] = l;
}

/*
 * How far back an added record may have to go: four poll intervals (a
 * gap is judged after three and a half).
 * Live, records go on after one: a process missing from the very next
 * poll still ends exactly there, but one found gone only after polls that
 * printed nothing ends at the earliest time not yet passed on, up to an
 * interval later than read from a file.
 */
static uint64_t
horizon(const struct resolver *rs)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < rs->nch; i++)
		if (rs->ch[i].interval > h)
			h = rs->ch[i].interval;
	return h == 0 ? UINT64_MAX : (rs->live_input ? 1 : 4) * h;
}

/* Take one record in (or NULL at the end of all input). */
static void
resolver_put(struct resolver *rs, const struct rec *r)
{
	size_t i;

	if (r == NULL || r->ts > rs->now) {
		/*
		 * Every record at rs->now is in: polls before it are
		 * complete, and gaps up to it can be judged.
		 */
		for (i = 0; i < rs->nch; i++) {
			struct chan *c = &rs->ch[i];

			if (c->open)
				close_poll(rs, c);
			check_gap(rs, c, r == NULL ? 3 :
			    rs->live_input ? 5 : 7);
		}
		if (r == NULL)
			return;
		rs->now = r->ts;
	}
	if (r->origin != REC_PLAIN)
		listed(rs, r);
	if (rec_is_mark(r))
		return;		/* bookkeeping only: never written */
	if (r->pid == 0) {
		struct devtimes *d = devtimes_of(rs, r->host, r->gpu, 1);

		if (d != NULL) {
			d->t[d->next] = r->ts;
			d->next = (d->next + 1) % DEVRING;
			if (d->n < DEVRING)
				d->n++;
		}
	}
	window_push(&rs->delay, r);
}

/* A record that is ripe (or any, at the end), or NULL. */
static const struct rec *
resolver_get(struct resolver *rs, int end)
{
	const struct rec *r = window_peek(&rs->delay);
	uint64_t h;

	if (r == NULL)
		return NULL;
	if (!end && rs->delay.count <= DELAY_CAP) {
		h = horizon(rs);
		if (h == UINT64_MAX || rs->now - r->ts <= h)
			return NULL;
	}
	window_pop(&rs->delay);
	return r;
}

static void
devtimes_free(void *p)
{
	free(p);
}

static void
resolver_free(struct resolver *rs)
{
	size_t i;

	if (rs == NULL)
		return;
	window_release(&rs->delay);
	hmap_release(&rs->live, live_free);
	hmap_release(&rs->dev, devtimes_free);
	for (i = 0; i < rs->nch; i++)
		free(rs->ch[i].live);
	free(rs->ch);
	sbuf_release(&rs->key);
	free(rs);
}

/* --- the stream --- */

struct stream *
stream_open(char *const *paths, size_t n, const struct readopts *opt)
{
	static char dash[] = "-";
	static char *const stdin_only[] = {dash};
	struct stream *st = ecalloc(1, sizeof(*st));
	size_t i;

	stream_raise_fd_limit();
	st->maxopen = runs_max_open(opt);
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	st->opt = opt;
	st->gpus = gpumap_new();
	st->nonamehash = hmap_hash("", 0);
	st->t0 = gtime_clock(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		if (stream_is_dir(paths[i]))
			stream_add_directory(st, paths[i]);
		else
			stream_add_source(st, paths[i]);
	}
	if (!opt->no_join)
		st->n = rotate_join(st->src, st->n, &st->rot);
	return st;
}

static int
wanted(const struct stream *st, const struct rec *r)
{
	const struct readopts *o = st->opt;

	if (r->ts < o->since || r->ts > o->until)
		return 0;
	if (o->gpus.n > 0 && !num_idset_has(&o->gpus, r->gpu))
		return 0;
	if (o->pids.n > 0 && r->pid != 0 && !num_idset_has(&o->pids, r->pid))
		return 0;
	return 1;
}

/* The next record before filtering. */
static const struct rec *
next_unfiltered(struct stream *st)
{
	const struct rec *r;
	struct rec in;

	if (st->res == NULL) {
		if (!stream_merge_next(st, &st->cur))
			return NULL;
		if (st->cur.origin == REC_PLAIN)
			return &st->cur;
		/* The first snapshot record: from now on, hold back. */
		st->res = ecalloc(1, sizeof(*st->res));
		st->res->live_input = st->live;
		window_init(&st->res->delay, SIZE_MAX);
		resolver_put(st->res, &st->cur);
	}
	for (;;) {
		r = resolver_get(st->res, st->res_done);
		if (r != NULL) {
			st->cur = *r;
			return &st->cur;
		}
		if (st->res_done)
			return NULL;
		if (stream_merge_next(st, &in))
			resolver_put(st->res, &in);
		else {
			resolver_put(st->res, NULL);
			st->res_done = 1;
		}
	}
}

/* A duplicate is skipped: counted as such by its input, not as a record. */
static void
skip_duplicate(struct stream *st, const struct rec *r)
{
	struct source *s;

	if (r->src & SRC_ADDED) {
		st->res->added--;
		if (r->src & SRC_PLACED)
			st->res->placed--;
		return;
	}
	if (r->src >= st->n)
		BUG("a record of input %u of %zu", r->src, st->n);
	s = st->src[r->src];
	st->dropped[r->src]++;
	source_count_skip(s, "duplicate samples");
}

/* The progress line: bytes and records read, the rate, inputs done. */
static void
progress(struct stream *st)
{
	uint64_t bytes = 0, now = gtime_clock(CLOCK_MONOTONIC);
	double mib, secs;
	size_t i, done = 0;

	for (i = 0; i < st->n; i++) {
		if (st->src[i]->in != NULL)
			bytes += input_raw_bytes(st->src[i]->in);
		done += st->src[i]->eof != 0;
	}
	mib = (double)bytes / 1048576.0;
	secs = (double)(now - st->t0) / 1e9;
	msg_progress_show("%.1f MiB, %llu records, %.1f MiB/s, %zu of %zu "
	    "inputs done", mib, (unsigned long long)st->ticks,
	    secs > 0 ? mib / secs : 0.0, done, st->n);
}

const struct rec *
stream_next(struct stream *st)
{
	const struct rec *r;
	struct lasthost *h;

	/* The clock is asked every 1024 records only: this is the hot path. */
	if ((++st->ticks & 1023) == 1 && msg_progress_due())
		progress(st);
	while ((r = next_unfiltered(st)) != NULL) {
		/* Both checks need it: one string compare a record. */
		h = stream_last_host(st, r->src & ~SRC_FLAGS, r->host);
		if (stream_duplicate(st, r, h))
			skip_duplicate(st, r);
		else if (wanted(st, r)) {
			stream_overlap_check(st, r, h);
			st->count++;
			return r;
		}
	}
	return NULL;
}

uint64_t
stream_count(const struct stream *st)
{
	return st->count;
}

int
stream_collided(const struct stream *st)
{
	return st->overlap_said;
}

uint64_t
stream_added(const struct stream *st)
{
	return st->res != NULL ? st->res->added : 0;
}

int
stream_close(struct stream *st)
{
	int status = st->status, procs = 0;
	size_t i;

	workers_stop(st->w);
	msg_progress_clear();
	for (i = 0; i < st->n; i++)
		if (st->src[i]->fmt != NULL && !st->src[i]->device_only)
			procs = 1;
	for (i = 0; i < st->n; i++) {
		struct source *s = st->src[i];

		s->nrec -= st->dropped[i];
		source_summary(s, procs);
		if (s->failed)
			status = EXIT_TROUBLE;
		/*
		 * Data, and not one record read from it: what the input
		 * holds is lost, and a CI job must not pass on it.
		 */
		if (!s->failed && s->nrec == 0 && s->nbad + s->nlate > 0) {
			msg("%s: not one record could be read from it",
			    s->name);
			status = EXIT_TROUBLE;
		}
		source_free(s);
	}
	if (st->res != NULL && st->res->placed > 0)
		note("added %llu memory_used = 0 records for processes no "
		    "longer listed, %llu of them at times no input had "
		    "(after polls that printed nothing)",
		    (unsigned long long)st->res->added,
		    (unsigned long long)st->res->placed);
	else if (st->res != NULL && st->res->added > 0)
		note("added %llu memory_used = 0 records for processes no "
		    "longer listed", (unsigned long long)st->res->added);
	resolver_free(st->res);
	runs_free(st->runs);
	rotate_free(st->rot);
	gpumap_free(st->gpus);
	hmap_release(&st->keycache, NULL);
	sbuf_release(&st->kc);
	hmap_release(&st->seen, free);
	sbuf_release(&st->sk);
	free(st->dup);
	if (st->last != NULL)
		for (i = 0; i < st->n; i++)
			sbuf_release(&st->last[i].host);
	free(st->last);
	free(st->src);
	free(st->heap.v);
	free(st->dropped);
	free(st);
	return status;
}
