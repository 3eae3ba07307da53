/* SPDX-License-Identifier: ISC */
/* workers.c: inputs decoded by worker threads, taken in -j 1's order. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chunks.h"
#include "gpumap.h"
#include "workers.h"

/* What decoding did besides records, done by the main thread later. */
enum { EV_SKIP, EV_LEARN };

struct ev {
	unsigned kind;
	const char *why;	/* EV_SKIP: the reason, a static string */
	size_t host, uuid, bus;	/* EV_LEARN: kept strings (see keep) */
	int64_t index;
};

/*
 * Records of one input, in the order its window gave them, and what
 * decoding did before each: the messages up to msgend[k] and the events
 * up to evend[k] came before record k; the rest came after the last.
 */
struct batch {
	struct rec r[WORKERS_BATCH];
	size_t msgend[WORKERS_BATCH];
	size_t evend[WORKERS_BATCH];
	size_t nr;
	struct ev *ev;
	size_t nev, capev;
	struct sbuf text;	/* the strings of records and events */
	size_t prev[3];		/* keep_field: the last host, name, GPU key */
	size_t empty;		/* keep_field: "" */
	struct sbuf msgs;	/* kept messages (msg_capture) */
	int last;		/* the input ends after this batch */
	int fatal;		/* --strict stopped it, at these offsets: */
	size_t fatal_msg, fatal_ev;
	struct batch *next;
};

struct wsrc {
	struct workers *w;
	struct source *s;
	struct source_defer defer;
	struct batch *prod;	/* being made (by the worker holding it) */
	int started;

	/* Under the lock. */
	struct batch *qhead, *qtail;	/* made, not taken yet */
	size_t nq;
	int busy;		/* a worker is making a batch */
	int done;		/* its last batch is made */

	/* The main thread's. */
	struct batch *cur;	/* being read */
	size_t pos;		/* its next record */
	size_t msgpos, evpos;	/* what of its messages and events is done */
	struct batch *held;	/* read before: its records may be in use */
	int head;		/* cur->r[pos] is the head */
	int ended;
};

struct workers {
	pthread_mutex_t mu;
	pthread_cond_t work;	/* a worker may find something to do */
	pthread_cond_t ready;	/* a batch was made */
	struct wsrc *ws;
	size_t n;
	pthread_t *th;
	unsigned nth;
	int stop;
	size_t want;		/* the input the main thread waits for */
	unsigned idle;		/* workers waiting for work */
	size_t room;		/* batches taken since a worker was woken */
	size_t wake_every;	/* wake one after this many (take) */
	size_t depth;		/* batches waiting per input, at most */
	struct batch *spare;	/* batches to reuse */
	struct gpumap *gpus;
};

static void
lock(struct workers *w)
{
	if (pthread_mutex_lock(&w->mu) != 0)
		BUG("pthread_mutex_lock");
}

static void
unlock(struct workers *w)
{
	if (pthread_mutex_unlock(&w->mu) != 0)
		BUG("pthread_mutex_unlock");
}

/*
 * Strings are kept in b->text as offsets + 1 (0 for NULL) while the batch
 * is made, the buffer moving as it grows; fix() makes them pointers.
 */
static size_t
keep(struct batch *b, const char *p)
{
	size_t at = b->text.len;

	if (p == NULL)
		return 0;
	sbuf_add(&b->text, p, strlen(p) + 1);
	return at + 1;
}

/*
 * keep() for a record's field f (0 host, 1 name, 2 GPU key): one copy of
 * "" a batch, and one of a string the same as the field's before it.
 * Most hosts, names and keys are empty or repeat: the copies were a tenth
 * of the decoding thread's time reading one input.  strcmp only when the
 * first bytes agree (a library call costs about what the copy does).
 */
static size_t
keep_field(struct batch *b, const char *p, int f)
{
	size_t *prev = &b->prev[f];

	if (p == NULL)
		return 0;
	if (p[0] == '\0') {
		if (b->empty == 0)
			b->empty = keep(b, p);
		return b->empty;
	}
	if (*prev != 0 && b->text.buf[*prev - 1] == p[0] &&
	    strcmp(b->text.buf + *prev, p + 1) == 0)
		return *prev;
	return *prev = keep(b, p);
}

