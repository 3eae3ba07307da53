/* SPDX-License-Identifier: ISC */
/*
 * dmon.h: nvidia-smi dmon and pmon, the fixed-width monitors (one module:
 * they share the header lines, the clock and the sample rules).
 */
#ifndef GPUMEM_DMON_H
#define GPUMEM_DMON_H

#include "format.h"

extern const struct format dmon_format;
extern const struct format dmon_pmon_format;

#endif
