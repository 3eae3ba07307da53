/* SPDX-License-Identifier: ISC */
/* querytext.h: nvidia-smi -q, the plain-text report. */
#ifndef GPUMEM_QUERYTEXT_H
#define GPUMEM_QUERYTEXT_H

#include "format.h"

extern const struct format querytext_format;

#endif
