/* SPDX-License-Identifier: ISC */
/*
 * querytext.c: nvidia-smi -q, the plain-text report (docs/log-formats.md
 * section 4, last paragraph), one report or many in a row:
 *
 *	==============NVSMI LOG==============
 *	Timestamp                                 : Fri Jul  3 22:11:09 2026
 *	Attached GPUs                             : 1
 *	GPU 00000000:83:00.0
 *	    GPU UUID                              : GPU-...
 *	    FB Memory Usage
 *	        Total                             : 143771 MiB
 *	        Reserved                          : 614 MiB
 *	        Used                              : 32362 MiB
 *	        Free                              : 110796 MiB
 *	    Processes
 *	        Process ID                        : 10291
 *	            Name                          : /root/tools/memhog
 *	            Used GPU Memory               : 2566 MiB
 *
 * Lines are "Key : Value" under section titles; the depth of a line is
 * its indentation (four spaces a level).  A report begins at its "NVSMI
 * LOG" banner.  Only a GPU's own "FB Memory Usage" is read: a "MIG
 * Device"'s "Shared FB Memory Usage" is a share of it (counted for the
 * summary).  "Processes : None" is a poll that found none; "Used GPU
 * Memory : Not available in WDDM driver model" is unknown memory.  The
 * GPU index is found as for -q -x (snapdoc.h); a report without
 * "Timestamp" takes its time from --start and --interval.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "gpumap.h"
#include "gtime.h"
#include "querytext.h"
#include "sclock.h"
#include "snapdoc.h"

enum sec { S_NONE, S_FB, S_PROCS, S_OTHER };

struct qtext {
	struct source *s;
	int inreport;
	uint64_t line0;		/* where the report began */
	int have_ts;
	uint64_t ts;
	enum sec sec;
	struct snapdoc doc;
	struct sclock clock;
	int clock_said;
	uint64_t reports, migs;
	uint64_t nrec;		/* records written (a bundle's section: its own) */
};

static int
is_banner(const char *line)
{
	return strstr(line, "=NVSMI LOG=") != NULL;
}

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		if (is_banner(lines[i]))
			return 95;
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct qtext *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	snapdoc_init(&p->doc);
	sclock_init(&p->clock);
	return p;
}

/* The report read so far is whole: emit it. */
static void
finish(struct qtext *p)
{
	static const struct snapdoc_words words = {"report",
	    "has no Timestamp line", "without a Timestamp line",
	    "reports without a time"};
	struct snapgpu *g = snapdoc_cur(&p->doc);
	uint64_t ts;

	if (!p->inreport)
		return;
	p->inreport = 0;
	if (g != NULL)
		g->complete = 1;
	p->reports++;
	ts = p->ts;
	if (!p->have_ts && snapdoc_time(p->s, &p->clock, &words, p->reports,
	    p->nrec, &p->clock_said, &ts) < 0)
		return;
	p->nrec += snapdoc_emit(&p->doc, p->s, ts, REC_SNAP_QUERY);
}

/* A MiB value of the report; "N/A" and words are unknown. */
static int
value_mib(struct qtext *p, const char *key, const char *v, size_t n,
    uint32_t *out)
{
	int rc = field_mib(v, n, out);
	char q[48];

	if (rc >= 0)
		return rc;
	if (n > 0 && !isdigit((unsigned char)v[0]))
		return 0;	/* "Not available in WDDM driver model" */
	source_bad(p->s, "'%s': expected MiB, got %s", key,
	    field_quote(q, sizeof(q), v, n));
	return 0;
}

