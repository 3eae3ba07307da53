/* SPDX-License-Identifier: ISC */
/*
 * test.h: one assertion macro family for the unit tests.  Each program
 * ends with TEST_END(), which prints "# name: N passed, N failed" (the
 * runner adds these up) and returns non-zero on any failure.
 */
#ifndef GPUMEM_TEST_H
#define GPUMEM_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond) do { \
	if (cond) { test_passed++; } else { test_failed++; \
	    printf("not ok %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_U64(got, want) do { \
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
	if (g_ == w_) { test_passed++; } else { test_failed++; \
	    printf("not ok %s:%d: %s = %" PRIu64 ", expected %" PRIu64 "\n", \
	    __FILE__, __LINE__, #got, g_, w_); } \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (g_ != NULL && strcmp(g_, w_) == 0) { test_passed++; } else { \
	    test_failed++; printf("not ok %s:%d: %s = \"%s\", expected " \
	    "\"%s\"\n", __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_); } \
} while (0)

#define TEST_END(name) do { \
	printf("# %s: %d passed, %d failed\n", name, test_passed, \
	    test_failed); \
	return test_failed > 0; \
} while (0)

#endif
