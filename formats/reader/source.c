/* SPDX-License-Identifier: ISC */
/*
 * source.c: opening an input and driving its parser (detect.c finds its
 * format, clocks.c takes what it emits, reporting.c what it says), its
 * summary line, closing it.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "chunks.h"
#include "colmap.h"
#include "recfmt.h"
#include "source.h"

struct source *
source_open(const char *path, unsigned idx, const struct readopts *opt,
    struct gpumap *gpus)
{
	struct source *s;

	s = ecalloc(1, sizeof(*s));
	s->idx = idx;
	s->opt = opt;
	s->fopt.fields = opt->fields;
	s->fopt.interval = opt->interval;
	s->fopt.start = opt->start;
	s->fopt.have_start = opt->have_start;
	s->fopt.host = opt->host;
	s->fopt.time_format = opt->time_format;
	s->fopt.map = opt->map;
	s->fopt.filter = opt->filter;
	s->fopt.port = opt->port;
	s->gpus = gpus;
	s->in = input_open(path);
	if (s->in == NULL) {
		msg("%s: cannot open:", strcmp(path, "-") == 0 ?
		    "<stdin>" : path);
		free(s);
		return NULL;
	}
	s->name = input_name(s->in);
	s->path = estrdup(path);
	if (opt->host_from_file && source_file_host(path, opt->host_pattern,
	    &s->filehost, NULL, 0) < 0)
		BUG("--host-from-file's pattern passed the option check");
	s->live = opt->live == LIVE_ON ||
	    (opt->live == LIVE_AUTO && !input_is_file(s->in));
	s->lag = opt->lag;
	window_init(&s->win, opt->window);
	source_clocks_init(s);
	if (opt->format != NULL) {
		s->fmt = format_find(opt->format);
		if (s->fmt == NULL)
			BUG("unknown format '%s' passed the option check",
			    opt->format);
		/*
		 * A gpumem tool upstream may have chosen the binary form
		 * (rec.h): "stream" is the record stream in either form.
		 */
		if (s->fmt == &recfmt_format && source_starts_binary(s))
			s->fmt = &recfmt_bin_format;
	} else if (opt->map != NULL)
		s->fmt = &colmap_format;
	else
		s->fmt = source_detect(s);
	if (s->fmt == NULL) {
		s->eof = 1;
		return s;
	}
	if (!opt->lag_set && s->fmt == &capture_format)
		s->lag = SOURCE_CAPTURE_LAG;
	s->device_only = s->fmt->device_only;
	s->what = s->fmt->what;
	s->st = s->fmt->open(s, NULL);
	if (s->st == NULL)
		s->eof = 1;
	return s;
}

/*
 * A line with NUL bytes: a file cut (truncated) while a writer kept
 * appending at its offset holds a run of them, and the writer's text after
 * it.  Keep that text (the parser judges it as any line) and count the
 * repair; a line of NUL bytes only is passed over, counted; a NUL byte
 * alone (not a run) inside a line is damage, reported.  Return whether
 * the line (*line, *len, moved past the NUL bytes) is to be parsed.
 */
static int
nul_repair(struct source *s, char **line, size_t *len)
{
	char *p = memrchr(*line, '\0', *len), *q;

	if (p != NULL) {
		for (q = p; q > *line && q[-1] == '\0'; q--)
			;
		if (p == q && q > *line) {
			source_bad(s, "binary data in a text line");
			return 0;
		}
		*len -= (size_t)(p + 1 - *line);
		*line = p + 1;
	} else if (input_line_nuls(s->in) == 0)
		return 1;
	if (strspn(*line, " \t") == *len) {
		source_skip(s, "lines of NUL bytes only");
		return 0;
	}
	s->nnulfix++;
	return 1;
}

/* One step of a text format: one line. */
static int
text_step(struct source *s)
{
	char *line;
	size_t len;
	int rc;

	if (s->chunks != NULL && (rc = chunks_step(s)) >= 0)
		return rc;	/* decoded by chunk threads */
	rc = input_getline(s->in, &line, &len);
	if (rc == 1) {
		if (nul_repair(s, &line, &len))
			s->fmt->line(s->st, line, source_unquote(line, len));
		return 1;
	}
	if (rc == 2) {
		source_bad(s, "line longer than %u bytes", INPUT_MAXLINE);
		return 1;
	}
	if (rc < 0) {
		source_fail(s, "%s", input_error(s->in));
		return -1;
	}
	return 0;
}

static void
finish(struct source *s)
{
	s->eof = 1;
	if (s->st != NULL && s->fmt->end != NULL)
		s->fmt->end(s->st);
	source_clock_flush(s);
}

/*
 * A live input's earliest record is final: a record stamped more than
 * the lag later has been read.
 */
static int
ripe(const struct source *s)
{
	const struct rec *r = window_peek(&s->win);

	return r != NULL && s->newest - r->ts > s->lag;
}

void
source_fill(struct source *s)
{
	while (!s->eof && !s->fatal && !window_full(&s->win) &&
	    !(s->live && ripe(s))) {
		int rc;

		if (s->fmt->line != NULL)
			rc = text_step(s);
		else
			rc = s->fmt->step(s->st);
		if (rc <= 0 || s->refused)
			finish(s);
	}
}

