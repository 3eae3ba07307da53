/* SPDX-License-Identifier: ISC */
/*
 * merge.c: the merge of a stream's inputs in time order: each input's
 * earliest record (from its window, a worker thread or a lane of the
 * passes), the GPU each names resolved on the run's map.
 */
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "runs.h"
#include "streamstate.h"
#include "workers.h"

#define STR_(x) #x
#define STR(x) STR_(x)

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
		 * Worker threads when more than one is asked for or chosen,
		 * even for one input (its decoding in a thread of its own,
		 * the merge and the output here); not for live inputs, whose
		 * records go on as soon as they are read (their reader may
		 * wait in a hook, see above).
		 */
		jobs = st->opt->jobs != 0 ? st->opt->jobs :
		    workers_choose(st->src, n);
		if (jobs > 1 && !st->live) {
			/*
			 * One large plain file: decoded in chunks too.  With
			 * -j 2 the main thread takes the chunks itself: a
			 * worker between them and the merge was a third thread
			 * on two cores and a third copy of every record (1.29
			 * times -j 1's speed on a 77 MB gpumem CSV, 1.55 times
			 * without it).
			 */
			if (n == 1 && chunks_can(st->src[0]))
				chunks_start(st->src[0], jobs - 1);
			if (n != 1 || st->src[0]->chunks == NULL || jobs > 2)
				st->w = workers_start(st->src, n, jobs,
				    st->gpus);
		}
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
