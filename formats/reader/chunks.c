/* SPDX-License-Identifier: ISC */
/*
 * chunks.c: one large text input decoded in chunks by threads, what its
 * parser's forks did done again in file order by the input's worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunks.h"

/* What a fork did: its calls, in order, each with its line. */
enum { CE_REC, CE_LATE, CE_BAD, CE_SKIP, CE_LEARN, CE_WARN };

/* Strings kept in the chunk's text (offsets + 1), not in its bytes. */
enum { KEPT_HOST = 1, KEPT_NAME = 2, KEPT_KEY = 4 };

struct cev {
	unsigned char kind;
	unsigned char kept;	/* CE_REC, CE_LATE: enum KEPT_* */
	uint32_t line;		/* in the chunk, from 0 */
	union {
		struct rec r;	/* CE_REC, CE_LATE */
		struct {
			const char *why;	/* CE_SKIP: a static string */
			size_t a, b, c;	/* text offsets + 1 (0: NULL):
					   CE_BAD where, body; CE_WARN
					   text; CE_LEARN host, uuid, bus */
			int64_t index;	/* CE_LEARN */
		} o;
	} u;
};

/* One chunk: its bytes, the fork that read them, what the fork did. */
struct chunkcap {
	int state;		/* enum below; under the lock */
	size_t k;		/* its number */
	char *buf;		/* its bytes (lines NUL-terminated in place) */
	size_t len, bufcap;
	uint64_t nlines;	/* lines in it (read, up to a stop) */
	size_t nkept;		/* records with a string kept in text */
	int stopped;		/* the fork stopped before line stop */
	uint64_t stop;
	int bail;		/* the line being read made a call not kept */
	uint64_t line;		/* the line being read */
	int unterm;		/* it has no "\n" (the file's last) */
	struct cev *ev;
	size_t nev, capev;
	struct sbuf text;
	struct source cs;	/* the fork's source (cs.cap is this) */
	void *st;		/* the fork */
};

enum { SLOT_FREE, SLOT_MAKING, SLOT_READY };

/* Where the worker is (phase). */
enum { PH_HEAD, PH_CHUNKS, PH_SERIAL, PH_DONE };

struct chunks {
	pthread_mutex_t mu;
	pthread_cond_t work;	/* a chunk may be made */
	pthread_cond_t ready;	/* a chunk was made */
	struct source *s;
	int fd;			/* the file, for pread */
	uint64_t size;
	size_t csize;
	pthread_t *th;
	unsigned nth;

	/* Under the lock. */
	void *base;		/* the state every fork is copied from */
	int go;			/* base and p0 are set: make chunks */
	int stop;
	size_t next;		/* the next chunk to make */
	size_t cur;		/* the chunk the worker reads */
	struct chunkcap slot[CHUNKS_AHEAD];

	uint64_t p0;		/* the offset of chunk 0 */
	size_t nchunks;
	struct source base_src;	/* the base's source: never called */

	/* The worker's. */
	int phase;
	struct chunkcap *c;	/* the chunk being done */
	size_t evpos;
	uint64_t first;		/* the number of its first line */
	uint64_t head;		/* lines read before the chunks (0: none) */
	size_t joined;		/* chunks read by forks and done */
	uint64_t from;		/* read serially from this line on, or 0 */
};

static void
lock(struct chunks *c)
{
	if (pthread_mutex_lock(&c->mu) != 0)
		BUG("pthread_mutex_lock");
}

static void
unlock(struct chunks *c)
{
	if (pthread_mutex_unlock(&c->mu) != 0)
		BUG("pthread_mutex_unlock");
}

size_t
chunks_size(void)
{
	const char *e = getenv("GPUMEM_CHUNK_SIZE");
	char *end;
	unsigned long long v;

	if (e == NULL || *e == '\0')
		return CHUNKS_SIZE;
	errno = 0;
	v = strtoull(e, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > (1ULL << 30))
		return CHUNKS_SIZE;
	return (size_t)v;
}

