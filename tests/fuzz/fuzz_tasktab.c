/* SPDX-License-Identifier: ISC */
/*
 * fuzz_tasktab.c: the task table read back (analyze/engine/tabcsv.c), as gpumem
 * check, gantt and report read `gpumem tasks` output, leniently (bad rows
 * skipped) and strictly.
 *
 * Invariants: what is read writes out as a table that reads back, strictly,
 * to the same table; the strict reading never gets more rows than the
 * lenient one.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tasktab.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tasklist l, strict, back;
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	int rs;

	if (tasktab_read(fuzz_file(data, size), &l, 0) < 0)
		return 0;
	rs = tasktab_read(fuzz_file(data, size), &strict, 1);
	if (rs == 0) {
		if (strict.n > l.n)
			fuzz_fail("strict reading got more rows (%zu > %zu)",
			    strict.n, l.n);
		tasktab_list_release(&strict);
	}
	fuzz_tasks_csv(&l, &a, &alen);
	if (tasktab_read(fuzz_file((const uint8_t *)a, alen), &back, 1) < 0)
		fuzz_fail("the table written does not read back:\n%s", a);
	if (back.n != l.n)
		fuzz_fail("%zu rows written, %zu read back", l.n, back.n);
	fuzz_tasks_csv(&back, &b, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		fuzz_fail("the table does not write back the same:\n"
		    "--- written\n%s--- read back and written\n%s", a, b);
	tasktab_list_release(&back);
	tasktab_list_release(&l);
	free(a);
	free(b);
	return 0;
}
