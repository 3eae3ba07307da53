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
	struct sbuf sb = SBUF_INIT;
	uint64_t gen;
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
	gpumap_learn(g, 0, NULL, "", "GPU-aaaa", "00000000:3B:00.0", 1, NULL);
	CHECK_U64(gpumap_index(g, "", "GPU-AAAA", &how), 1);
	CHECK(how == GPUMAP_LOGGED);
	CHECK_U64(gpumap_index(g, "", "0000:3b:00.0", &how), 1);
	CHECK_U64(gpumap_index(g, "", "aaaa", &how), 1);
	/* Another host has its own GPU 1. */
	gpumap_learn(g, 0, NULL, "h2", NULL, "00000000:C1:00.0", -1, NULL);
	gpumap_learn(g, 0, NULL, "h2", NULL, "00000000:40:00.0", -1, NULL);
	CHECK_U64(gpumap_index(g, "h2", "00000000:C1:00.0", &how), 1);
	CHECK(how == GPUMAP_BUSORDER);
	CHECK_U64(gpumap_index(g, "h2", "00000000:40:00.0", &how), 0);
	/* Named by nobody: the next free number, by appearance. */
	CHECK_U64(gpumap_index(g, "", "GPU-bbbb", &how), 0);
	CHECK(how == GPUMAP_APPEARANCE);
	CHECK_U64(gpumap_index(g, "", "GPU-cccc", &how), 2);
	/*
	 * Another input's GPU 1 on another bus: a GPU of its own, the next
	 * number free, for that input only; said once.
	 */
	CHECK(gpumap_learn(g, 1, NULL, "", NULL, "00000000:CA:00.0", 1, &sb));
	CHECK(strstr(sb.buf, "read as GPU 3") != NULL);
	CHECK(!gpumap_learn(g, 1, NULL, "", NULL, "00000000:CA:00.0", 1, &sb));
	CHECK_U64(gpumap_local(g, 1, "", 1), 3);
	CHECK_U64(gpumap_local(g, 0, "", 1), 1);
	CHECK_U64(gpumap_index(g, "", "00000000:CA:00.0", &how), 3);
	/* The same bus id again in a third input: that GPU. */
	CHECK(!gpumap_learn(g, 2, NULL, "", NULL, "00000000:ca:00.0", 1, NULL) &&
	    gpumap_local(g, 2, "", 1) == 3);
	/* Another card in the first GPU's slot: a GPU of its own. */
	gen = gpumap_gen(g);
	gpumap_learn(g, 3, NULL, "", "GPU-dddd", "00000000:3B:00.0", 1, NULL);
	CHECK(gpumap_gen(g) != gen);
	CHECK_U64(gpumap_index(g, "", "00000000:3B:00.0", &how), 4);
	CHECK_U64(gpumap_index(g, "", "GPU-aaaa", &how), 1);
	/* Its bus id under another index of the same log: another card. */
	gpumap_learn(g, 4, NULL, "", NULL, "00000000:40:00.0", 0, NULL);
	gpumap_learn(g, 4, NULL, "", NULL, "00000000:40:00.0", 5, NULL);
	CHECK_U64(gpumap_index(g, "", "00000000:40:00.0", &how), 5);
	sbuf_release(&sb);
	CHECK(gpumap_is_bus("0000:00:03.0"));
	CHECK(!gpumap_is_bus("GPU-00000000-0000"));
	gpumap_free(g);
	TEST_END("hmap");
}
