/* SPDX-License-Identifier: ISC */
/* Unit tests: growable buffers and formatting into them (formats/core/sbuf.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sbuf.h"
#include "test.h"

/* Format twice from one va_list: sbuf_vprintf must leave ap usable. */
static void
twice(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(sb, fmt, ap);
	sbuf_addc(sb, '|');
	sbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

int
main(void)
{
	struct sbuf sb = SBUF_INIT;
	char big[300];
	size_t i;

	/* Empty text still gives a NUL-terminated buffer. */
	sbuf_printf(&sb, "%s", "");
	CHECK(sb.buf != NULL);
	CHECK_U64(sb.len, 0);
	CHECK_STR(sb.buf, "");

	/* Appends after what is there, len counts every byte. */
	sbuf_adds(&sb, "a=");
	sbuf_printf(&sb, "%d,%s", 42, "x");
	CHECK_STR(sb.buf, "a=42,x");
	CHECK_U64(sb.len, 6);
	sbuf_printf(&sb, "%c", 'y');
	CHECK_STR(sb.buf, "a=42,xy");
	CHECK_U64(sb.len, 7);

	/* Longer than the first allocation: grown, nothing cut. */
	for (i = 0; i < sizeof(big) - 1; i++)
		big[i] = (char)('a' + i % 26);
	big[sizeof(big) - 1] = '\0';
	sbuf_reset(&sb);
	sbuf_printf(&sb, "<%s>", big);
	CHECK_U64(sb.len, sizeof(big) + 1);
	CHECK(sb.buf[0] == '<' && sb.buf[sb.len - 1] == '>');
	CHECK(memcmp(sb.buf + 1, big, sizeof(big) - 1) == 0);

	/* One va_list, used twice. */
	sbuf_reset(&sb);
	twice(&sb, "%s-%u", "gpu", 7u);
	CHECK_STR(sb.buf, "gpu-7|gpu-7");
	CHECK_U64(sb.len, 11);

	sbuf_release(&sb);
	TEST_END("sbuf");
}