static const char *
fix(const struct batch *b, uintptr_t v)
{
	return v == 0 ? NULL : b->text.buf + v - 1;
}

static struct ev *
add_ev(struct batch *b, unsigned kind)
{
	struct ev *e;

	if (b->nev == b->capev) {
		b->capev = b->capev ? 2 * b->capev : 16;
		b->ev = ereallocarray(b->ev, b->capev, sizeof(*b->ev));
	}
	e = &b->ev[b->nev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	return e;
}

static void
defer_skip(void *arg, const char *why)
{
	struct wsrc *x = arg;

	add_ev(x->prod, EV_SKIP)->why = why;
}

static void
defer_learn(void *arg, const char *host, const char *uuid, const char *bus,
    int64_t index)
{
	struct wsrc *x = arg;
	struct ev *e = add_ev(x->prod, EV_LEARN);

	e->index = index;
	e->host = keep(x->prod, host);
	e->uuid = keep(x->prod, uuid);
	e->bus = keep(x->prod, bus);
}

static void
defer_fatal(void *arg)
{
	struct wsrc *x = arg;

	if (x->prod->fatal)
		return;
	x->prod->fatal = 1;
	x->prod->fatal_msg = x->prod->msgs.len;
	x->prod->fatal_ev = x->prod->nev;
}

/* Make one batch of input x: what -j 1 does between its merge's pops. */
static void
produce(struct wsrc *x, struct batch *b)
{
	struct source *s = x->s;
	const struct rec *r;
	size_t i;

	x->prod = b;
	msg_capture(&b->msgs);
	if (!x->started) {
		x->started = 1;
		source_fill(s);
	}
	while (b->nr < WORKERS_BATCH && !s->fatal &&
	    (r = window_peek(&s->win)) != NULL) {
		struct rec *o = &b->r[b->nr];

		*o = *r;
		o->host = (const char *)keep_field(b, r->host, 0);
		o->name = (const char *)keep_field(b, r->name, 1);
		o->gpukey = (const char *)keep_field(b, r->gpukey, 2);
		b->msgend[b->nr] = b->msgs.len;
		b->evend[b->nr] = b->nev;
		b->nr++;
		window_pop(&s->win);
		source_fill(s);
	}
	msg_capture(NULL);
	b->last = s->fatal || s->win.count == 0;
	for (i = 0; i < b->nr; i++) {
		b->r[i].host = fix(b, (uintptr_t)b->r[i].host);
		b->r[i].name = fix(b, (uintptr_t)b->r[i].name);
		b->r[i].gpukey = fix(b, (uintptr_t)b->r[i].gpukey);
	}
	x->prod = NULL;
}

/* The input a worker should read next, or NULL (under the lock). */
static struct wsrc *
pick(struct workers *w)
{
	struct wsrc *best = NULL, *x;
	size_t i;

	if (w->want < w->n) {
		x = &w->ws[w->want];
		if (!x->busy && !x->done && x->nq < w->depth)
			return x;
	}
	/* Else the one with the fewest batches waiting. */
	for (i = 0; i < w->n; i++) {
		x = &w->ws[i];
		if (x->busy || x->done || x->nq >= w->depth)
			continue;
		if (best == NULL || x->nq < best->nq)
			best = x;
		if (x->nq == 0)
			break;
	}
	return best;
}

static struct batch *
new_batch(struct workers *w)
{
	struct batch *b = w->spare;

	if (b == NULL)
		return ecalloc(1, sizeof(*b));
	w->spare = b->next;
	b->next = NULL;
	b->nr = b->nev = 0;
	sbuf_reset(&b->text);
	sbuf_reset(&b->msgs);
	memset(b->prev, 0, sizeof(b->prev));
	b->empty = 0;
	b->last = b->fatal = 0;
	return b;
}

static void *
worker(void *arg)
{
	struct workers *w = arg;
	struct wsrc *x;
	struct batch *b;

	lock(w);
	while (!w->stop) {
		if ((x = pick(w)) == NULL) {
			w->idle++;
			pthread_cond_wait(&w->work, &w->mu);
			w->idle--;
			continue;
		}
		x->busy = 1;
		b = new_batch(w);
		unlock(w);
		produce(x, b);
		lock(w);
		if (x->qtail != NULL)
			x->qtail->next = b;
		else
			x->qhead = b;
		x->qtail = b;
		x->nq++;
		x->busy = 0;
		x->done = b->last;
		/*
		 * One input: the main thread, faster than its worker, would
		 * sleep and be woken for every batch; it is woken when the
		 * queue is full (or the input ends) and takes them all.
		 */
		if (w->want == (size_t)(x - w->ws) &&
		    (w->n > 1 || x->nq >= w->depth || x->done))
			pthread_cond_signal(&w->ready);
	}
	unlock(w);
	return NULL;
}

unsigned
workers_default(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 1 ? (unsigned)n : 1;
}

unsigned
workers_choose(struct source *const *src, size_t n)
{
	struct stat sb;
	uint64_t size, largest = 0, rest = 0;
	unsigned cpus = workers_default();
	double load[1];
	size_t i;

	if (cpus < 2)
		return 1;
	if (n == 1)
		return chunks_can(src[0]) && stat(src[0]->path, &sb) == 0 &&
		    (uint64_t)sb.st_size >= WORKERS_CHUNKS *
		    (uint64_t)chunks_size() && getloadavg(load, 1) == 1 &&
		    load[0] <= cpus - 1 ? cpus : 1;
	for (i = 0; i < n; i++) {
		if (stat(src[i]->path, &sb) != 0 || !S_ISREG(sb.st_mode))
			return cpus;	/* its size unknown: as large as any */
		size = (uint64_t)sb.st_size;
		if (size > largest) {
			rest += largest;
			largest = size;
		} else
			rest += size;
	}
	if (rest <= largest / WORKERS_SHARE)
		return 1;
	return cpus;
}

struct workers *
workers_start(struct source **src, size_t n, unsigned jobs,
    struct gpumap *gpus)
{
	struct workers *w = ecalloc(1, sizeof(*w));
	size_t i;

	if (jobs > n)
		jobs = (unsigned)n;	/* a thread per input at most */
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->ready, NULL);
	w->n = n;
	w->want = SIZE_MAX;
	w->depth = n == 1 ? WORKERS_QUEUE1 : WORKERS_QUEUE;
	w->wake_every = n * w->depth / 16;
	if (n == 1)
		w->wake_every = w->depth / 2;	/* a pipeline: half its queue */
	if (w->wake_every < 1)
		w->wake_every = 1;
	if (w->wake_every > 16)
		w->wake_every = 16;
	w->gpus = gpus;
	w->ws = ecalloc(n, sizeof(*w->ws));
	for (i = 0; i < n; i++) {
		struct wsrc *x = &w->ws[i];

		x->w = w;
		x->s = src[i];
		x->defer.skip = defer_skip;
		x->defer.learn = defer_learn;
		x->defer.fatal = defer_fatal;
		x->defer.arg = x;
		src[i]->defer = &x->defer;
	}
	w->th = ecalloc(jobs, sizeof(*w->th));
	for (w->nth = 0; w->nth < jobs; w->nth++)
		if (pthread_create(&w->th[w->nth], NULL, worker, w) != 0) {
			if (w->nth == 0)
				die("cannot start a thread:");
			break;	/* fewer threads do the same work */
		}
	return w;
}

