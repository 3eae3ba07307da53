/* SPDX-License-Identifier: ISC */
/*
 * nvsmirow.c: a row of an nvidia-smi --query-gpu or --query-compute-apps
 * CSV log to a record (nvsmistate.h): its fields rejoined where a process
 * name holds commas, a last row cut short refused, its GPU (index,
 * wrapper's gpu column, UUID or bus id, one physical GPU per card), its
 * memory in MiB, the GPU identities told to the run's GPU map, the rows
 * of pid 0 of one poll summed per GPU and name, and the polls of rows
 * that could not be read marked so that they end no process.
 */
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "input.h"
#include "nvsmistate.h"
#include "physgpu.h"

/* Read a MiB column; return 1 value, 0 missing, -1 bad (reported). */
static int
mib(struct nvsmi *p, enum col c, const char *what, uint32_t *v)
{
	int i = p->col[c], rc;
	char q[48];

	if (i < 0)
		return 0;
	rc = field_mib(p->f[i], p->len[i], v);
	if (rc < 0)
		source_bad(p->s, "field '%s': expected MiB, got %s", what,
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	return rc;
}

/* An integer column (index, gpu, pid); 1, 0 missing, -1 bad (reported). */
static int
uintcol(struct nvsmi *p, enum col c, const char *what, uint32_t *v)
{
	int i = p->col[c], rc;
	char q[48];

	if (i < 0)
		return 0;
	rc = field_uint(p->f[i], p->len[i], v);
	if (rc < 0)
		source_bad(p->s, "field '%s': expected an integer, got %s",
		    what, field_quote(q, sizeof(q), p->f[i], p->len[i]));
	return rc;
}

/*
 * Tell the run's GPU map about a GPU, once per identity: a log repeats the
 * same few GPUs on every row, so the last identity of each small index is
 * remembered and compared; the rest go through a map.
 */
int
nvsmi_learned(struct nvsmi *p, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	size_t hl = strlen(host), ul = strlen(uuid), bl = strlen(bus);
	const struct sbuf *last;

	sbuf_reset(&p->lkey);
	sbuf_grow(&p->lkey, hl + ul + bl + 3);
	sbuf_add(&p->lkey, host, hl + 1);
	sbuf_add(&p->lkey, uuid, ul + 1);
	sbuf_add(&p->lkey, bus, bl + 1);
	if (index < 0 || index >= NLAST)
		return 0;
	last = &p->last[index];
	return last->len == p->lkey.len &&
	    memcmp(last->buf, p->lkey.buf, last->len) == 0;
}

void
nvsmi_learn(struct nvsmi *p, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	int isnew = 1;

	if (nvsmi_learned(p, host, uuid, bus, index)) {
		p->wrapped = 1;
		return;
	}
	if (index >= 0 && index < NLAST) {
		struct sbuf *last = &p->last[index];

		sbuf_reset(last);
		sbuf_add(last, p->lkey.buf, p->lkey.len);
	} else if (p->learned.n < GPUMAP_MAX) {
		/* Beyond, the GPU map keeps nothing new: nor do we. */
		sbuf_add(&p->lkey, &index, sizeof(index));
		hmap_put(&p->learned, p->lkey.buf, p->lkey.len, &isnew);
	}
	if (isnew)
		source_learn(p->s, host, uuid, bus, index);
}

/* A fork meets what only its base's parser may read (nvsmistate.h). */
static int
fork_stop(struct nvsmi *p)
{
	source_fork_stop(p->s);
	return -1;
}

/*
 * The GPU of a row: the wrapper's gpu column or index, else a UUID or bus
 * id resolved later, else its position in the block or poll.
 */
static int
row_gpu(struct nvsmi *p, struct rec *r, uint64_t ts)
{
	const char *uuid, *bus, *what, *id;
	uint32_t g, n, total;
	int rc, i;

	uuid = nvsmi_text_of(p, &p->uuid, p->col[C_UUID]);
	bus = nvsmi_text_of(p, &p->bus, p->col[C_BUS]);
	rc = uintcol(p, C_WGPU, "gpu", &g);
	if (rc == 0)
		rc = uintcol(p, C_INDEX, "index", &g);
	if (rc < 0)
		return -1;
	if (rc == 0 && p->forked)
		return fork_stop(p);	/* a GPU told by its place */
	if (rc > 0) {
		/*
		 * Logs of other GPUs joined, or a card swapped in its slot:
		 * each card a GPU of its own.  The UUID is the card; without
		 * one, its bus id and memory.total (a row whose total does
		 * not read is the card its index had last).
		 */
		i = p->col[C_TOTAL];
		what = id = NULL;
		if (*uuid != '\0') {
			what = "UUID";
			id = uuid;
		} else if (*bus != '\0' && i < 0) {
			what = "bus id";
			id = bus;
		} else if (*bus != '\0' && field_mib(p->f[i], p->len[i],
		    &total) > 0) {
			sbuf_reset(&p->card);
			sbuf_printf(&p->card, "%s, %u MiB", bus, total);
			what = "bus id and memory.total";
			id = p->card.buf;
		} else if (*bus != '\0')
			g = physgpu_cur(&p->phys, g);
		if (p->forked) {
			/* Only GPUs the base knew, as it knew them last. */
			if (id != NULL && !physgpu_last(&p->phys, r->host, id,
			    g, &n))
				return fork_stop(p);
			if (id != NULL)
				g = n;
			if (!nvsmi_learned(p, r->host, uuid, bus, g))
				return fork_stop(p);
			r->gpu = g;
			return 0;
		}
		if (id != NULL)
			g = physgpu_of(&p->phys, p->s, r->host, what, id, g);
		r->gpu = g;
		nvsmi_learn(p, r->host, uuid, bus, g);
		gpumap_set_add(&p->gpuset, g);
	} else if (*uuid != '\0' || *bus != '\0') {
		if (p->kind == K_GPU)
			nvsmi_learn(p, r->host, uuid, bus, -1);
		/* Resolved as the record leaves the reader. */
		r->gpukey = *uuid != '\0' ? uuid : bus;
	} else if (p->kind == K_APPS) {
		if (!p->apps_nogpu_said) {
			p->apps_nogpu_said = 1;
			source_warn(p->s, "no gpu_uuid or gpu_bus_id column: "
			    "every process is taken to be on GPU 0");
		}
		r->gpu = 0;
	} else if (p->col[C_TS] < 0 && !p->glued) {
		r->gpu = (uint32_t)p->block_rows;
		gpumap_set_add(&p->gpuset, r->gpu);
		if (p->block_rows + 1 == MANY_GPUS && !p->many_said) {
			p->many_said = 1;
			source_warn(p->s, "%d rows between two date lines "
			    "taken as %d GPUs of one poll: if each row is a "
			    "poll, give a GPU column in --fields", MANY_GPUS,
			    MANY_GPUS);
		}
	} else {
		if (!p->havepoll || ts < p->poll_ts ||
		    ts - p->poll_ts > POLL_SPREAD || p->newblock) {
			p->havepoll = 1;
			p->poll_ts = ts;
			p->poll_pos = 0;
			p->newblock = 0;
		}
		r->gpu = (uint32_t)p->poll_pos++;
		gpumap_set_add(&p->gpuset, r->gpu);
	}
	return 0;
}

/*
 * A poll mark for the poll at ts (rec.h, stream.c): POLL_UNREAD, it held
 * a row that could not be read (the process of that row is unknown, not
 * absent, and must not be ended by this poll); POLL_RESTART, the
 * compute-apps loop was started afresh before it (its header again after
 * rows: its interval is learnt anew).
 */
enum { POLL_UNREAD, POLL_RESTART };

static void
poll_mark(struct nvsmi *p, uint64_t ts, int what)
{
	struct rec m;

	rec_init(&m);
	m.ts = ts;
	/* The host of the last row read, for the clock of its host. */
	m.host = p->host.buf != NULL ? p->host.buf : source_host(p->s, NULL);
	m.origin = REC_SNAP_APPS;
	if (what == POLL_UNREAD)
		m.unread = 1;
	else
		m.restart = 1;
	source_emit(p->s, &m);
}

/*
 * A compute-apps loop restarted with a longer period and no header
 * (--format=csv,noheader): from some poll on, every gap is as long as
 * lost polls or silence would leave.  When the AHEAD_GAPS gaps after the
 * poll just read are each longer than three and a half of the log's
 * intervals (the engine's silence), steady (the longest within a quarter
 * of the shortest and half an old interval: lost polls leave gaps whole
 * intervals apart), and the process of the poll's last row is listed at
 * every one of those polls (it lived through them: the loop polled no
 * more often), the loop polls at that period from this poll: it is
 * marked a restart (the engine learns the interval anew) and the log's
 * interval is learnt anew too.  Lost polls, a suspend, a loop that dies
 * leave one long gap; a sparse log lists no process across its long
 * gaps.  A log whose polls cannot be read ahead (live, in a bundle, with
 * a host prefix or no timestamp column, an odd line) is left as it is.
 */
#define AHEAD_FIRST 1024	/* bytes: the next row */
#define AHEAD_BYTES (64 * 1024)	/* the polls ahead */
#define AHEAD_GAPS 5

/* Field i of the peeked line l (n bytes), trimmed; NULL when unread. */
static const char *
ahead_field(const struct nvsmi *p, int i, const char *l, size_t n,
    size_t *len)
{
	const char *e;
	int c;

	if (i < 0 || (p->wide >= 0 && p->wide < i))
		return NULL;	/* its commas cannot be counted */
	for (c = 0; c < i; c++) {
		if ((e = memchr(l, ',', n)) == NULL)
			return NULL;
		n -= (size_t)(e + 1 - l);
		l = e + 1;
	}
	if ((e = memchr(l, ',', n)) != NULL)
		n = (size_t)(e - l);
	while (n > 0 && (l[0] == ' ' || l[0] == '"'))
		l++, n--;
	while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '"' ||
	    l[n - 1] == '\r'))
		n--;
	*len = n;
	return n > 0 ? l : NULL;
}

