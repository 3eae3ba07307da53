/* SPDX-License-Identifier: ISC */
/* stream.c: merging inputs, ending vanished processes, filtering. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "gpumap.h"
#include "gtime.h"
#include "heap.h"
#include "hmap.h"
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

#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * The inputs that gave device samples of one GPU (host, index), with the
 * times they span, to tell two recordings of "GPU 0" taken at the same
 * time (two machines, two jobs) from one recording split into files.
 */
#define SPAN_NSRC 4
struct span {
	unsigned src[SPAN_NSRC];
	uint64_t first[SPAN_NSRC], last[SPAN_NSRC];
	unsigned n;
};

/*
 * What the stream keeps of the host an input gave last: its hash (for the
 * duplicate check) and its GPUs' spans by index (for the overlap check).
 * An input's records come in runs of one host, most often one host from
 * start to end (a node log), so one string compare a record finds both.
 * Kept for the whole stream instead, it missed on every GPU of every host
 * once the merge alternated between inputs: at 200 node logs the lookups
 * it was meant to save were a fifth of the merge thread.
 */
#define LAST_NGPU 64		/* spans kept by GPU index, below this */
struct lasthost {
	struct sbuf host;
	uint64_t hash;
	struct span *span[LAST_NGPU];	/* NULL: look it up */
};

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

/* One snapshot listing: one kind of listing of one input. */
struct chan {
	unsigned src, origin;
	int open;		/* a poll at cur is being read */
	int unread;		/* it held rows that could not be read */
	uint64_t cur;		/* time of the latest poll */
	int have;		/* any poll seen */
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
	int live_input;		/* hold back one poll interval, not three */
	int cap_said;
	struct sbuf key;
};

struct stream {
	struct source **src;
	size_t n;
	struct workers *w;	/* -j: worker threads decode, or NULL */
	size_t maxopen;		/* inputs open at once (runs_max_open) */
	size_t nopen;		/* inputs open now */
	int passes;		/* too many: merge in passes (runs.h) */
	struct runs *runs;	/* then the last merge's lanes */
	uint64_t *dropped;	/* records of each input the stream skipped */
	const struct readopts *opt;
	struct gpumap *gpus;
	struct heap heap;	/* sources with records, by their head */
	int started;
	int status;
	struct resolver *res;
	int res_done;
	int live;		/* an input is read live */
	struct rec cur;
	uint64_t count;
	int said[GPUMAP_FULL + 1];	/* enum gpumap_how, said once each */
	uint64_t gpufull;	/* records skipped: GPUMAP_MAX GPUs known */
	struct hmap keycache;	/* "host\0key" as logged -> index + 1 */
	uint64_t keygen;	/* gpumap_gen() when it was filled */
	struct sbuf kc;
	struct dupslot *dup;	/* DUP_NSLOT, for duplicate samples */
	uint64_t nonamehash;	/* hmap_hash of "", a record without a name */
	struct lasthost *last;	/* each input's last host, or NULL */
	struct hmap seen;	/* "host\0gpu" -> struct span, device rows */
	struct sbuf sk;
	int overlap_said;
	uint64_t ticks;		/* records, for the progress line */
	uint64_t t0;		/* when reading started (progress), ns */
	struct rotation *rot;	/* captures joined into one (rotate.h) */
};


/*
 * The last record of one GPU or process of an input (hashed by input,
 * host, GPU, process and name; a collision only forgets), to tell a
 * duplicate: the same time and values as the one before it.
 */
#define DUP_NSLOT 1024
#define SRC_ADDED (1U << 31)	/* in rec.src: a record the stream added */

struct dupslot {
	uint64_t ts, key;
	uint32_t used, free, total;
	unsigned has;		/* 0: empty */
};

/* --- merging --- */

/*
 * An input's earliest record not taken yet (NULL at its end), taking it,
 * and reading on: from its window, or from the worker threads that read
 * it the same way (workers.h).  In passes, i is a lane of the last merge
 * (runs.h): its records are of several inputs, each with its src.
 */
