/* SPDX-License-Identifier: ISC */
/*
 * dcgmi.c: dcgmi dmon logs (docs/log-formats.md section 5):
 *
 *	#Entity   GPUTL    FBTTL        FBFRE        FBUSD
 *	ID                 MB           MB           MB
 *	GPU 0     0        11019        10983        36
 *
 * The header names each field by its short name; the memory fields are
 * FBTTL (250, total), FBFRE (251, free), FBUSD (252, used) and FBRSV
 * (253, reserved; that short name is not confirmed by a real log), in
 * MB, which is MiB.  The line under the header ("ID", then units) is
 * passed over; dcgmi prints the pair again every 14 samples.  A row
 * begins with its entity, "GPU 0"; MIG instances ("GPU-I 1", "GPU-CI 2")
 * are a share of their GPU and are counted, not read, and so are other
 * entities (switches, vGPUs).  A missing value is "N/A" (dcgmi's print
 * of a blank); a blank sentinel that slipped through is missing too.
 *
 * dcgmi prints no time: its -d is not in the output.  Sample n is at
 * --start + n * --interval; a sample is the run of GPU rows up to a
 * header line or a GPU id not above the previous one (dcgmi prints the
 * entities in id order).  Without --interval (or --start for a single
 * sample) the log is refused.  A total that is missing is reserved + used
 * + free when those are there.
 */
#include <stdlib.h>
#include <string.h>

#include "dcgmi.h"
#include "field.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "sclock.h"

#define MAXCOLS 128

enum col { C_TOTAL, C_FREE, C_USED, C_RESERVED, NCOL };

static const char *const colnames[NCOL] = {
	"FBTTL", "FBFRE", "FBUSD", "FBRSV"
};

struct dcgmi {
	struct source *s;
	size_t ncols;		/* fields after the entity */
	int col[NCOL];		/* index among those fields, or -1 */
	int have_cols, any_fb;
	struct sclock clock;
	int clock_said;
	int insample, newheader;
	int64_t last_gpu;
	uint64_t sample_ts, samples, others;
	struct gpuset gpuset;	/* the GPUs named, for the summary */
	char *w[MAXCOLS + 1];
	size_t wl[MAXCOLS + 1];
};

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		if (strncmp(lines[i], "#Entity", 7) == 0)
			return 95;
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct dcgmi *p = ecalloc(1, sizeof(*p));
	size_t i;

	(void)hint;
	p->s = s;
	for (i = 0; i < NCOL; i++)
		p->col[i] = -1;
	p->last_gpu = -1;
	sclock_init(&p->clock);
	return p;
}

static void
header(struct dcgmi *p, char *line)
{
	size_t n, i, k;

	n = field_words(line, p->w, p->wl, MAXCOLS);
	if (n > MAXCOLS) {
		source_bad(p->s, "more than %d fields", MAXCOLS - 1);
		p->have_cols = 0;
		return;
	}
	for (k = 0; k < NCOL; k++)
		p->col[k] = -1;
	for (i = 1; i < n; i++)
		for (k = 0; k < NCOL; k++)
			if (p->wl[i] == strlen(colnames[k]) &&
			    memcmp(p->w[i], colnames[k], p->wl[i]) == 0)
				p->col[k] = (int)(i - 1);
	p->ncols = n - 1;
	p->have_cols = 1;
	p->newheader = 1;
	if (p->col[C_TOTAL] >= 0 || p->col[C_FREE] >= 0 || p->col[C_USED] >= 0)
		p->any_fb = 1;
}

/* A MiB field of the row; 1, 0 missing, -1 bad (said). */
static int
value(struct dcgmi *p, enum col c, uint32_t *v)
{
	int i = p->col[c], rc;
	char q[48];

	if (i < 0)
		return 0;
	rc = field_mib(p->w[i + 2], p->wl[i + 2], v);
	if (rc < 0)
		source_bad(p->s, "field %s: expected MB, got %s", colnames[c],
		    field_quote(q, sizeof(q), p->w[i + 2], p->wl[i + 2]));
	return rc;
}

