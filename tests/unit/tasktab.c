/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: a task's notes as the CSV writes them and reads them back
 * (analyze/engine/tasktab.c): every set of the eleven notes fits in
 * TASKTAB_NOTESZ bytes and reads back as itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tabstate.h"
#include "tasktab.h"
#include "test.h"

/* The notes tasks.1 lists, in the order the CSV writes them. */
#define ALL "gap;ambiguous;pid-reused;resumed;last-sample;estimated;" \
    "device-only;exact-exit;holder;log-stopped;not-found"
#define NALL 11

int
main(void)
{
	/* A canary past the end: a write beyond TASKTAB_NOTESZ shows. */
	char buf[TASKTAB_NOTESZ + 8];
	unsigned set, back, bad = 0;

	memset(buf, 'x', sizeof(buf));
	CHECK_STR(tasktab_notes((1U << NALL) - 1, buf), ALL);
	CHECK(buf[TASKTAB_NOTESZ] == 'x');
	CHECK_STR(tasktab_notes(0, buf), "");
	CHECK_STR(tasktab_notes(1U << 10 | 1U << 1, buf), "ambiguous;not-found");
	for (set = 0; set < 1U << NALL; set++) {
		tasktab_notes(set, buf);
		if (tab_parse_notes(buf, strlen(buf), &back) != 0 ||
		    back != set)
			bad++;
	}
	CHECK_U64(bad, 0);
	TEST_END("tasktab");
}
