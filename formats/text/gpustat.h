/* SPDX-License-Identifier: ISC */
/* gpustat.h: gpustat's default text output, logged in a loop. */
#ifndef GPUMEM_GPUSTAT_H
#define GPUMEM_GPUSTAT_H

#include "format.h"

extern const struct format gpustat_format;

#endif
