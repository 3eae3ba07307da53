/* SPDX-License-Identifier: ISC */
/* Unit tests: the hash map and the GPU identity registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumap.h"
#include "hmap.h"
#include "test.h"

int
main(void)
{
	struct hmap m = HMAP_INIT;
	struct gpumap *g;
	enum gpumap_how how;
	char key[32];
	int i, isnew, ok = 1;
	size_t it = 0;
	struct hent *e;

	/* Many inserts and deletes: every remaining key still found. */
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		*hmap_put(&m, key, strlen(key), &isnew) = (void *)(intptr_t)(i + 1);
		if (!isnew)
			ok = 0;
	}
	CHECK(ok);
	for (i = 0; i < 20000; i += 2) {
		snprintf(key, sizeof(key), "k%d", i);
		if (hmap_del(&m, key, strlen(key)) != (void *)(intptr_t)(i + 1))
			ok = 0;
	}
	CHECK(ok);
	CHECK_U64(m.n, 10000);
	for (i = 0; i < 20000; i++) {
		void **v;

		snprintf(key, sizeof(key), "k%d", i);
		v = hmap_get(&m, key, strlen(key));
		if ((i % 2 == 0) != (v == NULL))
			ok = 0;
		if (v != NULL && *v != (void *)(intptr_t)(i + 1))
			ok = 0;
	}
	CHECK(ok);
	for (i = 0; (e = hmap_next(&m, &it)) != NULL; i++)
		;
	CHECK_U64(i, 10000);
	hmap_release(&m, NULL);

	/* GPU identities: an index from a log wins; others numbered. */
	g = gpumap_new();
	gpumap_learn(g, "", "GPU-aaaa", "00000000:3B:00.0", 1);
	CHECK_U64(gpumap_index(g, "", "GPU-AAAA", &how), 1);
	CHECK(how == GPUMAP_LOGGED);
	CHECK_U64(gpumap_index(g, "", "0000:3b:00.0", &how), 1);
	CHECK_U64(gpumap_index(g, "", "aaaa", &how), 1);
	/* Another host has its own GPU 1. */
	gpumap_learn(g, "h2", NULL, "00000000:C1:00.0", -1);
	gpumap_learn(g, "h2", NULL, "00000000:40:00.0", -1);
	CHECK_U64(gpumap_index(g, "h2", "00000000:C1:00.0", &how), 1);
	CHECK(how == GPUMAP_BUSORDER);
	CHECK_U64(gpumap_index(g, "h2", "00000000:40:00.0", &how), 0);
	/* Named by nobody: the next free number, by appearance. */
	CHECK_U64(gpumap_index(g, "", "GPU-bbbb", &how), 0);
	CHECK(how == GPUMAP_APPEARANCE);
	CHECK_U64(gpumap_index(g, "", "GPU-cccc", &how), 2);
	CHECK(gpumap_is_bus("0000:00:03.0"));
	CHECK(!gpumap_is_bus("GPU-00000000-0000"));
	gpumap_free(g);
	TEST_END("hmap");
}
