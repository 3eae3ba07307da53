/* SPDX-License-Identifier: ISC */
/* rotate.c: the capture files of one recording read as one (rotate.h). */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "rotate.h"

/* A capture that may be part of a recording. */
struct cand {
	struct source *s;
	size_t i;		/* its place among the inputs */
	struct capspan sp;
	char *stem;		/* its name without the rotation number */
	long num;		/* the rotation number; 0 for none */
	size_t prev;		/* the file before it in its recording */
	size_t last;		/* first file: the last one so far */
	int joined;		/* it follows another file */
};

struct rotation {
	char **str;		/* every string the joined sources use */
	size_t nstr;
	char ***paths;		/* each recording's files after its first */
	size_t npaths;
};

static char *
keep(struct rotation *rot, char *p)
{
	rot->str = egrow(rot->str, rot->nstr, sizeof(*rot->str));
	rot->str[rot->nstr++] = p;
	return p;
}

/* Whether p[0..n) are digits. */
static int
digits(const char *p, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!isdigit((unsigned char)p[k]))
			return 0;
	return 1;
}

/*
 * The stem and number of a file name as rotations write them: dumpcap's
 * and editcap's PREFIX_NNNNN_YYYYMMDDHHMMSS.EXT (the stem PREFIX.EXT),
 * else tcpdump's NAME followed by a number (none for the first file
 * without -W: 0).  A ".gz" at the end is passed over.
 */
static void
rot_name(const char *path, char **stem, long *num)
{
	size_t n = strlen(path), k, b;
	const char *base = strrchr(path, '/');
	char *st;

	if (n > 3 && strcmp(path + n - 3, ".gz") == 0)
		n -= 3;
	b = base != NULL ? (size_t)(base - path) + 1 : 0;
	for (k = b; k + 21 <= n; k++)
		if (path[k] == '_' && digits(path + k + 1, 5) &&
		    path[k + 6] == '_' && digits(path + k + 7, 14) &&
		    (k + 21 == n || path[k + 21] == '.')) {
			st = emalloc(n - 20 + 1);
			memcpy(st, path, k);
			memcpy(st + k, path + k + 21, n - k - 21);
			st[n - 21] = '\0';
			*stem = st;
			*num = strtol(path + k + 1, NULL, 10);
			return;
		}
	for (k = n; k > b && isdigit((unsigned char)path[k - 1]); k--)
		;
	*num = n - k > 0 && n - k <= 9 ? strtol(path + k, NULL, 10) : 0;
	if (n - k > 9)
		k = n;
	*stem = estrndup(path, k);
}

static int
by_first(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->sp.first != y->sp.first)
		return x->sp.first < y->sp.first ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Whether b is the next file after a of one rotation, by their names. */
static int
named_next(const struct cand *a, const struct cand *b)
{
	return strcmp(a->stem, b->stem) == 0 && b->num > a->num;
}

static int
same_host(const struct source *a, const struct source *b)
{
	if (a->filehost == NULL || b->filehost == NULL)
		return a->filehost == b->filehost;
	return strcmp(a->filehost, b->filehost) == 0;
}

/* Whether b may follow a, the last file of a recording (rotate.h). */
static int
follows(const struct cand *a, const struct cand *b)
{
	uint64_t gap = named_next(a, b) ? ROTATE_NAMED_GAP : ROTATE_GAP;

	if (a->sp.ng != b->sp.ng || a->sp.linktype != b->sp.linktype ||
	    a->sp.snaplen != b->sp.snaplen || !same_host(a->s, b->s))
		return 0;
	return b->sp.first + ROTATE_SLACK >= a->sp.last &&
	    b->sp.first <= a->sp.last + gap;
}

/*
 * The recording (its first file) that v[k] follows, or k itself: among
 * those it may follow, one of the same name first, then the latest.
 */
static size_t
pick(struct cand *v, size_t k)
{
	size_t j, best = k;
	const struct cand *t, *bt = NULL;

	for (j = 0; j < k; j++) {
		if (v[j].joined)
			continue;
		t = &v[v[j].last];
		if (!follows(t, &v[k]))
			continue;
		if (bt == NULL || (named_next(t, &v[k]) &&
		    !named_next(bt, &v[k])) || (named_next(t, &v[k]) ==
		    named_next(bt, &v[k]) && t->sp.last > bt->sp.last)) {
			best = j;
			bt = t;
		}
	}
	return best;
}