static void
key_value(struct qtext *p, size_t depth, const char *key, size_t kl,
    char *v, size_t vl)
{
	struct snapgpu *g = snapdoc_cur(&p->doc);
	struct snapproc *x;
	uint32_t u;
	char q[48];

#define KEY(s) (kl == sizeof(s) - 1 && memcmp(key, s, kl) == 0)
	if (depth == 0) {
		if (KEY("Timestamp")) {
			if (gtime_ctime(v, vl, &p->ts) == 0)
				p->have_ts = 1;
			else
				source_bad(p->s, "'Timestamp': expected a date "
				    "like 'Fri Aug  4 11:44:30 2023', got %s",
				    field_quote(q, sizeof(q), v, vl));
		} else if (KEY("Attached GPUs")) {
			if (field_uint(v, vl, &u) == 1)
				p->doc.attached = u;
		}
		return;
	}
	if (g == NULL)
		return;
	if (depth == 1) {
		p->sec = S_OTHER;
		if (KEY("GPU UUID") && !field_placeholder(v, vl)) {
			free(g->uuid);
			g->uuid = estrndup(v, vl);
		} else if (KEY("Processes"))
			p->sec = S_PROCS;	/* ": None" */
		return;
	}
	if (p->sec == S_FB && depth == 2) {
		int rc;

		if (KEY("Total")) {
			if ((rc = value_mib(p, "Total", v, vl, &u)) == 1) {
				g->total = u;
				g->has |= REC_TOTAL;
			}
		} else if (KEY("Reserved")) {
			if ((rc = value_mib(p, "Reserved", v, vl, &u)) == 1) {
				g->reserved = u;
				g->has |= SNAP_RESERVED;
			}
		} else if (KEY("Used")) {
			if ((rc = value_mib(p, "Used", v, vl, &u)) == 1) {
				g->used = u;
				g->has |= REC_USED;
			}
		} else if (KEY("Free")) {
			if ((rc = value_mib(p, "Free", v, vl, &u)) == 1) {
				g->free = u;
				g->has |= REC_FREE;
			}
		}
		return;
	}
	if (p->sec != S_PROCS)
		return;
	if (KEY("Process ID")) {
		x = snapdoc_proc(&p->doc);
		if (field_uint(v, vl, &u) == 1 && u > 0)
			x->pid = u;
		else
			source_bad(p->s, "'Process ID': expected a process id, "
			    "got %s", field_quote(q, sizeof(q), v, vl));
		return;
	}
	if ((x = snapdoc_curproc(&p->doc)) == NULL)
		return;
	if (KEY("Name")) {
		free(x->name);
		x->name = estrndup(v, vl);
	} else if (KEY("Used GPU Memory")) {
		if (value_mib(p, "Used GPU Memory", v, vl, &u) == 1) {
			x->used = u;
			x->has_used = 1;
		}
	}
#undef KEY
}

static void
section(struct qtext *p, size_t depth, const char *t, size_t n)
{
#define IS(s) (n == sizeof(s) - 1 && memcmp(t, s, n) == 0)
	if (depth == 0) {
		struct snapgpu *g = snapdoc_cur(&p->doc);

		if (n > 4 && memcmp(t, "GPU ", 4) == 0) {
			char bus[40];
			size_t bl = n - 4;

			if (g != NULL)
				g->complete = 1;
			if (bl >= sizeof(bus))
				bl = sizeof(bus) - 1;
			memcpy(bus, t + 4, bl);
			bus[bl] = '\0';
			snapdoc_gpu(&p->doc, gpumap_is_bus(bus) ? bus : NULL);
			p->sec = S_NONE;
		}
		return;
	}
	if (depth != 1)
		return;
	if (IS("FB Memory Usage"))
		p->sec = S_FB;
	else if (IS("Processes"))
		p->sec = S_PROCS;
	else {
		p->sec = S_OTHER;
		if (IS("MIG Device"))
			p->migs++;
	}
#undef IS
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct qtext *p = st;
	size_t indent, kl, vl;
	char *t, *colon, *v;

	if (source_refused(p->s))
		return;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\r'))
		len--;
	line[len] = '\0';
	if (len == 0)
		return;
	if (is_banner(line)) {
		finish(p);
		snapdoc_reset(&p->doc);
		p->inreport = 1;
		p->have_ts = 0;
		p->sec = S_NONE;
		p->line0 = source_lineno(p->s);
		return;
	}
	if (!p->inreport) {
		source_skip(p->s, "lines outside the reports");
		return;
	}
	indent = strspn(line, " ");
	t = line + indent;
	colon = strstr(t, " : ");
	if (colon == NULL) {
		kl = len - indent;
		section(p, indent / 4, t, kl);
		return;
	}
	kl = (size_t)(colon - t);
	while (kl > 0 && t[kl - 1] == ' ')
		kl--;
	v = colon + 3;
	vl = strlen(v);
	v = field_trim(v, &vl);
	key_value(p, indent / 4, t, kl, v, vl);
}

static void
end_fn(void *st)
{
	struct qtext *p = st;

	if (source_refused(p->s))
		return;
	finish(p);
	if (p->reports == 0 && source_skipped(p->s) && !source_refused(p->s))
		source_refuse(p->s, "no 'NVSMI LOG' banner line: not an "
		    "nvidia-smi -q report");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct qtext *p = st;

	sbuf_printf(sb, ", %llu report%s", (unsigned long long)p->reports,
	    p->reports == 1 ? "" : "s");
	if (p->migs > 0)
		sbuf_printf(sb, ", %llu MIG devices (their memory counted in "
		    "their GPU)", (unsigned long long)p->migs);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct qtext *p = st;

	snapdoc_release(&p->doc);
	free(p);
}

const struct format querytext_format = {
	.name = "query-text",
	.what = "nvidia-smi -q text",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