/* The time of the peeked line l (n bytes); return 0, or -1 (unread). */
static int
ahead_time(const struct nvsmi *p, const char *l, size_t n, uint64_t *ts)
{
	const char *f = ahead_field(p, p->col[C_TS], l, n, &n);

	if (f == NULL)
		return -1;
	return nvsmi_time_text(p, f, n, ts) == 0 ? 0 : -1;
}

void
nvsmi_poll_ahead(struct nvsmi *p)
{
	uint64_t t[AHEAD_GAPS + 1], u, gap, lo = 0, hi = 0, far;
	uint32_t pid = p->row_pid, v;
	const unsigned char *b;
	const char *l, *e, *f;
	size_t n, fl, nt = 1;
	int seen = 0;

	if (!p->row_timed || p->glued)
		return;
	t[0] = p->row_ts;
	if (p->apps_last != 0 && t[0] > p->apps_last &&
	    (p->apps_iv == 0 || t[0] - p->apps_last < p->apps_iv))
		p->apps_iv = t[0] - p->apps_last;
	p->apps_last = t[0];
	if (p->apps_iv == 0 || pid == 0 || p->phost.len > 0 ||
	    source_live(p->s) || source_in_section(p->s) ||
	    source_input(p->s) == NULL)
		return;
	far = p->apps_iv * 7 / 2;
	/* The next row first (most rows end nothing), then the polls on. */
	n = input_peek(source_input(p->s), &b, AHEAD_FIRST);
	if ((e = memchr(b, '\n', n)) == NULL ||
	    ahead_time(p, (const char *)b, (size_t)(e - (const char *)b),
	    &u) < 0 || u <= t[0] || u - t[0] <= far)
		return;
	n = input_peek(source_input(p->s), &b, AHEAD_BYTES);
	for (l = (const char *)b; !(nt > AHEAD_GAPS && seen); l = e + 1) {
		e = memchr(l, '\n', n - (size_t)(l - (const char *)b));
		if (e == NULL || ahead_time(p, l, (size_t)(e - l), &u) < 0 ||
		    (f = ahead_field(p, p->col[C_PID], l, (size_t)(e - l),
		    &fl)) == NULL || field_uint(f, fl, &v) != 1)
			return;
		if (u == t[nt - 1]) {
			seen |= v == pid;	/* a row of the same poll */
			continue;
		}
		if ((nt > 1 && !seen) || nt > AHEAD_GAPS || u < t[nt - 1] ||
		    (gap = u - t[nt - 1]) <= far)
			return;	/* not listed, the interval, or a step */
		if (nt == 1 || gap < lo)
			lo = gap;
		if (nt == 1 || gap > hi)
			hi = gap;
		t[nt++] = u;
		seen = v == pid;
	}
	if (hi - lo > p->apps_iv / 2 || hi - lo > lo / 4)
		return;	/* lost polls: gaps whole intervals apart */
	poll_mark(p, t[0], POLL_RESTART);
	p->apps_iv = 0;
}