static const struct rec *
src_head(struct stream *st, size_t i)
{
	if (st->runs != NULL)
		return runs_head(st->runs, i);
	if (st->w != NULL)
		return workers_head(st->w, i);
	return window_peek(&st->src[i]->win);
}

static void
src_pop(struct stream *st, size_t i)
{
	if (st->runs != NULL)
		runs_pop(st->runs, i);
	else if (st->w != NULL)
		workers_pop(st->w, i);
	else
		window_pop(&st->src[i]->win);
}

static void
src_fill(struct stream *st, size_t i)
{
	if (st->runs != NULL)
		runs_fill(st->runs, i);
	else if (st->w != NULL)
		workers_fill(st->w, i);
	else
		source_fill(st->src[i]);
}

/*
 * The merge's order: time, then input; in passes, the record's own input,
 * as a lane holds several.
 */
static uint64_t
head_tie(const struct stream *st, const struct rec *r, size_t i)
{
	return st->runs != NULL ? r->src : i;
}

/* Put input (or lane) i in the heap, if it has a record. */
static void
merge_push(struct stream *st, size_t i)
{
	const struct rec *r = src_head(st, i);

	if (r != NULL)
		heap_push(&st->heap, i, r->ts, head_tie(st, r, i));
}

/* Give r its GPU index; 0 when it has none (the map is full). */
static int
resolve_gpu(struct stream *st, struct rec *r)
{
	struct source *s = st->src[r->src];
	const char *key = r->gpukey;
	enum gpumap_how how;
	void **v;

	/*
	 * The same few keys come on every row: remember their answers (all
	 * of them forgotten when a hostile log has spelt too many).
	 */
	if (st->keycache.n >= 2 * GPUMAP_MAX ||
	    st->keygen != gpumap_gen(st->gpus)) {
		hmap_release(&st->keycache, NULL);
		st->keygen = gpumap_gen(st->gpus);
	}
	sbuf_reset(&st->kc);
	sbuf_adds(&st->kc, r->host);
	sbuf_addc(&st->kc, '\0');
	sbuf_adds(&st->kc, key);
	v = hmap_put(&st->keycache, st->kc.buf, st->kc.len, NULL);
	r->gpukey = NULL;
	if (*v != NULL) {
		r->gpu = (uint32_t)((uintptr_t)*v - 1);
		return 1;
	}
	r->gpu = gpumap_index(st->gpus, r->host, key, &how);
	if (how == GPUMAP_FULL) {
		/* Counted against its input, so that its summary adds up. */
		hmap_del(&st->keycache, st->kc.buf, st->kc.len);
		st->dropped[r->src]++;
		source_count_skip(s, "records of GPUs beyond the "
		    STR(GPUMAP_MAX) " a run keeps");
		if (st->gpufull++ == 0)
			msg("more than %d GPUs named by UUID or bus id: the "
			    "records of the others are skipped", GPUMAP_MAX);
		return 0;
	}
	*v = (void *)((uintptr_t)r->gpu + 1);
	if (how == GPUMAP_LOGGED || st->said[how])
		return 1;
	st->said[how] = 1;
	if (how == GPUMAP_BUSORDER)
		source_warn(s, "the log gives no GPU indexes: GPUs numbered "
		    "in PCI bus order, as nvidia-smi numbers them");
	else if (how == GPUMAP_LOGORDER)
		source_warn(s, "the log gives neither GPU indexes nor bus ids: "
		    "GPUs numbered in the order the log names them");
	else {
		source_warn(s, "no device log of this run names GPU %s: "
		    "GPUs numbered in order of first appearance (give the "
		    "--query-gpu log of the same run to use its indexes)",
		    key);
	}
	return 1;
}

/*
 * Read on where the last record came from, heap[0], and put that input
 * back in its place in the heap (or take it out at its end).
 */
static void
merge_advance(struct stream *st)
{
	size_t i = st->heap.v[0].i;
	const struct rec *r;

	src_fill(st, i);
	if ((r = src_head(st, i)) != NULL)
		heap_next(&st->heap, r->ts, head_tie(st, r, i));
	else
		heap_end(&st->heap);
}

