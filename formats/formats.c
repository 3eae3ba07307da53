/* SPDX-License-Identifier: ISC */
/*
 * formats.c: the formats gpumem read knows.  Detection asks each in turn
 * how sure it is that an input is its own; the best answer wins.
 */
#include <stddef.h>

#include "bundle.h"
#include "capture.h"
#include "nvsmi.h"
#include "recfmt.h"
#include "source.h"

const struct format *const formats[] = {
	&fmt_stream,
	&fmt_query_gpu,
	&fmt_compute_apps,
	&fmt_bundle,
	&fmt_pcap,
	NULL
};
