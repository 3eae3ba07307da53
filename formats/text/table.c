/* SPDX-License-Identifier: ISC */
/*
 * table.c: the plain nvidia-smi table, as a loop logs it
 * ("while true; do nvidia-smi; sleep 60; done"), docs/log-formats.md
 * section 7:
 *
 *	Tue Oct 29 19:01:23 2024
 *	+---------------------------------------------------------------+
 *	| NVIDIA-SMI 550.54.15     Driver Version: 550.54.15   CUDA ...  |
 *	...
 *	|   0  NVIDIA L40S          On  |   00000000:4A:00.0 Off |    0 |
 *	| N/A   53C    P0  305W / 350W |   11948MiB /  46068MiB |  93% ... |
 *	...
 *	| Processes:                                                     |
 *	|  GPU   GI   CI        PID   Type   Process name    GPU Memory  |
 *	|    0   N/A  N/A   3794277      C   python            11942MiB  |
 *
 * A snapshot begins at the "NVIDIA-SMI" banner; its time is the date line
 * nvidia-smi prints above it (local time), else --start and --interval.
 * A GPU is the row that begins with its index (with its bus id), then the
 * row with its memory cell, "used / total"; free memory is not shown.
 * The layout differs between drivers (two or three rows per GPU, process
 * rows with or without GI and CI columns, 79 to 91 characters): cells are
 * found by their '|' and their content, not by column positions.  The
 * MIG devices block is a share of its GPUs' memory and is not read (MIG
 * devices are counted).  Process names are as the table shows them,
 * truncated to the left ("...em32\ApplicationFrameHost.exe"); "N/A"
 * memory (Windows WDDM) is unknown.  The process block lists every
 * process of the snapshot, so each snapshot is a poll (a process missing
 * from the next one has ended there).
 *
 * A terminal capture of "watch nvidia-smi" is cursor motion and partial
 * screen updates, not snapshots: it is refused.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "gpumap.h"
#include "gtime.h"
#include "physgpu.h"
#include "sclock.h"
#include "table.h"

#define MAXWORDS 64
#define MAXUNIFIED 8	/* GPUs of a snapshot without a memory cell */

/*
 * A GPU whose Memory-Usage is "Not Supported" (unified memory: GB10,
 * DGX Spark): its used memory is its processes' sum, known at the end of
 * the snapshot.
 */
struct unified {
	uint32_t gpu;
	uint64_t sum;
	int unknown;		/* a process of it without its memory */
};

enum part { P_NONE, P_GPUS, P_MIG, P_PROCS };

struct table {
	struct source *s;
	int have_pending;	/* a date line, for the next snapshot */
	uint64_t pending;
	int insnap;
	uint64_t ts;
	enum part part;
	int gici;		/* process rows have GI and CI: 1, 0, -1 unknown */
	int64_t gpu;		/* the GPU whose memory row comes next, or -1 */
	char bus[40];
	struct sclock clock;
	int clock_said;
	int lines;		/* a line that is not blank came */

	/* Physical GPUs by bus id: a GPU 0 that is several (physgpu.h). */
	struct physgpu phys;

	struct unified uni[MAXUNIFIED];
	size_t nuni;
	int procs;		/* the snapshot's process block came */
	int uni_said;
	uint64_t uni_read, uni_lost;	/* such samples, for the summary */

	uint64_t snaps, migs;
	struct gpuset gpuset;	/* the GPUs named, for the summary */
	struct sbuf name;
	char *w[MAXWORDS + 1];
	size_t wl[MAXWORDS + 1];
};

static int
has_esc(const char *s)
{
	return strchr(s, 0x1b) != NULL;
}

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strncmp(lines[i], "| NVIDIA-SMI ", 13) == 0)
			return 90;
		if (has_esc(lines[i]) && (strstr(lines[i], "NVIDIA-SMI") !=
		    NULL || strstr(lines[i], "nvidia-smi") != NULL))
			return 90;
	}
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct table *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	p->gpu = -1;
	p->gici = -1;
	physgpu_init(&p->phys);
	sclock_init(&p->clock);
	return p;
}

/*
 * The end of a snapshot: a sample of each GPU without a memory cell, its
 * processes' sum, when the process block listed them all with their
 * memory ("No running processes found": 0).
 */
