/* SPDX-License-Identifier: ISC */
/* json.c: the fields every JSON output writes the same way (json.h). */
#include "esc.h"
#include "gtime.h"
#include "json.h"

void
json_version(struct sbuf *sb)
{
	sbuf_adds(sb, "\"version\": \"" GPUMEM_VERSION "\"");
}

void
json_time(struct sbuf *sb, const char *key, uint64_t t, int present)
{
	char buf[GTIME_BUFSZ];

	if (!present) {
		sbuf_printf(sb, "\"%s\": null, \"%s_time\": null", key, key);
		return;
	}
	/* Always UTC: a JSON file means the same on every machine. */
	sbuf_printf(sb, "\"%s\": %llu, \"%s_time\": \"%s\"", key,
	    (unsigned long long)t, key, gtime_fmt(t, 1, buf));
}

void
json_stream_head(struct sbuf *sb, const char *name)
{
	sbuf_adds(sb, "{");
	json_version(sb);
	sbuf_printf(sb, ", \"stream\": \"%s\"}\n", name);
}

void
json_row(struct sbuf *sb, uint64_t ts, const char *host, uint32_t gpu)
{
	sbuf_addc(sb, '{');
	json_time(sb, "timestamp", ts, 1);
	sbuf_adds(sb, ", \"host\": ");
	esc_json(sb, host);
	sbuf_printf(sb, ", \"gpu\": %u", gpu);
}

void
json_count(struct sbuf *sb, const char *key, int has, uint64_t v)
{
	if (has)
		sbuf_printf(sb, ", \"%s\": %llu", key, (unsigned long long)v);
	else
		sbuf_printf(sb, ", \"%s\": null", key);
}
