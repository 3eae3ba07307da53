/* SPDX-License-Identifier: ISC */
/*
 * inputs.c: a stream's inputs opened: files, the logs of a directory (a
 * compressed twin read once), inputs closed until their pass when there
 * are more than may be open (runs.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "input.h"
#include "runs.h"
#include "streamstate.h"

/*
 * Whether a file in a directory given as input is one to read: not hidden,
 * not the metadata gpumem record writes beside its logs, nor its process
 * tables (procs.csv, holders.csv: no memory in them).
 */
static int
dir_wanted(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	if (d->d_name[0] == '.')
		return 0;
	if (strcmp(d->d_name, "meta") == 0 || strncmp(d->d_name, "meta.", 5) == 0)
		return 0;
	if (strcmp(d->d_name, "procs.csv") == 0 ||
	    strcmp(d->d_name, "holders.csv") == 0)
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

int
stream_is_dir(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
	    S_ISDIR(sb.st_mode);
}