static void
unified_flush(struct table *p)
{
	struct rec r;
	size_t i;

	for (i = 0; i < p->nuni; i++) {
		struct unified *u = &p->uni[i];

		if (!p->procs || u->unknown || u->sum > UINT32_MAX) {
			p->uni_lost++;
			continue;
		}
		rec_init(&r);
		r.ts = p->ts;
		r.host = source_host(p->s, NULL);
		r.gpu = u->gpu;
		r.used = (uint32_t)u->sum;
		r.has = REC_USED;
		source_emit(p->s, &r);
		p->uni_read++;
	}
	p->nuni = 0;
	p->procs = 0;
}

/* A GPU row's memory cell says "Not Supported": note the GPU. */
static void
unified_gpu(struct table *p, uint32_t gpu)
{
	struct unified *u;

	if (!p->uni_said) {
		p->uni_said = 1;
		source_warn(p->s, "GPU %u: Memory-Usage 'Not Supported' "
		    "(unified memory: GB10, DGX Spark): its used memory is "
		    "read as the sum of its processes' memory", gpu);
	}
	if (p->nuni == MAXUNIFIED) {
		p->uni_lost++;
		return;
	}
	u = &p->uni[p->nuni++];
	u->gpu = gpu;
	u->sum = 0;
	u->unknown = 0;
}

/* A process row of GPU gpu: add its memory to the GPU's sum. */
static void
unified_proc(struct table *p, uint32_t gpu, int hu, uint32_t used)
{
	size_t i;

	for (i = 0; i < p->nuni; i++)
		if (p->uni[i].gpu == gpu) {
			if (hu == 1)
				p->uni[i].sum += used;
			else
				p->uni[i].unknown = 1;
		}
}

/* The banner: a new snapshot, at the date line above it. */
static void
begin_snapshot(struct table *p)
{
	unified_flush(p);
	p->insnap = 0;
	p->part = P_NONE;
	p->gpu = -1;
	p->gici = -1;
	if (p->have_pending) {
		p->have_pending = 0;
		p->ts = p->pending;
	} else if (sclock_next(&p->clock, source_opts(p->s), &p->ts) < 0) {
		if (p->snaps == 0) {
			source_refuse(p->s, "no date line above the table: give "
			    "--start (and --interval for a log of many "
			    "tables)");
			return;
		}
		if (!p->clock_said) {
			p->clock_said = 1;
			source_bad(p->s, "a table without a date line above "
			    "it, and no --interval to place it: skipped "
			    "(give --interval)");
		}
		source_skip(p->s, "tables without a time");
		return;
	}
	p->insnap = 1;
	p->part = P_GPUS;
	p->snaps++;
}

/*
 * The cells of a table row: the text between its '|'.  Return how many,
 * each trimmed, in cell[] and clen[].
 */
static size_t
cells(char *line, char **cell, size_t *clen, size_t max)
{
	size_t n = 0;
	char *s = line, *bar;

	if (*s != '|')
		return 0;
	s++;
	while ((bar = strchr(s, '|')) != NULL && n < max) {
		size_t len = (size_t)(bar - s);

		cell[n] = field_trim(s, &len);
		clen[n] = len;
		n++;
		s = bar + 1;
	}
	return n;
}

/* "11948MiB /  46068MiB": used and total. */
static int
memory_cell(const char *c, size_t n, uint32_t *used, uint32_t *total)
{
	const char *slash = memchr(c, '/', n);
	size_t a, b;
	const char *t;

	if (slash == NULL)
		return -1;
	a = (size_t)(slash - c);
	t = slash + 1;
	b = n - a - 1;
	while (a > 0 && c[a - 1] == ' ')
		a--;
	while (b > 0 && *t == ' ') {
		t++;
		b--;
	}
	if (a < 4 || b < 4 || memcmp(c + a - 3, "MiB", 3) != 0 ||
	    memcmp(t + b - 3, "MiB", 3) != 0)
		return -1;
	if (field_mib(c, a, used) != 1 || field_mib(t, b, total) != 1)
		return -1;
	return 0;
}

