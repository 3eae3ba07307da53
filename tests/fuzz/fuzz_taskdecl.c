/* SPDX-License-Identifier: ISC */
/*
 * fuzz_taskdecl.c: the declared tasks of a device-only log (--tasks FILE:
 * CSV name,gpu,start,end or YAML; analyze/engine/tabdecl.c), given to the engine,
 * which then judges them on a few device samples.
 */
#include "config.h"
#include "engine.h"
#include "fuzz.h"
#include "tasktab.h"

static void
on_task(void *p, const struct task *t)
{
	uint64_t *sum = p;

	*sum += t->start + t->end + t->release + t->peak + t->leaked;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t used[] = {300, 4000, 4000, 300, 300, 8000};
	struct config cfg;
	struct engine_cb cb = {NULL, on_task, NULL};
	struct engine *e;
	struct rec r;
	uint64_t sum = 0;
	size_t i;
	uint32_t g;

	config_init(&cfg);
	cb.ctx = &sum;
	e = engine_new(&cfg, &cb);
	if (tasktab_declare(fuzz_file(data, size), e) >= 0) {
		/* Device samples of GPUs 0 and 1, a second apart, from 2026. */
		for (i = 0; i < sizeof(used) / sizeof(used[0]); i++)
			for (g = 0; g < 2; g++) {
				rec_init(&r);
				r.ts = 1767225600000000000ULL +
				    i * 1000000000ULL;
				r.gpu = g;
				r.used = used[i];
				r.total = 16384;
				r.free = r.total - r.used;
				r.has = REC_USED | REC_FREE | REC_TOTAL;
				engine_put(e, &r);
			}
		engine_end(e);
		engine_warnings(e);
	}
	engine_free(e);
	config_release(&cfg);
	fuzz_sink = sum;
	return 0;
}
