/* SPDX-License-Identifier: ISC */
/* Unit tests: the clock of samples without time (formats/text/sclock.c). */
#include <string.h>

#include "gtime.h"
#include "sclock.h"
#include "test.h"

int
main(void)
{
	struct format_opts o;
	struct sclock c;
	uint64_t t = 0;

	/* Neither --start nor --interval: nothing can be placed. */
	memset(&o, 0, sizeof(o));
	sclock_init(&c);
	CHECK(!sclock_can(&c, &o, 0));
	CHECK(sclock_next(&c, &o, &t) == -1);
	CHECK_U64(c.n, 0);

	/* --start alone places one sample. */
	o.have_start = 1;
	o.start = 1000 * NS_PER_SEC;
	CHECK(sclock_next(&c, &o, &t) == 0);
	CHECK_U64(t, 1000 * NS_PER_SEC);
	CHECK(sclock_next(&c, &o, &t) == -1);

	/* --start and --interval: one interval per sample. */
	o.interval = 5 * NS_PER_SEC;
	CHECK(sclock_next(&c, &o, &t) == 0);
	CHECK_U64(t, 1005 * NS_PER_SEC);
	CHECK(sclock_next(&c, &o, &t) == 0);
	CHECK_U64(t, 1010 * NS_PER_SEC);

	/* A start of the format's own counts when --start is absent. */
	memset(&o, 0, sizeof(o));
	sclock_init(&c);
	sclock_default_start(&c, 86400 * NS_PER_SEC);
	sclock_default_start(&c, 7);		/* the first one stays */
	CHECK(sclock_can(&c, &o, 0));
	CHECK(!sclock_can(&c, &o, 1));
	CHECK(sclock_next(&c, &o, &t) == 0);
	CHECK_U64(t, 86400 * NS_PER_SEC);
	o.interval = NS_PER_MS;
	CHECK(sclock_next(&c, &o, &t) == 0);
	CHECK_U64(t, 86400 * NS_PER_SEC + NS_PER_MS);
	o.have_start = 1;
	o.start = 0;
	CHECK(sclock_next(&c, &o, &t) == 0);	/* --start wins */
	CHECK_U64(t, 2 * NS_PER_MS);

	/* --interval alone starts at the epoch, as nvsmi.c's clock does. */
	memset(&o, 0, sizeof(o));
	sclock_init(&c);
	o.interval = NS_PER_SEC;
	CHECK(sclock_next(&c, &o, &t) == 0 && t == 0);
	CHECK(sclock_next(&c, &o, &t) == 0 && t == NS_PER_SEC);
	TEST_END("sclock");
}
