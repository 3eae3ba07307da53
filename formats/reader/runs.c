/* SPDX-License-Identifier: ISC */
/* runs.c: the merge in passes: groups of inputs into runs, runs merged. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gpumap.h"
#include "heap.h"
#include "hmap.h"
#include "runs.h"

/*
 * A run file is a sequence of frames: a kind byte, the payload's length
 * (a uint32_t), the payload.  Written and read by the same process, so
 * integers are in its own order and a kept message's msg_once flag (a
 * pointer, msg.c) stays good.
 *
 *	'I'	input, block: what the input did before its first record
 *	'R'	input, origin, flags (unread 1, restart 2), GPU key, the
 *		record (rec_bin_put),
 *		block: what the input did after it, up to its next record
 *	'E'	the end of the run
 *
 * A block: the kept messages (msg_capture's form), the events (EV_SKIP
 * and the reason, or EV_LEARN, the index and three strings, each a byte
 * saying whether it is there and the string), then whether --strict
 * stopped the input there and at which offsets of both.
 */
enum { EV_SKIP = 'S', EV_LEARN = 'L' };

/* A block being made: what one fill of an input did. */
struct blk {
	struct sbuf msgs;
	struct sbuf ev;
	int fatal;
	uint32_t fatal_msg, fatal_ev;
};

/* A lane of a merge: a run being read, or an input left open. */
struct lane {
	FILE *f;		/* the run, or NULL: the input src */
	size_t src;
	struct sbuf fr[2];	/* the head's frame and the one before it */
	int cur;		/* fr[cur] is the head's */
	int kind;		/* of fr[cur]: 'I', 'R' or 'E' */
	struct rec head;	/* decoded from an 'R' frame */
	size_t blk_at;		/* where its block starts in the frame */
	int popped;		/* the head was taken: its block is due */
};

struct runs {
	struct source **src;
	size_t n;
	const struct readopts *opt;
	struct gpumap *gpus;
	struct lane *lane;	/* the last merge's */
	size_t nlane;
	size_t *lane_of;	/* input -> its lane + 1, or 0 */
	struct hmap why;	/* skip reasons read back -> a kept copy */
	struct blk blk;		/* being made, in a pass */
	struct source_defer defer;
	struct sbuf out;	/* a frame being written */
};

/* --- limits --- */

size_t
runs_max_open(const struct readopts *opt)
{
	struct rlimit rl;
	rlim_t n;

	if (opt->max_open > 0)
		return opt->max_open < 2 ? 2 : opt->max_open;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return SIZE_MAX;
	n = rl.rlim_cur;
	if (n < RUNS_RESERVE + 2)
		return 2;
	return n - RUNS_RESERVE > SIZE_MAX ? SIZE_MAX :
	    (size_t)(n - RUNS_RESERVE);
}

int
runs_can_park(const struct source *s)
{
	return s->in != NULL && input_is_file(s->in) &&
	    strcmp(s->path, "-") != 0;
}

/* --- writing runs --- */

static void
put_u32(struct sbuf *sb, uint32_t v)
{
	sbuf_add(sb, &v, sizeof(v));
}

static void
put_str(struct sbuf *sb, const char *s)
{
	sbuf_addc(sb, s != NULL);
	if (s != NULL)
		sbuf_add(sb, s, strlen(s) + 1);
}

static void
defer_skip(void *arg, const char *why)
{
	struct runs *r = arg;

	sbuf_addc(&r->blk.ev, EV_SKIP);
	sbuf_add(&r->blk.ev, why, strlen(why) + 1);
}

static void
defer_learn(void *arg, const char *host, const char *uuid, const char *bus,
    int64_t index)
{
	struct runs *r = arg;

	sbuf_addc(&r->blk.ev, EV_LEARN);
	sbuf_add(&r->blk.ev, &index, sizeof(index));
	put_str(&r->blk.ev, host);
	put_str(&r->blk.ev, uuid);
	put_str(&r->blk.ev, bus);
}

