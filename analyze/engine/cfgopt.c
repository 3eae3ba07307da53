/* SPDX-License-Identifier: ISC */
/* cfgopt.c: --config, --tasks and --tolerance (see cfgopt.h). */
#include <stdint.h>

#include "cfgopt.h"
#include "util.h"

int
cfgopt_parse(void *ctx, int val, const char *arg)
{
	struct cfgopts *o = ctx;

	switch (val) {
	case OPT_CONFIG:
		o->path = arg;
		return 1;
	case OPT_TASKS:
		o->tasks = arg;
		return 1;
	case OPT_TOLERANCE:
		o->tol = (int)num_opt_u64("--tolerance", arg, 0, 1U << 30);
		return 1;
	}
	return 0;
}

int
cfgopt_load(const struct cfgopts *o, struct config *c)
{
	config_init(c);
	if (o->path != NULL && config_load(c, o->path) < 0)
		return -1;
	/* The command line wins over the file. */
	if (o->tol >= 0)
		c->tolerance = (uint32_t)o->tol;
	return 0;
}
