/* SPDX-License-Identifier: ISC */
/*
 * recdir.c: the exact exits and device holders of a gpumem record
 * directory (recdir.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "engine.h"
#include "num.h"
#include "recdir.h"
#include "stream.h"
#include "util.h"

#define ROUNDING (5 * 1000 * 1000)	/* ns: logs' times are to the ms */
#define SLACK (2ULL * 1000 * 1000 * 1000)	/* ns: "before", "with it" */

struct pexit {
	uint32_t pid;
	uint64_t at;
};

struct holder {
	uint64_t t;
	uint32_t gpu, pid;
	char *name, *container;
};

struct recdir {
	struct pexit *x;
	size_t nx;
	struct holder *h;
	size_t nh;
};

static int
num(const char *s, size_t n, uint64_t *v)
{
	return n == 0 ? -1 : num_parse_u64(s, n, v);
}

/* One row of procs.csv (6 fields); -1 when it does not read. */
static int
procs_row(struct recdir *rd, char **f, size_t *len)
{
	uint64_t pid, at;

	if (num(f[0], len[0], &pid) < 0 || pid == 0 || pid > UINT32_MAX)
		return -1;
	if (len[4] == 0)
		return 0;		/* running at the end */
	if (num(f[4], len[4], &at) < 0)
		return -1;
	rd->x = egrow(rd->x, rd->nx, sizeof(*rd->x));
	rd->x[rd->nx].pid = (uint32_t)pid;
	rd->x[rd->nx++].at = at;
	return 0;
}

/* One row of holders.csv (6 fields); -1 when it does not read. */
static int
holders_row(struct recdir *rd, char **f, size_t *len)
{
	uint64_t t, gpu, pid;
	struct holder *h;

	if (num(f[0], len[0], &t) < 0 || num(f[1], len[1], &gpu) < 0 ||
	    gpu > UINT32_MAX || num(f[2], len[2], &pid) < 0 ||
	    pid > UINT32_MAX)
		return -1;
	rd->h = egrow(rd->h, rd->nh, sizeof(*rd->h));
	h = &rd->h[rd->nh++];
	h->t = t;
	h->gpu = (uint32_t)gpu;
	h->pid = (uint32_t)pid;
	h->name = estrdup(f[3]);
	h->container = estrdup(f[5]);
	return 0;
}

/*
 * Read dir/name when it is there, each row after the header through row.
 * Return 1 when absent, 0 when read, -1 after a message.
 */
static int
load_file(struct recdir *rd, const char *dir, const char *name,
    const char *header, int (*row)(struct recdir *, char **, size_t *))
{
	struct sbuf path = SBUF_INIT;
	char *line = NULL, *f[7];
	size_t cap = 0, len[7], bad = 0, first = 0;
	unsigned lineno = 0;
	ssize_t got;
	FILE *fp;
	int rc = 0;

	sbuf_printf(&path, "%s/%s", dir, name);
	if ((fp = fopen(path.buf, "r")) == NULL) {
		rc = errno == ENOENT ? 1 : -1;
		if (rc < 0)
			msg("%s: cannot open:", path.buf);
		sbuf_release(&path);
		return rc;
	}
	while ((got = getline(&line, &cap, fp)) > 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, header) != 0) {
				msg("%s:1: expected the header '%s'", path.buf,
				    header);
				rc = -1;
				break;
			}
			continue;
		}
		if (csv_split(line, f, len, 6, 0) != 6 || row(rd, f, len) < 0)
			if (bad++ == 0)
				first = lineno;
	}
	if (rc == 0 && ferror(fp)) {
		msg("%s: read error:", path.buf);
		rc = -1;
	}
	if (bad > 0)
		warnmsg("%s:%zu: %zu row%s that do%s not read, left out",
		    path.buf, first, bad, bad == 1 ? "" : "s",
		    bad == 1 ? "es" : "");
	fclose(fp);
	free(line);
	sbuf_release(&path);
	return rc;
}

struct recdir *
recdir_load(char *const *paths, size_t n, int *status)
{
	struct recdir *rd = ecalloc(1, sizeof(*rd));
	size_t i;
	int found = 0, a, b;

	for (i = 0; i < n; i++) {
		if (strcmp(paths[i], "-") == 0 || !stream_is_dir(paths[i]))
			continue;
		a = load_file(rd, paths[i], "procs.csv",
		    "pid,ppid,name,start_ns,exit_ns,exit", procs_row);
		b = load_file(rd, paths[i], "holders.csv",
		    "time_ns,gpu,pid,name,cgroup,container", holders_row);
		if (a < 0 || b < 0)
			*status = EXIT_TROUBLE;
		found |= a == 0 || b == 0;
	}
	if (!found) {
		recdir_free(rd);
		return NULL;
	}
	return rd;
}

int
recdir_exit(const struct recdir *rd, uint32_t pid, uint64_t last,
    uint64_t end, uint64_t *exit)
{
	size_t i;

	if (rd == NULL)
		return 0;
	for (i = 0; i < rd->nx; i++)
		if (rd->x[i].pid == pid && rd->x[i].at + ROUNDING >= last &&
		    rd->x[i].at <= end) {
			*exit = rd->x[i].at > last ? rd->x[i].at : last;
			return 1;
		}
	return 0;
}

