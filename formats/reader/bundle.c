/* SPDX-License-Identifier: ISC */
/*
 * bundle.c: capture bundles, files that hold the output of many commands
 * one after another (docs/log-formats.md, capture-bundle/):
 *
 *	################################################################
 *	# load :: query-gpu (csv, what the exporter parses)
 *	# $ nvidia-smi --query-gpu=timestamp,... --format=csv
 *	################################################################
 *	timestamp, driver_version, ...
 *	2026/07/03 22:11:09.763, 590.48.01, ...
 *
 * Each section is read by the format its command line names, or that its
 * first lines show; sections no format reads are skipped and counted, and
 * so are sections a format refuses because they hold no memory data (a
 * pmon or dmon without the memory group, a help text): -v says why.
 */
#include <stdlib.h>
#include <string.h>

#include "bundle.h"

#define SNIFF_LINES 4

struct bundle {
	struct source *s;
	int in_header;
	struct sbuf title, cmd;
	const struct format *sub;
	void *subst;
	int decided, skipping;
	char *buf[SNIFF_LINES];
	size_t nbuf;
	struct sbuf read;	/* titles of the sections read */
	unsigned nread, nskipped, nrefused;
	int perprocess;		/* a section read has per-process data */
};

/* Commands whose output a format reads, or that nothing reads. */
static const struct {
	const char *needle;
	const char *format;	/* NULL: skip the section */
} commands[] = {
	{"--query-gpu", "query-gpu"},
	{"--query-compute-apps", "compute-apps"},
	{"--query-", NULL},	/* accounted-apps, retired-pages, ... */
	{"--help", NULL},
	{" -h", NULL},
	{" pmon", "pmon"},
	{" dmon", "dmon"},
	{" -q -x", "xml"},
	{" -x", "xml"},
	{" -q", "query-text"},
	{" -L", NULL},
	{" topo", NULL},
	{" nvlink", NULL},
	{"dcgmi dmon", "dcgmi"},
};

static int
is_rule(const char *line, size_t len)
{
	return len >= 20 && strspn(line, "#") == len;
}

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	if (n == 0 || !is_rule(lines[0], strlen(lines[0])))
		return 0;
	for (i = 1; i < n; i++)
		if (strncmp(lines[i], "# ", 2) == 0 &&
		    strstr(lines[i], " :: ") != NULL)
			return 95;
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct bundle *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	s->device_only = 1;
	return p;
}

/*
 * The section's format refused it (s->refusal says why): drop what it
 * holds and skip the rest of the section.
 */
static void
refused(struct bundle *p)
{
	note("%s: skipped section '%s': %s", p->s->name,
	    p->title.len > 0 ? p->title.buf : "(untitled)", p->s->refusal);
	free(p->s->refusal);
	p->s->refusal = NULL;
	if (p->sub != NULL && p->sub->free != NULL && p->subst != NULL)
		p->sub->free(p->subst);
	p->sub = NULL;
	p->subst = NULL;
	p->skipping = 1;
	p->nrefused++;
	p->s->device_only = !p->perprocess;
	p->s->what = bundle_format.what;
}

static void
feed(struct bundle *p, char *line, size_t len)
{
	if (p->sub == NULL) {
		if (len > 0)
			source_skip(p->s, "lines of sections not read");
		return;
	}
	p->sub->line(p->subst, line, len);
	if (p->s->refusal != NULL)
		refused(p);
}

/*
 * The format a section's command names: 1 and *f (NULL: nothing reads
 * it), or 0 when the command is not in the table (plain "nvidia-smi", the
 * default table, has no flag): the first lines decide.
 */
static int
command_format(const struct bundle *p, const struct format **f)
{
	size_t i;

	*f = NULL;
	if (p->cmd.len == 0)
		return 0;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strstr(p->cmd.buf, commands[i].needle) != NULL) {
			if (commands[i].format != NULL)
				*f = format_find(commands[i].format);
			return 1;
		}
	return 0;
}