int
source_file_host(const char *path, const char *pattern, char **host,
    char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');
	regex_t re;
	regmatch_t m[2];
	int rc;

	base = base != NULL ? base + 1 : path;
	if (pattern != NULL) {
		if ((rc = regcomp(&re, pattern, REG_EXTENDED)) != 0) {
			if (err != NULL)
				regerror(rc, &re, err, errlen);
			regfree(&re);
			return -1;
		}
		if (regexec(&re, base, 2, m, 0) == 0) {
			int g = re.re_nsub > 0 && m[1].rm_so >= 0;

			*host = estrndup(base + m[g].rm_so,
			    (size_t)(m[g].rm_eo - m[g].rm_so));
			regfree(&re);
			return 0;
		}
		regfree(&re);
	}
	/* "node3.gpu.csv.gz" is node3; a hidden file keeps its dot. */
	*host = estrndup(base, *base != '\0' ? 1 + strcspn(base + 1, ".") :
	    0);
	return 0;
}

void
source_summary(struct source *s, int procs)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t skipped = s->nbad + s->nlate;
	size_t i;

	for (i = 0; i < s->nskip; i++)
		skipped += s->skip[i].n;
	if (s->nshown < s->nbad + s->nlate)
		msg("%s: %llu more problems not shown", s->name,
		    (unsigned long long)(s->nbad + s->nlate - s->nshown));
	if (!s->opt->summaries && s->nbad + s->nlate == 0 && !s->failed)
		return;
	if ((s->fmt == NULL && !s->empty) || s->refused ||
	    (s->failed && s->st == NULL && !s->parked_st))
		return;		/* the failure was said already */
	sbuf_printf(&sb, "%s: %llu records", s->name,
	    (unsigned long long)s->nrec);
	if (s->empty)
		sbuf_adds(&sb, " (empty input)");
	else {
		sbuf_printf(&sb, " (%s", s->what);
		if (s->st != NULL && s->fmt->summary != NULL)
			s->fmt->summary(s->st, &sb);
		else if (s->parked_sum != NULL)
			sbuf_adds(&sb, s->parked_sum);
		if (s->ncut > 0)
			sbuf_printf(&sb, ", %llu record%s with names cut to "
			    "%u bytes", (unsigned long long)s->ncut,
			    s->ncut == 1 ? "" : "s", REC_MAXSTR);
		source_clock_summary(s, &sb);
		if (s->in != NULL && input_encoding(s->in) != NULL)
			sbuf_printf(&sb, ", decoded from %s",
			    input_encoding(s->in));
		else if (s->parked_enc != NULL)
			sbuf_printf(&sb, ", decoded from %s", s->parked_enc);
		if (s->nnulfix > 0)
			sbuf_printf(&sb, ", %llu line%s read after NUL bytes "
			    "(a file cut while written)",
			    (unsigned long long)s->nnulfix,
			    s->nnulfix == 1 ? "" : "s");
		if (s->device_only && !procs)
			sbuf_adds(&sb, "; device only: no per-process data, "
			    "tasks are its usage's episodes, or --tasks");
		sbuf_addc(&sb, ')');
	}
	if (skipped > 0) {
		const char *sep = "";

		sbuf_printf(&sb, "; skipped %llu: ",
		    (unsigned long long)skipped);
		if (s->nbad > 0) {
			sbuf_printf(&sb, "%llu unreadable",
			    (unsigned long long)s->nbad);
			sep = ", ";
		}
		if (s->nlate > 0) {
			sbuf_printf(&sb, "%s%llu %s", sep,
			    (unsigned long long)s->nlate, s->live ?
			    "too late for the live lag" :
			    "outside the reorder window");
			sep = ", ";
		}
		for (i = 0; i < s->nskip; i++) {
			sbuf_printf(&sb, "%s%llu %s", sep,
			    (unsigned long long)s->skip[i].n, s->skip[i].why);
			sep = ", ";
		}
	}
	msg("%s", sb.buf);
	sbuf_release(&sb);
}

/* Free what reading the input takes (source_free, source_park). */
static void
source_close(struct source *s)
{
	chunks_stop(s);
	if (s->st != NULL && s->fmt->free != NULL)
		s->fmt->free(s->st);
	s->st = NULL;
	source_clocks_release(s);
	window_release(&s->win);
	input_close(s->in);
	s->in = NULL;
}

void
source_park(struct source *s)
{
	struct sbuf sb = SBUF_INIT;

	if (s->parked)
		return;
	s->parked = 1;
	s->parked_name = estrdup(s->name);
	s->name = s->parked_name;
	if (s->what != NULL) {
		/* A parser may refine it in its state (capture.c). */
		s->parked_what = estrdup(s->what);
		s->what = s->parked_what;
	}
	if (s->st != NULL) {
		s->parked_st = 1;
		if (s->fmt->summary != NULL) {
			sbuf_adds(&sb, "");
			s->fmt->summary(s->st, &sb);
			s->parked_sum = sb.buf;
		}
	}
	if (input_encoding(s->in) != NULL)
		s->parked_enc = estrdup(input_encoding(s->in));
	source_close(s);
	s->eof = 1;
}

void
source_free(struct source *s)
{
	if (s == NULL)
		return;
	source_close(s);
	free(s->refusal);
	free(s->filehost);
	free(s->path);
	free(s->parked_name);
	free(s->parked_what);
	free(s->parked_sum);
	free(s->parked_enc);
	free(s);
}
