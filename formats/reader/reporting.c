/* SPDX-License-Identifier: ISC */
/*
 * reporting.c: what a parser says of its input: lines it cannot read,
 * lines it passes over, failures, refusals, remarks, GPU identities; and
 * what it asks (the host of its records, the line it is on).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "source.h"

/*
 * --strict: a problem is fatal.  A worker thread's input (s->defer) stops
 * here and leaves the exit to the main thread, at the point a run on one
 * thread would have exited.
 */
void
source_trouble(struct source *s)
{
	if (s->defer == NULL)
		exit(EXIT_TROUBLE);
	s->fatal = 1;
	s->defer->fatal(s->defer->arg);
}

static void vbad(struct source *s, const char *where, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));

static void
vbad(struct source *s, const char *where, const char *fmt, va_list ap)
{
	if (s->cap != NULL) {
		/* A fork's: said with its line when its turn comes. */
		struct sbuf body = SBUF_INIT;

		s->nbad++;
		sbuf_vprintf(&body, fmt, ap);
		chunks_bad(s, where, body.buf);
		sbuf_release(&body);
		return;
	}
	s->nbad++;
	if (s->nshown < SOURCE_MAXSHOWN || s->opt->strict) {
		struct sbuf sb = SBUF_INIT;

		s->nshown++;
		if (where != NULL)
			sbuf_printf(&sb, "%s: %s: ", s->name, where);
		else
			sbuf_printf(&sb, "%s:%llu: ", s->name,
			    (unsigned long long)source_lineno(s));
		sbuf_vprintf(&sb, fmt, ap);
		msg("%s", sb.buf);
		sbuf_release(&sb);
	}
	if (s->opt->strict)
		source_trouble(s);
}

void
source_bad(struct source *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbad(s, NULL, fmt, ap);
	va_end(ap);
}

void
source_bad_at(struct source *s, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbad(s, where, fmt, ap);
	va_end(ap);
}

void
source_skip(struct source *s, const char *why)
{
	s->nskipped++;
	if (s->cap != NULL)
		chunks_skip(s, why);
	else if (s->defer != NULL)
		s->defer->skip(s->defer->arg, why);
	else
		source_count_skip(s, why);
}

void
source_count_skip(struct source *s, const char *why)
{
	size_t i;

	for (i = 0; i < s->nskip; i++)
		if (s->skip[i].why == why || strcmp(s->skip[i].why, why) == 0) {
			s->skip[i].n++;
			return;
		}
	if (s->nskip == SOURCE_MAXSKIP)
		i = SOURCE_MAXSKIP - 1;	/* lump the rarest together */
	else
		s->skip[s->nskip++].why = why;
	s->skip[i].n++;
}

void
source_fail(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	s->failed = 1;
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

void
source_refuse(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (s->section) {
		free(s->refusal);
		s->refusal = sb.buf;	/* the bundle takes it */
		return;
	}
	s->failed = 1;
	s->refused = 1;
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

int
source_refused(const struct source *s)
{
	return s->refused || s->refusal != NULL;
}

void
source_warn(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (s->cap != NULL)
		chunks_warn(s, sb.buf);
	else
		msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

void
source_learn(struct source *s, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	if (s->cap != NULL)
		chunks_learn(s, host, uuid, bus, index);
	else if (s->defer != NULL)
		s->defer->learn(s->defer->arg, host, uuid, bus, index);
	else
		source_learn_now(s, host, uuid, bus, index);
}

void
source_learn_now(struct source *s, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	struct sbuf why = SBUF_INIT;

	if (gpumap_learn(s->gpus, s->idx, s->name, host, uuid, bus,
	    index, &why))
		msg("%s: %s (a GPU of its own for each bus id and UUID; "
		    "--host-from-file names each file's host)", s->name,
		    why.buf);
	sbuf_release(&why);
}

const char *
source_host(const struct source *s, const char *logged)
{
	if (s->opt->host != NULL)
		return s->opt->host;
	if (s->filehost != NULL)
		return s->filehost;
	return logged != NULL ? logged : "";
}

uint64_t
source_lineno(const struct source *s)
{
	if (s->cap != NULL) {
		chunks_bail((struct source *)s);
		return 0;
	}
	return s->lineat != 0 ? s->lineat : input_lineno(s->in);
}

const struct format_opts *
source_opts(const struct source *s)
{
	return &s->fopt;
}

struct input *
source_input(const struct source *s)
{
	if (s->cap != NULL)
		chunks_bail((struct source *)s);
	return s->in;
}

int
source_unterminated(const struct source *s)
{
	if (s->cap != NULL)
		return chunks_unterminated(s);
	return input_unterminated(s->in);
}

void
source_fork_stop(struct source *s)
{
	if (s->cap != NULL)
		chunks_bail(s);
}

const char *
source_name(const struct source *s)
{
	return s->name;
}

int
source_live(const struct source *s)
{
	return s->live;
}

int
source_in_section(const struct source *s)
{
	return s->section;
}

uint64_t
source_nbad(const struct source *s)
{
	return s->nbad;
}

int
source_skipped(const struct source *s)
{
	return s->nskipped > 0;
}

int
source_failed(const struct source *s)
{
	return s->failed;
}

void
source_set_what(struct source *s, const char *what)
{
	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	s->what = what;
}

void
source_set_device_only(struct source *s, int device_only)
{
	if (s->cap != NULL) {
		chunks_bail(s);
		return;
	}
	s->device_only = device_only;
}