/* Choose the section's format from its command line or its first lines. */
static void
decide(struct bundle *p)
{
	const struct format *f = NULL;
	size_t i;
	int known;

	p->decided = 1;
	known = command_format(p, &f);
	if (!known && p->nbuf > 0)
		f = format_sniff_text(p->buf, p->nbuf, NULL);
	if (f == &bundle_format || (f != NULL && f->line == NULL))
		f = NULL;
	if (f != NULL) {
		p->s->device_only = f->device_only;
		p->s->section = 1;
		source_clock_reset(p->s);	/* a section has its own */
		p->subst = f->open(p->s, p->cmd.len > 0 ? p->cmd.buf : NULL);
		if (p->s->refusal != NULL) {
			p->sub = f;
			refused(p);
			f = NULL;
		}
	}
	if (p->skipping) {
		/* Refused already. */
	} else if (f == NULL || p->subst == NULL) {
		p->skipping = 1;
		p->nskipped++;
		note("%s: skipped section '%s'", p->s->name,
		    p->title.len > 0 ? p->title.buf : "(untitled)");
	} else
		p->sub = f;	/* counted as read at its end, unless refused */
	for (i = 0; i < p->nbuf; i++) {
		feed(p, p->buf[i], strlen(p->buf[i]));
		free(p->buf[i]);
	}
	p->nbuf = 0;
}

static void
end_section(struct bundle *p)
{
	if (!p->decided && p->nbuf > 0)
		decide(p);
	if (p->sub != NULL && p->sub->end != NULL) {
		p->sub->end(p->subst);
		if (p->s->refusal != NULL)
			refused(p);	/* said at its end: no time, no data */
	}
	if (p->sub != NULL) {
		p->nread++;
		sbuf_printf(&p->read, "%s%s", p->read.len > 0 ? "; " : "",
		    p->title.len > 0 ? p->title.buf : p->sub->name);
		if (p->sub->free != NULL)
			p->sub->free(p->subst);
		/* A section's parser describes itself; the bundle is more. */
		if (!p->s->device_only)
			p->perprocess = 1;
		p->s->device_only = !p->perprocess;
		p->s->what = bundle_format.what;
	}
	p->sub = NULL;
	p->subst = NULL;
	p->decided = p->skipping = 0;
	p->s->section = 0;
	sbuf_reset(&p->title);
	sbuf_reset(&p->cmd);
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct bundle *p = st;
	const struct format *f;

	if (is_rule(line, len)) {
		if (!p->in_header)
			end_section(p);
		p->in_header = !p->in_header;
		return;
	}
	if (p->in_header) {
		if (strncmp(line, "# $ ", 4) == 0) {
			sbuf_reset(&p->cmd);
			sbuf_adds(&p->cmd, line + 4);
		} else if (strncmp(line, "# ", 2) == 0 && p->title.len == 0)
			sbuf_adds(&p->title, line + 2);
		return;
	}
	if (p->sub != NULL) {
		feed(p, line, len);
		return;
	}
	if (p->skipping) {
		if (len > 0)
			source_skip(p->s, "lines of sections not read");
		return;
	}
	if (len == 0 || strspn(line, " \t") == len)
		return;
	p->buf[p->nbuf++] = estrndup(line, len);
	if (p->nbuf == SNIFF_LINES || command_format(p, &f))
		decide(p);
}

static void
end_fn(void *st)
{
	end_section(st);
}

static void
summary(void *st, struct sbuf *sb)
{
	struct bundle *p = st;

	sbuf_printf(sb, ": %u section%s read", p->nread, p->nread == 1 ? "" :
	    "s");
	if (p->nread > 0)
		sbuf_printf(sb, " (%s)", p->read.buf);
	if (p->nrefused > 0)
		sbuf_printf(sb, ", %u without memory data (-v says why)",
		    p->nrefused);
	sbuf_printf(sb, ", %u section%s no format reads (-v names them)",
	    p->nskipped, p->nskipped == 1 ? "" : "s");
}

static void
free_fn(void *st)
{
	struct bundle *p = st;
	size_t i;

	for (i = 0; i < p->nbuf; i++)
		free(p->buf[i]);
	if (p->sub != NULL && p->sub->free != NULL)
		p->sub->free(p->subst);
	sbuf_release(&p->title);
	sbuf_release(&p->cmd);
	sbuf_release(&p->read);
	free(p);
}

const struct format bundle_format = {
	.name = "bundle",
	.what = "capture bundle",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
