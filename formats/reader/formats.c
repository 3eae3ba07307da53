/* SPDX-License-Identifier: ISC */
/*
 * formats.c: the formats gpumem read knows.  Detection asks each in turn
 * how sure it is that an input is its own; the best answer wins.
 */
#include <stddef.h>

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

const struct format *const formats[] = {
	&fmt_stream,
	&fmt_stream_bin,
	&fmt_query_gpu,
	&fmt_compute_apps,
	&fmt_bundle,
	&fmt_xml,
	&fmt_query_text,
	&fmt_table,
	&fmt_dmon,
	&fmt_pmon,
	&fmt_dcgmi,
	&fmt_prom,
	&fmt_gpustat,
	&fmt_rocm_smi,
	&fmt_help,
	&fmt_pcap,
	&fmt_colmap,
	NULL
};