static void
defer_fatal(void *arg)
{
	struct runs *r = arg;

	if (r->blk.fatal)
		return;
	r->blk.fatal = 1;
	r->blk.fatal_msg = (uint32_t)r->blk.msgs.len;
	r->blk.fatal_ev = (uint32_t)r->blk.ev.len;
}

/* Read input s on, as one pass does between its records, into r->blk. */
static void
fill_kept(struct runs *r, struct source *s)
{
	sbuf_reset(&r->blk.msgs);
	sbuf_reset(&r->blk.ev);
	r->blk.fatal = 0;
	msg_capture(&r->blk.msgs);
	source_fill(s);
	msg_capture(NULL);
}

static void
put_blk(struct sbuf *sb, const struct blk *b)
{
	put_u32(sb, (uint32_t)b->msgs.len);
	if (b->msgs.len > 0)
		sbuf_add(sb, b->msgs.buf, b->msgs.len);
	put_u32(sb, (uint32_t)b->ev.len);
	if (b->ev.len > 0)
		sbuf_add(sb, b->ev.buf, b->ev.len);
	sbuf_addc(sb, b->fatal);
	put_u32(sb, b->fatal_msg);
	put_u32(sb, b->fatal_ev);
}

static void
frame_write(FILE *f, int kind, const void *p, size_t len)
{
	uint32_t n = (uint32_t)len;
	unsigned char k = (unsigned char)kind;

	if (len > UINT32_MAX)
		BUG("a run frame of %zu bytes", len);
	if (fwrite(&k, 1, 1, f) != 1 || fwrite(&n, sizeof(n), 1, f) != 1 ||
	    (len > 0 && fwrite(p, 1, len, f) != len))
		die("a temporary file of the merge in passes: cannot write:");
}

/* The 'R' frame of record x, up to its block. */
static void
put_rec(struct sbuf *sb, const struct rec *x)
{
	sbuf_reset(sb);
	put_u32(sb, x->src);
	sbuf_addc(sb, (int)x->origin);
	sbuf_addc(sb, (x->unread != 0) | (x->restart != 0) << 1);
	put_str(sb, x->gpukey);
	rec_bin_put(sb, x);
}

/* --- reading runs --- */

static FILE *
run_open(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		die("%s: cannot open a temporary file of the merge:", path);
	unlink(path);		/* gone once closed, whatever happens */
	return f;
}

/* Read the next frame of lane l into its other buffer. */
static void
frame_read(struct lane *l)
{
	unsigned char k;
	uint32_t n;
	struct sbuf *sb = &l->fr[!l->cur];

	if (fread(&k, 1, 1, l->f) != 1 || fread(&n, sizeof(n), 1, l->f) != 1)
		die("a temporary file of the merge in passes: cannot read:");
	sbuf_reset(sb);
	sbuf_grow(sb, n);
	if (n > 0 && fread(sb->buf, 1, n, l->f) != n)
		die("a temporary file of the merge in passes: cannot read:");
	sb->len = n;
	l->cur = !l->cur;
	l->kind = k;
	if (k == 'R') {
		const unsigned char *p = (const unsigned char *)sb->buf;
		size_t at = 7, used;
		uint32_t src;
		const char *why, *key = NULL;

		memcpy(&src, p, sizeof(src));
		if (p[6]) {
			key = (const char *)p + at;
			at += strlen(key) + 1;
		}
		rec_init(&l->head);
		if (rec_bin_decode(p + at, n - at, &l->head, &used, &why) != 1)
			BUG("a record of a run does not decode: %s", why);
		l->head.origin = p[4];
		l->head.unread = p[5] & 1;
		l->head.restart = (p[5] >> 1) & 1;
		l->head.gpukey = key;
		l->head.src = src;
		l->blk_at = at + used;
	}
}

static const char *
get_str(const unsigned char *p, size_t *at)
{
	const char *s;

	if (p[(*at)++] == 0)
		return NULL;
	s = (const char *)p + *at;
	*at += strlen(s) + 1;
	return s;
}