/*
 * The next record of the merged inputs, or 0 at the end.  The input a
 * record came from is read on at the next call, not before the record is
 * handed out: a live input may wait there, and its reader's hook (see
 * input_set_wait_hook) must find the record passed on already.
 */
int
stream_merge_next(struct stream *st, struct rec *out)
{
	size_t i, n = st->n;
	unsigned jobs;

	if (!st->started && st->passes) {
		st->started = 1;
		st->runs = runs_make(st->src, st->n, st->maxopen, st->opt,
		    st->gpus);
		runs_start(st->runs);
		for (i = 0; i < runs_lanes(st->runs); i++)
			merge_push(st, i);
	} else if (!st->started) {
		st->started = 1;
		/*
		 * Worker threads for two inputs or more; not for live ones,
		 * whose records go on as soon as they are read (their reader
		 * may wait in a hook, see above).
		 */
		jobs = st->opt->jobs != 0 ? st->opt->jobs :
		    workers_choose(st->src, n);
		if (jobs > 1 && n > 1 && !st->live)
			st->w = workers_start(st->src, n, jobs, st->gpus);
		for (i = 0; i < n; i++) {
			src_fill(st, i);
			merge_push(st, i);
		}
	} else if (st->heap.n > 0)
		merge_advance(st);
	for (;;) {
		if (st->heap.n == 0)
			return 0;
		i = st->heap.v[0].i;
		*out = *src_head(st, i);
		src_pop(st, i);
		if (st->runs == NULL)
			out->src = (unsigned)i;
		if (out->gpukey == NULL) {
			/* Its logged index may be another GPU's (gpumap.h). */
			out->gpu = gpumap_local(st->gpus, out->src, out->host,
			    out->gpu);
			return 1;
		}
		if (resolve_gpu(st, out))
			return 1;
		merge_advance(st);	/* skipped: read on at once */
	}
}

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

static void
live_free(void *p)
{
	struct live *l = p;

	free(l->key);
	free(l->host);
	free(l->name);
	free(l);
}

/* Emit the memory_used = 0 record of l at time t and forget l. */
static void
end_live(struct resolver *rs, struct live *l, uint64_t t)
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
	r.src = c->src | SRC_ADDED;
	if (window_push(&rs->delay, &r) < 0) {
		/* Held back too little (the cap was hit): as early as we can. */
		r.ts = rs->delay.last_out;
		window_push(&rs->delay, &r);
	}
	rs->added++;
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
 * next listing (at next, or none) did not list it.
 */
static uint64_t
end_time(struct resolver *rs, struct chan *c, struct live *l, uint64_t next,
    uint64_t now)
{
	uint64_t t1 = l->seen, iv = c->interval, q, late;

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
	if (q != 0)
		return q > late || (next != 0 && next < late) ? q : late;
	return next != 0 ? next : late > t1 ? late : t1 + iv;
}

