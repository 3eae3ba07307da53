/* SPDX-License-Identifier: ISC */
/* nvsmi.h: the nvidia-smi CSV formats (--query-gpu, --query-compute-apps). */
#ifndef GPUMEM_NVSMI_H
#define GPUMEM_NVSMI_H

#include "format.h"

extern const struct format fmt_query_gpu;
extern const struct format fmt_compute_apps;

#endif