/* The copy of a skip reason read back that a summary can keep. */
static const char *
kept_why(struct runs *r, const char *why)
{
	size_t len = strlen(why);
	void **v = hmap_put(&r->why, why, len, NULL);

	if (*v == NULL)
		*v = estrndup(why, len);
	return *v;
}

/*
 * Do what input i did, as its block at p says: events, then messages (as
 * workers.c replays them); exit where --strict stopped it.
 */
static void
do_blk(struct runs *r, size_t i, const unsigned char *p)
{
	uint32_t nmsg, nev, fm, fe;
	size_t at = 0, e, evto, msgto;
	struct sbuf view;
	int fatal;

	memcpy(&nmsg, p, sizeof(nmsg));
	view.buf = (char *)(uintptr_t)(p + 4);
	view.len = view.cap = nmsg;
	at = 4 + nmsg;
	memcpy(&nev, p + at, sizeof(nev));
	at += 4;
	e = at;
	fatal = p[at + nev];
	memcpy(&fm, p + at + nev + 1, sizeof(fm));
	memcpy(&fe, p + at + nev + 5, sizeof(fe));
	evto = e + (fatal ? fe : nev);
	msgto = fatal ? fm : nmsg;
	while (e < evto) {
		if (p[e++] == EV_SKIP) {
			const char *why = (const char *)p + e;

			e += strlen(why) + 1;
			source_count_skip(r->src[i], kept_why(r, why));
		} else {
			const char *host, *uuid, *bus;
			int64_t index;

			memcpy(&index, p + e, sizeof(index));
			e += sizeof(index);
			host = get_str(p, &e);
			uuid = get_str(p, &e);
			bus = get_str(p, &e);
			source_learn_now(r->src[i], host, uuid, bus, index);
		}
	}
	msg_replay(&view, 0, msgto);
	if (fatal)
		exit(EXIT_TROUBLE);	/* where one pass exits */
}

/* --- passes --- */

/*
 * Open input i again for its pass, as it was opened first (its messages
 * were said then).  NULL when it cannot be: said, and the run fails.
 */
static struct source *
reopen(struct runs *r, size_t i)
{
	struct source *old = r->src[i], *s;
	struct sbuf junk = SBUF_INIT;

	msg_capture(&junk);
	s = source_open(old->path, old->idx, r->opt, r->gpus);
	msg_capture(NULL);
	sbuf_release(&junk);
	if (s == NULL || s->fmt != old->fmt || s->st == NULL) {
		msg("%s: changed while it was read: cannot read it again",
		    old->name);
		old->failed = 1;
		old->parked_st = 0;	/* nothing read: said already */
		source_free(s);
		return NULL;
	}
	source_free(old);
	r->src[i] = s;
	s->defer = &r->defer;
	return s;
}

/*
 * The first of a merge's inputs (or runs) has moved on to record r, or
 * has ended (r NULL): put it back by r's time and r's own input (a run
 * holds several inputs), or take it out.
 */
static void
lane_next(struct heap *h, const struct rec *r)
{
	if (r != NULL)
		heap_next(h, r->ts, r->src);
	else
		heap_end(h);
}

/*
 * Read the k inputs idx[] into the run at path.  Return how many of them
 * it holds (those that could be opened again).
 */
static size_t
pass_group(struct runs *r, const size_t *idx, size_t k, const char *path)
{
	struct source **s = ecalloc(k, sizeof(*s));
	struct heap h = {NULL, 0};
	const struct rec *x;
	FILE *f = fopen(path, "wb");
	size_t j, m = 0;

	if (f == NULL)
		die("%s: cannot write a temporary file of the merge:", path);
	for (j = 0; j < k; j++)
		if ((s[m] = reopen(r, idx[j])) != NULL)
			m++;
	h.v = ecalloc(m, sizeof(*h.v));
	for (j = 0; j < m; j++) {
		fill_kept(r, s[j]);
		sbuf_reset(&r->out);
		put_u32(&r->out, s[j]->idx);
		put_blk(&r->out, &r->blk);
		frame_write(f, 'I', r->out.buf, r->out.len);
		if (r->blk.fatal)
			goto end;
		if ((x = window_peek(&s[j]->win)) != NULL)
			heap_push(&h, j, x->ts, x->src);
	}
	while (h.n > 0) {
		j = h.v[0].i;
		put_rec(&r->out, window_peek(&s[j]->win));
		window_pop(&s[j]->win);
		fill_kept(r, s[j]);
		put_blk(&r->out, &r->blk);
		frame_write(f, 'R', r->out.buf, r->out.len);
		if (r->blk.fatal)
			break;
		lane_next(&h, window_peek(&s[j]->win));
	}
end:
	frame_write(f, 'E', NULL, 0);
	if (fclose(f) != 0)
		die("%s: cannot write a temporary file of the merge:", path);
	for (j = 0; j < m; j++) {
		s[j]->defer = NULL;
		source_park(s[j]);
	}
	free(h.v);
	free(s);
	return m;
}