static int
live_order(const void *a, const void *b)
{
	const struct live *x = *(struct live *const *)a;
	const struct live *y = *(struct live *const *)b;
	int c = hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

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
	for (i = 0; i < n; i++)
		end_live(rs, v[i], end_time(rs, c, v[i], next, rs->now));
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
		c->cur = r->ts;
		c->have = 1;
		c->open = 1;
	}
	if (rec_is_mark(r)) {
		if (r->unread)
			c->unread = 1;
		return;		/* the poll is open: that is all it says */
	}
	live_key(&rs->key, r->src, r->origin, r->host, r->gpu, r->pid);
	v = hmap_get(&rs->live, rs->key.buf, rs->key.len);
	if (v != NULL) {
		l = *v;
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

/*
 * Whether a file in a directory given as input is one to read: not hidden,
 * not the metadata gpumem record writes beside its logs.
 */
static int
dir_wanted(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	if (d->d_name[0] == '.')
		return 0;
	if (strcmp(d->d_name, "meta") == 0 || strncmp(d->d_name, "meta.", 5) == 0)
		return 0;
	return !(n > 5 && strcmp(d->d_name + n - 5, ".meta") == 0);
}

/*
 * More inputs than may be open at once (runs.h): from then on each input
 * that can be opened again is closed once its format is known, and read
 * in its pass.
 */
static void
park_inputs(struct stream *st, struct source *s)
{
	size_t i;

	if (st->passes) {
		if (runs_can_park(s))
			source_park(s);
		else
			st->nopen++;
		return;
	}
	if (++st->nopen <= st->maxopen)
		return;
	st->passes = 1;
	for (i = 0; i < st->n; i++)
		if (runs_can_park(st->src[i])) {
			source_park(st->src[i]);
			st->nopen--;
		}
}

void
stream_add_source(struct stream *st, const char *path)
{
	struct source *s;

	st->src = ereallocarray(st->src, st->n + 1, sizeof(*st->src));
	st->heap.v = ereallocarray(st->heap.v, st->n + 1, sizeof(*st->heap.v));
	st->dropped = ereallocarray(st->dropped, st->n + 1,
	    sizeof(*st->dropped));
	s = source_open(path, (unsigned)st->n, st->opt, st->gpus);
	if (s == NULL) {
		st->status = EXIT_TROUBLE;
		return;
	}
	st->dropped[st->n] = 0;
	st->src[st->n++] = s;
	if (s->live)
		st->live = 1;
	park_inputs(st, s);
}

/*
 * Whether two files hold the same data once decompressed (input.h reads
 * a plain file as it is).  A file that cannot be read is not the same.
 */
static int
same_data(const char *a, const char *b)
{
	struct input *fa = input_open(a), *fb = input_open(b);
	char ba[8192], bb[8192];
	ssize_t na, nb;
	int same = fa != NULL && fb != NULL;

	while (same) {
		na = input_read(fa, ba, sizeof(ba));
		nb = input_read(fb, bb, sizeof(bb));
		if (na < 0 || nb < 0 || na != nb || memcmp(ba, bb, (size_t)na))
			same = 0;
		else if (na == 0)
			break;
	}
	input_close(fa);
	input_close(fb);
	return same;
}

/*
 * Entry j of a directory's list is X.gz (.zst, .xz, .bz2) and X is there
 * too: the same log twice after a rotation (logrotate's compress, gzip -k,
 * zstd, which keeps its input)?  Said either way; return 1 when the
 * compressed file holds X's data and is to be left out.
 */
static int
compressed_twin(const char *dir, struct dirent **list, int n, int j)
{
	static const char *const ext[] = { ".gz", ".zst", ".xz", ".bz2" };
	const char *name = list[j]->d_name;
	size_t len = strlen(name), e, x;
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;
	int k, same;

	for (e = 0; e < sizeof(ext) / sizeof(ext[0]); e++) {
		x = strlen(ext[e]);
		if (len > x && strcmp(name + len - x, ext[e]) == 0)
			break;
	}
	if (e == sizeof(ext) / sizeof(ext[0]))
		return 0;
	for (k = 0; k < n; k++)
		if (strlen(list[k]->d_name) == len - x &&
		    strncmp(list[k]->d_name, name, len - x) == 0)
			break;
	if (k == n)
		return 0;
	sbuf_printf(&a, "%s/%s", dir, list[k]->d_name);
	sbuf_printf(&b, "%s/%s", dir, name);
	same = same_data(a.buf, b.buf);
	if (same)
		warnmsg("%s and %s hold the same log: %s read, %s left out",
		    a.buf, b.buf, a.buf, b.buf);
	else
		warnmsg("%s and %s: the same log's name, compressed and not, "
		    "with different data: both read", a.buf, b.buf);
	sbuf_release(&a);
	sbuf_release(&b);
	return same;
}

/*
 * A directory (what gpumem record wrote): its regular files, the device
 * logs first, then the others, each in name order, so that at equal times
 * a device sample comes before the process rows of the same poll, as in a
 * stream that gpumem synth writes.
 */
void
stream_add_directory(struct stream *st, const char *dir)
{
	struct dirent **list;
	struct sbuf path = SBUF_INIT;
	size_t first = st->n, i, k;
	int n, j;

	n = scandir(dir, &list, dir_wanted, alphasort);
	if (n < 0) {
		msg("%s: cannot read directory:", dir);
		st->status = EXIT_TROUBLE;
		return;
	}
	for (j = 0; j < n; j++) {
		struct stat sb;

		sbuf_reset(&path);
		sbuf_printf(&path, "%s/%s", dir, list[j]->d_name);
		if (stat(path.buf, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    !compressed_twin(dir, list, n, j))
			stream_add_source(st, path.buf);
	}
	for (j = 0; j < n; j++)
		free(list[j]);
	free(list);
	sbuf_release(&path);
	if (st->n == first) {
		msg("%s: no logs in this directory", dir);
		st->status = EXIT_TROUBLE;
		return;
	}
	/* A stable partition: device-only inputs first. */
	for (i = first, k = first; i < st->n; i++)
		if (st->src[i]->device_only) {
			struct source *t = st->src[i];

			memmove(st->src + k + 1, st->src + k,
			    (i - k) * sizeof(*st->src));
			st->src[k++] = t;
		}
	for (i = first; i < st->n; i++)
		st->src[i]->idx = (unsigned)i;
}

/*
 * Every input stays open for the merge: a directory of a few thousand
 * node logs needs as many descriptors.  The soft limit (often 1024) may
 * be raised to the hard one by anyone, so it is, once; beyond that the
 * merge is done in passes (runs.h).
 */
void
stream_raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

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

int
stream_is_dir(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
	    S_ISDIR(sb.st_mode);
}

static int
wanted(const struct stream *st, const struct rec *r)
{
	const struct readopts *o = st->opt;

	if (r->ts < o->since || r->ts > o->until)
		return 0;
	if (o->gpus.n > 0 && !idset_has(&o->gpus, r->gpu))
		return 0;
	if (o->pids.n > 0 && r->pid != 0 && !idset_has(&o->pids, r->pid))
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

/* What is kept of input src's last host, which becomes host if it was not. */
struct lasthost *
stream_last_host(struct stream *st, unsigned src, const char *host)
{
	struct lasthost *h;

	if (src >= st->n)
		BUG("a record of input %u of %zu", src, st->n);
	if (st->last == NULL)
		st->last = ecalloc(st->n, sizeof(*st->last));
	h = &st->last[src];
	/* Mostly the same host as before, often none: strcmp only when
	 * the first bytes agree. */
	if (h->host.buf == NULL || h->host.buf[0] != host[0] ||
	    (host[0] != '\0' && strcmp(h->host.buf, host) != 0)) {
		sbuf_set(&h->host, host, strlen(host));
		h->hash = hmap_hash(host, h->host.len);
		memset(h->span, 0, sizeof(h->span));
	}
	return h;
}

/*
 * Whether r repeats the record before it of its GPU or process from its
 * input: the same time and values.  Checked on the merged stream, in time
 * order, so that what is written reads back the same.
 */
int
stream_duplicate(struct stream *st, const struct rec *r,
    const struct lasthost *h)
{
	struct dupslot *sl;
	uint64_t key;
	unsigned has = r->has | 0x100;	/* never 0 */

	if (rec_is_mark(r))
		return 0;
	key = ((uint64_t)r->gpu << 32 | r->pid) * 0x9e3779b97f4a7c15ULL ^
	    (r->src & ~SRC_ADDED);
	if (r->host[0] != '\0' || r->name[0] != '\0')
		key ^= h->hash * 31 + (r->name[0] == '\0' ? st->nonamehash :
		    hmap_hash(r->name, strlen(r->name)));
	if (st->dup == NULL)
		st->dup = ecalloc(DUP_NSLOT, sizeof(*st->dup));
	sl = &st->dup[(key ^ key >> 32) % DUP_NSLOT];
	if (sl->key == key && sl->ts == r->ts && sl->has == has &&
	    sl->used == r->used && sl->free == r->free &&
	    sl->total == r->total)
		return 1;
	sl->key = key;
	sl->ts = r->ts;
	sl->has = has;
	sl->used = r->used;
	sl->free = r->free;
	sl->total = r->total;
	return 0;
}

/* A duplicate is skipped: counted as such by its input, not as a record. */
static void
skip_duplicate(struct stream *st, const struct rec *r)
{
	struct source *s;

	if (r->src & SRC_ADDED) {
		st->res->added--;
		return;
	}
	if (r->src >= st->n)
		BUG("a record of input %u of %zu", r->src, st->n);
	s = st->src[r->src];
	st->dropped[r->src]++;
	source_count_skip(s, "duplicate samples");
}

/* The span of r's GPU, added when new; h is its input's last host. */
static struct span *
span_of(struct stream *st, const struct rec *r, struct lasthost *h)
{
	struct span **sp = r->gpu < LAST_NGPU ? &h->span[r->gpu] : NULL;
	void **v;

	if (sp != NULL && *sp != NULL)
		return *sp;
	gpu_key(&st->sk, r->host, r->gpu);
	v = hmap_put(&st->seen, st->sk.buf, st->sk.len, NULL);
	if (*v == NULL)
		*v = ecalloc(1, sizeof(struct span));
	if (sp != NULL)
		*sp = *v;
	return *v;
}

/*
 * Device samples of one GPU from two inputs at the same times: two
 * recordings (the same "GPU 0" of two machines, or of two jobs) that no
 * bus id or UUID tells apart, read as one GPU, with usage and delays in
 * neither.  Said once a run even with -q (what is read is wrong), naming
 * both inputs, and remembered (stream_collided); --host-from-file keeps
 * them apart.
 */
void
stream_overlap_check(struct stream *st, const struct rec *r, struct lasthost *h)
{
	struct span *sp;
	unsigned src = r->src, i, k;
	char t[GTIME_BUFSZ];

	if (r->pid != 0 || rec_is_mark(r) || (src & SRC_ADDED) ||
	    st->overlap_said || st->n < 2 || st->seen.n >= GPUMAP_MAX)
		return;
	sp = span_of(st, r, h);
	for (k = 0; k < sp->n && sp->src[k] != src; k++)
		;
	if (k == sp->n) {
		if (k == SPAN_NSRC)
			return;
		sp->src[k] = src;
		sp->first[k] = r->ts;
		sp->n++;
	}
	sp->last[k] = r->ts;
	/* In time order: another input's samples after this one's first. */
	for (i = 0; i < sp->n; i++)
		if (i != k && sp->last[i] > sp->first[k] &&
		    sp->first[i] < r->ts) {
			st->overlap_said = 1;
			msg("%s and %s both have device samples of GPU "
			    "%u%s%s%s at the same times (at %s): two "
			    "recordings read as one GPU (give --host-from-file "
			    "to keep them apart)", st->src[sp->src[i]]->name,
			    st->src[src]->name, r->gpu, *r->host ?
			    " of host '" : "", r->host, *r->host ? "'" : "",
			    gtime_fmt(r->ts, 1, t));
			return;
		}
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
	progress_show("%.1f MiB, %llu records, %.1f MiB/s, %zu of %zu inputs "
	    "done", mib, (unsigned long long)st->ticks, secs > 0 ? mib / secs :
	    0.0, done, st->n);
}

const struct rec *
stream_next(struct stream *st)
{
	const struct rec *r;
	struct lasthost *h;

	/* The clock is asked every 1024 records only: this is the hot path. */
	if ((++st->ticks & 1023) == 1 && progress_due())
		progress(st);
	while ((r = next_unfiltered(st)) != NULL) {
		/* Both checks need it: one string compare a record. */
		h = stream_last_host(st, r->src & ~SRC_ADDED, r->host);
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
	progress_clear();
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
	if (st->res != NULL && st->res->added > 0)
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