/*
 * A compute-apps row could not be read (reported): mark its poll.  When
 * its own time could not be read either, it belongs to the poll of the
 * row before it or to the next one (rows of a poll share their time):
 * mark both.
 */
void
nvsmi_unread_row(struct nvsmi *p)
{
	if (p->row_timed) {
		poll_mark(p, p->row_ts, POLL_UNREAD);
		return;
	}
	if (p->have_prev)
		poll_mark(p, p->prev_ts, POLL_UNREAD);
	p->unread_next = 1;
}

/*
 * Send the summed pid 0 rows of the poll on, in the order of their first
 * rows, and empty the list.
 */
void
nvsmi_pid0_flush(struct nvsmi *p)
{
	struct rec r;
	size_t i;

	for (i = 0; i < p->nz; i++) {
		struct pid0 *z = &p->z[i];

		rec_init(&r);
		r.ts = p->zts;
		r.host = z->host;
		r.gpu = z->gpu;
		r.gpukey = z->gpukey;
		r.name = z->name;
		r.pid = rec_name_pid(z->name, strlen(z->name));
		if (!z->unknown && z->used <= UINT32_MAX) {
			r.used = (uint32_t)z->used;
			r.has |= REC_USED;
		}
		r.origin = REC_SNAP_APPS;
		source_emit(p->s, &r);
		p->zrecs++;
		free(z->host);
		free(z->gpukey);
		free(z->name);
	}
	p->nz = 0;
}