/* Say a recording of several files, and the files its numbers skip. */
static void
tell(struct cand *v, size_t head, const char *name, size_t nfiles)
{
	size_t k;

	warnmsg("%s: one recording of %zu files", name, nfiles);
	for (k = v[head].last; k != head; k = v[k].prev) {
		const struct cand *a = &v[v[k].prev], *b = &v[k];

		if (!named_next(a, b) || b->num == a->num + 1)
			continue;
		if (b->num == a->num + 2)
			warnmsg("%s: no file numbered %ld between %s and %s: "
			    "the packets it held are missing", name,
			    a->num + 1, a->s->name, b->s->name);
		else
			warnmsg("%s: no files numbered %ld to %ld between %s "
			    "and %s: the packets they held are missing", name,
			    a->num + 1, b->num - 1, a->s->name, b->s->name);
	}
}

/* Make v[head]'s source read the files of its recording. */
static void
chain(struct rotation *rot, struct cand *v, size_t head)
{
	struct source *s = v[head].s;
	size_t n = 0, k, j;
	char **paths;
	char *name;

	for (k = v[head].last; k != head; k = v[k].prev)
		n++;
	paths = ecalloc(n + 1, sizeof(*paths));
	rot->paths = egrow(rot->paths, rot->npaths, sizeof(*rot->paths));
	rot->paths[rot->npaths++] = paths;
	for (k = v[head].last, j = n; k != head; k = v[k].prev)
		paths[--j] = keep(rot, estrdup(v[k].s->name));
	name = emalloc(strlen(s->name) + strlen(paths[n - 1]) + 3);
	sprintf(name, "%s..%s", s->name, paths[n - 1]);
	keep(rot, name);
	capture_chain(s->st, keep(rot, estrdup(s->name)), paths, n);
	tell(v, head, name, n + 1);
	s->name = name;
}

/*
 * Whether s may be a file of a recording: not a capture file, or one
 * closed for the merge in passes (more inputs than may be open: runs.h),
 * which is read on its own, may not.
 */
static int
joinable(const struct source *s)
{
	return s->fmt == &capture_format && s->in != NULL && s->st != NULL &&
	    !s->failed && input_is_file(s->in) &&
	    strcmp(s->name, "<stdin>") != 0;
}

size_t
rotate_join(struct source **src, size_t n, struct rotation **rot)
{
	struct cand *v = NULL;
	size_t nv = 0, i, k, j;

	*rot = NULL;
	/*
	 * A capture file alone has nothing to join: it is not read
	 * beforehand for its times (that read cost a fifth of reading it).
	 */
	for (i = 0, k = 0; i < n && k < 2; i++)
		if (joinable(src[i]))
			k++;
	if (k < 2)
		return n;
	for (i = 0; i < n; i++) {
		struct source *s = src[i];
		struct cand *c;

		if (!joinable(s))
			continue;
		v = egrow(v, nv, sizeof(*v));
		c = &v[nv];
		memset(c, 0, sizeof(*c));
		c->s = s;
		c->i = i;
		if (capture_span(s->name, &c->sp) < 0 || c->sp.npkt == 0)
			continue;
		rot_name(s->name, &c->stem, &c->num);
		nv++;
	}
	if (nv > 1) {
		qsort(v, nv, sizeof(*v), by_first);
		for (k = 0; k < nv; k++) {
			v[k].last = k;
			j = pick(v, k);
			if (j == k)
				continue;
			v[k].prev = v[j].last;
			v[k].joined = 1;
			v[j].last = k;
		}
		*rot = ecalloc(1, sizeof(**rot));
		for (k = 0; k < nv; k++)
			if (!v[k].joined && v[k].last != k)
				chain(*rot, v, k);
		for (k = 0; k < nv; k++)
			if (v[k].joined) {
				src[v[k].i] = NULL;
				source_free(v[k].s);
			}
		for (i = 0, j = 0; i < n; i++)
			if (src[i] != NULL) {
				src[j] = src[i];
				src[j]->idx = (unsigned)j;
				j++;
			}
		n = j;
	}
	for (k = 0; k < nv; k++)
		free(v[k].stem);
	free(v);
	return n;
}

void
rotate_free(struct rotation *rot)
{
	size_t i;

	if (rot == NULL)
		return;
	for (i = 0; i < rot->nstr; i++)
		free(rot->str[i]);
	for (i = 0; i < rot->npaths; i++)
		free(rot->paths[i]);
	free(rot->str);
	free(rot->paths);
	free(rot);
}
