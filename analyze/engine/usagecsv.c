/* SPDX-License-Identifier: ISC */
/* usagecsv.c: the headers of gpumem usage's CSV (usagecsv.h). */
#include <string.h>

#include "usagecsv.h"

int
usagecsv_header(const char *s, size_t n)
{
	static const struct {
		const char *h;
		int flags;
	} hdr[] = {
		{USAGE_HEADER, 0},
		{EVERY_HEADER, USAGECSV_EVERY},
		{USAGE_HEADER USAGE_ISO_COLUMN, USAGECSV_ISO},
		{EVERY_HEADER USAGE_ISO_COLUMN, USAGECSV_EVERY | USAGECSV_ISO},
		{USAGE_HEADER_V1, 0},
		{EVERY_HEADER_V1, USAGECSV_EVERY}
	};
	size_t i;

	for (i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++)
		if (strlen(hdr[i].h) == n && memcmp(s, hdr[i].h, n) == 0)
			return hdr[i].flags;
	return -1;
}