/* The next batch of input i, waiting for it to be made. */
static struct batch *
take(struct workers *w, size_t i)
{
	struct wsrc *x = &w->ws[i];
	struct batch *b;

	lock(w);
	while (x->nq == 0) {
		w->want = i;
		pthread_cond_broadcast(&w->work);
		pthread_cond_wait(&w->ready, &w->mu);
	}
	if (w->want == i)
		w->want = SIZE_MAX;
	b = x->qhead;
	x->qhead = b->next;
	if (x->qhead == NULL)
		x->qtail = NULL;
	b->next = NULL;
	x->nq--;
	/*
	 * Room in its queue.  Waking a worker for every batch taken cost the
	 * merge thread a system call and a worker a sleep for each batch of
	 * 512 records; woken after wake_every batches, it makes as many.  The
	 * inputs wait for it on what they still hold (the wait above wakes
	 * every worker when one has nothing).
	 */
	if (w->idle > 0 && ++w->room >= w->wake_every) {
		w->room = 0;
		pthread_cond_signal(&w->work);
	}
	unlock(w);
	return b;
}

static void
give_back(struct workers *w, struct batch *b)
{
	if (b == NULL)
		return;
	lock(w);
	b->next = w->spare;
	w->spare = b;
	unlock(w);
}

/* Do what decoding did up to these offsets of batch b. */
static void
replay(struct wsrc *x, const struct batch *b,
    size_t msgto, size_t evto)
{
	for (; x->evpos < evto; x->evpos++) {
		const struct ev *e = &b->ev[x->evpos];

		if (e->kind == EV_SKIP)
			source_count_skip(x->s, e->why);
		else
			source_learn_now(x->s, fix(b, e->host),
			    fix(b, e->uuid), fix(b, e->bus), e->index);
	}
	msg_replay(&b->msgs, x->msgpos, msgto);
	x->msgpos = msgto;
}