const char *
recdir_holder(const struct recdir *rd, uint32_t gpu, uint64_t from,
    uint64_t to, char *buf, size_t n)
{
	struct cand {
		size_t row, polls;	/* its first row in the span */
		uint64_t first, last;	/* its first and last polls at all */
		int score;
	} *c = NULL;
	size_t nc = 0, i, k, best;

	if (rd == NULL)
		return NULL;
	/* The holders of gpu, in order of their first polls. */
	for (i = 0; i < rd->nh; i++) {
		const struct holder *h = &rd->h[i];
		int in = h->t >= from && h->t <= to;

		if (h->gpu != gpu)
			continue;
		for (k = 0; k < nc && rd->h[c[k].row].pid != h->pid; k++)
			;
		if (k == nc) {
			c = egrow(c, nc, sizeof(*c));
			c[nc].row = i;
			c[nc].polls = 0;
			c[nc++].first = h->t;
		}
		c[k].last = h->t;
		if (in && c[k].polls++ == 0)
			c[k].row = i;
	}
	/*
	 * One that let go when the memory came back (to is the release),
	 * then one new to the GPU, then the most polls in the span.
	 */
	for (best = nc, k = 0; k < nc; k++) {
		if (c[k].polls == 0)
			continue;
		c[k].score = 2 * (to == UINT64_MAX || c[k].last <= to + SLACK) +
		    (c[k].first + SLACK >= from);
		if (best == nc || c[k].score > c[best].score ||
		    (c[k].score == c[best].score &&
		    c[k].polls > c[best].polls))
			best = k;
	}
	if (best == nc) {
		free(c);
		return NULL;
	}
	i = c[best].row;
	free(c);
	snprintf(buf, n, "held by %u %s%s%s", rd->h[i].pid, rd->h[i].name,
	    rd->h[i].container[0] != '\0' ? " in container " : "",
	    rd->h[i].container);
	return buf;
}

/* Whether pid is among v[0..n-1]. */
static int
among(uint32_t pid, const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == pid)
			return 1;
	return 0;
}

/* The first poll of pid on gpu. */
static uint64_t
first_poll(const struct recdir *rd, uint32_t gpu, uint32_t pid)
{
	size_t i;

	for (i = 0; i < rd->nh; i++)
		if (rd->h[i].gpu == gpu && rd->h[i].pid == pid)
			return rd->h[i].t;
	return 0;
}

const char *
recdir_at_end(const struct recdir *rd, uint32_t gpu, uint64_t since,
    uint64_t end, uint64_t iv, const uint32_t *listed, size_t nlisted,
    uint64_t *first, char *buf, size_t n)
{
	uint64_t last = 0, lo = end > iv + SLACK ? end - iv - SLACK : 0, f;
	size_t i, named = 0, more = 0;
	int fresh = 0, pass;
	struct sbuf sb = SBUF_INIT;

	if (rd == NULL)
		return NULL;
	/* The last scan around the end: its rows share one time. */
	for (i = 0; i < rd->nh; i++)
		if (rd->h[i].t >= lo && rd->h[i].t <= end + SLACK &&
		    rd->h[i].t > last)
			last = rd->h[i].t;
	/* Pass 0: is one of them new since the start?  1: name them. */
	for (pass = 0; pass < 2 && last != 0; pass++)
		for (i = 0; i < rd->nh; i++) {
			const struct holder *h = &rd->h[i];

			if (h->t != last || h->gpu != gpu ||
			    among(h->pid, listed, nlisted))
				continue;
			f = first_poll(rd, gpu, h->pid);
			if (pass == 0) {
				fresh |= f > since + SLACK;
				continue;
			}
			if (fresh && f <= since + SLACK)
				continue;
			if (named == 0 || f < *first)
				*first = f;
			if (named++ == RECDIR_NAMED) {
				named--;
				more++;
				continue;
			}
			sbuf_printf(&sb, "%s%u %s%s%s", named == 1 ? "held by " :
			    " and ", h->pid, h->name, h->container[0] != '\0' ?
			    " in container " : "", h->container);
		}
	if (more > 0)
		sbuf_printf(&sb, " and %zu more", more);
	if (named > 0)
		snprintf(buf, n, "%s", sb.buf);
	sbuf_release(&sb);
	return named > 0 ? buf : NULL;
}

unsigned
recdir_end(const struct recdir *rd, uint32_t pid, uint64_t last,
    uint64_t *end)
{
	uint64_t x;

	if (!recdir_exit(rd, pid, last, *end, &x))
		return 0;
	*end = x;
	return NOTE_EXACT;
}

uint64_t
recdir_held_until(int exact, uint64_t last, uint64_t end, uint64_t ts)
{
	uint64_t from = exact ? end : last;

	return ts > from ? ts - from : 0;
}

unsigned
recdir_name(const struct recdir *rd, uint32_t gpu, struct task *t, char *buf,
    size_t n)
{
	if (recdir_holder(rd, gpu, t->start, t->release != 0 ? t->release :
	    UINT64_MAX, buf, n) == NULL)
		return 0;
	t->name = buf;
	return NOTE_HOLDER;
}

void
recdir_free(struct recdir *rd)
{
	size_t i;

	if (rd == NULL)
		return;
	for (i = 0; i < rd->nh; i++) {
		free(rd->h[i].name);
		free(rd->h[i].container);
	}
	free(rd->h);
	free(rd->x);
	free(rd);
}