int
chunks_can(const struct source *s)
{
	struct stat sb;

	if (s->fmt == NULL || s->fmt->fork == NULL || s->fmt->line == NULL ||
	    s->in == NULL || s->live || s->eof || !input_is_file(s->in) ||
	    input_compression(s->in) != NULL ||
	    input_encoding(s->in) != NULL || input_lineno(s->in) != 0)
		return 0;
	if (stat(s->path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	return (uint64_t)sb.st_size >= 2 * (uint64_t)chunks_size();
}

/* --- A fork's calls, kept --- */

static struct cev *
add_ev(struct chunkcap *c, unsigned kind)
{
	struct cev *e;

	if (c->nev == c->capev) {
		c->capev = c->capev ? 2 * c->capev : 1024;
		c->ev = ereallocarray(c->ev, c->capev, sizeof(*c->ev));
	}
	e = &c->ev[c->nev++];
	e->kind = kind;
	e->kept = 0;
	e->line = c->line;
	return e;
}

static size_t
keep(struct chunkcap *c, const char *p)
{
	size_t at = c->text.len;

	if (p == NULL)
		return 0;
	sbuf_add(&c->text, p, strlen(p) + 1);
	return at + 1;
}

/*
 * A record's string: where the parser left it when that is in the
 * chunk's bytes (they stay until the record is done), else kept.
 */
static const char *
rec_str(struct chunkcap *c, struct cev *e, const char *p, unsigned bit)
{
	if (p == NULL || (p >= c->buf && p < c->buf + c->len + 1))
		return p;
	e->kept |= bit;
	return (const char *)(uintptr_t)keep(c, p);
}

void
chunks_emit(struct source *cs, const struct rec *r, int late)
{
	struct chunkcap *c = cs->cap;
	struct cev *e;

	if (c->bail)
		return;
	e = add_ev(c, late ? CE_LATE : CE_REC);
	e->u.r = *r;
	e->u.r.host = rec_str(c, e, r->host, KEPT_HOST);
	e->u.r.name = rec_str(c, e, r->name, KEPT_NAME);
	e->u.r.gpukey = rec_str(c, e, r->gpukey, KEPT_KEY);
	c->nkept += e->kept != 0;
}

void
chunks_bad(struct source *cs, const char *where, const char *body)
{
	struct chunkcap *c = cs->cap;
	struct cev *e;

	if (c->bail)
		return;
	e = add_ev(c, CE_BAD);
	e->u.o.a = keep(c, where);
	e->u.o.b = keep(c, body);
}

void
chunks_skip(struct source *cs, const char *why)
{
	struct chunkcap *c = cs->cap;

	if (!c->bail)
		add_ev(c, CE_SKIP)->u.o.why = why;
}

void
chunks_learn(struct source *cs, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	struct chunkcap *c = cs->cap;
	struct cev *e;

	if (c->bail)
		return;
	e = add_ev(c, CE_LEARN);
	e->u.o.a = keep(c, host);
	e->u.o.b = keep(c, uuid);
	e->u.o.c = keep(c, bus);
	e->u.o.index = index;
}

void
chunks_warn(struct source *cs, const char *text)
{
	struct chunkcap *c = cs->cap;

	if (!c->bail)
		add_ev(c, CE_WARN)->u.o.a = keep(c, text);
}

void
chunks_bail(struct source *cs)
{
	cs->cap->bail = 1;
}

int
chunks_unterminated(const struct source *cs)
{
	return cs->cap->unterm;
}

/* --- Making a chunk (a chunk thread) --- */

/* Read [off, off + n) of the file into c->buf; 0, or -1 on an error. */
static int
read_at(struct chunks *ch, struct chunkcap *c, uint64_t off, size_t n)
{
	size_t got = 0;
	ssize_t r;

	if (n + 1 > c->bufcap) {
		c->bufcap = n + 1;
		c->buf = erealloc(c->buf, c->bufcap);
	}
	while (got < n) {
		r = pread(ch->fd, c->buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;	/* the worker reads it and says why */
		got += (size_t)r;
	}
	c->len = n;
	c->buf[n] = '\0';
	return 0;
}

static const char *
text_at(const struct chunkcap *c, size_t v)
{
	return v == 0 ? NULL : c->text.buf + v - 1;
}

/*
 * Read the lines of chunk c (number k) with a fork of the base: the
 * lines that start in [p0 + k * size, p0 + (k + 1) * size), split as
 * input_getline splits them.  The bytes read reach a longest line past
 * the end; a line that is not plain (NUL bytes, a byte order mark,
 * CHUNKS_MAXLINE bytes or more) stops the fork before it.
 */
static void
make(struct chunks *ch, struct chunkcap *c, size_t k)
{
	uint64_t lo = ch->p0 + (uint64_t)k * ch->csize;
	uint64_t hi = lo + ch->csize, from, to, at;
	char *p, *nl, *end, *line, *nul;
	size_t i, n, mark;

	c->k = k;
	c->nlines = c->nev = c->nkept = 0;
	c->stopped = 0;
	c->bail = 0;
	sbuf_reset(&c->text);
	if (hi > ch->size)
		hi = ch->size;
	from = k == 0 ? lo : lo - 1;	/* a line starts after a newline */
	to = hi + CHUNKS_MAXLINE < ch->size ? hi + CHUNKS_MAXLINE : ch->size;
	memset(&c->cs, 0, sizeof(c->cs));
	c->cs.name = ch->s->name;
	c->cs.idx = ch->s->idx;
	c->cs.opt = ch->s->opt;
	c->cs.fopt = ch->s->fopt;
	c->cs.fmt = ch->s->fmt;
	c->cs.filehost = ch->s->filehost;
	c->cs.cap = c;
	c->st = ch->s->fmt->fork(ch->base, &c->cs);
	if (c->st == NULL || read_at(ch, c, from, (size_t)(to - from)) < 0) {
		c->stopped = 1;		/* the worker reads it all */
		c->stop = 0;
		c->len = 0;
		return;
	}
	p = c->buf;
	end = c->buf + c->len;
	if (k > 0) {
		/* The first line that starts at lo or after. */
		nl = memchr(p, '\n', (size_t)(hi - from));
		p = nl != NULL ? nl + 1 : c->buf + (hi - from);
	}
	/* The first NUL byte: a line before it has none. */
	if ((nul = memchr(p, '\0', (size_t)(end - p))) == NULL)
		nul = end + 1;
	for (;;) {
		at = from + (uint64_t)(p - c->buf);
		if (at >= hi)
			break;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL && to < ch->size)
			goto stop;	/* a line too long for a chunk */
		n = (size_t)((nl != NULL ? nl : end) - p);
		if (n >= CHUNKS_MAXLINE || nul <= p + n ||
		    (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0))
			goto stop;
		line = p;
		p += n + (nl != NULL);
		line[n] = '\0';
		if (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		c->line = c->nlines;
		c->unterm = nl == NULL;
		mark = c->nev;
		ch->s->fmt->line(c->st, line, source_unquote(line, n));
		if (c->bail) {
			c->nev = mark;
			goto stop;
		}
		c->nlines++;
		if (nl == NULL)
			break;		/* the last line, without its newline */
	}
	goto fix;
stop:
	c->stopped = 1;
	c->stop = c->nlines;
fix:
	for (i = 0; c->nkept > 0 && i < c->nev; i++) {
		struct cev *e = &c->ev[i];

		if (e->kept & KEPT_HOST)
			e->u.r.host = text_at(c, (uintptr_t)e->u.r.host);
		if (e->kept & KEPT_NAME)
			e->u.r.name = text_at(c, (uintptr_t)e->u.r.name);
		if (e->kept & KEPT_KEY)
			e->u.r.gpukey = text_at(c, (uintptr_t)e->u.r.gpukey);
	}
}

/*
 * Under the lock: make the next chunk no thread has taken, when the
 * slots have room for it (the lock is let go meanwhile).  Return whether
 * it did.
 */
static int
make_next(struct chunks *ch)
{
	struct chunkcap *c;
	size_t k;

	if (!ch->go || ch->next >= ch->nchunks ||
	    ch->next >= ch->cur + CHUNKS_AHEAD)
		return 0;
	k = ch->next++;
	c = &ch->slot[k % CHUNKS_AHEAD];
	c->state = SLOT_MAKING;
	unlock(ch);
	make(ch, c, k);
	lock(ch);
	c->state = SLOT_READY;
	pthread_cond_broadcast(&ch->ready);
	return 1;
}

static void *
chunk_thread(void *arg)
{
	struct chunks *ch = arg;

	lock(ch);
	while (!ch->stop)
		if (!make_next(ch))
			pthread_cond_wait(&ch->work, &ch->mu);
	unlock(ch);
	return NULL;
}

void
chunks_start(struct source *s, unsigned threads)
{
	struct chunks *ch = ecalloc(1, sizeof(*ch));
	struct stat sb;

	ch->s = s;
	ch->csize = chunks_size();
	ch->fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (ch->fd < 0 || fstat(ch->fd, &sb) != 0) {
		if (ch->fd >= 0)
			close(ch->fd);
		free(ch);
		return;		/* read as today */
	}
	ch->size = (uint64_t)sb.st_size;
	pthread_mutex_init(&ch->mu, NULL);
	pthread_cond_init(&ch->work, NULL);
	pthread_cond_init(&ch->ready, NULL);
	ch->phase = PH_HEAD;
	if (threads > CHUNKS_AHEAD)
		threads = CHUNKS_AHEAD;	/* more would wait for a slot */
	ch->th = ecalloc(threads, sizeof(*ch->th));
	for (ch->nth = 0; ch->nth < threads; ch->nth++)
		if (pthread_create(&ch->th[ch->nth], NULL, chunk_thread,
		    ch) != 0)
			break;
	s->chunks = ch;
	if (ch->nth == 0)
		ch->phase = PH_SERIAL;	/* no thread: read as today */
}

/* --- Doing what the forks did (the input's worker) --- */

/* Stop the chunk threads (each ends the chunk in hand). */
static void
halt(struct chunks *ch)
{
	unsigned t;

	lock(ch);
	ch->stop = 1;
	pthread_cond_broadcast(&ch->work);
	unlock(ch);
	for (t = 0; t < ch->nth; t++)
		pthread_join(ch->th[t], NULL);
	ch->nth = 0;
}

/*
 * The offset after line n (0 for none): where the lines the worker did
 * not read start.  -1 when the file ends first.
 */
static int64_t
after_line(struct chunks *ch, uint64_t n)
{
	char buf[65536];
	uint64_t off = 0, seen = 0;
	ssize_t r;
	char *p, *e;

	while (seen < n) {
		r = pread(ch->fd, buf, sizeof(buf), (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		for (p = buf, e = buf + r; seen < n &&
		    (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
			seen++;
		if (seen == n)	/* p is past that newline */
			return (int64_t)(off + (uint64_t)(p - buf));
		off += (uint64_t)r;
	}
	return 0;
}

/*
 * The header is read: fork the parser if it can be, and give the rest
 * of the file to the chunk threads.  Return whether it could.
 */
static int
begin(struct chunks *ch)
{
	struct source *s = ch->s;
	void *base;
	int64_t p0;

	ch->base_src = *s;	/* its name, options, format: never called */
	ch->base_src.cap = NULL;
	base = s->fmt->fork(s->st, &ch->base_src);
	if (base == NULL)
		return 0;
	p0 = after_line(ch, input_lineno(s->in));
	if (p0 < 0 || (uint64_t)p0 >= ch->size) {
		s->fmt->free(base);
		return 0;
	}
	lock(ch);
	ch->base = base;
	ch->p0 = (uint64_t)p0;
	ch->nchunks = (size_t)((ch->size - ch->p0 + ch->csize - 1) /
	    ch->csize);
	ch->go = 1;
	pthread_cond_broadcast(&ch->work);
	unlock(ch);
	ch->first = input_lineno(s->in) + 1;
	ch->head = input_lineno(s->in);
	return 1;
}

/* From now on the worker reads the input itself, from line `from` on. */
static int
serial(struct chunks *ch, uint64_t from)
{
	struct source *s = ch->s;
	char *line;
	size_t len;

	halt(ch);
	ch->phase = PH_SERIAL;
	ch->from = from;
	s->lineat = 0;
	/* The lines before were read by forks: pass over them. */
	while (input_lineno(s->in) + 1 < from &&
	    input_getline(s->in, &line, &len) == 1)
		;
	return -1;
}

/* Do what the fork did on the next line it did something on. */
static void
replay_line(struct chunks *ch)
{
	struct source *s = ch->s;
	struct chunkcap *c = ch->c;
	uint64_t line = c->ev[ch->evpos].line;

	s->lineat = ch->first + line;
	for (; ch->evpos < c->nev && c->ev[ch->evpos].line == line;
	    ch->evpos++) {
		struct cev *e = &c->ev[ch->evpos];

		switch (e->kind) {
		case CE_REC:
			source_emit(s, &e->u.r);
			break;
		case CE_LATE:
			source_emit_late(s, &e->u.r);
			break;
		case CE_BAD:
			if (e->u.o.a != 0)
				source_bad_at(s, text_at(c, e->u.o.a), "%s",
				    text_at(c, e->u.o.b));
			else
				source_bad(s, "%s", text_at(c, e->u.o.b));
			break;
		case CE_SKIP:
			source_skip(s, e->u.o.why);
			break;
		case CE_LEARN:
			source_learn(s, text_at(c, e->u.o.a), text_at(c, e->u.o.b),
			    text_at(c, e->u.o.c), e->u.o.index);
			break;
		default:
			source_warn(s, "%s", text_at(c, e->u.o.a));
			break;
		}
	}
}

/*
 * The next chunk, once it is made.  While it is not, the worker makes
 * the next chunk no thread has taken (it may be this one) rather than
 * sleep: on a busy machine a thread woken waits for a core, and the
 * chunk threads fall behind the worker.
 */
static struct chunkcap *
take(struct chunks *ch)
{
	struct chunkcap *c = &ch->slot[ch->cur % CHUNKS_AHEAD];

	lock(ch);
	while (c->state != SLOT_READY)
		if (!make_next(ch))
			pthread_cond_wait(&ch->ready, &ch->mu);
	unlock(ch);
	return c;
}

/* Chunk c is done: its fork's counts go to the parser, its slot back. */
static void
done(struct chunks *ch, struct chunkcap *c)
{
	struct source *s = ch->s;

	if (c->st != NULL) {
		s->fmt->join(s->st, c->st);
		s->fmt->free(c->st);
		c->st = NULL;
		if (!c->stopped || c->stop > 0)
			ch->joined++;
	}
	lock(ch);
	c->state = SLOT_FREE;
	ch->cur++;
	pthread_cond_broadcast(&ch->work);
	unlock(ch);
}

int
chunks_step(struct source *s)
{
	struct chunks *ch = s->chunks;
	struct chunkcap *c;

	switch (ch->phase) {
	case PH_HEAD:
		/* The header is read as -j 1 reads it, then the chunks. */
		if (input_lineno(s->in) == 0)
			return -1;
		if (begin(ch)) {
			ch->phase = PH_CHUNKS;
			return 1;
		}
		if (input_lineno(s->in) >= CHUNKS_MAXHEAD)
			return serial(ch, input_lineno(s->in) + 1);
		return -1;
	case PH_CHUNKS:
		break;
	case PH_DONE:
		return 0;
	default:
		return -1;
	}
	for (;;) {
		if (ch->c == NULL) {
			if (ch->cur == ch->nchunks) {
				ch->phase = PH_DONE;
				s->lineat = ch->first - 1;
				halt(ch);
				return 0;
			}
			ch->c = take(ch);
			ch->evpos = 0;
		}
		c = ch->c;
		if (ch->evpos < c->nev &&
		    (!c->stopped || c->ev[ch->evpos].line < c->stop)) {
			replay_line(ch);
			return 1;
		}
		ch->c = NULL;
		if (c->stopped) {
			uint64_t from = ch->first + c->stop;

			done(ch, c);
			return serial(ch, from);
		}
		ch->first += c->nlines;
		done(ch, c);
	}
}

/*
 * What the chunks did, for the tests (GPUMEM_CHUNK_TRACE set): whether
 * a fork of the parser read them and how far.
 */
static void
trace(const struct chunks *ch)
{
	const char *name = ch->s->name;

	if (ch->head == 0 && ch->from > 0)
		msg("%s: chunks: none (the parser not forked), read serially "
		    "from line %llu", name, (unsigned long long)ch->from);
	else if (ch->head == 0)
		msg("%s: chunks: none", name);
	else if (ch->from > 0)
		msg("%s: chunks: %zu of %zu read by forks after line %llu, "
		    "then serially from line %llu", name, ch->joined,
		    ch->nchunks, (unsigned long long)ch->head,
		    (unsigned long long)ch->from);
	else
		msg("%s: chunks: %zu of %zu read by forks after line %llu",
		    name, ch->joined, ch->nchunks,
		    (unsigned long long)ch->head);
}

void
chunks_stop(struct source *s)
{
	struct chunks *ch = s->chunks;
	size_t i;

	if (ch == NULL)
		return;
	halt(ch);
	if (getenv("GPUMEM_CHUNK_TRACE") != NULL)
		trace(ch);
	for (i = 0; i < CHUNKS_AHEAD; i++) {
		struct chunkcap *c = &ch->slot[i];

		if (c->st != NULL)
			s->fmt->free(c->st);
		free(c->buf);
		free(c->ev);
		sbuf_release(&c->text);
	}
	if (ch->base != NULL)
		s->fmt->free(ch->base);
	close(ch->fd);
	pthread_mutex_destroy(&ch->mu);
	pthread_cond_destroy(&ch->work);
	pthread_cond_destroy(&ch->ready);
	free(ch->th);
	free(ch);
	s->chunks = NULL;
	s->lineat = 0;
}
