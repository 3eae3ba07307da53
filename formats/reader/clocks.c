/* SPDX-License-Identifier: ISC */
/*
 * clocks.c: what a parser emits, on its way to the reorder window: each
 * record read on its clock, steps back repaired, late records counted
 * (the clocks of source.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chunks.h"
#include "gtime.h"
#include "hmap.h"
#include "source.h"

/* "2026-01-01 10:00:00.000", in UTC or local time; the date only if date. */
static char *
clock_time(uint64_t t, int local, int date, char *buf, size_t cap)
{
	time_t secs = (time_t)(t / NS_PER_SEC);
	struct tm tm;
	size_t n;

	if ((local ? localtime_r(&secs, &tm) : gmtime_r(&secs, &tm)) == NULL) {
		snprintf(buf, cap, "@%llu", (unsigned long long)secs);
		return buf;
	}
	n = strftime(buf, cap, date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
	n += (size_t)snprintf(buf + n, cap - n, ".%03u",
	    (unsigned)(t % NS_PER_SEC / NS_PER_MS));
	if (local && n < cap)
		strftime(buf + n, cap - n, " %Z", &tm);
	return buf;
}

/* Whether times a and b fall on the same day (UTC or local). */
static int
same_day(uint64_t a, uint64_t b, int local)
{
	char da[GTIME_BUFSZ], db[GTIME_BUFSZ];

	clock_time(a, local, 1, da, sizeof(da));
	clock_time(b, local, 1, db, sizeof(db));
	return strncmp(da, db, 10) == 0;
}

/* "FILE:LINE" or "FILE: packet N (offset ...)": where the parser is. */
static void
source_where(struct source *s, struct sbuf *sb)
{
	if (s->fmt->where != NULL && s->st != NULL) {
		sbuf_adds(sb, ": ");
		s->fmt->where(s->st, sb);
	} else
		sbuf_printf(sb, ":%llu",
		    (unsigned long long)source_lineno(s));
}

/* Set up the SOURCE_NCLOCK clocks of a host. */
static void
clocks_init(struct rclock *clk, int loose)
{
	unsigned i;

	for (i = 0; i < SOURCE_NCLOCK; i++) {
		clk[i].kind = i;
		clk[i].loose = loose;
	}
}

/*
 * The clocks of one host, or of one capture stream, of an input
 * (source.hostclk's values): key is the host name, or the stream's key.
 */
struct hostclk {
	struct rclock clk[SOURCE_NCLOCK];
	char *key;
	size_t len;
};

static void
hostclk_free(void *v)
{
	struct hostclk *h = v;

	free(h->key);
	free(h);
}

/*
 * The clocks of key (a host, or a stream's key): NULL past
 * SOURCE_MAXHOSTS, or when absent and add is 0.
 */
static struct rclock *
key_clocks(struct source *s, const void *key, size_t len, int add)
{
	struct hostclk *h;
	void **v;
	int isnew;

	if (s->lastkey != NULL && s->lastlen == len &&
	    memcmp(s->lastkey, key, len) == 0)
		return s->lastclk;
	if ((v = hmap_get(&s->hostclk, key, len)) == NULL) {
		if (!add || s->hostclk.n >= SOURCE_MAXHOSTS)
			return NULL;
		v = hmap_put(&s->hostclk, key, len, &isnew);
		h = ecalloc(1, sizeof(*h));
		h->key = emalloc(len);
		memcpy(h->key, key, len);
		h->len = len;
		clocks_init(h->clk, 0);
		*v = h;
	}
	h = *v;
	s->lastkey = h->key;
	s->lastlen = h->len;
	s->lastclk = h->clk;
	return h->clk;
}

/* The clock a record is read on (see struct rclock). */
static inline struct rclock *
clock_of(struct source *s, const struct rec *r)
{
	struct rclock *clk = s->clk;
	unsigned k = r->origin;

	if (s->sclk != NULL)
		clk = s->sclk;	/* a capture's stream: never its host's */
	else if (r->host[0] != '\0' && (clk = key_clocks(s, r->host,
	    strlen(r->host), 1)) == NULL)
		clk = s->clk;
	if (k == REC_PLAIN)
		return &clk[r->pid != 0];
	if (k > SOURCE_NCLOCK - 2)
		k = SOURCE_NCLOCK - 2;	/* a channel added later */
	return &clk[k + 1];
}

/* Apply fn to every clock of the input. */
static void
clocks_each(struct source *s, void (*fn)(struct source *, struct rclock *))
{
	struct hent *e;
	size_t i = 0, j;

	for (j = 0; j < SOURCE_NCLOCK; j++) {
		fn(s, &s->clk[j]);
		fn(s, &s->loose[j]);
	}
	while ((e = hmap_next(&s->hostclk, &i)) != NULL)
		for (j = 0; j < SOURCE_NCLOCK; j++)
			fn(s, &((struct hostclk *)e->val)->clk[j]);
}

/* The clock's usual sampling interval: the median of the latest ones. */
static uint64_t
clock_interval(const struct rclock *c)
{
	uint64_t v[SOURCE_NIV], x;
	unsigned n = c->niv < SOURCE_NIV ? c->niv : SOURCE_NIV, i, j;

	for (i = 0; i < n; i++) {
		x = c->iv[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n > 0 ? v[n / 2] : 0;
}

/*
 * Note the sampling interval of r's GPU or process on clock c: the time
 * since its sample before (slots are hashed; a collision only forgets).
 */
static void
clock_sample(struct rclock *c, const struct rec *r)
{
	struct clockslot *sl;
	uint32_t h;

	if (c->slot == NULL)
		c->slot = ecalloc(SOURCE_NSLOT, sizeof(*c->slot));
	h = (r->gpu * 2654435761U) ^ (r->pid * 2246822519U);
	if (r->gpukey != NULL)
		h ^= (uint32_t)hmap_hash(r->gpukey, strlen(r->gpukey));
	sl = &c->slot[(h ^ h >> 16) % SOURCE_NSLOT];
	if (sl->key == h && r->ts > sl->ts && sl->ts != 0)
		c->iv[c->niv++ % SOURCE_NIV] = r->ts - sl->ts;
	sl->key = h;
	sl->ts = r->ts;
}

/* How a step back is read (clock_said). */
enum step_read {
	STEP_CONTINUING,	/* later times shifted to continue */
	STEP_DST,		/* the second pass of a repeated local hour */
	STEP_AS_READ		/* left as read: past CLOCK_END (source.h) */
};

/*
 * Count a step back and report it at where (":LINE" or ": packet N ..."):
 * the clock went from `from' to `to' (as in the log; STEP_DST: local
 * times, to as the second pass), `back' earlier, and later records are
 * read `plus' later (0 for STEP_AS_READ).  Trouble under --strict.
 */
static void
clock_said(struct source *s, const char *where, uint64_t from, uint64_t to,
    uint64_t back, uint64_t plus, enum step_read how)
{
	char tf[GTIME_BUFSZ], tt[GTIME_BUFSZ], tb[GTIME_BUFSZ];
	char tp[GTIME_BUFSZ];
	int dst = how == STEP_DST;

	if (how == STEP_AS_READ)
		s->nstep_as_read++;
	if (++s->nstep > SOURCE_MAXSHOWN && !s->opt->strict)
		return;
	clock_time(from, dst, 1, tf, sizeof(tf));
	clock_time(to, dst, !same_day(from, to, dst), tt, sizeof(tt));
	gtime_fmt_span(back, tb, sizeof(tb));
	gtime_fmt_span(plus, tp, sizeof(tp));
	if (dst)
		msg("%s%s: the clock steps back %s (from %s to %s): local "
		    "times repeat the hour the zone turns back at the end of "
		    "summer time; read as its second pass (+%s)", s->name,
		    where, tb, tf, tt, tp);
	else if (how == STEP_AS_READ)
		msg("%s%s: the clock steps back %s (from %s to %s): later "
		    "times read as they are (continuing would carry them "
		    "past %s, the end of the signed 64-bit range)", s->name,
		    where, tb, tf, tt, gtime_fmt(CLOCK_END, 1, tp));
	else
		msg("%s%s: the clock steps back %s (from %s to %s): later "
		    "times read as continuing (+%s)", s->name, where, tb, tf,
		    tt, tp);
	if (s->opt->strict)
		source_trouble(s);
}

/*
 * Where a record read at raw is read on clock c: the shifts applied,
 * never past CLOCK_END (a time read past it stays as read).
 */
static inline uint64_t
clock_read(const struct rclock *c, uint64_t raw)
{
	uint64_t t = raw + c->shift;

	if (c->shift != 0 && (t < raw || t > CLOCK_END))
		t = raw > CLOCK_END ? raw : CLOCK_END;
	if (raw < c->fold_end && t + c->fold_shift > t &&
	    t + c->fold_shift <= CLOCK_END)
		t += c->fold_shift;
	return t;
}

/* Whether a record read at t is more than the disorder allowed back. */
static int
clock_back(const struct rclock *c, uint64_t t)
{
	uint64_t iv = clock_interval(c);

	return t < c->latest && c->latest - t > NS_PER_SEC &&
	    c->latest - t > 2 * iv;
}

/*
 * The step back to raw (read at *t) is confirmed: repair *t and say so at
 * where.
 */
static void
clock_step(struct source *s, struct rclock *c, const char *where,
    uint64_t raw, uint64_t *t)
{
	uint64_t iv = clock_interval(c), end, delta, back = c->latest - *t;
	size_t i;

	if (c->latest + iv < c->latest)
		iv = 0;		/* hostile times at the end of the range */
	/*
	 * Into an hour the zone repeats, from its first pass: the second
	 * pass, exactly (gtime_local() read it as the first).
	 */
	if ((c->fold_end == 0 || raw >= c->fold_end) &&
	    gtime_fold(raw, &end, &delta) && c->latest_raw >= end - delta &&
	    c->latest_raw <= end && raw < c->latest_raw) {
		c->fold_end = end;
		c->fold_shift = delta;
		*t = clock_read(c, raw);
		clock_said(s, where, c->latest_raw, raw + delta, back, delta,
		    STEP_DST);
		return;
	}
	c->fold_end = 0;
	if (c->latest > CLOCK_END || CLOCK_END - c->latest < iv ||
	    CLOCK_END - c->latest - iv < back) {
		/*
		 * Continuing for as long again as it steps back would pass
		 * the end of the range: read on from here as read.
		 */
		clock_said(s, where, c->latest_raw, raw, back, 0,
		    STEP_AS_READ);
		c->latest = *t;
		c->latest_raw = raw;
		return;
	}
	c->shift += c->latest + iv - *t;
	*t = c->latest + iv;
	clock_said(s, where, c->latest_raw, raw, back, c->shift,
	    STEP_CONTINUING);
	if (c->kind == 0)	/* the device rows: the others of the host */
		for (i = 1; i < SOURCE_NCLOCK; i++) {
			c[i].armed = 1;
			c[i].arm_from = c->latest_raw;
			c[i].arm_shift = c->shift;
		}
}

/*
 * A record whose time a step back's shift would carry past CLOCK_END is
 * read at CLOCK_END: counted, and said the first time (at where, or the
 * parser's position when NULL).
 */
static void
clock_held_at_end(struct source *s, const char *where)
{
	char te[GTIME_BUFSZ];
	struct sbuf here = SBUF_INIT;

	if (s->nheld_at_end++ > 0)
		return;
	if (where != NULL)
		sbuf_adds(&here, where);
	else
		source_where(s, &here);
	msg("%s%s: continuing after the clock's step back would carry times "
	    "past %s, the end of the signed 64-bit range: held there "
	    "(counted in the summary)", s->name, here.buf,
	    gtime_fmt(CLOCK_END, 1, te));
	sbuf_release(&here);
}

/*
 * Live without --lag: a record came `late' behind the newest one read, too
 * late to be put in order.  Let the records that follow wait twice that
 * (within SOURCE_MAXLAG), so that inputs as out of order as this one lose
 * no more, and say so the first time.
 */
static void
grow_lag(struct source *s, uint64_t late)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ];
	uint64_t lag = late > SOURCE_MAXLAG / 2 ? SOURCE_MAXLAG : 2 * late;

	if (lag <= s->lag)
		return;
	if (!s->lag_grown++)
		source_warn(s, "records come out of order by %ss: from now on "
		    "each waits %ss for earlier ones (--lag sets how long)",
		    gtime_fmt_secs(late, a), gtime_fmt_secs(lag, b));
	s->lag = lag;
}

/*
 * Hand r, read at t on clock c, to the window.  where: the position of a
 * record held back (clockpend), else NULL for the parser's.
 */
static void
emit_at(struct source *s, struct rclock *c, struct rec *r, uint64_t t,
    const char *where)
{
	uint64_t raw = r->ts;
	int rc;

	if (t == CLOCK_END && raw != t && raw + c->shift != t)
		clock_held_at_end(s, where);
	if (t > c->latest) {
		c->latest = t;
		c->latest_raw = raw;
	}
	r->src = s->idx;
	r->ts = t;
	rc = window_push(&s->win, r);
	r->ts = raw;		/* the parser may reuse r as it was */
	if (rc >= 0) {
		if (rc == 1 && s->ncut++ == 0)
			source_warn(s, "host or process names longer than %u "
			    "bytes are cut to that (counted in the summary)",
			    REC_MAXSTR);
		if (!rec_is_mark(r))
			s->nrec++;
		if (t > s->newest)
			s->newest = t;
		return;
	}
	/* Earlier than what this input has already written. */
	s->nlate++;
	if (s->nshown < SOURCE_MAXSHOWN) {
		char tb[GTIME_BUFSZ];
		struct sbuf here = SBUF_INIT;

		s->nshown++;
		if (where != NULL)
			sbuf_adds(&here, where);
		else
			source_where(s, &here);
		if (s->live) {
			char lag[GTIME_BUFSZ];

			msg("%s%s: record at %s is earlier than records "
			    "already written (live: more than --lag %ss "
			    "behind one read before it); skipped, try a larger "
			    "--lag", s->name, here.buf, gtime_fmt(t, 1, tb),
			    gtime_fmt_secs(s->lag, lag));
		} else
			msg("%s%s: record at %s is earlier than records "
			    "already written (beyond the reorder window of %zu "
			    "record%s); skipped, try a larger --window", s->name,
			    here.buf, gtime_fmt(t, 1, tb), s->opt->window,
			    s->opt->window == 1 ? "" : "s");
		sbuf_release(&here);
	}
	if (s->opt->strict)
		source_trouble(s);
	if (s->live && !s->opt->lag_set)
		grow_lag(s, s->newest - t);
}

/* Hold r back until the next record of its clock says what it is. */
static void
clock_hold(struct source *s, struct rclock *c, const struct rec *r)
{
	struct clockpend *p = ecalloc(1, sizeof(*p));
	struct sbuf where = SBUF_INIT;

	p->r = *r;
	p->host = estrdup(r->host);
	p->name = estrdup(r->name);
	p->gpukey = r->gpukey != NULL ? estrdup(r->gpukey) : NULL;
	p->r.host = p->host;
	p->r.name = p->name;
	p->r.gpukey = p->gpukey;
	source_where(s, &where);
	p->where = where.buf;
	c->pend = p;
}

/*
 * Let the record held back on clock c go: a step back when confirmed (the
 * record after it is as far back), else a record out of place, read as
 * it is (the reorder window takes it or refuses it as late).
 */
static void
clock_release(struct source *s, struct rclock *c, int confirmed)
{
	struct clockpend *p = c->pend;
	uint64_t t = clock_read(c, p->r.ts);

	c->pend = NULL;
	if (confirmed)
		clock_step(s, c, p->where, p->r.ts, &t);
	emit_at(s, c, &p->r, t, p->where);
	free(p->host);
	free(p->name);
	free(p->gpukey);
	free(p->where);
	free(p);
}

/*
 * The slow path of source_emit(): r (read at raw, *t on its clock) is far
 * back, or the clock holds a record back, or is armed.  Return 1 when r is
 * held back, else 0 with *t where r goes.
 */
static int
clock_check(struct source *s, struct rclock *c, const struct rec *r,
    uint64_t raw, uint64_t *t)
{
	if (c->pend != NULL) {
		clock_release(s, c, clock_back(c, *t));
		*t = clock_read(c, raw);
	}
	if (c->armed) {
		c->armed = 0;
		if (raw <= c->arm_from && raw + c->arm_shift > raw) {
			/* Where the device rows went, the rest goes too. */
			struct sbuf where = SBUF_INIT;

			c->fold_end = 0;
			c->shift = c->arm_shift;
			*t = clock_read(c, raw);
			source_where(s, &where);
			clock_said(s, where.buf, c->arm_from, raw,
			    c->arm_from - raw, c->shift, STEP_CONTINUING);
			sbuf_release(&where);
			return 0;
		}
	}
	if (!clock_back(c, *t))
		return 0;
	clock_hold(s, c, r);
	return 1;
}

static void
clock_flush1(struct source *s, struct rclock *c)
{
	if (c->pend != NULL)
		clock_release(s, c, 0);
}

void
source_clock_flush(struct source *s)
{
	clocks_each(s, clock_flush1);
}

static void
clock_reset1(struct source *s, struct rclock *c)
{
	struct clockslot *sl = c->slot;
	unsigned kind = c->kind;
	int loose = c->loose;

	(void)s;
	if (sl != NULL)
		memset(sl, 0, SOURCE_NSLOT * sizeof(*sl));
	memset(c, 0, sizeof(*c));
	c->slot = sl;
	c->kind = kind;
	c->loose = loose;
}

void
source_clock_reset(struct source *s)
{
	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	source_clock_flush(s);
	clocks_each(s, clock_reset1);
}

/* Free what a clock holds. */
static void
clock_free1(struct source *s, struct rclock *c)
{
	struct clockpend *p = c->pend;

	(void)s;
	if (p != NULL) {
		free(p->host);
		free(p->name);
		free(p->gpukey);
		free(p->where);
		free(p);
	}
	free(c->slot);
}

void
source_clocks_init(struct source *s)
{
	clocks_init(s->clk, 0);
	clocks_init(s->loose, 1);
}

void
source_clocks_release(struct source *s)
{
	clocks_each(s, clock_free1);
	memset(s->clk, 0, sizeof(s->clk));
	memset(s->loose, 0, sizeof(s->loose));
	source_clocks_init(s);
	hmap_release(&s->hostclk, hostclk_free);
	s->lastkey = NULL;
	s->lastclk = NULL;
}

void
source_emit(struct source *s, struct rec *r)
{
	struct rclock *c;
	uint64_t raw = r->ts, t;

	if (s->cap != NULL) {
		chunks_emit(s, r, 0);	/* a fork's (chunks.h) */
		return;
	}
	c = clock_of(s, r);
	if (!rec_is_mark(r))
		clock_sample(c, r);
	t = clock_read(c, raw);
	/* The common case, in order: a compare and a branch. */
	if ((t + NS_PER_SEC < c->latest || c->pend != NULL || c->armed) &&
	    !c->loose && clock_check(s, c, r, raw, &t))
		return;
	emit_at(s, c, r, t, NULL);
}

struct rclock *
source_stream(struct source *s, const void *key, size_t len)
{
	if (s->cap != NULL) {
		chunks_bail(s);
		return NULL;
	}
	s->sclk = NULL;
	if (key != NULL && (s->sclk = key_clocks(s, key, len, 1)) == NULL)
		s->sclk = s->loose;
	return s->sclk;
}

void
source_stream_clocks(struct source *s, struct rclock *clk)
{
	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	s->sclk = clk;
}

void
source_stream_restart(struct source *s, const void *key, size_t len)
{
	struct rclock *c;
	unsigned i;

	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	c = key_clocks(s, key, len, 0);
	if (c == NULL)
		return;
	for (i = 0; i < SOURCE_NCLOCK; i++) {
		clock_flush1(s, &c[i]);
		clock_reset1(s, &c[i]);
	}
}

/*
 * No clock_sample(): the next sample in order would count an interval
 * from this one, as long as the record is late.
 */
void
source_emit_late(struct source *s, struct rec *r)
{
	struct rclock *c;

	if (s->cap != NULL) {
		chunks_emit(s, r, 1);
		return;
	}
	c = clock_of(s, r);
	emit_at(s, c, r, clock_read(c, r->ts), NULL);
}

/* The clocks' part of the summary line. */
void
source_clock_summary(const struct source *s, struct sbuf *sb)
{
	uint64_t cont = s->nstep - s->nstep_as_read;

	if (cont > 0)
		sbuf_printf(sb, ", %llu clock step%s back read as continuing",
		    (unsigned long long)cont, cont == 1 ? "" : "s");
	if (s->nstep_as_read > 0)
		sbuf_printf(sb, ", %llu clock step%s back read as they are "
		    "(continuing would pass the signed 64-bit range)",
		    (unsigned long long)s->nstep_as_read,
		    s->nstep_as_read == 1 ? "" : "s");
	if (s->nheld_at_end > 0)
		sbuf_printf(sb, ", %llu record%s held at the end of the "
		    "signed 64-bit range after a step back",
		    (unsigned long long)s->nheld_at_end,
		    s->nheld_at_end == 1 ? "" : "s");
}