/* Merge the k runs at paths[] into one at path. */
static void
pass_runs(char **paths, size_t k, const char *path)
{
	struct lane *l = ecalloc(k, sizeof(*l));
	struct heap h = {NULL, 0};
	FILE *f = fopen(path, "wb");
	size_t j;

	if (f == NULL)
		die("%s: cannot write a temporary file of the merge:", path);
	h.v = ecalloc(k, sizeof(*h.v));
	for (j = 0; j < k; j++) {
		l[j].f = run_open(paths[j]);
		/* What the inputs did first, in their order. */
		for (frame_read(&l[j]); l[j].kind == 'I'; frame_read(&l[j]))
			frame_write(f, 'I', l[j].fr[l[j].cur].buf,
			    l[j].fr[l[j].cur].len);
		if (l[j].kind == 'R')
			heap_push(&h, j, l[j].head.ts, l[j].head.src);
	}
	while (h.n > 0) {
		struct lane *x = &l[h.v[0].i];

		frame_write(f, 'R', x->fr[x->cur].buf, x->fr[x->cur].len);
		frame_read(x);
		lane_next(&h, x->kind == 'R' ? &x->head : NULL);
	}
	frame_write(f, 'E', NULL, 0);
	if (fclose(f) != 0)
		die("%s: cannot write a temporary file of the merge:", path);
	for (j = 0; j < k; j++) {
		fclose(l[j].f);
		sbuf_release(&l[j].fr[0]);
		sbuf_release(&l[j].fr[1]);
	}
	free(h.v);
	free(l);
}

/* A new run file's name, kept. */
static char *
run_name(void)
{
	struct sbuf sb = SBUF_INIT;

	outfile_tmpdir_file(&sb);
	return sb.buf;
}

