/* SPDX-License-Identifier: ISC */
/* sclock.c: --start and --interval as the clock of samples without time. */
#include "sclock.h"

void
sclock_init(struct sclock *c)
{
	c->n = 0;
	c->base = 0;
	c->have_base = 0;
}

void
sclock_default_start(struct sclock *c, uint64_t t)
{
	if (!c->have_base) {
		c->base = t;
		c->have_base = 1;
	}
}

int
sclock_can(const struct sclock *c, const struct format_opts *o, uint64_t n)
{
	if (o->interval > 0)
		return 1;
	return n == 0 && (o->have_start || c->have_base);
}

int
sclock_next(struct sclock *c, const struct format_opts *o, uint64_t *ts)
{
	uint64_t base;

	if (!sclock_can(c, o, c->n))
		return -1;
	base = o->have_start ? o->start : c->have_base ? c->base : 0;
	*ts = base + c->n * o->interval;
	c->n++;
	return 0;
}

void
sclock_say(const struct sclock *c, struct sbuf *sb)
{
	if (c->n > 0)
		sbuf_adds(sb, ", times from --start and --interval");
}
