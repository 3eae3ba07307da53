/* SPDX-License-Identifier: ISC */
/* prom.h: Prometheus text of GPU exporters (dcgm-exporter, nvidia_gpu_exporter). */
#ifndef GPUMEM_PROM_H
#define GPUMEM_PROM_H

#include "format.h"

extern const struct format prom_format;

#endif