static void
row(struct dcgmi *p, char *line)
{
	size_t n;
	uint32_t gpu, v[NCOL];
	int has[NCOL], k;
	struct rec r;
	char q[48];

	if (!p->have_cols) {
		source_bad(p->s, "a row before the '#Entity' header line");
		return;
	}
	n = field_words(line, p->w, p->wl, MAXCOLS);
	if (n > MAXCOLS || n != p->ncols + 2) {
		source_bad(p->s, "expected an entity and %zu fields, got %zu "
		    "words", p->ncols, n);
		return;
	}
	if (!(p->wl[0] == 3 && memcmp(p->w[0], "GPU", 3) == 0)) {
		p->others++;	/* GPU-I, GPU-CI, Switch, vGPU */
		return;
	}
	if (field_uint(p->w[1], p->wl[1], &gpu) != 1) {
		source_bad(p->s, "entity: expected 'GPU <id>', got %s",
		    field_quote(q, sizeof(q), p->w[1], p->wl[1]));
		return;
	}
	for (k = 0; k < NCOL; k++)
		if ((has[k] = value(p, (enum col)k, &v[k])) < 0)
			return;
	if (!p->insample || p->newheader || (int64_t)gpu <= p->last_gpu) {
		if (sclock_next(&p->clock, source_opts(p->s),
		    &p->sample_ts) < 0) {
			if (p->samples == 0) {
				source_refuse(p->s, "rows carry no time (dcgmi "
				    "dmon prints none, and its -d is not in "
				    "the output): give --interval (the -d "
				    "used, in ms) and --start");
				return;
			}
			if (!p->clock_said) {
				p->clock_said = 1;
				source_bad(p->s, "a second sample, and no "
				    "--interval to place it in time: the rest "
				    "is skipped (give --interval)");
			}
			source_skip(p->s, "rows without a time");
			return;
		}
		p->insample = 1;
		p->newheader = 0;
		p->samples++;
	}
	p->last_gpu = gpu;
	gpumap_set_add(&p->gpuset, gpu);
	rec_init(&r);
	r.ts = p->sample_ts;
	r.gpu = gpu;
	r.host = source_host(p->s, NULL);
	if (has[C_USED]) {
		r.used = v[C_USED];
		r.has |= REC_USED;
	}
	if (has[C_FREE]) {
		r.free = v[C_FREE];
		r.has |= REC_FREE;
	}
	if (has[C_TOTAL]) {
		r.total = v[C_TOTAL];
		r.has |= REC_TOTAL;
	} else if (has[C_USED] && has[C_FREE]) {
		uint64_t t = (uint64_t)v[C_USED] + v[C_FREE] +
		    (has[C_RESERVED] ? v[C_RESERVED] : 0);

		if (t <= UINT32_MAX) {
			r.total = (uint32_t)t;
			r.has |= REC_TOTAL;
		}
	}
	if (!(r.has & (REC_USED | REC_FREE))) {
		source_skip(p->s, "rows without FB used or free (N/A)");
		return;
	}
	source_emit(p->s, &r);
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct dcgmi *p = st;
	char *w[2];
	size_t wl[2];

	if (source_refused(p->s))
		return;
	if (len == 0 || strspn(line, " \t") == len)
		return;
	if (strncmp(line, "#Entity", 7) == 0) {
		header(p, line);
		return;
	}
	if (field_words(line, w, wl, 1) >= 1 && wl[0] == 2 &&
	    memcmp(w[0], "ID", 2) == 0)
		return;		/* the units line */
	if (strstr(line, "dmon was stopped") != NULL) {
		source_skip(p->s, "dcgmi messages");
		return;
	}
	if (line[0] == '#') {
		source_skip(p->s, "comment lines");
		return;
	}
	if (!p->any_fb && p->have_cols) {
		source_skip(p->s, "rows without FB fields");
		return;
	}
	row(p, line);
}

static void
end_fn(void *st)
{
	struct dcgmi *p = st;

	if (source_refused(p->s) || p->any_fb)
		return;
	if (!p->have_cols) {
		if (source_nbad(p->s) > 0)
			source_refuse(p->s, "no '#Entity' header line: not a "
			    "dcgmi dmon log");
		return;
	}
	source_refuse(p->s, "no framebuffer fields (FBUSD, FBFRE, FBTTL): this "
	    "dcgmi dmon holds no memory data; record with -e 250,251,252");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct dcgmi *p = st;

	gpumap_set_say_of(&p->gpuset, p->samples, "sample", sb);
	if (p->others > 0)
		sbuf_printf(sb, ", %llu rows of MIG instances or other "
		    "entities not read", (unsigned long long)p->others);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct dcgmi *p = st;

	gpumap_set_release(&p->gpuset);
	free(p);
}

const struct format dcgmi_format = {
	.name = "dcgmi",
	.what = "dcgmi dmon",
	.device_only = 1,
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
