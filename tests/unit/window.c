/* SPDX-License-Identifier: ISC */
/* Unit tests: the reorder window (formats/core/window.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "window.h"

static int
push(struct window *w, uint64_t ts, const char *name)
{
	struct rec r;

	rec_init(&r);
	r.ts = ts;
	r.name = name;
	return window_push(w, &r);
}

int
main(void)
{
	struct window w;
	const struct rec *r;
	char seen[64] = "";
	uint64_t last = 0, i;
	int sorted = 1, pushed = 1;

	/* Out of order inside the window: sorted, stable for ties. */
	window_init(&w, 8);
	CHECK(push(&w, 30, "c") == 0);
	CHECK(push(&w, 10, "a") == 0);
	CHECK(push(&w, 20, "b1") == 0);
	CHECK(push(&w, 20, "b2") == 0);
	CHECK(push(&w, 40, "d") == 0);
	while ((r = window_peek(&w)) != NULL) {
		strcat(seen, r->name);
		strcat(seen, " ");
		window_pop(&w);
	}
	CHECK_STR(seen, "a b1 b2 c d ");

	/* Earlier than what was popped: refused. */
	CHECK(push(&w, 39, "late") < 0);
	CHECK(push(&w, 40, "tie") == 0);
	CHECK_STR(window_peek(&w)->name, "tie");
	window_pop(&w);
	window_release(&w);

	/* A popped record stays valid while the window refills. */
	window_init(&w, 4);
	push(&w, 1, "first");
	r = window_peek(&w);
	window_pop(&w);
	for (i = 2; i < 100; i++) {
		push(&w, i, "x");
		if (w.count >= 4)
			break;
	}
	CHECK_STR(r->name, "first");
	window_release(&w);

	/* Many records, a bounded jitter: all come out sorted. */
	window_init(&w, 64);
	srand(7);
	for (i = 0; i < 100000; i++) {
		uint64_t ts = i * 10 + (uint64_t)(rand() % 200);

		if (window_full(&w)) {
			r = window_peek(&w);
			if (r->ts < last)
				sorted = 0;
			last = r->ts;
			window_pop(&w);
		}
		if (push(&w, ts, "") != 0)
			pushed = 0;
	}
	CHECK(pushed);
	while ((r = window_peek(&w)) != NULL) {
		if (r->ts < last)
			sorted = 0;
		last = r->ts;
		window_pop(&w);
	}
	CHECK(sorted);
	/* The pool stays near the window's size. */
	CHECK(w.nslots <= 128);
	window_release(&w);

	/* Names up to REC_MAXSTR bytes pass whole; longer ones are cut. */
	{
		char *big = malloc(REC_MAXSTR + 2);
		struct rec x;

		memset(big, 'n', REC_MAXSTR + 1);
		big[REC_MAXSTR + 1] = '\0';
		window_init(&w, 4);
		CHECK(push(&w, 1, big + 1) == 0);
		rec_init(&x);
		x.ts = 2;
		x.name = big;
		x.host = big;
		x.gpukey = big;
		CHECK(window_push(&w, &x) == 1);
		CHECK_U64(strlen(window_peek(&w)->name), REC_MAXSTR);
		window_pop(&w);
		r = window_peek(&w);
		CHECK_U64(strlen(r->name), REC_MAXSTR);
		CHECK_U64(strlen(r->host), REC_MAXSTR);
		CHECK_U64(strlen(r->gpukey), REC_MAXSTR);
		CHECK(memcmp(r->name, big, REC_MAXSTR) == 0);
		window_release(&w);
		free(big);
	}
	TEST_END("window");
}
