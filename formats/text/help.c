/* SPDX-License-Identifier: ISC */
/*
 * help.c: nvidia-smi's help texts (nvidia-smi -h, --help-query-gpu and
 * the other --help-query-* lists).  They turn up among logs (a test
 * fixture, a capture of a machine's capabilities) and hold field names,
 * not data: they are recognised only to be refused with that reason,
 * instead of "not a log gpumem reads".
 */
#include <stdlib.h>
#include <string.h>

#include "help.h"

#define QUERY_HELP "List of valid properties to query for the switch \""
#define SMI_HELP "NVIDIA System Management Interface -- v"

static int
sniff(char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		if (strncmp(lines[i], QUERY_HELP, strlen(QUERY_HELP)) == 0 ||
		    strncmp(lines[i], SMI_HELP, strlen(SMI_HELP)) == 0)
			return 80;
	return 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	(void)hint;
	return s;
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct source *s = st;
	const char *q;
	size_t n;

	if (source_refused(s) || len == 0)
		return;
	if (strncmp(line, QUERY_HELP, strlen(QUERY_HELP)) == 0) {
		/* "--query-gpu=": name the help that lists it. */
		q = line + strlen(QUERY_HELP);
		n = strcspn(q, "=\"");
		if (n > 8 && strncmp(q, "--query-", 8) == 0)
			source_refuse(s, "an nvidia-smi help text "
			    "(--help-query-%.*s): a list of field names, no "
			    "data", (int)(n - 8), q + 8);
		else
			source_refuse(s, "an nvidia-smi help text (a list of "
			    "field names), no data");
		return;
	}
	source_refuse(s, "an nvidia-smi help text (nvidia-smi -h), no data");
}

const struct format help_format = {
	.name = "help",
	.what = "nvidia-smi help text",
	.device_only = 1,
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
};
