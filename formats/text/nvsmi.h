/* SPDX-License-Identifier: ISC */
/* nvsmi.h: the nvidia-smi CSV formats (--query-gpu, --query-compute-apps). */
#ifndef GPUMEM_NVSMI_H
#define GPUMEM_NVSMI_H

#include "format.h"

extern const struct format nvsmi_query_gpu_format;
extern const struct format nvsmi_compute_apps_format;

#endif