/* The first row of a GPU: "0  NVIDIA L40S   On" | "00000000:4A:00.0 Off". */
static int
gpu_row(struct table *p, char **cell, size_t *clen, size_t nc)
{
	size_t d = 0;
	uint32_t idx;

	if (nc < 2)
		return 0;
	while (d < clen[0] && isdigit((unsigned char)cell[0][d]))
		d++;
	if (d == 0 || d == clen[0] || cell[0][d] != ' ')
		return 0;
	while (d < clen[0] && cell[0][d] == ' ')
		d++;
	/* A MIG row starts with four numbers; a GPU row with one and a name. */
	if (d == clen[0] || isdigit((unsigned char)cell[0][d]))
		return 0;
	if (num_parse_u32(cell[0], strspn(cell[0], "0123456789"), &idx) < 0)
		return 0;
	p->bus[0] = '\0';
	if (nc >= 2) {
		size_t bl = strcspn(cell[1], " ");

		if (bl < sizeof(p->bus)) {
			memcpy(p->bus, cell[1], bl);
			p->bus[bl] = '\0';
			if (!gpumap_is_bus(p->bus))
				p->bus[0] = '\0';
		}
	}
	idx = physgpu_of(&p->phys, p->s, source_host(p->s, NULL), "bus id",
	    p->bus, idx);
	p->gpu = idx;
	source_learn(p->s, source_host(p->s, NULL), NULL, p->bus, idx);
	gpumap_set_add(&p->gpuset, idx);
	return 1;
}

/* A row of the process block. */
static void
proc_row(struct table *p, char *text)
{
	size_t nw, k, nl;
	uint32_t gpu, pid, used = 0;
	int hu, gici;
	struct rec r;
	const char *name, *last;

	nw = field_words(text, p->w, p->wl, MAXWORDS);
	if (nw > MAXWORDS || nw < 4 ||
	    field_uint(p->w[0], p->wl[0], &gpu) != 1) {
		source_bad(p->s, "a process row that is not 'GPU [GI CI] PID "
		    "Type Name Memory'");
		return;
	}
	gici = p->gici;
	if (gici < 0)	/* no header seen: GI and CI are N/A or numbers */
		gici = nw >= 6 && field_uint(p->w[3], p->wl[3], &pid) == 1 &&
		    field_uint(p->w[1], p->wl[1], &pid) >= 0 &&
		    field_uint(p->w[2], p->wl[2], &pid) >= 0;
	k = gici ? 3 : 1;
	if (nw < k + 3 || field_uint(p->w[k], p->wl[k], &pid) != 1 ||
	    pid == 0) {
		source_bad(p->s, "a process row without a process id");
		return;
	}
	last = p->w[nw - 1];
	hu = field_mib(last, p->wl[nw - 1], &used);
	if (hu < 0) {
		char q[48];

		source_bad(p->s, "process memory: expected MiB, got %s",
		    field_quote(q, sizeof(q), last, p->wl[nw - 1]));
		return;
	}
	/* The name: from after the type to before the memory. */
	sbuf_reset(&p->name);
	sbuf_add(&p->name, "", 0);
	if (nw > k + 3) {
		name = p->w[k + 2];
		nl = (size_t)(p->w[nw - 1] - name);
		while (nl > 0 && name[nl - 1] == ' ')
			nl--;
		sbuf_add(&p->name, name, nl);
	}
	rec_init(&r);
	r.ts = p->ts;
	r.host = source_host(p->s, NULL);
	/* The physical GPU the table's index stands for (physgpu.h). */
	r.gpu = physgpu_cur(&p->phys, gpu);
	r.pid = pid;
	if (hu == 1) {
		r.used = used;
		r.has = REC_USED;
	}
	r.name = p->name.buf;
	r.origin = REC_SNAP_TABLE;
	source_emit(p->s, &r);
	unified_proc(p, r.gpu, hu, used);
}