/* Stop the threads: each finishes the batch in hand. */
static void
halt(struct workers *w)
{
	unsigned t;

	lock(w);
	w->stop = 1;
	pthread_cond_broadcast(&w->work);
	unlock(w);
	for (t = 0; t < w->nth; t++)
		pthread_join(w->th[t], NULL);
	w->nth = 0;
}

void
workers_fill(struct workers *w, size_t i)
{
	struct wsrc *x = &w->ws[i];
	struct batch *b;

	if (x->head)
		return;		/* as source_fill with a full window */
	for (;;) {
		if (x->cur == NULL) {
			if (x->ended)
				return;
			x->cur = take(w, i);
			x->pos = x->msgpos = x->evpos = 0;
		}
		b = x->cur;
		if (x->pos < b->nr) {
			/* Most records come after nothing to replay. */
			if (x->evpos < b->evend[x->pos] ||
			    x->msgpos < b->msgend[x->pos])
				replay(x, b, b->msgend[x->pos],
				    b->evend[x->pos]);
			x->head = 1;
			return;
		}
		if (b->fatal) {
			/* Where -j 1 exits: its messages said, no more. */
			replay(x, b, b->fatal_msg, b->fatal_ev);
			halt(w);
			exit(EXIT_TROUBLE);
		}
		replay(x, b, b->msgs.len, b->nev);
		give_back(w, x->held);
		x->held = b;
		x->cur = NULL;
		if (b->last)
			x->ended = 1;
	}
}

const struct rec *
workers_head(struct workers *w, size_t i)
{
	struct wsrc *x = &w->ws[i];

	return x->head ? &x->cur->r[x->pos] : NULL;
}

void
workers_pop(struct workers *w, size_t i)
{
	struct wsrc *x = &w->ws[i];

	if (!x->head)
		BUG("workers_pop: input %zu has no record", i);
	x->head = 0;
	x->pos++;
}

static void
free_batches(struct batch *b)
{
	struct batch *next;

	for (; b != NULL; b = next) {
		next = b->next;
		free(b->ev);
		sbuf_release(&b->text);
		sbuf_release(&b->msgs);
		free(b);
	}
}

void
workers_stop(struct workers *w)
{
	size_t i;

	if (w == NULL)
		return;
	halt(w);
	for (i = 0; i < w->n; i++) {
		struct wsrc *x = &w->ws[i];

		x->s->defer = NULL;
		free_batches(x->qhead);
		free_batches(x->cur);
		free_batches(x->held);
	}
	free_batches(w->spare);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->ready);
	free(w->ws);
	free(w->th);
	free(w);
}
