/* SPDX-License-Identifier: ISC */
/*
 * fuzz_config.c: the YAML configuration (formats/core/ytree.c with libyaml,
 * analyze/engine/config.c), loaded as --config FILE loads it, then asked what
 * the tools ask it.
 *
 * Invariants: a file that does not load leaves the defaults.
 */
#include <string.h>

#include "config.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *names[] = {"", "python3", "python3 train.py",
	    "stable-diffusion", "*"};
	static const uint32_t pids[] = {0, 1, 4242, UINT32_MAX};
	struct config c;
	uint64_t sum = 0;
	size_t i, j;

	config_init(&c);
	if (config_load(&c, fuzz_file(data, size)) < 0) {
		if (c.ndev != 0 || c.nnames != 0 || c.ngates != 0 ||
		    c.tolerance != CONFIG_TOLERANCE)
			fuzz_fail("a configuration that failed left settings");
	} else {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			for (j = 0; j < sizeof(pids) / sizeof(pids[0]); j++) {
				const char *n = config_task_name(&c, pids[j],
				    names[i]);

				sum += n != NULL ? strlen(n) : 0;
				sum += (uint64_t)config_match(&c.defaults.m,
				    pids[j], names[i]);
			}
		for (i = 0; i < c.ngates; i++)
			sum += (uint64_t)config_match(&c.gates[i].m, 4242,
			    "python3");
		for (j = 0; j < 3; j++) {
			const struct cfg_device *d = config_device(&c,
			    j == 0 ? "" : "node1", (uint32_t)j);

			sum += d != NULL ? d->total + d->idle : 0;
		}
	}
	config_release(&c);
	fuzz_sink = sum;
	return 0;
}