/*
 * A row of pid 0: nvidia-smi in a container without the host's pid
 * namespace prints every process so.  Process id 0 is the whole device in
 * the record stream, and the rows cannot be told apart by their ids, so
 * the rows of one poll with the same GPU and name are read as one process
 * holding their sum (several workers of one program are one task), under
 * a process id made from the name.  r holds the row as read.
 */
static void
pid0_add(struct nvsmi *p, const struct rec *r)
{
	struct pid0 *z;
	size_t i;

	if (p->nz > 0 && r->ts != p->zts)
		nvsmi_pid0_flush(p);
	p->zts = r->ts;
	p->zrows++;
	for (i = 0; i < p->nz; i++) {
		z = &p->z[i];
		if (strcmp(z->host, r->host) == 0 &&
		    strcmp(z->name, r->name) == 0 &&
		    (r->gpukey != NULL ? z->gpukey != NULL &&
		    strcmp(z->gpukey, r->gpukey) == 0 :
		    z->gpukey == NULL && z->gpu == r->gpu))
			break;
	}
	if (i == p->nz) {
		struct rec m = *r;

		/*
		 * A poll mark where the first row was: its GPU is named
		 * there, in the order of the log (GPUs known by UUID alone
		 * are numbered in that order), though its sum comes later.
		 */
		m.pid = 0;
		m.has = 0;
		source_emit(p->s, &m);
		p->z = egrow(p->z, p->nz, sizeof(*p->z));
		z = &p->z[p->nz++];
		memset(z, 0, sizeof(*z));
		z->host = estrdup(r->host);
		z->name = estrdup(r->name);
		z->gpu = r->gpu;
		z->gpukey = r->gpukey != NULL ? estrdup(r->gpukey) : NULL;
	}
	if (r->has & REC_USED)
		z->used += r->used;
	else
		z->unknown = 1;
}

/*
 * A last line without a line end may have been cut short by a crash or a
 * full disk, inside its last value ("10240 MiB" cut to "10").  When that
 * value is a memory column, trust it only when it still ends as a whole
 * value does: with its unit, or as a placeholder.  A log without units
 * cannot show it, so its unterminated last row is refused too.  Return
 * whether the row is refused (reported).
 */
static int
cut_short(struct nvsmi *p)
{
	static const enum col mem[] = {
		C_TOTAL, C_USED, C_FREE, C_RESERVED, C_PUSED
	};
	size_t last = p->ncols - 1, i, n;
	const char *f;
	char q[48];

	if (!source_unterminated(p->s))
		return 0;
	for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
		if (p->col[mem[i]] == (int)last)
			break;
	if (i == sizeof(mem) / sizeof(mem[0]))
		return 0;
	f = p->f[last];
	n = p->len[last];
	/*
	 * "MiB" or "MB" (a unit cut inside, "Mi", is a bad value anyway), or
	 * a placeholder, but not an empty field: the cut came after a comma.
	 */
	if (n > 0 && (f[n - 1] == 'B' || field_placeholder(f, n)))
		return 0;
	source_bad(p->s, "the last line has no line end and its last value "
	    "%s has no unit: cut short? (skipped)", field_quote(q, sizeof(q), f,
	    n));
	return 1;
}

