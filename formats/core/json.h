/* SPDX-License-Identifier: ISC */
/*
 * json.h: the fields every JSON output of gpumem writes the same way
 * (tasks -t json, check --json, read -t json, usage -t json; their
 * schemas are in docs/schema/).
 *
 *   - "version": the gpumem version that wrote it, the first key of the
 *     document (of the first line of NDJSON);
 *   - a time is two keys: "KEY" in ns since the epoch (exact, for
 *     programs) and "KEY_time", RFC 3339 in UTC with Z and milliseconds
 *     ("2026-01-01T00:00:05.000Z"), whatever the machine's zone; null and
 *     null when there is none.
 *
 * Each function appends to sb and cannot fail (sbuf dies on no memory).
 */
#ifndef GPUMEM_JSON_H
#define GPUMEM_JSON_H

#include <stdint.h>

#include "util.h"

/* "\"version\": \"0.1.0\"" */
void json_version(struct sbuf *sb);

/*
 * The first line of an NDJSON stream (read -t json, usage -t json), before
 * its first row: "{\"version\": \"0.1.0\", \"stream\": \"NAME\"}\n".
 */
void json_stream_head(struct sbuf *sb, const char *name);

/* "\"KEY\": 1767225605000000000, \"KEY_time\": \"2026-...Z\"", or nulls. */
void json_time(struct sbuf *sb, const char *key, uint64_t t, int present);

/*
 * The start of an NDJSON row of one GPU at one time (the records of read
 * -t json, the samples and buckets of usage -t json): "{", the time as
 * json_time's "timestamp" and "timestamp_time", then "host" and "gpu".
 * The caller appends its own keys and "}\n".
 */
void json_row(struct sbuf *sb, uint64_t ts, const char *host, uint32_t gpu);

/* ", \"KEY\": 2048", or ", \"KEY\": null" when there is none (!has). */
void json_count(struct sbuf *sb, const char *key, int has, uint64_t v);

#endif
