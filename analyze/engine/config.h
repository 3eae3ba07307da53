/* SPDX-License-Identifier: ISC */
/*
 * config.h: gpumem's configuration file (YAML), one schema for every tool.
 *
 *	tolerance_mib: 64            # how close "memory came back" must be
 *	devices:                     # facts about GPUs (analysis)
 *	  - gpu: 0
 *	    host: node1              # optional: any host
 *	    memory_total_mib: 16384  # where logs lack it
 *	    idle_mib: 300            # the idle baseline to assume
 *	names:                       # task names by pid or process name
 *	  - pid: 4242
 *	    name: stable-diffusion
 *	  - match: "python*"         # fnmatch(3) pattern
 *	    name: python
 *	defaults:                    # gates (gpumem check)
 *	  max_leak_mib: 0
 *	  max_release_delay_s: 5
 *	  allow_running_after_command: false
 *	tasks:                       # per-task gates, by pattern or pid
 *	  - match: "python*"
 *	    max_release_delay_s: 30
 *	  - match: "nvidia-cuda-mps-server"
 *	    allow_running_after_command: true
 *	gpus:
 *	  max_unattributed_mib_at_end: 256
 *	baseline:                    # against --baseline
 *	  max_delay_regression: 25%
 *	  max_leak_regression_mib: 128
 *
 * Every tool accepts the whole schema and uses its part, so one file can
 * serve a whole pipeline.  Unknown keys and wrong types are errors that
 * name the file, the line and the key.
 */
#ifndef GPUMEM_CONFIG_H
#define GPUMEM_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define CONFIG_TOLERANCE 64	/* MiB, when not configured */

struct cfg_device {
	char *host;		/* NULL: any host */
	uint32_t gpu;
	int has_total, has_idle;
	uint32_t total, idle;
};

/* A task selector: by pid, by process-name pattern, or everything. */
struct config_match {
	int by_pid;
	uint32_t pid;
	char *pattern;		/* NULL with !by_pid: everything */
};

struct cfg_name {
	struct config_match m;
	char *name;
	unsigned line;
};

struct cfg_gate {
	struct config_match m;
	int has_leak, has_delay, has_running;
	uint32_t max_leak_mib;
	uint64_t max_delay_ns;
	int allow_running;	/* allow_running_after_command: true */
	unsigned line;
	unsigned leak_line, delay_line, running_line;	/* of their keys,
							   for messages */
};

struct config {
	char *path;		/* NULL when no file was given */
	uint32_t tolerance;
	struct cfg_device *dev;
	size_t ndev;
	struct cfg_name *names;
	size_t nnames;
	struct cfg_gate defaults;
	struct cfg_gate *gates;
	size_t ngates;
	int has_max_unattr_end;
	uint32_t max_unattr_end;
	int has_delay_regression;
	double delay_regression;	/* allowed growth, 0.25 = 25% */
	int has_leak_regression;
	uint32_t leak_regression_mib;
	/* The lines of those keys, so that a verdict can name its rule. */
	unsigned unattr_line, delay_regression_line, leak_regression_line;
};

/* The defaults: tolerance 64 MiB, nothing else. */
void config_init(struct config *c);

/*
 * Load path into c (after config_init).  Return 0, or -1 after printing
 * "prog: FILE:LINE: key: what is wrong" (c is then back to its defaults).
 */
int config_load(struct config *c, const char *path);
void config_release(struct config *c);

/* Whether a task (pid, process name) matches m. */
int config_match(const struct config_match *m, uint32_t pid, const char *name);

/* The configured name of a task, or NULL. */
const char *config_task_name(const struct config *c, uint32_t pid,
    const char *name);

/* The configured device facts of (host, gpu), or NULL. */
const struct cfg_device *config_device(const struct config *c,
    const char *host, uint32_t gpu);

#endif