struct runs *
runs_make(struct source **src, size_t n, size_t maxopen,
    const struct readopts *opt, struct gpumap *gpus)
{
	struct runs *r = ecalloc(1, sizeof(*r));
	char **run = NULL, **next;
	size_t *cnt = NULL, *ncnt, nrun = 0, nopen = 0, room, i, j, k, m, *idx;

	r->src = src;
	r->n = n;
	r->opt = opt;
	r->gpus = gpus;
	r->defer.skip = defer_skip;
	r->defer.learn = defer_learn;
	r->defer.fatal = defer_fatal;
	r->defer.arg = r;
	r->lane_of = ecalloc(n, sizeof(*r->lane_of));
	for (i = 0; i < n; i++)
		nopen += !src[i]->parked;
	/* Open besides a pass's inputs: those left open, the run written. */
	room = maxopen > nopen + 2 ? maxopen - nopen - 1 : 1;
	if (outfile_tmpdir_make() == NULL)
		exit(EXIT_TROUBLE);
	idx = ecalloc(n, sizeof(*idx));
	for (i = 0; i < n; ) {
		for (k = 0; i < n && k < room; i++)
			if (src[i]->parked && src[i]->parked_st)
				idx[k++] = i;
		if (k == 0)
			break;
		run = ereallocarray(run, nrun + 1, sizeof(*run));
		cnt = ereallocarray(cnt, nrun + 1, sizeof(*cnt));
		run[nrun] = run_name();
		cnt[nrun] = pass_group(r, idx, k, run[nrun]);
		nrun++;
	}
	free(idx);
	/* Runs merged, neighbours together, until the last merge fits. */
	if (room < 2)
		room = 2;
	while (nrun > 1 && nrun + nopen > maxopen) {
		next = ecalloc((nrun + room - 1) / room, sizeof(*next));
		ncnt = ecalloc((nrun + room - 1) / room, sizeof(*ncnt));
		for (i = 0, m = 0; i < nrun; i += k, m++) {
			k = nrun - i < room ? nrun - i : room;
			next[m] = run_name();
			pass_runs(run + i, k, next[m]);
			for (j = i; j < i + k; j++) {
				ncnt[m] += cnt[j];
				free(run[j]);
			}
		}
		free(run);
		free(cnt);
		run = next;
		cnt = ncnt;
		nrun = m;
	}
	r->lane = ecalloc(nrun + nopen, sizeof(*r->lane));
	/* The inputs of each run, in order: they were grouped in order. */
	for (i = 0, j = 0; j < nrun; j++) {
		r->lane[r->nlane++].f = run_open(run[j]);
		free(run[j]);
		for (k = 0; k < cnt[j]; i++)
			if (src[i]->parked && src[i]->parked_st) {
				r->lane_of[i] = r->nlane;
				k++;
			}
	}
	free(run);
	free(cnt);
	for (i = 0; i < n; i++)
		if (!src[i]->parked) {
			r->lane[r->nlane].src = i;
			r->lane_of[i] = ++r->nlane;
		}
	return r;
}

size_t
runs_lanes(const struct runs *r)
{
	return r->nlane;
}

void
runs_start(struct runs *r)
{
	struct lane *l;
	size_t i;
	uint32_t src;

	for (i = 0; i < r->n; i++) {
		if (r->lane_of[i] == 0)
			continue;
		l = &r->lane[r->lane_of[i] - 1];
		if (l->f == NULL) {
			source_fill(r->src[i]);
			continue;
		}
		frame_read(l);
		if (l->kind != 'I')
			BUG("input %zu has no start in its run", i);
		memcpy(&src, l->fr[l->cur].buf, sizeof(src));
		if (src != i)
			BUG("input %zu's start in its run is input %u's", i,
			    (unsigned)src);
		do_blk(r, i, (const unsigned char *)l->fr[l->cur].buf + 4);
	}
	for (i = 0; i < r->nlane; i++)
		if (r->lane[i].f != NULL)
			frame_read(&r->lane[i]);
}

const struct rec *
runs_head(struct runs *r, size_t i)
{
	struct lane *l = &r->lane[i];

	if (l->f == NULL)
		return window_peek(&r->src[l->src]->win);
	return l->kind == 'R' && !l->popped ? &l->head : NULL;
}

void
runs_pop(struct runs *r, size_t i)
{
	struct lane *l = &r->lane[i];

	if (l->f == NULL)
		window_pop(&r->src[l->src]->win);
	else if (l->kind != 'R' || l->popped)
		BUG("runs_pop: lane %zu has no record", i);
	else
		l->popped = 1;
}

void
runs_fill(struct runs *r, size_t i)
{
	struct lane *l = &r->lane[i];

	if (l->f == NULL) {
		source_fill(r->src[l->src]);
		return;
	}
	if (!l->popped)
		return;
	l->popped = 0;
	do_blk(r, l->head.src, (const unsigned char *)l->fr[l->cur].buf +
	    l->blk_at);
	frame_read(l);
}

void
runs_free(struct runs *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nlane; i++) {
		if (r->lane[i].f != NULL)
			fclose(r->lane[i].f);
		sbuf_release(&r->lane[i].fr[0]);
		sbuf_release(&r->lane[i].fr[1]);
	}
	outfile_tmpdir_remove();
	hmap_release(&r->why, free);
	sbuf_release(&r->blk.msgs);
	sbuf_release(&r->blk.ev);
	sbuf_release(&r->out);
	free(r->lane);
	free(r->lane_of);
	free(r);
}