static void
table_line(struct table *p, char *line)
{
	char *cell[8];
	size_t clen[8], nc;
	uint32_t used, total;
	struct rec r;

	if (strstr(line, "MIG devices:") != NULL) {
		p->part = P_MIG;
		return;
	}
	if (strstr(line, "| Processes:") != NULL) {
		p->part = P_PROCS;
		p->procs = 1;
		rec_init(&r);
		r.ts = p->ts;
		r.host = source_host(p->s, NULL);
		r.origin = REC_SNAP_TABLE;
		source_emit(p->s, &r);		/* the poll mark */
		return;
	}
	if (line[0] != '|' || line[1] == '=' || line[1] == '-')
		return;		/* rules */
	nc = cells(line, cell, clen, 8);
	switch (p->part) {
	case P_GPUS:
		if (gpu_row(p, cell, clen, nc))
			return;
		if (p->gpu >= 0 && nc >= 2 && memory_cell(cell[1], clen[1],
		    &used, &total) == 0) {
			rec_init(&r);
			r.ts = p->ts;
			r.host = source_host(p->s, NULL);
			r.gpu = (uint32_t)p->gpu;
			r.used = used;
			r.total = total;
			r.has = REC_USED | REC_TOTAL;
			source_emit(p->s, &r);
			p->gpu = -1;
		} else if (p->gpu >= 0 && nc >= 2 && clen[1] >= 13 &&
		    memcmp(cell[1], "Not Supported", 13) == 0) {
			unified_gpu(p, (uint32_t)p->gpu);
			p->gpu = -1;
		}
		return;
	case P_MIG:
		if (nc >= 2 && memory_cell(cell[1], clen[1], &used, &total) ==
		    0 && isdigit((unsigned char)cell[0][0]))
			p->migs++;
		return;
	case P_PROCS:
		if (nc != 1)
			return;
		if (strstr(cell[0], "PID") != NULL) {
			/* The block's header says whether GI and CI are there. */
			p->gici = strstr(cell[0], " GI ") != NULL;
			return;
		}
		if (isdigit((unsigned char)cell[0][0])) {
			cell[0][clen[0]] = '\0';
			proc_row(p, cell[0]);
		}
		return;
	default:
		return;
	}
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct table *p = st;
	uint64_t t;
	size_t n = len;

	if (source_refused(p->s))
		return;
	if (has_esc(line)) {
		if (p->snaps > 0) {
			source_bad(p->s, "terminal escape sequences in a line");
			return;
		}
		source_refuse(p->s, "a terminal capture (watch nvidia-smi: "
		    "cursor motion and partial screen updates), not a log; log "
		    "the table with a loop such as 'while true; do nvidia-smi; "
		    "sleep 60; done'");
		return;
	}
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\r'))
		n--;
	line[n] = '\0';
	if (n == 0)
		return;
	p->lines = 1;
	if (strncmp(line, "| NVIDIA-SMI ", 13) == 0) {
		begin_snapshot(p);
		return;
	}
	if (line[0] == '|' || line[0] == '+') {
		if (p->insnap)
			table_line(p, line);
		return;
	}
	if (gtime_ctime(line, n, &t) == 0) {
		p->pending = t;
		p->have_pending = 1;
		return;
	}
	source_skip(p->s, "lines outside the table");
}

static void
end_fn(void *st)
{
	struct table *p = st;

	if (!source_refused(p->s))
		unified_flush(p);
	if (source_refused(p->s) || p->snaps > 0 ||
	    !p->lines)
		return;
	source_refuse(p->s, "no 'NVIDIA-SMI' banner line: not an nvidia-smi "
	    "table");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct table *p = st;

	gpumap_set_say_of(&p->gpuset, p->snaps, "snapshot", sb);
	if (p->migs > 0)
		sbuf_printf(sb, ", %llu MIG device rows (their memory counted "
		    "in their GPU)", (unsigned long long)p->migs);
	if (p->uni_read > 0)
		sbuf_printf(sb, ", %llu samples of unified memory read as "
		    "their processes' sum", (unsigned long long)p->uni_read);
	if (p->uni_lost > 0)
		sbuf_printf(sb, ", %llu samples of unified memory not read "
		    "(no process block, or a process without its memory)",
		    (unsigned long long)p->uni_lost);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct table *p = st;

	gpumap_set_release(&p->gpuset);
	physgpu_release(&p->phys);
	sbuf_release(&p->name);
	free(p);
}

const struct format table_format = {
	.name = "table",
	.what = "nvidia-smi table",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
