/* SPDX-License-Identifier: ISC */
/*
 * formats.c: the formats gpumem read knows.  Detection asks each in turn
 * how sure it is that an input is its own; the best answer wins.
 */
#include <stddef.h>
#include <string.h>

#include "bundle.h"
#include "capture.h"
#include "colmap.h"
#include "dcgmi.h"
#include "dmon.h"
#include "gpustat.h"
#include "help.h"
#include "nvsmi.h"
#include "prom.h"
#include "querytext.h"
#include "recfmt.h"
#include "rocmsmi.h"
#include "source.h"
#include "table.h"
#include "xml.h"

const struct format *const format_list[] = {
	&recfmt_format,
	&recfmt_bin_format,
	&nvsmi_query_gpu_format,
	&nvsmi_compute_apps_format,
	&bundle_format,
	&xml_format,
	&querytext_format,
	&table_format,
	&dmon_format,
	&dmon_pmon_format,
	&dcgmi_format,
	&prom_format,
	&gpustat_format,
	&rocmsmi_format,
	&help_format,
	&capture_format,
	&colmap_format,
	NULL
};

const struct format *
format_find(const char *name)
{
	size_t i;

	for (i = 0; format_list[i] != NULL; i++)
		if (strcmp(format_list[i]->name, name) == 0)
			return format_list[i];
	return NULL;
}

const struct format *
format_sniff_text(char *const *lines, size_t n, int *score)
{
	const struct format *best = NULL;
	int bs = 0, sc;
	size_t i;

	for (i = 0; format_list[i] != NULL; i++) {
		if (format_list[i]->sniff_text == NULL)
			continue;
		sc = format_list[i]->sniff_text(lines, n);
		if (sc > bs) {
			bs = sc;
			best = format_list[i];
		}
		/*
		 * None can be surer than 100 (source.h), nor win a tie: the
		 * rest are not asked (the colguess of query-gpu's sniff cost
		 * half of detecting each of a fleet's gpumem CSV logs).
		 */
		if (bs >= 100)
			break;
	}
	if (score != NULL)
		*score = bs;
	return best;
}