void
nvsmi_row(struct nvsmi *p, char *line)
{
	struct rec r;
	size_t nf, extra;
	uint32_t used, free_, total, reserved, pid;
	int hu, hf, ht, hr;
	char q[48];

	nf = field_split(line, ',', p->f, p->len, MAXCOLS);
	p->glued = p->col[C_TS] < 0 && nf == p->ncols + 1 &&
	    gtime_epoch(p->f[0], p->len[0], &p->glued_ts) == 0;
	if (p->glued) {
		/* echo "$(date +%s),$(nvidia-smi ... noheader)" */
		memmove(p->f, p->f + 1, --nf * sizeof(p->f[0]));
		memmove(p->len, p->len + 1, nf * sizeof(p->len[0]));
	}
	if (nf < p->ncols) {
		source_bad(p->s, "expected %zu fields, got %zu", p->ncols, nf);
		return;
	}
	extra = nf > MAXCOLS ? 0 : nf - p->ncols;
	if (nf > MAXCOLS || (extra > 0 && p->wide < 0)) {
		source_bad(p->s, "expected %zu fields, got %s%zu", p->ncols,
		    nf > MAXCOLS ? "more than " : "", nf > MAXCOLS ?
		    (size_t)MAXCOLS : nf);
		return;
	}
	if (extra > 0) {
		/* The wide column spans the extra fields: rejoin them. */
		size_t w = (size_t)p->wide, i;

		p->len[w] = (size_t)(p->f[w + extra] + p->len[w + extra] -
		    p->f[w]);
		for (i = w + 1; i + extra < nf; i++) {
			p->f[i] = p->f[i + extra];
			p->len[i] = p->len[i + extra];
		}
	}
	if (cut_short(p))
		return;
	rec_init(&r);
	sbuf_reset(&p->host);
	sbuf_adds(&p->host, source_host(p->s, p->col[C_HOST] < 0 &&
	    p->phost.len > 0 ? p->phost.buf : nvsmi_text_of(p, &p->name,
	    p->col[C_HOST])));
	r.host = p->host.buf;
	if (nvsmi_row_time(p, &r.ts) < 0)
		return;
	p->row_timed = 1;
	p->row_ts = r.ts;
	if (p->unread_next && p->kind == K_APPS) {
		/* The unreadable row before may have been of this poll. */
		p->unread_next = 0;
		if (r.ts != p->prev_ts)
			poll_mark(p, r.ts, POLL_UNREAD);
	}
	p->have_prev = 1;
	p->prev_ts = r.ts;
	if (row_gpu(p, &r, r.ts) < 0)
		return;
	if (p->kind == K_APPS) {
		int rc = uintcol(p, C_PID, "pid", &pid);

		if (rc <= 0) {
			if (rc == 0)
				source_bad(p->s, "field 'pid': expected an "
				    "integer, got %s", field_quote(q, sizeof(q),
				    p->f[p->col[C_PID]],
				    p->len[p->col[C_PID]]));
			return;
		}
		if ((hu = mib(p, C_PUSED, "used_gpu_memory", &used)) < 0)
			return;
		r.pid = pid;
		p->row_pid = pid;
		if (hu) {
			r.used = used;
			r.has |= REC_USED;
		} else
			p->nomem++;	/* WDDM: N/A (engine.h) */
		r.name = nvsmi_text_of(p, &p->name, p->col[C_PNAME]);
		if (p->col[C_PNAME] >= 0 && p->len[p->col[C_PNAME]] ==
		    sizeof(REC_NOT_FOUND) - 1 && memcmp(p->f[p->col[C_PNAME]],
		    REC_NOT_FOUND, sizeof(REC_NOT_FOUND) - 1) == 0)
			r.name = REC_NOT_FOUND;	/* dead, still listed */
		r.origin = REC_SNAP_APPS;
		if (p->nz > 0 && r.ts != p->zts)	/* their poll is over */
			nvsmi_pid0_flush(p);
		if (p->restarted) {
			poll_mark(p, r.ts, POLL_RESTART);
			p->restarted = 0;
		}
		if (pid == 0) {
			pid0_add(p, &r);
			return;
		}
	} else {
		if ((hu = mib(p, C_USED, "memory.used", &used)) < 0 ||
		    (hf = mib(p, C_FREE, "memory.free", &free_)) < 0 ||
		    (ht = mib(p, C_TOTAL, "memory.total", &total)) < 0 ||
		    (hr = mib(p, C_RESERVED, "memory.reserved",
		    &reserved)) < 0)
			return;
		if (!hu && !(hf && ht))
			p->nomem++;	/* unified memory: [N/A] */
		if (hu) {
			r.used = used;
			r.has |= REC_USED;
		}
		if (hf) {
			r.free = free_;
			r.has |= REC_FREE;
		}
		if (ht) {
			r.total = total;
			r.has |= REC_TOTAL;
		} else if (hu && hf) {
			/* R510+: total = reserved + used + free. */
			uint64_t t = (uint64_t)used + free_ +
			    (hr ? reserved : 0);

			if (t <= UINT32_MAX) {
				r.total = (uint32_t)t;
				r.has |= REC_TOTAL;
			}
		}
	}
	if (p->col[C_TS] < 0)
		nvsmi_poll_note(p, p->block_rows++);
	p->since_header++;
	p->rows++;
	source_emit(p->s, &r);
}
