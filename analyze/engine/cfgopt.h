/* SPDX-License-Identifier: ISC */
/*
 * cfgopt.h: the options of the tools that find tasks (tasks, check, plot,
 * gantt, report, and usage's --config): --config FILE, --tasks FILE,
 * --tolerance MIB, parsed and applied in one place.
 *
 * A tool puts CFGOPT_OPTS (or its own texts for the same vals) in its
 * cmd_opt table (cmd.h), numbers its own long options from OPT_CFG_LAST,
 * takes the set (CFGOPT_SET: the skeleton passes them to cfgopt_parse),
 * and loads the configuration with cfgopt_load().
 */
#ifndef GPUMEM_CFGOPT_H
#define GPUMEM_CFGOPT_H

#include "cmd.h"
#include "config.h"
#include "readopt.h"

enum {
	OPT_CONFIG = OPT_READ_LAST,
	OPT_TASKS,
	OPT_TOLERANCE,
	OPT_CFG_LAST		/* tools number their own options from here */
};

/* The three options with their usual --help texts (cmd.h's struct cmd_opt). */
#define CFGOPT_CONFIG \
	{OPT_CONFIG, "config", "FILE", "settings (YAML): tolerance, GPU " \
	    "totals, task names"}
#define CFGOPT_TASKS \
	{OPT_TASKS, "tasks", "FILE", "tasks of a device-only log: CSV " \
	    "name,gpu,start,end or YAML"}
#define CFGOPT_TOLERANCE \
	{OPT_TOLERANCE, "tolerance", "MIB", "how close memory must come " \
	    "back (64)"}
#define CFGOPT_OPTS CFGOPT_CONFIG, CFGOPT_TASKS, CFGOPT_TOLERANCE

struct cfgopts {
	const char *path;	/* --config, or NULL */
	const char *tasks;	/* --tasks, or NULL */
	int tol;		/* --tolerance in MiB, -1 when not given */
};

/* No options given: no file, no declared tasks, the file's tolerance. */
#define CFGOPTS_INIT {NULL, NULL, -1}

/*
 * Apply one option to the struct cfgopts ctx: return 1 when val was one
 * of the three, else 0.  A bad value is fatal (die).  The shape of a
 * shared option set (cmd.h's struct cmd_set).
 */
int cfgopt_parse(void *ctx, int val, const char *arg);

/* The set of a struct cfgopts *o, for struct cmd's sets. */
#define CFGOPT_SET(o) ((struct cmd_set){cfgopt_parse, (o)})

/*
 * config_init(c), then the --config file and --tolerance over it.  Return
 * 0, or -1 with a message printed (c is still to be released).
 */
int cfgopt_load(const struct cfgopts *o, struct config *c);

#endif
